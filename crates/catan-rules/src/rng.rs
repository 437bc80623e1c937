//! The game's own seeded random number generator.
//!
//! Hand-written on purpose: a stored game is replayed from its seed and action log, possibly
//! years later, so the exact stream of numbers is part of the file format. A dependency whose
//! algorithm (or whose `gen_range` reduction) changes in a minor release would silently break
//! every stored replay. SplitMix64 is tiny, fast, passes BigCrush, and keeps `Game` small.

use serde::{Deserialize, Serialize};

/// SplitMix64. One `u64` of state; `Copy` so that cloning a game for search is free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng {
            state: seed ^ 0x6a09_e667_f3bc_c908,
        }
    }

    /// The generator's whole state (for positions: a game set up from a position draws
    /// the same numbers as the game it was read from).
    pub fn state(&self) -> u64 {
        self.state
    }

    /// A generator in the given state (see [`Rng::state`]).
    pub fn from_state(state: u64) -> Self {
        Rng { state }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift. The bias is below 2^-58
    /// for the small ranges a board game uses.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// One fair die, 1..=6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn dice_are_roughly_fair() {
        let mut r = Rng::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..60_000 {
            counts[r.die() as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        for c in &counts[1..] {
            assert!((9_000..11_000).contains(c), "{counts:?}");
        }
    }
}

/// Seeds on the wire: a JSON number loses precision past 2^53 in most clients (JavaScript
/// among them), so a seed is written as a decimal string. Reading accepts a string or a
/// number, so older clients that send numbers keep working.
///
/// Use with `#[serde(with = "catan_rules::rng::seed_string")]` (or `seed_string::option`).
pub mod seed_string {
    use serde::{de, Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[serde(untagged)]
    enum Either {
        Text(String),
        Number(u64),
    }

    fn parse<'de, D: Deserializer<'de>>(e: Either) -> Result<u64, D::Error> {
        match e {
            Either::Number(n) => Ok(n),
            Either::Text(s) => s.trim().parse().map_err(|_| {
                de::Error::custom(format!(
                    "a seed is a whole number from 0 to 18446744073709551615 (as a string), not {s:?}"
                ))
            }),
        }
    }

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(seed)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        parse::<D>(Either::deserialize(d)?)
    }

    pub mod option {
        use super::*;

        pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
            match seed {
                Some(n) => s.collect_str(n),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
            match Option::<Either>::deserialize(d)? {
                Some(e) => parse::<D>(e).map(Some),
                None => Ok(None),
            }
        }
    }
}
