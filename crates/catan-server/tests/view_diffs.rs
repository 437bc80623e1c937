//! Property: in random games (3–6 players, base, The Helpers, Frenemies or Barbarian Invasion, Paired Players
//! or not, with or without trades), with one shared `Frame` per action as the room uses,
//! after every action every viewer's update patch, applied to the view it had, gives
//! exactly its new view; versions are contiguous; a viewer that (re)starts mid-game from a
//! snapshot continues correctly.
//!
//! `CATAN_PROPTEST_GAMES` sets the count as in the rules' property tests (default 300); this
//! file plays a twentieth of it (each action is checked for every viewer through `Value`s),
//! half in each of its two tests.

use catan_bots::RandomBot;
use catan_protocol::ServerMsg;
use catan_rules::{FiveSixTurns, Game, GameConfig, Rng, Scenario, Viewer};
use catan_server::view_stream::{Frame, ViewStream};
use proptest::prelude::*;
use serde_json::Value;

const TURN_CAP: u32 = 5000;

fn games() -> u32 {
    std::env::var("CATAN_PROPTEST_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// The view a client holds after a snapshot: the snapshot's view without the fixed board
/// (updates never touch it).
fn snapshot_view(text: &str) -> Value {
    let Ok(ServerMsg::Snapshot {
        view: Value::Object(mut view),
        ..
    }) = serde_json::from_str(text)
    else {
        panic!("not a snapshot: {text}")
    };
    view.remove("board").expect("snapshots carry the board");
    Value::Object(view)
}

fn play(config: GameConfig, seed: u64, trades: bool) -> Result<(), TestCaseError> {
    let mut game = Game::new(config, seed).unwrap();
    let mut bot = RandomBot::new(seed).with_trades(trades);
    let mut chaos = Rng::new(seed ^ 0x5eed);
    let viewers: Vec<Viewer> = (0..config.players)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    let mut streams: Vec<ViewStream> = viewers.iter().map(|&v| ViewStream::new(v)).collect();
    let mut frame = Frame::new(&game, &[]);
    let mut held: Vec<Value> = streams
        .iter_mut()
        .map(|s| snapshot_view(&s.snapshot(&mut frame)))
        .collect();
    drop(frame);
    while !game.is_over() {
        prop_assert!(game.turn() <= TURN_CAP, "seed {seed}: no winner");
        let seat = game.next_actor().expect("a running game waits on someone");
        let action = bot.choose(&game, seat).expect("bot finds a move");
        let events = game
            .apply(seat, action)
            .map_err(|e| TestCaseError::fail(format!("seed {seed}: {action:?} refused: {e}")))?;
        // One frame for all viewers, as the room does.
        let mut frame = Frame::new(&game, &events);
        for (i, stream) in streams.iter_mut().enumerate() {
            let before_v = stream.v;
            let text = stream.update(&mut frame).expect("started streams update");
            let Ok(ServerMsg::Update { v, patch, .. }) = serde_json::from_str::<ServerMsg>(&text) else {
                return Err(TestCaseError::fail(format!("not an update: {text}")));
            };
            prop_assert_eq!(v, before_v + 1, "versions are contiguous");
            let patch: json_patch::Patch = serde_json::from_value(patch)
                .map_err(|e| TestCaseError::fail(format!("seed {seed}: bad patch {e}: {text}")))?;
            json_patch::patch(&mut held[i], &patch)
                .map_err(|e| TestCaseError::fail(format!("seed {seed}: patch fails {e}: {text}")))?;
            let expected = serde_json::to_value(game.view_state(viewers[i])).unwrap();
            prop_assert!(
                held[i] == expected,
                "seed {seed}: after {action:?} by {seat}, {:?}'s patched view differs from its view; patch {text}",
                viewers[i]
            );
        }
        // Now and then a viewer reconnects: it restarts from a snapshot at its version.
        if chaos.below(50) == 0 {
            let i = chaos.below(streams.len() as u32) as usize;
            streams[i].reset();
            held[i] = snapshot_view(&streams[i].snapshot(&mut Frame::new(&game, &[])));
        }
    }
    Ok(())
}

/// Plays one game of `scenario` with the options drawn for it.
fn play_drawn(
    seed: u64,
    players: u8,
    scenario: Option<Scenario>,
    all_helpers: bool,
    paired: bool,
    trades: bool,
) -> Result<(), TestCaseError> {
    // Barbarian Invasion is for 3–4 players.
    let players = if scenario == Some(Scenario::Barbarians) {
        3 + players % 2
    } else {
        players
    };
    let config = GameConfig {
        all_helpers: scenario == Some(Scenario::Helpers) && all_helpers,
        five_six_turns: (paired && players >= 5).then_some(FiveSixTurns::Paired),
        ..GameConfig::with_scenario(players, scenario)
    };
    play(config, seed, trades)
}

// Two tests, so that the two halves run on two test threads at once (one proptest runs
// its cases one after another); each has half of the games.
proptest! {
    #![proptest_config(ProptestConfig {
        cases: (games() / 40).max(1),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    #[test]
    fn patched_views_equal_new_views_base_and_helpers(
        seed in any::<u64>(),
        players in 3u8..=6,
        scenario in prop_oneof![Just(None), Just(Some(Scenario::Helpers))],
        all_helpers in any::<bool>(),
        paired in any::<bool>(),
        trades in any::<bool>(),
    ) {
        play_drawn(seed, players, scenario, all_helpers, paired, trades)?;
    }

    #[test]
    fn patched_views_equal_new_views_frenemies_and_barbarians(
        seed in any::<u64>(),
        players in 3u8..=6,
        scenario in prop_oneof![Just(Some(Scenario::Frenemies)), Just(Some(Scenario::Barbarians))],
        all_helpers in any::<bool>(),
        paired in any::<bool>(),
        trades in any::<bool>(),
    ) {
        play_drawn(seed, players, scenario, all_helpers, paired, trades)?;
    }
}
