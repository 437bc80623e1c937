//! A value as serde serializes it, recorded as a flat list of tokens (a *tape*) instead of
//! JSON text: what [`crate::diff`] compares to write a patch between two versions of a
//! part of a view.
//!
//! Why not JSON text: to find what changed, the text has to be written (every key escaped,
//! every number formatted) and then read back (every member's key and span scanned); a
//! tape is written by the same `Serialize` impls (so it has the view's exact JSON shape:
//! renames, tags, skipped fields) but with struct keys and variant names kept as the
//! `&'static str` serde hands over, numbers as numbers, and each container's end noted
//! when it closes. Comparing two tapes is comparing tokens; only the values a patch
//! carries are rendered as JSON ([`Tape::write_json`]).
//!
//! A tape is scratch: the room keeps typed views, and tapes are written from them when a
//! part has changed, into buffers kept from one part to the next.

use serde::ser::{self, Serialize};
use std::fmt;

/// One token. Containers hold how many tokens they contain (`size`, relative, so that
/// equal values are equal tokens wherever they lie), so that a walk steps over a subtree
/// at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tok {
    Null,
    Bool(bool),
    U64(u64),
    /// Negative integers only (non-negative ones are [`Tok::U64`], so equal numbers are
    /// equal tokens whichever type wrote them).
    I64(i64),
    F64(f64),
    /// A string value, or an object key ([`Tok::Key`]): serde's static names as they are.
    Str(&'static str),
    /// A string value kept in the tape's own text: `(start, len)` there.
    OwnedStr(u32, u32),
    Key(&'static str),
    OwnedKey(u32, u32),
    Obj {
        size: u32,
    },
    Arr {
        size: u32,
    },
}

/// A recorded value (or, while writing, a value being recorded).
#[derive(Default, Debug)]
pub struct Tape {
    toks: Vec<Tok>,
    /// The text of owned strings and keys.
    text: String,
    /// Open containers: token index, and whether an array.
    open: Vec<(usize, bool)>,
    /// The JSON length of each container counted so far (by token index; 0: not yet),
    /// counted when first asked for ([`Tape::json_len`]): most tapes are never asked.
    lens: Vec<std::cell::Cell<u32>>,
}

/// Why a value could not be recorded (a type JSON has no form for).
#[derive(Debug)]
pub struct TapeError(String);

impl fmt::Display for TapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TapeError {}

impl ser::Error for TapeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        TapeError(msg.to_string())
    }
}

