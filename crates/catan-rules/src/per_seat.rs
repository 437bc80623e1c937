//! [`PerSeat`]: one value per seat of a game, in a fixed array.

use crate::config::MAX_SEATS;
use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

/// One value per seat, kept in a `[T; 6]` so that it stays `Copy` and allocation-free in
/// events and state, but carrying the game's seat count: its JSON form is a list with one
/// entry per seat of the game (3 in a 3-player game), never six with padding that a client
/// would have to know to ignore.
/// Equality and hashing look at the game's seats only: the padding past them is not part of
/// the value (a value read from JSON pads differently from one built in place).
#[derive(Clone, Copy, Debug)]
pub struct PerSeat<T> {
    len: u8,
    items: [T; MAX_SEATS],
}

impl<T: Copy> PerSeat<T> {
    /// `len` seats, each holding `value`.
    pub fn filled(len: u8, value: T) -> Self {
        assert!(len as usize <= MAX_SEATS, "at most {MAX_SEATS} seats");
        PerSeat {
            len,
            items: [value; MAX_SEATS],
        }
    }

    /// The values in seat order, one per seat of the game.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    /// The value of `seat`, or `None` past the game's seats.
    pub fn get(&self, seat: usize) -> Option<&T> {
        self.as_slice().get(seat)
    }

    /// How many seats.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T> Index<usize> for PerSeat<T> {
    type Output = T;
    fn index(&self, seat: usize) -> &T {
        assert!(seat < self.len as usize, "no seat {seat} of {}", self.len);
        &self.items[seat]
    }
}

impl<T> IndexMut<usize> for PerSeat<T> {
    fn index_mut(&mut self, seat: usize) -> &mut T {
        assert!(seat < self.len as usize, "no seat {seat} of {}", self.len);
        &mut self.items[seat]
    }
}

impl<T: Copy + PartialEq> PartialEq for PerSeat<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq> Eq for PerSeat<T> {}

impl<T: Copy + std::hash::Hash> std::hash::Hash for PerSeat<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + PartialEq> PartialEq<[T]> for PerSeat<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq<[T; N]> for PerSeat<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + Serialize> Serialize for PerSeat<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, T: Copy + Deserialize<'de>> Deserialize<'de> for PerSeat<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        if v.is_empty() || v.len() > MAX_SEATS {
            return Err(serde::de::Error::custom(format!(
                "{} entries: a game has 1 to {MAX_SEATS} seats",
                v.len()
            )));
        }
        let mut out = PerSeat::filled(v.len() as u8, v[0]);
        out.items[..v.len()].copy_from_slice(&v);
        Ok(out)
    }
}

#[cfg(feature = "schema")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for PerSeat<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("PerSeat_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let items = generator.subschema_for::<T>();
        schemars::json_schema!({
            "description": "One entry per seat of the game, in seat order.",
            "type": "array",
            "items": items,
            "minItems": 1,
            "maxItems": MAX_SEATS,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_one_entry_per_seat() {
        let mut p = PerSeat::filled(3, 0u8);
        p[1] = 4;
        assert_eq!(serde_json::to_string(&p).unwrap(), "[0,4,0]");
        let back: PerSeat<u8> = serde_json::from_str("[0,4,0]").unwrap();
        assert_eq!(back, p);
        assert!(serde_json::from_str::<PerSeat<u8>>("[0,0,0,0,0,0,0]").is_err());
        assert!(serde_json::from_str::<PerSeat<u8>>("[]").is_err());
        assert_eq!(p, [0, 4, 0]);
        assert_eq!(p.get(1), Some(&4));
        // Padding past the seats is not part of the value.
        let mut q = PerSeat::filled(3, 9u8);
        q[0] = 0;
        q[1] = 4;
        q[2] = 0;
        assert_eq!(q, p);
        assert_eq!(p.get(3), None);
    }

    #[test]
    #[should_panic(expected = "no seat 3 of 3")]
    fn no_index_past_the_seats() {
        let p = PerSeat::filled(3, 0u8);
        let _ = p[3];
    }
}
