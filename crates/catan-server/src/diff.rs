//! RFC 6902 JSON Patch between two serialized JSON texts, without building `Value` trees.
//!
//! Why over text: a view is serialized with serde straight to bytes (one pass, no tree of
//! maps and strings), and two serializations of the same typed view by the same
//! serializer are byte-identical wherever the data is, so an unchanged subtree (the
//! buildings, the roads, every other player...) costs one `memcmp` of its span. Only
//! changed spans are walked: object members by key, arrays by index. Nothing here knows
//! the view's fields, so a new view field needs no diff code.
//!
//! The inputs must be valid JSON (serde_json output); the walk does not validate them.
//! Nothing is indexed ahead: a container's end is found by scanning it when a changed
//! span is walked (a walk `d` levels deep scans those bytes at most `d` times, and only
//! along changed paths, far less than indexing every text in full).

/// A JSON text to diff. Not indexed: the end of a container is found by scanning it when
/// the walk needs it, which happens only inside parts that changed (an unchanged subtree
/// is one `memcmp`), so most of the text is never scanned.
#[derive(Debug)]
pub struct Doc {
    text: String,
}

impl Doc {
    pub fn new(text: String) -> Doc {
        Doc { text }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// `(start, end)` of the value starting at `i`.
    fn span(&self, i: usize) -> (usize, usize) {
        let b = self.text.as_bytes();
        let end = match b[i] {
            b'"' => string_end(b, i),
            b'{' | b'[' => container_end(b, i),
            _ => {
                let mut j = i;
                while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    j += 1;
                }
                j
            }
        };
        (i, end)
    }
}

