//! The two fuzz harnesses, shared by the cargo-fuzz targets (`fuzz/fuzz_targets`) and by
//! their proptest equivalent in the test suite
//! (`crates/catan-protocol/tests/fuzz_equivalents.rs`, which includes this file), so CI
//! runs exactly what the fuzzers run.

use catan_bots::RandomBot;
use catan_protocol::decode_client;
use catan_rules::{Action, Game, GameConfig, Scenario, Seat};
use serde_json::Value;

/// The client-message decoder on arbitrary input: it never panics, and whatever it
/// accepts serializes back to a message it decodes to the same value.
pub fn client_message(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(msg) = decode_client(text) {
        let again = serde_json::to_string(&msg).expect("client messages serialize");
        assert_eq!(decode_client(&again).as_ref(), Ok(&msg), "{text} -> {again}");
    }
}

/// Reads the fuzzer's bytes one at a time; zeros once they run out.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

const RESOURCES: [&str; 5] = ["brick", "lumber", "wool", "grain", "ore"];

/// Rewrites every parameter of an action's JSON from the input: numbers (edges, corners,
/// hexes, seats, counts, indices) to any byte, resources to any resource, flags and
/// optional values flipped. The result may name things that do not exist.
fn mutate(v: &mut Value, input: &mut Input) {
    match v {
        Value::Number(_) => *v = Value::from(input.byte()),
        Value::Bool(b) => *b = input.byte() & 1 == 1,
        Value::String(s) if RESOURCES.contains(&s.as_str()) => {
            *s = RESOURCES[input.byte() as usize % 5].to_string();
        }
        Value::Null if input.byte() & 1 == 1 => *v = Value::from(input.byte() % 8),
        Value::Array(items) => items.iter_mut().for_each(|i| mutate(i, input)),
        Value::Object(fields) => {
            for (k, f) in fields.iter_mut() {
                if k != "type" {
                    mutate(f, input);
                }
            }
        }
        _ => {}
    }
}

/// `Game::apply` on arbitrary actions: the input picks the variant and seed, then, step by
/// step, either the random bot's legal move for a seat the game waits on or an arbitrary
/// action (a bot move with every parameter rewritten) by an arbitrary seat. A refused
/// action leaves the game exactly as it was; an accepted one keeps every invariant.
pub fn game_apply(bytes: &[u8]) {
    let mut input = Input(bytes);
    let seed = u64::from_le_bytes(std::array::from_fn(|_| input.byte()));
    let flags = input.byte();
    let mut config = GameConfig::with_players(3 + flags % 4);
    if flags & 0x30 == 0x30 {
        // Barbarian Invasion: 3 or 4 players.
        config = GameConfig::with_scenario(3 + flags % 2, Some(Scenario::Barbarians));
    } else if flags & 0x10 != 0 {
        config.scenario = Some(Scenario::Helpers);
    }
    let Ok(mut game) = Game::new(config, seed) else {
        return;
    };
    let players = game.players();
    let mut bot = RandomBot::new(seed);
    while !input.is_empty() && !game.is_over() {
        let op = input.byte();
        let Some(awaited) = game
            .waiting_on()
            .iter()
            .nth(op as usize % 2)
            .or(game.waiting_on().iter().next())
        else {
            return;
        };
        let Some(legal) = bot.choose(&game, awaited) else {
            return;
        };
        let (seat, action): (Seat, Action) = if op % 4 == 0 {
            let mut v = serde_json::to_value(legal).expect("actions serialize");
            mutate(&mut v, &mut input);
            let seat = input.byte() % (players + 1);
            (seat, serde_json::from_value(v).unwrap_or(legal))
        } else {
            (awaited, legal)
        };
        let before = game.clone();
        match game.apply(seat, action) {
            Ok(_) => {
                if let Err(e) = game.check_invariants() {
                    panic!("seat {seat} {action:?} accepted but broke an invariant: {e}");
                }
            }
            Err(e) => assert!(
                game == before,
                "seat {seat} {action:?} refused ({e}) but changed the game"
            ),
        }
    }
}
