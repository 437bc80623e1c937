//! Each viewer's copy of its view, as this client keeps it: a JSON tree laid out for
//! RFC 6902 patching, and the patching itself.
//!
//! Why not `serde_json::Value` and `json_patch::patch`: a thousand viewers' views do not
//! fit in the caches, so every patch operation walks a cold tree. A `Value` object is a
//! `BTreeMap`: finding a key reads a 632-byte node and follows the heap pointer of every
//! key compared (`memcmp` on a cold line each time); looking keys up was a quarter of
//! this client's CPU. Here an object is one vector of entries in the order received,
//! searched by comparing key lengths (held in the entries) before any bytes. And
//! `json_patch::patch` clones every value and path into an undo log, to roll back a
//! failed patch, which this client never needs: a patch that fails fails the room.
//!
//! This client shares the machine's two cores with the server it measures, so what it
//! spends is taken from the server's throughput.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::fmt;

/// A JSON value.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Node {
    #[default]
    Null,
    Bool(bool),
    Num(Number),
    Str(Box<str>),
    Arr(Vec<Node>),
    /// Entries in the order received; keys are unique.
    Obj(Vec<(Box<str>, Node)>),
}

static NULL: Node = Node::Null;

impl Node {
    /// The member `key` of an object (`Null` for anything else, like `Value`'s index).
    pub fn get(&self, key: &str) -> &Node {
        match self {
            Node::Obj(entries) => position(entries, key).map_or(&NULL, |i| &entries[i].1),
            _ => &NULL,
        }
    }

    /// The element `i` of an array (`Null` for anything else).
    pub fn at(&self, i: usize) -> &Node {
        match self {
            Node::Arr(items) => items.get(i).unwrap_or(&NULL),
            _ => &NULL,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Node::Null)
    }

    pub fn as_array(&self) -> Option<&[Node]> {
        match self {
            Node::Arr(items) => Some(items),
            _ => None,
        }
    }

    /// This subtree as a `Value`, to decode a small part into a typed value.
    pub fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Num(n) => Value::Number(n.clone()),
            Node::Str(s) => Value::String(s.to_string()),
            Node::Arr(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Obj(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }

    fn member_mut<'n>(entries: &'n mut [(Box<str>, Node)], key: &str) -> Option<&'n mut Node> {
        position(entries, key).map(|i| &mut entries[i].1)
    }
}