impl Tape {
    /// Records `value`, replacing what the tape held (its buffers are kept).
    pub fn record<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
        self.toks.clear();
        self.text.clear();
        self.open.clear();
        self.lens.clear();
        value.serialize(&mut *self)?;
        debug_assert!(self.open.is_empty());
        self.lens.resize(self.toks.len(), std::cell::Cell::new(0));
        Ok(())
    }

    /// `value` recorded in a new tape.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Tape {
        let mut t = Tape::default();
        t.record(value).expect("the value has a JSON form");
        t
    }

    pub(crate) fn toks(&self) -> &[Tok] {
        &self.toks
    }

    /// The text of a string or key token.
    pub(crate) fn str_of(&self, t: Tok) -> &str {
        match t {
            Tok::Str(s) | Tok::Key(s) => s,
            Tok::OwnedStr(s, l) | Tok::OwnedKey(s, l) => &self.text[s as usize..(s + l) as usize],
            _ => "",
        }
    }

    /// Index just past the value starting at token `i`.
    pub(crate) fn end_of(&self, i: usize) -> usize {
        match self.toks[i] {
            Tok::Obj { size } | Tok::Arr { size } => i + 1 + size as usize,
            _ => i + 1,
        }
    }

    /// The length of the JSON text of the value at `i` (what a `replace` of it carries).
    /// Struct keys and variant names are taken to need no escaping (serde's names are
    /// identifiers): the length is for weighing a diff's operations against one `replace`,
    /// not for writing.
    pub(crate) fn json_len(&self, i: usize) -> usize {
        let array = match self.toks[i] {
            Tok::Obj { .. } => false,
            Tok::Arr { .. } => true,
            t => return scalar_len(self, t),
        };
        if let Some(len) = self.lens.get(i).map(|l| l.get()).filter(|&l| l > 0) {
            return len as usize;
        }
        // Members: the key, its quotes and colon, the value; elements: the value; and a
        // separator after all but the last.
        let (end, mut len, mut j) = (self.end_of(i), 2, i + 1);
        while j < end {
            if !array {
                len += scalar_len(self, self.toks[j]) + 1;
                j += 1;
            }
            len += self.json_len(j) + 1;
            j = self.end_of(j);
        }
        let len = len - usize::from(j > i + 1);
        if let Some(cell) = self.lens.get(i) {
            cell.set(len as u32);
        }
        len
    }

    /// Whether the value at `i` here and the value at `j` in `other` are equal.
    pub(crate) fn same(&self, i: usize, other: &Tape, j: usize) -> bool {
        let (a, b) = (&self.toks[i..self.end_of(i)], &other.toks[j..other.end_of(j)]);
        a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| tok_same(self, x, other, y))
    }

    /// Appends the JSON text of the value at token `i`.
    pub fn write_json(&self, i: usize, out: &mut String) {
        let end = self.end_of(i);
        match self.toks[i] {
            Tok::Obj { .. } => {
                out.push('{');
                let mut j = i + 1;
                while j < end {
                    if j > i + 1 {
                        out.push(',');
                    }
                    write_str(self.str_of(self.toks[j]), out);
                    out.push(':');
                    self.write_json(j + 1, out);
                    j = self.end_of(j + 1);
                }
                out.push('}');
            }
            Tok::Arr { .. } => {
                out.push('[');
                let mut j = i + 1;
                while j < end {
                    if j > i + 1 {
                        out.push(',');
                    }
                    self.write_json(j, out);
                    j = self.end_of(j);
                }
                out.push(']');
            }
            Tok::Null => out.push_str("null"),
            Tok::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            Tok::U64(n) => out.push_str(itoa::Buffer::new().format(n)),
            Tok::I64(n) => out.push_str(itoa::Buffer::new().format(n)),
            Tok::F64(f) => out.push_str(&serde_json::to_string(&f).expect("a finite float")),
            t @ (Tok::Str(_) | Tok::OwnedStr(..) | Tok::Key(_) | Tok::OwnedKey(..)) => {
                write_str(self.str_of(t), out)
            }
        }
    }

    /// The JSON text of the whole value.
    #[cfg(test)]
    fn to_json(&self) -> String {
        let mut s = String::new();
        if !self.toks.is_empty() {
            self.write_json(0, &mut s);
        }
        s
    }

    // ----- recording -----------------------------------------------------------------

    fn scalar(&mut self, t: Tok) {
        self.toks.push(t);
    }

    fn owned(&mut self, s: &str) -> (u32, u32) {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        (start, s.len() as u32)
    }

    fn key(&mut self, t: Tok) {
        self.toks.push(t);
    }

    fn begin(&mut self, array: bool) {
        self.open.push((self.toks.len(), array));
        self.toks.push(Tok::Null);
    }

    /// `{"Variant": ` and the array or object of its fields, opened.
    fn variant(&mut self, variant: &'static str, array: bool) -> Variant<'_> {
        self.begin(false);
        self.key(Tok::Key(variant));
        self.begin(array);
        Variant(self)
    }

    fn end(&mut self) {
        let (i, array) = self.open.pop().expect("a container to close");
        let size = (self.toks.len() - i - 1) as u32;
        self.toks[i] = if array {
            Tok::Arr { size }
        } else {
            Tok::Obj { size }
        };
    }
}

/// Whether token `x` of tape `a` stands for the same as token `y` of tape `b`: the same
/// token, strings kept in a tape's own text compared by their text.
#[inline]
fn tok_same(a: &Tape, x: Tok, b: &Tape, y: Tok) -> bool {
    match (x, y) {
        (Tok::U64(p), Tok::U64(q)) => p == q,
        // Serde's names: nearly always the same literal on both sides.
        (Tok::Key(p), Tok::Key(q)) | (Tok::Str(p), Tok::Str(q)) => std::ptr::eq(p, q) || p == q,
        (Tok::Obj { size: p }, Tok::Obj { size: q }) | (Tok::Arr { size: p }, Tok::Arr { size: q }) => p == q,
        (Tok::OwnedStr(..) | Tok::Str(_), Tok::OwnedStr(..) | Tok::Str(_))
        | (Tok::OwnedKey(..) | Tok::Key(_), Tok::OwnedKey(..) | Tok::Key(_)) => a.str_of(x) == b.str_of(y),
        _ => x == y,
    }
}

/// The JSON length of a scalar token (see [`Tape::json_len`] for names).
fn scalar_len(tape: &Tape, t: Tok) -> usize {
    match t {
        Tok::Null => 4,
        Tok::Bool(b) => 4 + usize::from(!b),
        Tok::U64(n) => digits(n),
        Tok::I64(n) => 1 + digits(n.unsigned_abs()),
        Tok::F64(f) => serde_json::to_string(&f).map_or(4, |s| s.len()),
        Tok::Str(s) | Tok::Key(s) => s.len() + 2,
        Tok::OwnedStr(..) | Tok::OwnedKey(..) => str_len(tape.str_of(t)),
        Tok::Obj { .. } | Tok::Arr { .. } => unreachable!("containers are counted by Tape::json_len"),
    }
}