/// Index just past the object or array starting at `b[i]`.
fn container_end(b: &[u8], i: usize) -> usize {
    let mut depth = 0usize;
    let mut j = i;
    loop {
        match b[j] {
            b'"' => {
                j = string_end(b, j);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
}

/// Appends to `out` the patch operations (comma-separated JSON objects, without the
/// enclosing brackets) that turn `old` into `new`. Returns how many were written.
pub fn diff_into(old: &Doc, new: &Doc, out: &mut String) -> usize {
    let (os, oe) = old.span(skip_ws(old.text.as_bytes(), 0));
    let (ns, ne) = new.span(skip_ws(new.text.as_bytes(), 0));
    let mut w = Writer {
        out,
        path: String::new(),
        ops: 0,
    };
    w.diff(old, os, oe, new, ns, ne, true);
    w.ops
}

/// Writes patch operations into a caller's buffer, comma-separated (no brackets), so that
/// several diffs, ready-made operation lists and single operations join into one patch.
pub struct PatchWriter<'a> {
    w: Writer<'a>,
}

impl<'a> PatchWriter<'a> {
    pub fn new(out: &'a mut String) -> Self {
        PatchWriter::with_scratch(out, String::new())
    }

    /// [`PatchWriter::new`] writing its paths in `scratch` (a buffer kept from writer to
    /// writer, so that each does not allocate its own; [`PatchWriter::into_scratch`]).
    pub fn with_scratch(out: &'a mut String, scratch: String) -> Self {
        PatchWriter {
            w: Writer {
                out,
                path: scratch,
                ops: 0,
            },
        }
    }

    /// The path buffer, for the next writer.
    pub fn into_scratch(self) -> String {
        self.w.path
    }

    /// Bytes in the buffer so far.
    pub fn len(&self) -> usize {
        self.w.out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.w.out.is_empty()
    }

    /// Operations written so far.
    pub fn ops(&self) -> usize {
        self.w.ops
    }

    /// The operations turning `old[os..oe]` into `new[ns..ne]`, at JSON Pointer `path`
    /// (escaped, not the root: a subtree whose pieces cost more is replaced whole).
    pub fn diff_at(
        &mut self,
        path: &str,
        old: &Doc,
        (os, oe): (usize, usize),
        new: &Doc,
        (ns, ne): (usize, usize),
    ) {
        self.w.path.clear();
        self.w.path.push_str(path);
        self.w.diff(old, os, oe, new, ns, ne, path.is_empty());
    }

    /// One `add` (`replace` if `replace`) of the JSON text `value` at `path`.
    pub fn set_at(&mut self, path: &str, value: &str, replace: bool) {
        self.w.path.clear();
        self.w.path.push_str(path);
        self.w.op(if replace { "replace" } else { "add" }, Some(value));
    }

    /// One `remove` at `path`.
    pub fn remove_at(&mut self, path: &str) {
        self.w.path.clear();
        self.w.path.push_str(path);
        self.w.op("remove", None);
    }

    /// Appends `count` operations already written (comma-separated) by another writer.
    pub fn append(&mut self, ops: &str, count: usize) {
        if count == 0 {
            return;
        }
        if self.w.ops > 0 {
            self.w.out.push(',');
        }
        self.w.out.push_str(ops);
        self.w.ops += count;
    }
}

/// The whole patch from `old` to `new` as a JSON array.
pub fn diff(old: &str, new: &str) -> String {
    let mut out = String::from("[");
    diff_into(&Doc::new(old.into()), &Doc::new(new.into()), &mut out);
    out.push(']');
    out
}

struct Writer<'a> {
    out: &'a mut String,
    /// JSON Pointer of the value being compared (already escaped for a JSON string).
    path: String,
    ops: usize,
}

impl Writer<'_> {
    fn op(&mut self, op: &str, value: Option<&str>) {
        if self.ops > 0 {
            self.out.push(',');
        }
        self.ops += 1;
        self.out.push_str("{\"op\":\"");
        self.out.push_str(op);
        self.out.push_str("\",\"path\":\"");
        self.out.push_str(&self.path);
        self.out.push('"');
        if let Some(v) = value {
            self.out.push_str(",\"value\":");
            self.out.push_str(v);
        }
        self.out.push('}');
    }

    /// Compares `old[os..oe]` with `new[ns..ne]` at `self.path`.
    #[allow(clippy::too_many_arguments)]
    fn diff(&mut self, old: &Doc, os: usize, oe: usize, new_doc: &Doc, ns: usize, ne: usize, root: bool) {
        let (o, n, new) = (
            old.text.as_bytes(),
            new_doc.text.as_bytes(),
            new_doc.text.as_str(),
        );
        if o[os..oe] == n[ns..ne] {
            return;
        }
        let (out_mark, ops_mark) = (self.out.len(), self.ops);
        match (o[os], n[ns]) {
            (b'{', b'{') => {
                let path_len = self.path.len();
                let common = Common::of(&o[os..oe], &n[ns..ne]);
                // Members usually come in the same order on both sides (serde writes a
                // struct's fields in one order): follow the old ones along, and look a
                // key up among all of them only when the order differs.
                let mut old_members = members(old, os);
                let mut new_members = members(new_doc, ns);
                let mut in_order = true;
                let mut rest_same = false;
                loop {
                    if in_order && common.rest_same(old_members.j, oe, new_members.j, ne) {
                        rest_same = true;
                        break;
                    }
                    let Some((key, vs, ve)) = new_members.next() else {
                        break;
                    };
                    if in_order && common.in_prefix(ns, ve) {
                        // The same member at the same offset in the old text: unchanged,
                        // and the old text need not be scanned to step over it.
                        old_members.j = after_value(o, ve - ns + os);
                        continue;
                    }
                    let same_key = |m: &Member| o[m.0 .0..m.0 .1] == n[key.0..key.1];
                    let found = if in_order {
                        match old_members.next() {
                            Some(m) if same_key(&m) => Some(m),
                            _ => {
                                in_order = false;
                                members(old, os).find(same_key)
                            }
                        }
                    } else {
                        members(old, os).find(same_key)
                    };
                    // Most members are unchanged: nothing to write, so no path to build.
                    if found.is_some_and(|m| o[m.1..m.2] == n[vs..ve]) {
                        continue;
                    }
                    push_key(&mut self.path, &new[key.0..key.1]);
                    match found {
                        Some((_, ovs, ove)) => self.diff(old, ovs, ove, new_doc, vs, ve, false),
                        None => self.op("add", Some(&new[vs..ve])),
                    }
                    self.path.truncate(path_len);
                    if !root && self.over_budget(out_mark, ne - ns) {
                        return self.replace_whole(out_mark, ops_mark, &new[ns..ne]);
                    }
                }
                // In order: the old members not passed are the removed ones (none when the
                // rest is the same); otherwise every old key is looked up.
                let start = if in_order { old_members } else { members(old, os) };
                for (key, _, _) in start.filter(|_| !rest_same) {
                    let kept =
                        !in_order && members(new_doc, ns).any(|m| n[m.0 .0..m.0 .1] == o[key.0..key.1]);
                    if !kept {
                        // Keys come from valid UTF-8 JSON text.
                        push_key(&mut self.path, std::str::from_utf8(&o[key.0..key.1]).unwrap());
                        self.op("remove", None);
                        self.path.truncate(path_len);
                    }
                }
            }
            (b'[', b'[') => {
                let common = Common::of(&o[os..oe], &n[ns..ne]);
                let mut old_items = elements(old, os);
                let mut new_items = elements(new_doc, ns);
                let path_len = self.path.len();
                let mut count = 0;
                let mut rest_same = false;
                loop {
                    // Elements go in step: from a point where the rest of both arrays is
                    // the same text, there is nothing more to do.
                    if common.rest_same(old_items.j, oe, new_items.j, ne) {
                        rest_same = true;
                        break;
                    }
                    let Some((vs, ve)) = new_items.next() else {
                        break;
                    };
                    let i = count;
                    count += 1;
                    if common.in_prefix(ns, ve) {
                        // The same element at the same offset in the old text.
                        old_items.j = after_value(o, ve - ns + os);
                        continue;
                    }
                    let item = old_items.next();
                    // An unchanged element: no path to build.
                    if item.is_some_and(|(ovs, ove)| o[ovs..ove] == n[vs..ve]) {
                        continue;
                    }
                    push_index(&mut self.path, i);
                    match item {
                        Some((ovs, ove)) => self.diff(old, ovs, ove, new_doc, vs, ve, false),
                        None => self.op("add", Some(&new[vs..ve])),
                    }
                    self.path.truncate(path_len);
                    if !root && self.over_budget(out_mark, ne - ns) {
                        return self.replace_whole(out_mark, ops_mark, &new[ns..ne]);
                    }
                }
                // Surplus old items go from the end, so each index is valid when removed
                // (none when the rest is the same).
                let surplus = if rest_same { 0 } else { old_items.count() };
                for i in (count..count + surplus).rev() {
                    push_index(&mut self.path, i);
                    self.op("remove", None);
                    self.path.truncate(path_len);
                }
            }
            _ => return self.op("replace", Some(&new[ns..ne])),
        }
        // When the pieces cost more than the whole, send the whole (never at the root:
        // keep the patch a list of paths into the view).
        if !root && self.over_budget(out_mark, ne - ns) {
            self.replace_whole(out_mark, ops_mark, &new[ns..ne]);
        }
    }

    /// Whether the operations written since `out_mark` cost more than one `replace` of a
    /// value of `len` bytes at the current path. Checked after each member or element too:
    /// the operations only grow, so once over, the rest of a walk is not worth doing.
    fn over_budget(&self, out_mark: usize, len: usize) -> bool {
        self.out.len() - out_mark > len + self.path.len() + 40
    }

    /// Drops the operations written since the marks for one `replace` by `value`.
    fn replace_whole(&mut self, out_mark: usize, ops_mark: usize, value: &str) {
        self.out.truncate(out_mark);
        self.ops = ops_mark;
        self.op("replace", Some(value));
    }
}

