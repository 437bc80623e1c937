//! Resources and small fixed-size resource multisets.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Index, IndexMut};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Brick,
    Lumber,
    Wool,
    Grain,
    Ore,
}

impl Resource {
    pub const ALL: [Resource; 5] = [
        Resource::Brick,
        Resource::Lumber,
        Resource::Wool,
        Resource::Grain,
        Resource::Ore,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Resource {
        Resource::ALL[i]
    }

    pub fn name(self) -> &'static str {
        match self {
            Resource::Brick => "brick",
            Resource::Lumber => "lumber",
            Resource::Wool => "wool",
            Resource::Grain => "grain",
            Resource::Ore => "ore",
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A multiset of resource cards: a hand, the bank, a cost, one side of a trade.
/// On the wire it is an object `{"brick":1,"lumber":0,...}` so that clients need no
/// knowledge of the internal order.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ResourceSet(pub [u8; 5]);

#[derive(Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct ResourceMap {
    #[serde(default)]
    brick: u8,
    #[serde(default)]
    lumber: u8,
    #[serde(default)]
    wool: u8,
    #[serde(default)]
    grain: u8,
    #[serde(default)]
    ore: u8,
}

impl Serialize for ResourceSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let [brick, lumber, wool, grain, ore] = self.0;
        ResourceMap {
            brick,
            lumber,
            wool,
            grain,
            ore,
        }
        .serialize(s)
    }
}

/// The schema of the wire form: the [`ResourceMap`] object.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for ResourceSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ResourceSet".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        ResourceMap::json_schema(generator)
    }
}

impl<'de> Deserialize<'de> for ResourceSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = ResourceMap::deserialize(d)?;
        Ok(ResourceSet([m.brick, m.lumber, m.wool, m.grain, m.ore]))
    }
}

impl ResourceSet {
    pub const EMPTY: ResourceSet = ResourceSet([0; 5]);
    pub const ROAD: ResourceSet = ResourceSet([1, 1, 0, 0, 0]);
    pub const SETTLEMENT: ResourceSet = ResourceSet([1, 1, 1, 1, 0]);
    pub const CITY: ResourceSet = ResourceSet([0, 0, 0, 2, 3]);
    pub const DEV_CARD: ResourceSet = ResourceSet([0, 0, 1, 1, 1]);

    pub const fn new(brick: u8, lumber: u8, wool: u8, grain: u8, ore: u8) -> Self {
        ResourceSet([brick, lumber, wool, grain, ore])
    }

    pub const fn splat(n: u8) -> Self {
        ResourceSet([n; 5])
    }

    pub fn one(r: Resource) -> Self {
        let mut s = ResourceSet::EMPTY;
        s[r] = 1;
        s
    }

    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&x| x as u32).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 5]
    }

    /// True if `self` holds at least every card of `other`.
    #[inline]
    pub fn contains(&self, other: &ResourceSet) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    #[inline]
    pub fn add(&mut self, other: &ResourceSet) {
        for i in 0..5 {
            self.0[i] += other.0[i];
        }
    }

    /// Removes `other`; the caller has checked `contains`.
    #[inline]
    pub fn sub(&mut self, other: &ResourceSet) {
        for i in 0..5 {
            debug_assert!(self.0[i] >= other.0[i]);
            self.0[i] -= other.0[i];
        }
    }

    /// True if some resource is present in both sets.
    pub fn overlaps(&self, other: &ResourceSet) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| *a > 0 && *b > 0)
    }

    /// The `k`-th card (0-based) when the set is laid out in resource order; used to
    /// draw a uniformly random card from a hand.
    pub fn nth_card(&self, mut k: u32) -> Resource {
        for (i, &n) in self.0.iter().enumerate() {
            if k < n as u32 {
                return Resource::from_index(i);
            }
            k -= n as u32;
        }
        panic!("nth_card out of range")
    }

    pub fn iter(&self) -> impl Iterator<Item = (Resource, u8)> + '_ {
        Resource::ALL.iter().map(move |&r| (r, self.0[r.index()]))
    }
}

impl Index<Resource> for ResourceSet {
    type Output = u8;
    #[inline]
    fn index(&self, r: Resource) -> &u8 {
        &self.0[r as usize]
    }
}

impl IndexMut<Resource> for ResourceSet {
    #[inline]
    fn index_mut(&mut self, r: Resource) -> &mut u8 {
        &mut self.0[r as usize]
    }
}

impl fmt::Debug for ResourceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for ResourceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing");
        }
        let mut first = true;
        for (r, n) in self.iter() {
            if n > 0 {
                if !first {
                    f.write_str(", ")?;
                }
                write!(f, "{n} {r}")?;
                first = false;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_is_an_object_by_name() {
        let s = ResourceSet::new(1, 0, 2, 0, 3);
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(j, r#"{"brick":1,"lumber":0,"wool":2,"grain":0,"ore":3}"#);
        let back: ResourceSet = serde_json::from_str(r#"{"ore":3,"brick":1,"wool":2}"#).unwrap();
        assert_eq!(back, s);
        assert!(serde_json::from_str::<ResourceSet>(r#"{"gold":1}"#).is_err());
    }

    #[test]
    fn nth_card_walks_in_order() {
        let s = ResourceSet::new(2, 0, 1, 0, 0);
        assert_eq!(s.nth_card(0), Resource::Brick);
        assert_eq!(s.nth_card(1), Resource::Brick);
        assert_eq!(s.nth_card(2), Resource::Wool);
    }

    #[test]
    fn display_is_readable() {
        assert_eq!(ResourceSet::new(1, 1, 0, 0, 0).to_string(), "1 brick, 1 lumber");
    }
}
