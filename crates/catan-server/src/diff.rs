//! RFC 6902 JSON Patch between two versions of a value, compared as [`Tape`]s (the tokens
//! serde writes for them), without JSON text or `Value` trees.
//!
//! The walk compares objects member by member (by key, in the order serde writes a
//! struct's fields, looking a key up only when the order differs) and arrays element by
//! element by index; an unchanged subtree is one comparison of its tokens. Nothing here
//! knows the view's fields, so a new view field needs no diff code. Only the values the
//! patch carries are rendered as JSON, and a changed container whose operations would
//! cost more bytes than its whole value goes out as one `replace` of it (its length is
//! on its token).

use crate::tape::{Tape, Tok};
use serde::Serialize;

/// Writes patch operations into a caller's buffer, comma-separated (no brackets), so that
/// several diffs, ready-made operation lists and single operations join into one patch.
pub struct PatchWriter<'a> {
    out: &'a mut String,
    /// JSON Pointer of the value being compared, as it stands inside the patch's JSON
    /// string (pointer- and JSON-escaped).
    path: String,
    ops: usize,
}

impl<'a> PatchWriter<'a> {
    pub fn new(out: &'a mut String) -> Self {
        PatchWriter::with_scratch(out, String::new())
    }

    /// [`PatchWriter::new`] writing its paths in `scratch` (a buffer kept from writer to
    /// writer, so that each does not allocate its own; [`PatchWriter::into_scratch`]).
    pub fn with_scratch(out: &'a mut String, scratch: String) -> Self {
        PatchWriter {
            out,
            path: scratch,
            ops: 0,
        }
    }

    /// The path buffer, for the next writer.
    pub fn into_scratch(self) -> String {
        self.path
    }

    /// Bytes in the buffer so far.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Operations written so far.
    pub fn ops(&self) -> usize {
        self.ops
    }

    /// The operations turning `old`'s value into `new`'s at JSON Pointer `path` (escaped;
    /// at the root, `""`, the walk never replaces the whole, so that the patch stays a
    /// list of paths into the document).
    pub fn diff_at(&mut self, path: &str, old: &Tape, new: &Tape) {
        if old.same(0, new, 0) {
            return;
        }
        self.path.clear();
        self.path.push_str(path);
        self.diff(old, 0, new, 0, path.is_empty());
    }

    /// One `add` (`replace` if `replace`) of the JSON text `value` at `path`.
    pub fn set_at(&mut self, path: &str, value: &str, replace: bool) {
        self.path.clear();
        self.path.push_str(path);
        self.op(if replace { "replace" } else { "add" }, |out| out.push_str(value));
    }

    /// One `remove` at `path`.
    pub fn remove_at(&mut self, path: &str) {
        self.path.clear();
        self.path.push_str(path);
        self.op_remove();
    }

    /// Appends `count` operations already written (comma-separated) by another writer.
    pub fn append(&mut self, ops: &str, count: usize) {
        if count == 0 {
            return;
        }
        if self.ops > 0 {
            self.out.push(',');
        }
        self.out.push_str(ops);
        self.ops += count;
    }

    fn start_op(&mut self, op: &str) {
        if self.ops > 0 {
            self.out.push(',');
        }
        self.ops += 1;
        self.out.push_str("{\"op\":\"");
        self.out.push_str(op);
        self.out.push_str("\",\"path\":\"");
        self.out.push_str(&self.path);
        self.out.push('"');
    }

    fn op(&mut self, op: &str, value: impl FnOnce(&mut String)) {
        self.start_op(op);
        self.out.push_str(",\"value\":");
        value(self.out);
        self.out.push('}');
    }

    fn op_remove(&mut self) {
        self.start_op("remove");
        self.out.push('}');
    }

