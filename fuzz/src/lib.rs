//! Fuzz targets of the Catan server (cargo-fuzz; not a workspace member). See the README's
//! development notes for how to run them.

pub mod harness;
