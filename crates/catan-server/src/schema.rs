//! The JSON Schema (draft 2020-12) of every wire type, generated from the Rust types with
//! schemars: WebSocket messages both ways, the game view inside snapshots, and the HTTP
//! bodies. Checked in as `protocol.schema.json` (a test fails when it differs from the
//! types) and served at `GET /api/schema`, so a client in any language can generate or
//! check its types against the server it talks to.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

/// The definitions a client needs, by the name under `$defs`. The root validates any
/// message on the WebSocket (client or server).
pub fn schema() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let mut refs = Map::new();
    fn add<T: JsonSchema>(g: &mut schemars::SchemaGenerator, refs: &mut Map<String, Value>) {
        let r = g.subschema_for::<T>();
        refs.insert(T::schema_name().into_owned(), r.to_value());
    }
    add::<catan_protocol::ClientMsg>(&mut generator, &mut refs);
    add::<catan_protocol::ServerMsg>(&mut generator, &mut refs);
    add::<catan_rules::View>(&mut generator, &mut refs);
    add::<catan_rules::Action>(&mut generator, &mut refs);
    add::<catan_rules::Event>(&mut generator, &mut refs);
    add::<catan_rules::RuleError>(&mut generator, &mut refs);
    add::<catan_protocol::RoomOptions>(&mut generator, &mut refs);
    add::<catan_protocol::CreatedRoom>(&mut generator, &mut refs);
    add::<catan_protocol::RoomInfo>(&mut generator, &mut refs);
    add::<catan_protocol::HttpError>(&mut generator, &mut refs);
    add::<catan_store::GamePage>(&mut generator, &mut refs);
    add::<catan_store::GameDetail>(&mut generator, &mut refs);
    add::<catan_store::Replay>(&mut generator, &mut refs);
    add::<crate::stats::GameStats>(&mut generator, &mut refs);
    let mut defs = generator.take_definitions(true);
    // The view fields the server adds around the rules' view (the rules have no clock).
    if let Some(props) = defs
        .get_mut("View")
        .and_then(|v| v.get_mut("properties"))
        .and_then(Value::as_object_mut)
    {
        props.insert(
            crate::view_stream::DEADLINE.into(),
            json!({
                "description": "When the server moves for the seats in `waiting_on` that have not acted (epoch milliseconds); absent when no timer runs.",
                "type": "integer",
            }),
        );
        let seats = |what: &str| {
            json!({
                "description": what,
                "type": "array",
                "items": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
            })
        };
        props.insert(
            crate::view_stream::AWAY.into(),
            seats("The seats whose player is away (a person's seat with no connection during the game), in seat order; absent when none is."),
        );
        props.insert(
            crate::view_stream::BOT_CONTROLLED.into(),
            seats("The seats a bot moves for (bot seats and seats taken over from away players), in seat order; absent when none is."),
        );
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Catan server wire types",
        "description": "Messages over the WebSocket (ClientMsg, ServerMsg; a snapshot's view is a View), and the HTTP bodies (RoomOptions, CreatedRoom, RoomInfo, GamePage, GameDetail, Replay, GameStats, HttpError). Generated from the Rust types; see protocol.md.",
        "anyOf": [refs["ClientMsg"], refs["ServerMsg"]],
        "$defs": defs,
    })
}

/// The schema as checked in: pretty JSON with a final newline.
pub fn schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).expect("a schema serializes");
    text.push('\n');
    text
}
