//! `Game::apply` on arbitrary actions: refusals leave the game unchanged, acceptances keep
//! the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| catan_fuzz::harness::game_apply(data));