/// Appends `/key` with JSON Pointer escaping (`~` → `~0`, `/` → `~1`). `key` is the raw
/// content of a JSON string, so it may stay as it is inside the patch's path string.
fn push_key(path: &mut String, key: &str) {
    path.push('/');
    // Bytes, not chars: both are ASCII, and a char pattern decodes UTF-8 first.
    if key.bytes().any(|b| b == b'~' || b == b'/') {
        path.push_str(&key.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(key);
    }
}

fn push_index(path: &mut String, i: usize) {
    use std::fmt::Write;
    let _ = write!(path, "/{i}");
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// Index just past the closing quote of the string starting at `b[i] == '"'`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

type Member = ((usize, usize), usize, usize);

/// The members of the object at `b[i] == '{'`: (key content span, value start, value
/// end), read as they are iterated (no list is built).
fn members(doc: &Doc, i: usize) -> Members<'_> {
    Members {
        doc,
        j: skip_ws(doc.text.as_bytes(), i + 1),
    }
}

#[derive(Clone)]
struct Members<'a> {
    doc: &'a Doc,
    /// The next member's key, or the closing brace.
    j: usize,
}

impl Iterator for Members<'_> {
    type Item = Member;

    fn next(&mut self) -> Option<Member> {
        let b = self.doc.text.as_bytes();
        if b[self.j] == b'}' {
            return None;
        }
        let key_end = string_end(b, self.j);
        let key = (self.j + 1, key_end - 1);
        let j = skip_ws(b, key_end) + 1; // the ':'
        let (vs, ve) = self.doc.span(skip_ws(b, j));
        self.j = after_value(b, ve);
        Some((key, vs, ve))
    }
}