    /// The operations turning the value at `oi` in `old` into the one at `ni` in `new` (not
    /// the same), at `self.path`.
    fn diff(&mut self, old: &Tape, oi: usize, new: &Tape, ni: usize, root: bool) {
        let (out_mark, ops_mark) = (self.out.len(), self.ops);
        let path_len = self.path.len();
        match (old.toks()[oi], new.toks()[ni]) {
            (Tok::Obj { .. }, Tok::Obj { .. }) => {
                // Members usually come in the same order on both sides (serde writes a
                // struct's fields in one order): follow the old ones along, and look a
                // key up among all of them only when the order differs.
                let mut old_members = Members::of(old, oi);
                let mut in_order = true;
                for (nk, nv) in Members::of(new, ni) {
                    let key = new.str_of(new.toks()[nk]);
                    let found = if in_order {
                        match old_members.next() {
                            Some(m) if old.str_of(old.toks()[m.0]) == key => Some(m),
                            _ => {
                                in_order = false;
                                Members::of(old, oi).find(|m| old.str_of(old.toks()[m.0]) == key)
                            }
                        }
                    } else {
                        Members::of(old, oi).find(|m| old.str_of(old.toks()[m.0]) == key)
                    };
                    // Most members are unchanged: nothing to write, so no path to build.
                    if found.is_some_and(|(_, ov)| old.same(ov, new, nv)) {
                        continue;
                    }
                    push_key(&mut self.path, key);
                    match found {
                        Some((_, ov)) => self.diff(old, ov, new, nv, false),
                        None => self.op("add", |out| new.write_json(nv, out)),
                    }
                    self.path.truncate(path_len);
                }
                // In order, the old members not passed are the removed ones; otherwise
                // every old key is looked up.
                let rest = if in_order {
                    old_members
                } else {
                    Members::of(old, oi)
                };
                for (ok, _) in rest {
                    let key = old.str_of(old.toks()[ok]);
                    let kept = !in_order && Members::of(new, ni).any(|m| new.str_of(new.toks()[m.0]) == key);
                    if !kept {
                        push_key(&mut self.path, key);
                        self.op_remove();
                        self.path.truncate(path_len);
                    }
                }
            }
            (Tok::Arr { .. }, Tok::Arr { .. }) => {
                let (oe, ne) = (old.end_of(oi), new.end_of(ni));
                let (mut o, mut n) = (oi + 1, ni + 1);
                let mut count = 0;
                while n < ne {
                    let i = count;
                    count += 1;
                    let next = new.end_of(n);
                    if o < oe {
                        let onext = old.end_of(o);
                        // An unchanged element: no path to build.
                        if !old.same(o, new, n) {
                            push_index(&mut self.path, i);
                            self.diff(old, o, new, n, false);
                            self.path.truncate(path_len);
                        }
                        o = onext;
                    } else {
                        push_index(&mut self.path, i);
                        self.op("add", |out| new.write_json(n, out));
                        self.path.truncate(path_len);
                    }
                    n = next;
                }
                // Surplus old elements go from the end, so each index is valid when
                // removed.
                let mut surplus = 0;
                while o < oe {
                    surplus += 1;
                    o = old.end_of(o);
                }
                for i in (count..count + surplus).rev() {
                    push_index(&mut self.path, i);
                    self.op_remove();
                    self.path.truncate(path_len);
                }
            }
            _ => return self.op("replace", |out| new.write_json(ni, out)),
        }
        // When the pieces cost more than the whole, send the whole (never at the root:
        // keep the patch a list of paths into the view).
        if !root && self.over_budget(out_mark, new, ni) {
            self.replace_whole(out_mark, ops_mark, new, ni);
        }
    }

    /// Whether the operations written since `out_mark` cost more than one `replace` of the
    /// value at `ni` at the current path. Asked once a container's walk is done (the
    /// operations only grow, so asking along the way would change nothing but the work).
    fn over_budget(&self, out_mark: usize, new: &Tape, ni: usize) -> bool {
        let written = self.out.len() - out_mark;
        let replace = self.path.len() + 40;
        // Every token stands for a byte of JSON text at least: under that, no need to
        // count the text.
        let tokens = new.end_of(ni) - ni;
        written > replace + tokens && written > replace + new.json_len(ni)
    }

    /// Drops the operations written since the marks for one `replace` by the value at
    /// `ni`.
    fn replace_whole(&mut self, out_mark: usize, ops_mark: usize, new: &Tape, ni: usize) {
        self.out.truncate(out_mark);
        self.ops = ops_mark;
        self.op("replace", |out| new.write_json(ni, out));
    }
}

/// The members of the object at token `i`: (key token, value token), in order.
struct Members<'t> {
    tape: &'t Tape,
    j: usize,
    end: usize,
}

impl<'t> Members<'t> {
    fn of(tape: &'t Tape, i: usize) -> Self {
        Members {
            tape,
            j: i + 1,
            end: tape.end_of(i),
        }
    }
}

impl Iterator for Members<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        if self.j >= self.end {
            return None;
        }
        let (k, v) = (self.j, self.j + 1);
        self.j = self.tape.end_of(v);
        Some((k, v))
    }
}

/// Appends `/key` as it stands in the patch's path string: JSON Pointer escaping (`~` →
/// `~0`, `/` → `~1`), then JSON string escaping.
pub(crate) fn push_key(path: &mut String, key: &str) {
    path.push('/');
    // Bytes, not chars: the characters looked for are ASCII.
    if key
        .bytes()
        .any(|b| matches!(b, b'~' | b'/' | b'"' | b'\\') || b < 0x20)
    {
        let pointer = key.replace('~', "~0").replace('/', "~1");
        crate::tape::write_escaped(&pointer, path);
    } else {
        path.push_str(key);
    }
}

