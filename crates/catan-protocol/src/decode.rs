//! Strict decoding of client messages.
//!
//! serde alone is lenient in three ways that matter on a public socket: a JSON object with
//! a key twice keeps the last value, an internally tagged enum accepts a number as its
//! `type` (`{"type":1,"edge":3}` decodes as the second variant), and `deny_unknown_fields`
//! does not apply to unit variants of an internally tagged enum (`{"type":"resync","x":1}`
//! decodes). [`decode_client`] closes all three at this layer, for every message and every
//! action present and future, without touching the rules crate's types:
//!
//! 1. the text is parsed into a JSON value by a visitor that refuses duplicate keys;
//! 2. `type` must be present and a string naming a client message;
//! 3. the typed message is decoded, serialized back, and every key of the input must exist
//!    in what the typed value serializes to (a key it dropped was ignored, i.e. unknown).

use crate::{ClientMsg, ServerMsg};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Why a client message was refused: the request it seemed to be and a readable message
/// naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The message `type` when it could be read, `"unknown"` otherwise.
    pub request: String,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.request, self.message)
    }
}

impl std::error::Error for DecodeError {}

impl DecodeError {
    fn new(request: &str, message: impl Into<String>) -> DecodeError {
        DecodeError {
            request: request.into(),
            message: message.into(),
        }
    }

    /// The `error` message the server answers with (the connection stays open).
    pub fn to_server_msg(&self) -> ServerMsg {
        ServerMsg::Error {
            request: self.request.clone(),
            message: self.message.clone(),
            rule: None,
        }
    }
}

/// Decodes one client text message strictly (see the module documentation).
///
/// A message written exactly as the server would serialize it (serde's field order, no
/// spaces, as every serde client and the load generator write them) is decoded in one
/// pass: typed straight from the text and serialized back, and if that gives the same
/// text, it has no key twice, a string `type` and no unknown key, since the serializer
/// writes none of those. Any other text takes the strict path below (which builds and
/// compares two `Value` trees: about 4 % of the server's CPU under load).
pub fn decode_client(text: &str) -> Result<ClientMsg, DecodeError> {
    if let Some(msg) = decode_canonical(text) {
        return Ok(msg);
    }
    decode_strict(text)
}

/// The message if `text` is exactly its serialization.
fn decode_canonical(text: &str) -> Option<ClientMsg> {
    let msg: ClientMsg = serde_json::from_str(text).ok()?;
    let again = serde_json::to_string(&msg).ok()?;
    (again == text).then_some(msg)
}

/// The strict path of [`decode_client`], for every text.
fn decode_strict(text: &str) -> Result<ClientMsg, DecodeError> {
    let value =
        parse_strict(text).map_err(|e| DecodeError::new("unknown", format!("malformed JSON: {e}")))?;
    let Value::Object(obj) = &value else {
        return Err(DecodeError::new("unknown", "a message must be a JSON object"));
    };
    let kind = match obj.get("type") {
        None => return Err(DecodeError::new("unknown", "a message needs a \"type\"")),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(DecodeError::new(
                "unknown",
                format!("\"type\" must be a string, not {}", json_kind(other)),
            ))
        }
    };
    if !ClientMsg::TYPES.contains(&kind.as_str()) {
        return Err(DecodeError::new(&kind, format!("unknown message type {kind:?}")));
    }
    // Decoded from the tree by reference (not `from_value`, which takes it by value and
    // would need a copy of it for the check below).
    let msg = <ClientMsg as serde::Deserialize>::deserialize(&value)
        .map_err(|e| DecodeError::new(&kind, format!("invalid {kind}: {e}")))?;
    let back = serde_json::to_value(&msg).expect("client messages serialize");
    if let Some(path) = unknown_key(&value, &back, &mut String::new()) {
        return Err(DecodeError::new(&kind, format!("invalid {kind}: {path}")));
    }
    Ok(msg)
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What is wrong with the first key (named by its dotted path) present in `input` but absent
/// from `typed`, the typed value's own serialization, or with a `type` tag that is not the
/// variant's name. Arrays are compared element by element.
fn unknown_key(input: &Value, typed: &Value, path: &mut String) -> Option<String> {
    match (input, typed) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                let found = match b.get(k) {
                    // A nested tag given as a number decodes as the variant of that
                    // index; the typed value names it, so the input must too.
                    Some(w) if k == "type" && v != w => Some(format!(
                        "`{path}` must be a string naming the variant, not {}",
                        json_kind(v)
                    )),
                    Some(w) => unknown_key(v, w, path),
                    None => Some(format!("unknown field `{path}`")),
                };
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) => a.iter().zip(b).find_map(|(v, w)| unknown_key(v, w, path)),
        _ => None,
    }
}

