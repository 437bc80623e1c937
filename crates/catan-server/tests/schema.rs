//! The published JSON Schema: the checked-in `protocol.schema.json` is what the Rust types
//! generate; every JSON example in protocol.md validates against it; and so does what a
//! real game sends (every view and every event of complete random games).

use catan_bots::RandomBot;
use catan_rules::{Game, GameConfig, Scenario, Viewer};
use serde_json::{json, Value};

const CHECKED_IN: &str = "../../protocol.schema.json";

fn repo_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A validator for `$defs/<name>` of the schema (or the root, for `None`).
fn validator(schema: &Value, def: Option<&str>) -> jsonschema::Validator {
    let mut s = schema.clone();
    if let Some(def) = def {
        s = json!({
            "$schema": schema["$schema"],
            "$ref": format!("#/$defs/{def}"),
            "$defs": schema["$defs"],
        });
    }
    jsonschema::validator_for(&s).expect("the schema compiles")
}

fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn checked_in_schema_matches_the_types() {
    let generated = catan_server::schema::schema_text();
    if std::env::var_os("CATAN_UPDATE_SCHEMA").is_some() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CHECKED_IN);
        std::fs::write(path, &generated).unwrap();
        return;
    }
    assert!(
        repo_file(CHECKED_IN) == generated,
        "protocol.schema.json differs from the wire types: regenerate it with \
         `CATAN_UPDATE_SCHEMA=1 cargo test -p catan-server --test schema` and review the diff"
    );
}

/// Every JSON example in protocol.md: fenced `json` blocks and inline code that starts
/// with `{"`. Each must be valid JSON and valid against the schema: the root (any message)
/// or one of the named HTTP bodies, views or parts.
#[test]
fn every_json_example_in_protocol_md_validates() {
    let schema = catan_server::schema::schema();
    let doc = repo_file("../../protocol.md");
    let mut examples: Vec<String> = Vec::new();
    // Fenced blocks first; the prose around them is scanned for inline code afterwards.
    let mut prose = String::new();
    let mut rest = doc.as_str();
    while let Some(i) = rest.find("```") {
        prose.push_str(&rest[..i]);
        let body = &rest[i + 3..];
        let end = body.find("```").expect("closed fence");
        if let Some(json) = body[..end].strip_prefix("json\n") {
            examples.push(json.to_string());
        }
        rest = &body[end + 3..];
    }
    prose.push_str(rest);
    for (i, part) in prose.split('`').enumerate() {
        if i % 2 == 1 && part.starts_with("{\"") {
            examples.push(part.to_string());
        }
    }
    assert!(examples.len() > 40, "found only {} examples", examples.len());
    let mut names: Vec<Option<String>> = vec![None];
    names.extend(
        schema["$defs"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| Some(k.clone())),
    );
    let validators: Vec<(Option<String>, jsonschema::Validator)> = names
        .into_iter()
        .map(|n| {
            let v = validator(&schema, n.as_deref());
            (n, v)
        })
        .collect();
    let mut failures = Vec::new();
    for ex in &examples {
        let value: Value = match serde_json::from_str(ex) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("not JSON ({e}): {ex}"));
                continue;
            }
        };
        if !validators.iter().any(|(_, v)| v.is_valid(&value)) {
            let (_, root) = &validators[0];
            failures.push(format!(
                "matches no wire type: {ex}\n  as a message: {:?}",
                errors(root, &value)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} examples fail:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// Real output: every seat's and the spectator's view, and every event as part of an
/// update message, over complete random games of each variant.
#[test]
fn real_views_and_events_validate() {
    let schema = catan_server::schema::schema();
    let view_v = validator(&schema, Some("View"));
    let msg_v = validator(&schema, Some("ServerMsg"));
    let action_v = validator(&schema, Some("Action"));
    let configs = [
        GameConfig::default(),
        GameConfig::with_players(6),
        GameConfig {
            scenario: Some(Scenario::Helpers),
            ..GameConfig::default()
        },
        GameConfig::with_scenario(4, Some(Scenario::Frenemies)),
        GameConfig::with_scenario(4, Some(Scenario::Barbarians)),
        GameConfig {
            five_six_turns: Some(catan_rules::FiveSixTurns::Paired),
            ..GameConfig::with_players(5)
        },
    ];
    for (g, config) in configs.into_iter().enumerate() {
        let mut game = Game::new(config, 1000 + g as u64).unwrap();
        let mut bot = RandomBot::new(g as u64);
        let mut n = 0;
        while !game.is_over() && game.turn() < 2000 {
            let seat = game.next_actor().unwrap();
            let action = bot.choose(&game, seat).unwrap();
            let a = serde_json::to_value(action).unwrap();
            assert!(action_v.is_valid(&a), "{:?}: {a}", errors(&action_v, &a));
            let events = game.apply(seat, action).unwrap();
            let update = catan_protocol::ServerMsg::Update {
                v: n,
                patch: json!([]),
                events: events
                    .iter()
                    .map(|e| catan_rules::redact(e, Viewer::Spectator))
                    .collect(),
            };
            let u = serde_json::to_value(&update).unwrap();
            assert!(msg_v.is_valid(&u), "{:?}: {u}", errors(&msg_v, &u));
            // Views are large: check them every 25 actions and at the end.
            if n % 25 == 0 || game.is_over() {
                let mut viewers = vec![Viewer::Spectator];
                viewers.extend((0..game.players()).map(Viewer::Seat));
                for viewer in viewers {
                    let view = serde_json::to_value(game.view(viewer)).unwrap();
                    assert!(view_v.is_valid(&view), "{:?}", errors(&view_v, &view));
                }
            }
            n += 1;
        }
    }
}