/// Past the separator that follows a member or element ending at `ve`: the next one's
/// start, or the closing bracket.
fn after_value(b: &[u8], ve: usize) -> usize {
    let j = skip_ws(b, ve);
    if b[j] == b',' {
        skip_ws(b, j + 1)
    } else {
        j
    }
}

/// The elements of the array at `b[i] == '['`: (start, end) of each, read as they are
/// iterated.
fn elements(doc: &Doc, i: usize) -> Elements<'_> {
    Elements {
        doc,
        j: skip_ws(doc.text.as_bytes(), i + 1),
    }
}

struct Elements<'a> {
    doc: &'a Doc,
    /// The next element, or the closing bracket.
    j: usize,
}

impl Iterator for Elements<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let b = self.doc.text.as_bytes();
        if b[self.j] == b']' {
            return None;
        }
        let span = self.doc.span(self.j);
        self.j = after_value(b, span.1);
        Some(span)
    }
}

/// The bytes two changed containers share at their start and at their end. A changed
/// part of a view usually differs in one member (a player's resource count, the last
/// road): the members before it are the same text at the same offsets, so only the new
/// text is scanned over them, and the members after it are the same text to the end, so
/// neither is scanned. Both facts hold whatever the other says (they may overlap).
struct Common {
    /// Length of the common prefix.
    prefix: usize,
    /// Length of the common suffix.
    suffix: usize,
}

impl Common {
    fn of(old: &[u8], new: &[u8]) -> Common {
        Common {
            prefix: common_prefix(old, new),
            suffix: common_suffix(old, new),
        }
    }

    /// Whether a value of the new container (which starts at `ns`) ending at `ve` lies in
    /// the common prefix with the byte after it, which ends a scalar: the old container
    /// then has the same value at the same offset.
    fn in_prefix(&self, ns: usize, ve: usize) -> bool {
        ve - ns < self.prefix
    }

    /// Whether, with the walks at `oj` in the old container (ending at `oe`) and `nj` in
    /// the new (ending at `ne`), the rest of both is the same text: both at the same
    /// distance from their end, within the common suffix.
    fn rest_same(&self, oj: usize, oe: usize, nj: usize, ne: usize) -> bool {
        let rest = ne - nj;
        rest <= self.suffix && oe - oj == rest
    }
}

