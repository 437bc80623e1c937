//! The client-message decoder on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| catan_fuzz::harness::client_message(data));