fn push_index(path: &mut String, i: usize) {
    path.push('/');
    path.push_str(itoa::Buffer::new().format(i));
}

/// The whole patch from `old` to `new` as a JSON array (both serialized as serde does).
pub fn diff<T: Serialize + ?Sized>(old: &T, new: &T) -> String {
    let mut out = String::from("[");
    PatchWriter::new(&mut out).diff_at("", &Tape::of(old), &Tape::of(new));
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Applies our patch to `old` and checks it yields `new`; returns the patch.
    fn check(old: Value, new: Value) -> Value {
        let (doc, patch) = patched(&old, &new);
        assert_eq!(doc, new, "patch {patch}");
        patch
    }

    /// `old` with our patch to `new` applied, and the patch.
    fn patched(old: &Value, new: &Value) -> (Value, Value) {
        let patch: Value = serde_json::from_str(&diff(old, new)).expect("the patch is JSON");
        let mut doc = old.clone();
        let p: json_patch::Patch = serde_json::from_value(patch.clone()).unwrap();
        json_patch::patch(&mut doc, &p).unwrap_or_else(|e| panic!("{e}: patch {patch}"));
        (doc, patch)
    }

    #[test]
    fn equal_documents_give_an_empty_patch() {
        let v = json!({"a": [1, 2, {"b": null}], "c": "x"});
        assert_eq!(check(v.clone(), v), json!([]));
    }

    #[test]
    fn a_changed_leaf_is_one_replace_at_its_path() {
        let patch = check(
            json!({"players": [{"n": 1, "m": 2}, {"n": 3, "m": 4}], "turn": 1}),
            json!({"players": [{"n": 1, "m": 2}, {"n": 3, "m": 5}], "turn": 1}),
        );
        assert_eq!(
            patch,
            json!([{"op": "replace", "path": "/players/1/m", "value": 5}])
        );
    }

    #[test]
    fn arrays_grow_and_shrink_at_the_end() {
        let item = |i: u32| json!(format!("a long enough array element number {i}"));
        let list = |n: u32| Value::Array((0..n).map(item).collect());
        let patch = check(json!({"r": list(6)}), json!({"r": list(8)}));
        assert_eq!(
            patch,
            json!([{"op": "add", "path": "/r/6", "value": item(6)}, {"op": "add", "path": "/r/7", "value": item(7)}])
        );
        let patch = check(json!({"r": list(8)}), json!({"r": list(6)}));
        assert_eq!(
            patch,
            json!([{"op": "remove", "path": "/r/7"}, {"op": "remove", "path": "/r/6"}])
        );
    }

    #[test]
    fn keys_appear_and_disappear() {
        check(
            json!({"phase": {"Roll": {}}, "k": 1}),
            json!({"phase": {"Main": {"x": 1}}, "k": 1}),
        );
        check(json!({"a": 1, "b": 2}), json!({"c": 3, "a": 1}));
        // In order with members gone from the end, from the middle, and one added.
        let patch = check(json!({"a": 1, "b": 2, "c": 3}), json!({"a": 1}));
        assert_eq!(
            patch,
            json!([{"op": "remove", "path": "/b"}, {"op": "remove", "path": "/c"}])
        );
        check(
            json!({"a": 1, "b": 2, "c": 3, "d": [4]}),
            json!({"a": 1, "c": 3, "d": [5], "e": 6}),
        );
    }

    #[test]
    fn a_subtree_whose_pieces_cost_more_is_replaced_whole() {
        let patch = check(json!({"l": [1, 2, 3, 4]}), json!({"l": [5, 6, 7, 8]}));
        assert_eq!(
            patch,
            json!([{"op": "replace", "path": "/l", "value": [5, 6, 7, 8]}])
        );
    }

    #[test]
    fn kinds_and_nulls_change() {
        check(
            json!({"a": null, "b": [1]}),
            json!({"a": {"x": [1, "]"]}, "b": "s"}),
        );
        check(json!([1, "a\"]}"]), json!([1, "b\\\"", 2]));
        check(json!(1), json!({"x": 1}));
    }

    #[test]
    fn keys_are_escaped_as_json_pointers() {
        let patch = check(
            json!({"a/b": 1, "c~d": 1, "q\"u": 1}),
            json!({"a/b": 2, "c~d": 3, "q\"u": 4}),
        );
        assert_eq!(patch[0]["path"], "/a~1b");
        assert_eq!(patch[1]["path"], "/c~0d");
        assert_eq!(patch[2]["path"], "/q\"u");
    }

    /// Typed values, as the views are: struct fields, tagged enums, options.
    #[test]
    fn typed_values_diff_as_their_json() {
        #[derive(serde::Serialize)]
        #[serde(tag = "phase", rename_all = "snake_case")]
        enum Phase {
            Roll,
            Discard { waiting: Vec<u8> },
        }
        #[derive(serde::Serialize)]
        struct V {
            phase: Phase,
            dice: Option<[u8; 2]>,
            n: u32,
        }
        let check = |a: &V, b: &V| {
            let (old, new) = (serde_json::to_value(a).unwrap(), serde_json::to_value(b).unwrap());
            let patch: Value = serde_json::from_str(&diff(a, b)).unwrap();
            let mut doc = old;
            json_patch::patch(
                &mut doc,
                &serde_json::from_value::<json_patch::Patch>(patch.clone()).unwrap(),
            )
            .unwrap();
            assert_eq!(doc, new, "{patch}");
            patch
        };
        let roll = V {
            phase: Phase::Roll,
            dice: None,
            n: 1,
        };
        let discard = |waiting: Vec<u8>| V {
            phase: Phase::Discard { waiting },
            dice: Some([3, 4]),
            n: 1,
        };
        // Another variant: its pieces would cost more than the whole.
        let patch = check(&roll, &discard(vec![2, 3]));
        assert_eq!(patch[0]["path"], "/phase");
        assert_eq!(patch[1]["path"], "/dice");
        // The same variant: a path inside it.
        let patch = check(&discard(vec![2, 3]), &discard(vec![2]));
        assert_eq!(patch, json!([{"op": "remove", "path": "/phase/waiting/1"}]));
    }

    /// Small values from a small domain, so that two of them often share members,
    /// elements, prefixes and suffixes (numbers that are prefixes of each other, strings
    /// with escapes, keys needing JSON Pointer escapes).
    fn value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            prop::sample::select(vec![0i64, 1, 12, 123, 1234, -1]).prop_map(Value::from),
            prop::sample::select(vec!["", "x", "xy", "x\"y", "a\\b", "é"]).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
                prop::collection::btree_map(
                    prop::sample::select(vec!["a", "ab", "b", "c~", "d/", "e"]).prop_map(String::from),
                    inner,
                    0..5
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Replaces the `k`-th value of a depth-first walk of `v` (`v` itself is the 0th) by
    /// `by`; false, and `v` unchanged, when `v` has fewer values.
    fn replace_nth(v: &mut Value, k: &mut usize, by: &Value) -> bool {
        if *k == 0 {
            *v = by.clone();
            return true;
        }
        *k -= 1;
        match v {
            Value::Array(items) => items.iter_mut().any(|i| replace_nth(i, k, by)),
            Value::Object(m) => m.values_mut().any(|i| replace_nth(i, k, by)),
            _ => false,
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Any two documents: the patch turns the old into the new.
        #[test]
        fn patches_turn_any_document_into_any_other(old in value(), new in value()) {
            proptest::prop_assert_eq!(patched(&old, &new).0, new);
        }

        /// A document with one value replaced somewhere inside (the usual change to a
        /// view: the rest is the same before and after it).
        #[test]
        fn patches_carry_one_change_deep_inside(old in value(), by in value(), at in 0usize..64) {
            let mut new = old.clone();
            let mut k = at;
            replace_nth(&mut new, &mut k, &by);
            proptest::prop_assert_eq!(patched(&old, &new).0, new);
        }
    }

    /// Values that look alike (a number that is another's prefix, a string that is
    /// another's suffix, nested arrays of the same numbers) are told apart.
    #[test]
    fn values_that_look_alike_are_told_apart() {
        for (old, new) in [
            (json!([123]), json!([12])),
            (json!([12]), json!([123])),
            (json!([12, 5]), json!([123, 5])),
            (json!({"a": 12, "b": 1}), json!({"a": 123, "b": 1})),
            (json!({"a": 123}), json!({"a": 12})),
            (json!(["x", "xy"]), json!(["xy", "xy"])),
            (json!([1, 2, 3]), json!([2, 3])),
            (json!([2, 3]), json!([1, 2, 3])),
            (json!({"a": [1, 2], "b": [2]}), json!({"a": [1], "b": [2]})),
            (json!({"a": 1, "b": 2}), json!({"b": 2})),
            (json!({"b": 2}), json!({"a": 1, "b": 2})),
            (json!([[1], 2]), json!([[1, 2]])),
        ] {
            check(old, new);
        }
    }
}