/// How many bytes `a` and `b` share at their start (eight at a time).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= len {
        let x = word(&a[i..i + 8]) ^ word(&b[i..i + 8]);
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < len && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many bytes `a` and `b` share at their end (eight at a time).
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let (a, b) = (&a[a.len() - len..], &b[b.len() - len..]);
    let mut k = 0;
    while k + 8 <= len {
        let x = word(&a[len - k - 8..len - k]) ^ word(&b[len - k - 8..len - k]);
        if x != 0 {
            // Little-endian: the last byte of the slice is the most significant.
            return k + (x.leading_zeros() / 8) as usize;
        }
        k += 8;
    }
    while k < len && a[len - k - 1] == b[len - k - 1] {
        k += 1;
    }
    k
}

fn word(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("eight bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Applies our patch to `old` and checks it yields `new`; returns the patch.
    fn check(old: Value, new: Value) -> Value {
        let (doc, patch) = patched(&old.to_string(), &new.to_string());
        assert_eq!(doc, new, "patch {patch}");
        patch
    }

    /// The document `old_text` with our patch to `new_text` applied, and the patch.
    fn patched(old_text: &str, new_text: &str) -> (Value, Value) {
        let patch: Value = serde_json::from_str(&diff(old_text, new_text)).expect("the patch is JSON");
        let mut doc: Value = serde_json::from_str(old_text).unwrap();
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
        let patch = check(json!({"a/b": 1, "c~d": 1}), json!({"a/b": 2, "c~d": 3}));
        assert_eq!(patch[0]["path"], "/a~1b");
        assert_eq!(patch[1]["path"], "/c~0d");
    }

    #[test]
    fn whitespace_in_the_input_is_tolerated() {
        let old = "{ \"a\" : [ 1 , 2 ] , \"b\" : { \"c\" : true } }";
        let new = "{\"a\":[1,3],\"b\":{\"c\":false}}";
        assert_eq!(patched(old, new).0, serde_json::from_str::<Value>(new).unwrap());
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

        /// Any two documents: the patch turns the old into the new, whether the old text
        /// is compact or pretty-printed.
        #[test]
        fn patches_turn_any_document_into_any_other(old in value(), new in value(), pretty: bool) {
            let old_text = if pretty { serde_json::to_string_pretty(&old).unwrap() } else { old.to_string() };
            proptest::prop_assert_eq!(patched(&old_text, &new.to_string()).0, new);
        }

        /// A document with one value replaced somewhere inside (the usual change to a
        /// view: the rest is the same text before and after it).
        #[test]
        fn patches_carry_one_change_deep_inside(old in value(), by in value(), at in 0usize..64, pretty: bool) {
            let mut new = old.clone();
            let mut k = at;
            replace_nth(&mut new, &mut k, &by);
            let old_text = if pretty { serde_json::to_string_pretty(&old).unwrap() } else { old.to_string() };
            proptest::prop_assert_eq!(patched(&old_text, &new.to_string()).0, new);
        }
    }

    /// Values whose texts begin or end alike (a number that is another's prefix, a
    /// string that is another's suffix) must not be taken for each other where the
    /// common text stops inside them.
    #[test]
    fn values_that_begin_or_end_alike_are_told_apart() {
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
        ] {
            check(old, new);
        }
    }

    #[test]
    fn common_prefixes_and_suffixes_are_counted_to_the_byte() {
        for (a, b, pre, suf) in [
            ("", "", 0, 0),
            ("abc", "abc", 3, 3),
            ("abcdefghij", "abcdefghiX", 9, 0),
            ("Xbcdefghij", "abcdefghij", 0, 9),
            ("0123456789abcdefXY", "0123456789abcdefZY", 16, 1),
            ("12,", "123,", 2, 1),
            ("short", "a much longer text, short", 0, 5),
        ] {
            assert_eq!(common_prefix(a.as_bytes(), b.as_bytes()), pre, "{a:?} {b:?}");
            assert_eq!(common_suffix(a.as_bytes(), b.as_bytes()), suf, "{a:?} {b:?}");
        }
    }
}