/// Where `key` is among an object's entries. `str` equality compares the lengths (held in
/// each entry, beside the key's pointer) before any bytes, so most keys are passed over
/// without reading their text from another cache line.
fn position(entries: &[(Box<str>, Node)], key: &str) -> Option<usize> {
    entries.iter().position(|(k, _)| **k == *key)
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
        Ok(Node::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Node, E> {
        Ok(Node::Num(n.into()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Node, E> {
        Ok(Node::Num(n.into()))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Node, E> {
        Number::from_f64(n)
            .map(Node::Num)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Node, E> {
        Ok(Node::Str(s.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries: Vec<(Box<str>, Node)> = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(Key(k)) = map.next_key()? {
            let v = map.next_value()?;
            // A repeated key keeps the last value, as serde_json does.
            match Node::member_mut(&mut entries, &k) {
                Some(old) => *old = v,
                None => entries.push((k, v)),
            }
        }
        Ok(Node::Obj(entries))
    }
}

/// An object key, allocated once at its exact length.
struct Key(Box<str>);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_str<E>(self, s: &str) -> Result<Key, E> {
                Ok(Key(s.into()))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// One RFC 6902 operation. A plain struct with a borrowed path: serde decodes it in one
/// pass (an internally tagged enum, like `json_patch::PatchOperation`, first buffers
/// every operation into serde's `Content`).
#[derive(Deserialize, Debug)]
pub struct Op<'a> {
    op: OpKind,
    #[serde(borrow)]
    path: Cow<'a, str>,
    #[serde(default)]
    value: Node,
}

/// The operations the server emits (see `diff.rs`); `move`, `copy` and `test` fail to
/// decode, so a server that started sending them would fail this client loudly.
#[derive(Deserialize, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
enum OpKind {
    Add,
    Remove,
    Replace,
}

/// Applies `ops` to `doc` in place, as RFC 6902 says for add, remove and replace. On an
/// error `doc` may hold the operations before the failing one.
pub fn apply_patch(doc: &mut Node, ops: Vec<Op<'_>>) -> anyhow::Result<()> {
    for Op { op, path, value } in ops {
        let Some((parent_path, last)) = path.rsplit_once('/') else {
            // Only "" (the whole document) has no slash.
            match op {
                OpKind::Add | OpKind::Replace if path.is_empty() => *doc = value,
                _ => anyhow::bail!("bad patch path {path:?}"),
            }
            continue;
        };
        let last = unescape(last);
        let parent =
            walk(doc, parent_path).ok_or_else(|| anyhow::anyhow!("patch path {path:?}: no such parent"))?;
        let applied = match (op, parent) {
            (OpKind::Add, Node::Obj(entries)) => {
                match Node::member_mut(entries, &last) {
                    Some(old) => *old = value,
                    None => entries.push((last.into(), value)),
                }
                true
            }
            (OpKind::Add, Node::Arr(items)) if last == "-" => {
                items.push(value);
                true
            }
            (OpKind::Add, Node::Arr(items)) => match index(&last) {
                Some(i) if i <= items.len() => {
                    items.insert(i, value);
                    true
                }
                _ => false,
            },
            (OpKind::Remove, Node::Obj(entries)) => match position(entries, &last) {
                Some(i) => {
                    entries.remove(i);
                    true
                }
                None => false,
            },
            (OpKind::Remove, Node::Arr(items)) => match index(&last) {
                Some(i) if i < items.len() => {
                    items.remove(i);
                    true
                }
                _ => false,
            },
            (OpKind::Replace, Node::Obj(entries)) => match Node::member_mut(entries, &last) {
                Some(old) => {
                    *old = value;
                    true
                }
                None => false,
            },
            (OpKind::Replace, Node::Arr(items)) => match index(&last).and_then(|i| items.get_mut(i)) {
                Some(old) => {
                    *old = value;
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !applied {
            anyhow::bail!("patch operation {op:?} at {path:?} does not apply");
        }
    }
    Ok(())
}

/// The value at JSON Pointer `path` (RFC 6901; "" is the whole document).
fn walk<'v>(mut v: &'v mut Node, path: &str) -> Option<&'v mut Node> {
    if path.is_empty() {
        return Some(v);
    }
    for token in path.strip_prefix('/')?.split('/') {
        v = match v {
            Node::Obj(entries) => Node::member_mut(entries, &unescape(token))?,
            Node::Arr(items) => items.get_mut(index(token)?)?,
            _ => return None,
        };
    }
    Some(v)
}

/// A pointer token with `~1` and `~0` decoded, in that order (RFC 6901 §4).
fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An array index token: decimal digits without a leading zero (RFC 6901 §4).
fn index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn node(v: &Value) -> Node {
        serde_json::from_value(v.clone()).unwrap()
    }

    fn patched(doc: &Value, patch: &Value) -> anyhow::Result<Value> {
        let text = patch.to_string();
        let ops: Vec<Op> = serde_json::from_str(&text)?;
        let mut n = node(doc);
        apply_patch(&mut n, ops)?;
        Ok(n.to_value())
    }

    #[test]
    fn applies_the_operations_of_rfc_6902_appendix_a() {
        let doc = json!({"foo": "bar", "a/b": 1, "m~n": 2, "arr": [1, 2, 3]});
        let patch = json!([
            {"op": "add", "path": "/baz", "value": "qux"},
            {"op": "replace", "path": "/a~1b", "value": 10},
            {"op": "remove", "path": "/m~0n"},
            {"op": "add", "path": "/arr/1", "value": 9},
            {"op": "add", "path": "/arr/-", "value": 4},
            {"op": "remove", "path": "/arr/0"},
            {"op": "replace", "path": "/arr/0", "value": {"x": [null, true, 1.5]}},
            {"op": "add", "path": "/foo", "value": "again"}
        ]);
        assert_eq!(
            patched(&doc, &patch).unwrap(),
            json!({"foo": "again", "a/b": 10, "baz": "qux", "arr": [{"x": [null, true, 1.5]}, 2, 3, 4]})
        );
        assert_eq!(
            patched(&doc, &json!([{"op": "replace", "path": "", "value": [1]}])).unwrap(),
            json!([1])
        );
    }

    #[test]
    fn refuses_what_does_not_apply() {
        let doc = json!({"a": [1, 2], "o": {}});
        for bad in [
            json!([{"op": "replace", "path": "/b", "value": 1}]),
            json!([{"op": "remove", "path": "/o/x"}]),
            json!([{"op": "add", "path": "/a/3", "value": 1}]),
            json!([{"op": "replace", "path": "/a/01", "value": 1}]),
            json!([{"op": "add", "path": "/x/y", "value": 1}]),
            json!([{"op": "add", "path": "a", "value": 1}]),
            json!([{"op": "move", "from": "/a", "path": "/b"}]),
        ] {
            assert!(patched(&doc, &bad).is_err(), "{bad} applied");
        }
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(|n| json!(n)),
            "[a-c~/]{0,3}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::btree_map("[a-c~/]{0,3}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever `json_patch::diff` (the reference implementation) says turns one
        /// document into another, applied here, gives that other document.
        #[test]
        fn diffs_apply_exactly(a in json_value(), b in json_value()) {
            let patch = serde_json::to_value(json_patch::diff(&a, &b)).unwrap();
            prop_assert_eq!(patched(&a, &patch).unwrap(), b);
        }

        /// Random operations at random paths (most of which do not apply) succeed or fail
        /// here exactly when they do in `json_patch::patch`, with the same result.
        #[test]
        fn operations_agree_with_json_patch(
            doc in json_value(),
            ops in prop::collection::vec(
                (
                    prop_oneof![Just("add"), Just("remove"), Just("replace")],
                    prop::collection::vec(prop_oneof![
                        Just("a"), Just("b"), Just("~1"), Just("~0"), Just("0"), Just("1"),
                        Just("2"), Just("01"), Just("-"), Just("")
                    ], 0..4),
                    json_value(),
                ),
                1..12,
            ),
        ) {
            let mut expected = doc.clone();
            let mut n = node(&doc);
            for (op, tokens, value) in ops {
                let path: String = tokens.iter().map(|t| format!("/{t}")).collect();
                let one = json!([{"op": op, "path": path, "value": value}]);
                let reference = json_patch::patch(
                    &mut expected,
                    &serde_json::from_value::<json_patch::Patch>(one.clone()).unwrap(),
                );
                let text = one.to_string();
                let ours = apply_patch(&mut n, serde_json::from_str(&text).unwrap());
                prop_assert_eq!(ours.is_ok(), reference.is_ok(), "{}", one);
                prop_assert_eq!(n.to_value(), expected.clone(), "{}", one);
            }
        }

        #[test]
        fn nodes_keep_what_they_decode(v in json_value()) {
            prop_assert_eq!(node(&v).to_value(), v);
        }
    }
}