/// Parses JSON like `serde_json::from_str::<Value>`, but refuses an object with a key twice.
pub fn parse_strict(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = StrictValue.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// A `serde_json::Value` seed whose maps refuse duplicate keys.
#[derive(Clone, Copy)]
struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(StrictValue)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("duplicate key `{key}`")));
            }
            let v = map.next_value_seed(StrictValue)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_rules::Action;

    fn refused(text: &str) -> DecodeError {
        decode_client(text).expect_err(text)
    }

    #[test]
    fn well_formed_messages_decode() {
        assert_eq!(
            decode_client(r#"{"type":"action","action":{"type":"build_road","edge":3}}"#).unwrap(),
            ClientMsg::Action {
                action: Action::BuildRoad { edge: 3 }
            }
        );
        assert_eq!(decode_client(r#"{"type":"resync"}"#).unwrap(), ClientMsg::Resync);
        // Optional fields may be given explicitly (with their default) or left out.
        let a = decode_client(r#"{"type":"join","code":"AB","name":null,"spectate":false}"#).unwrap();
        assert!(matches!(a, ClientMsg::Join { spectate: false, .. }));
        let t =
            r#"{"type":"action","action":{"type":"offer_trade","give":{"brick":1,"ore":0},"get":{"ore":1}}}"#;
        assert!(decode_client(t).is_ok());
    }

    /// Messages as a serde client writes them take the one-pass path and decode exactly
    /// as the strict path does; the same messages written otherwise (keys reordered,
    /// spaces, explicit defaults) miss it and still decode, to the same message.
    #[test]
    fn canonical_texts_take_the_one_pass_path_and_agree_with_the_strict_one() {
        let messages = [
            ClientMsg::Action {
                action: Action::BuildRoad { edge: 3 },
            },
            ClientMsg::Action {
                action: Action::EndTurn,
            },
            ClientMsg::Chat {
                text: "héllo \"you\"".into(),
            },
            ClientMsg::Resync,
            ClientMsg::Start,
            ClientMsg::Ping,
            ClientMsg::AddBots,
            ClientMsg::Join {
                code: "AB".into(),
                name: Some("p".into()),
                token: None,
                spectate: false,
            },
        ];
        for msg in messages {
            let text = serde_json::to_string(&msg).unwrap();
            assert_eq!(decode_canonical(&text).as_ref(), Some(&msg), "{text}");
            assert_eq!(decode_strict(&text).as_ref(), Ok(&msg), "{text}");
            let spaced = serde_json::to_string_pretty(&msg).unwrap();
            assert_eq!(decode_canonical(&spaced), None, "{spaced}");
            assert_eq!(decode_client(&spaced).as_ref(), Ok(&msg), "{spaced}");
        }
        let reordered = r#"{"action":{"edge":3,"type":"build_road"},"type":"action"}"#;
        assert_eq!(decode_canonical(reordered), None);
        assert_eq!(
            decode_client(reordered).unwrap(),
            ClientMsg::Action {
                action: Action::BuildRoad { edge: 3 }
            }
        );
    }

    #[test]
    fn duplicate_keys_are_refused_by_name() {
        let e = refused(r#"{"type":"chat","text":"a","text":"b"}"#);
        assert_eq!(
            e.message,
            "malformed JSON: duplicate key `text` at line 1 column 32"
        );
        let e = refused(r#"{"type":"action","action":{"type":"build_road","edge":1,"edge":2}}"#);
        assert!(e.message.contains("duplicate key `edge`"), "{e}");
        let e = refused(r#"{"type":"ping","type":"ping"}"#);
        assert!(e.message.contains("duplicate key `type`"), "{e}");
    }

    #[test]
    fn a_numeric_type_is_refused() {
        let e = refused(r#"{"type":1,"edge":3}"#);
        assert!(
            e.message.contains("\"type\" must be a string, not a number"),
            "{e}"
        );
        let e = refused(r#"{"type":"action","action":{"type":1,"edge":3}}"#);
        assert_eq!(
            e.message,
            "invalid action: `action.type` must be a string naming the variant, not a number"
        );
        assert_eq!(e.request, "action");
    }

    #[test]
    fn unknown_fields_are_refused_by_name_even_on_fieldless_messages() {
        let e = refused(r#"{"type":"resync","x":1}"#);
        assert_eq!(e.message, "invalid resync: unknown field `x`");
        assert_eq!(e.request, "resync");
        let e = refused(r#"{"type":"action","action":{"type":"roll_dice","edge":3}}"#);
        assert_eq!(e.message, "invalid action: unknown field `action.edge`");
        let e = refused(r#"{"type":"action","action":{"type":"end_turn","please":true}}"#);
        assert!(e.message.contains("`action.please`"), "{e}");
        // Fields of field-carrying variants are still refused by serde itself.
        let e = refused(r#"{"type":"chat","text":"hi","colour":"red"}"#);
        assert!(e.message.contains("colour"), "{e}");
    }

    #[test]
    fn other_malformed_input_says_what_is_wrong() {
        assert!(refused("[1,2]").message.contains("JSON object"));
        assert!(refused("{").message.contains("malformed JSON"));
        assert!(refused(r#"{"code":"x"}"#).message.contains("needs a \"type\""));
        let e = refused(r#"{"type":"dance"}"#);
        assert_eq!(
            (e.request.as_str(), e.message.as_str()),
            ("dance", "unknown message type \"dance\"")
        );
        assert!(refused(r#"{"type":"ping"} x"#).message.contains("malformed JSON"));
    }
}