fn digits(mut n: u64) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// What `serde_json` writes for a byte of a string: `None` for the byte itself, else the
/// escape (`\"`, `\\`, the short ones for \b \t \n \f \r, `\u00XX` for other controls).
fn escape(b: u8) -> Option<&'static str> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    static CONTROL: [[u8; 6]; 32] = {
        let mut t = [[0u8; 6]; 32];
        let mut i = 0;
        while i < 32 {
            t[i] = [b'\\', b'u', b'0', b'0', HEX[i >> 4], HEX[i & 15]];
            i += 1;
        }
        t
    };
    match b {
        b'"' => Some("\\\""),
        b'\\' => Some("\\\\"),
        0x08 => Some("\\b"),
        0x09 => Some("\\t"),
        0x0a => Some("\\n"),
        0x0c => Some("\\f"),
        0x0d => Some("\\r"),
        // ASCII hex digits: valid UTF-8.
        0..=0x1f => Some(std::str::from_utf8(&CONTROL[b as usize]).expect("ASCII")),
        _ => None,
    }
}

/// The JSON length of a string, quotes included.
fn str_len(s: &str) -> usize {
    2 + s.bytes().map(|b| escape(b).map_or(1, str::len)).sum::<usize>()
}

/// Appends `s` as a JSON string.
pub(crate) fn write_str(s: &str, out: &mut String) {
    out.push('"');
    write_escaped(s, out);
    out.push('"');
}

/// Appends the content of `s` as it stands between the quotes of a JSON string.
pub(crate) fn write_escaped(s: &str, out: &mut String) {
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        return out.push_str(s);
    }
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        if let Some(e) = escape(b) {
            out.push_str(&s[from..i]);
            out.push_str(e);
            from = i + 1;
        }
    }
    out.push_str(&s[from..]);
}

// ----- serde ---------------------------------------------------------------------------

macro_rules! widen {
    ($($method:ident($t:ty) => $to:ident),*) => { $(
        fn $method(self, v: $t) -> Result<(), TapeError> {
            self.$to(v.into())
        }
    )* };
}

impl<'a> ser::Serializer for &'a mut Tape {
    type Ok = ();
    type Error = TapeError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Variant<'a>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Variant<'a>;

    // Smaller numbers as the 64-bit ones.
    widen!(
        serialize_i8(i8) => serialize_i64,
        serialize_i16(i16) => serialize_i64,
        serialize_i32(i32) => serialize_i64,
        serialize_u8(u8) => serialize_u64,
        serialize_u16(u16) => serialize_u64,
        serialize_u32(u32) => serialize_u64,
        serialize_f32(f32) => serialize_f64
    );

    fn serialize_bool(self, v: bool) -> Result<(), TapeError> {
        self.scalar(Tok::Bool(v));
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), TapeError> {
        self.scalar(if v >= 0 { Tok::U64(v as u64) } else { Tok::I64(v) });
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), TapeError> {
        self.scalar(Tok::U64(v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), TapeError> {
        let v = i64::try_from(v).map_err(|_| TapeError("an integer beyond 64 bits".into()))?;
        self.serialize_i64(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), TapeError> {
        let v = u64::try_from(v).map_err(|_| TapeError("an integer beyond 64 bits".into()))?;
        self.serialize_u64(v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), TapeError> {
        // As serde_json writes them: a float that is not finite is `null`.
        self.scalar(if v.is_finite() { Tok::F64(v) } else { Tok::Null });
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), TapeError> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), TapeError> {
        let (s, l) = self.owned(v);
        self.scalar(Tok::OwnedStr(s, l));
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), TapeError> {
        // As serde_json writes bytes: an array of numbers.
        self.begin(true);
        for &b in v {
            self.scalar(Tok::U64(b.into()));
        }
        self.end();
        Ok(())
    }
    fn serialize_none(self) -> Result<(), TapeError> {
        self.scalar(Tok::Null);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), TapeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), TapeError> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), TapeError> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), TapeError> {
        self.scalar(Tok::Str(variant));
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        self.begin(false);
        self.key(Tok::Key(variant));
        value.serialize(&mut *self)?;
        self.end();
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, TapeError> {
        self.begin(true);
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, TapeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, TapeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Variant<'a>, TapeError> {
        Ok(self.variant(variant, true))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, TapeError> {
        self.begin(false);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, TapeError> {
        self.begin(false);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Variant<'a>, TapeError> {
        Ok(self.variant(variant, false))
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), TapeError> {
        self.serialize_str(&value.to_string())
    }
}

/// Sequences, tuples and tuple structs: an array, its elements, its end.
macro_rules! array_like {
    ($($trait:ident :: $element:ident),*) => { $(
        impl ser::$trait for &mut Tape {
            type Ok = ();
            type Error = TapeError;
            fn $element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), TapeError> {
                Tape::end(self);
                Ok(())
            }
        }
    )* };
}

array_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl ser::SerializeMap for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), TapeError> {
        // No view has a map today: a key goes through serde_json's own rules (a string,
        // or a number or bool written as one), by way of a `Value`.
        let text = match serde_json::to_value(key).map_err(ser::Error::custom)? {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            _ => return Err(TapeError("a map key must be a string".into())),
        };
        let (s, l) = self.owned(&text);
        self.key(Tok::OwnedKey(s, l));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
        value.serialize(&mut **self)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), TapeError> {
        ser::SerializeMap::serialize_key(self, key)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), TapeError> {
        Tape::end(self);
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Tape {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        self.key(Tok::Key(key));
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), TapeError> {
        Tape::end(self);
        Ok(())
    }
}

/// A tuple or struct variant: `{"Variant": [...]}` or `{"Variant": {...}}`, two
/// containers to close.
pub struct Variant<'a>(&'a mut Tape);

