//! The proptest equivalent of the two cargo-fuzz targets in `fuzz/` (what CI runs; the
//! fuzzers need nightly). The harnesses are the fuzzers' own file, included here.
//!
//! `CATAN_PROPTEST_GAMES` sets the number of fuzzed games (default 64; the decoder gets 20
//! inputs per game).

#[path = "../../../fuzz/src/harness.rs"]
mod harness;

use catan_protocol::ClientMsg;
use proptest::prelude::*;
use serde_json::Value;

fn games() -> u32 {
    std::env::var("CATAN_PROPTEST_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
}

/// Keys and strings a client message is made of, so that arbitrary JSON often gets past
/// the first checks and into the typed decoding and the unknown-field comparison.
fn word() -> impl Strategy<Value = String> {
    let mut words: Vec<String> = ClientMsg::TYPES.iter().map(|s| s.to_string()).collect();
    for w in [
        "type",
        "action",
        "code",
        "name",
        "token",
        "spectate",
        "text",
        "edge",
        "corner",
        "hex",
        "victim",
        "cards",
        "give",
        "get",
        "to",
        "first",
        "second",
        "resource",
        "brick",
        "ore",
        "roll_dice",
        "build_road",
        "end_turn",
        "offer_trade",
        "discard",
        "move_robber",
        "x",
    ] {
        words.push(w.to_string());
    }
    prop_oneof![4 => proptest::sample::select(words), 1 => ".{0,8}"]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (0u8..60).prop_map(Value::from),
        word().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((word(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Object text with a key possibly repeated (serde_json's `Value` cannot hold that).
fn object_text() -> impl Strategy<Value = String> {
    prop::collection::vec((word(), json()), 0..6).prop_map(|kv| {
        let fields: Vec<String> = kv
            .iter()
            .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), v))
            .collect();
        format!("{{{}}}", fields.join(","))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(games() * 20))]

    #[test]
    fn the_decoder_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        harness::client_message(&bytes);
    }

    #[test]
    fn the_decoder_survives_arbitrary_json(v in json()) {
        harness::client_message(v.to_string().as_bytes());
    }

    #[test]
    fn the_decoder_survives_arbitrary_objects(text in object_text()) {
        harness::client_message(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(games()))]

    #[test]
    fn game_apply_on_arbitrary_actions(bytes in prop::collection::vec(any::<u8>(), 9..6000)) {
        harness::game_apply(&bytes);
    }
}