impl ser::SerializeTupleVariant for Variant<'_> {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
        value.serialize(&mut *self.0)
    }
    fn end(self) -> Result<(), TapeError> {
        self.0.end();
        self.0.end();
        Ok(())
    }
}

impl ser::SerializeStructVariant for Variant<'_> {
    type Ok = ();
    type Error = TapeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        self.0.key(Tok::Key(key));
        value.serialize(&mut *self.0)
    }
    fn end(self) -> Result<(), TapeError> {
        self.0.end();
        self.0.end();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A tape renders the JSON that serde_json writes for the same value, and counts its
    /// length exactly, containers and all.
    #[test]
    fn a_tape_renders_what_serde_json_writes() {
        #[derive(serde::Serialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        enum Tagged {
            One { a: u8, b: Option<i32> },
            Two,
        }
        #[derive(serde::Serialize)]
        enum External {
            Unit,
            New(u8),
            Tuple(u8, bool),
            Struct { x: [u8; 2] },
        }
        #[derive(serde::Serialize)]
        struct S<'a> {
            tagged: Vec<Tagged>,
            external: Vec<External>,
            #[serde(skip_serializing_if = "Option::is_none")]
            skipped: Option<u8>,
            text: &'a str,
            map: std::collections::BTreeMap<u8, f64>,
            unit: (),
            neg: i64,
        }
        let value = S {
            tagged: vec![Tagged::One { a: 1, b: Some(-7) }, Tagged::Two],
            external: vec![
                External::Unit,
                External::New(3),
                External::Tuple(4, true),
                External::Struct { x: [5, 6] },
            ],
            skipped: None,
            text: "quote \" backslash \\ tab \t bell \u{7} é",
            map: [(1, 0.5), (2, f64::NAN)].into_iter().collect(),
            unit: (),
            neg: -12345,
        };
        let by_serde = serde_json::to_string(&value).unwrap();
        let tape = Tape::of(&value);
        assert_eq!(tape.to_json(), by_serde);
        assert_eq!(tape.json_len(0), by_serde.len());
        // Every container's length, checked by rendering it alone.
        for i in 0..tape.toks().len() {
            if matches!(tape.toks()[i], Tok::Obj { .. } | Tok::Arr { .. }) {
                let mut s = String::new();
                tape.write_json(i, &mut s);
                assert_eq!(tape.json_len(i), s.len(), "{s}");
            }
        }
    }

    /// Equal values give equal tapes, whatever the types that wrote their numbers; any
    /// difference makes them unequal.
    #[test]
    fn tapes_are_equal_exactly_when_the_values_are() {
        let same = |a: &Value, b: &Value| Tape::of(a).same(0, &Tape::of(b), 0);
        assert!(same(
            &json!({"a": [1, {"b": "x"}]}),
            &json!({"a": [1, {"b": "x"}]})
        ));
        assert!(Tape::of(&5u8).same(0, &Tape::of(&5i64), 0));
        for (a, b) in [
            (json!({"a": 1}), json!({"a": 2})),
            (json!({"a": 1}), json!({"b": 1})),
            (json!([1, [2]]), json!([1, 2])),
            (json!([[1], 2]), json!([[1, 2]])),
            (json!("x"), json!("y")),
            (json!(null), json!(false)),
            (json!(-1), json!(1)),
        ] {
            assert!(!same(&a, &b), "{a} {b}");
        }
    }
}
