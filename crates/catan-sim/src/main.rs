//! `catan-sim`: plays complete games between random bots on one thread.
//!
//! `catan-sim --games N --players P [--seed S] [--check] [--trades] [--five-six-turns paired]`
//! The last line printed is `games/s: <number>`. Exits non-zero if any game breaks an
//! invariant (`--check`, after every action) or fails to finish within the turn cap.

use catan_bots::RandomBot;
use catan_rules::{Event, FiveSixTurns, Game, GameConfig, Scenario, TokenPlacement};
use clap::Parser;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(name = "catan-sim", about = "Play complete Catan games between random bots")]
struct Args {
    /// Number of games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Players per game (3–6; 5–6 use the larger island).
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Check every invariant after every action.
    #[arg(long)]
    check: bool,
    /// Let the bots propose and counter domestic trades (off for the speed figure).
    #[arg(long)]
    trades: bool,
    /// Turn limit after which a game counts as failed.
    #[arg(long, default_value_t = 5000)]
    turn_cap: u32,
    /// Victory point target (default: the scenario's, 10 or 11 for Frenemies).
    #[arg(long)]
    victory_points: Option<u8>,
    /// Token placement: spiral, random or beginner.
    #[arg(long, default_value = "spiral")]
    tokens: String,
    /// Special Building Phase on/off (default: on for 5–6 players).
    #[arg(long)]
    special_building: Option<bool>,
    /// 5–6 players: `special_building` (the default) or `paired` (Paired Players).
    #[arg(long)]
    five_six_turns: Option<String>,
    /// Scenario: `helpers` (The Helpers) or `frenemies` (Catan Frenemies).
    #[arg(long)]
    scenario: Option<String>,
    /// The Helpers: every remaining helper goes to the display.
    #[arg(long)]
    all_helpers: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let tokens = match args.tokens.as_str() {
        "spiral" => TokenPlacement::Spiral,
        "random" => TokenPlacement::Random,
        "beginner" => TokenPlacement::Beginner,
        other => {
            eprintln!("unknown --tokens {other} (spiral, random, beginner)");
            return ExitCode::from(2);
        }
    };
    let scenario = match args.scenario.as_deref() {
        None | Some("none") => None,
        Some("helpers") => Some(Scenario::Helpers),
        Some("frenemies") => Some(Scenario::Frenemies),
        Some(other) => {
            eprintln!("unknown --scenario {other} (helpers, frenemies)");
            return ExitCode::from(2);
        }
    };
    let five_six_turns = match args.five_six_turns.as_deref() {
        None => None,
        Some("special_building") => Some(FiveSixTurns::SpecialBuilding),
        Some("paired") => Some(FiveSixTurns::Paired),
        Some(other) => {
            eprintln!("unknown --five-six-turns {other} (special_building, paired)");
            return ExitCode::from(2);
        }
    };
    let config = GameConfig {
        scenario,
        all_helpers: args.all_helpers,
        players: args.players,
        victory_points: args
            .victory_points
            .unwrap_or(Scenario::default_victory_points(scenario)),
        tokens,
        special_building: args.special_building,
        five_six_turns,
        ..GameConfig::default()
    };
    if let Err(e) = config.validate() {
        eprintln!("{e}");
        return ExitCode::from(2);
    }

    let mut events: Vec<Event> = Vec::with_capacity(64);
    let mut wins = vec![0u64; args.players as usize];
    let (mut actions, mut turns, mut failures) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let mut game = Game::new(config, seed).expect("validated config");
        let mut bot = RandomBot::new(seed).with_trades(args.trades);
        let result = loop {
            if game.is_over() {
                break Ok(());
            }
            if game.turn() > args.turn_cap {
                break Err(format!("no winner after {} turns", args.turn_cap));
            }
            let Some(seat) = game.next_actor() else {
                break Err("nobody to act".into());
            };
            let Some(action) = bot.choose(&game, seat) else {
                break Err(format!("seat {seat} is awaited but has no legal action"));
            };
            events.clear();
            if let Err(e) = game.apply_into(seat, action, &mut events) {
                break Err(format!("legal action {action:?} of seat {seat} refused: {e}"));
            }
            if args.check {
                if let Err(e) = game.check_invariants() {
                    break Err(format!("after {action:?} by seat {seat}: {e}"));
                }
            }
        };
        actions += game.actions_applied() as u64;
        turns += game.turn() as u64;
        match result {
            Ok(()) => wins[game.winner().unwrap() as usize] += 1,
            Err(e) => {
                failures += 1;
                eprintln!("game {i} (seed {seed}) failed: {e}");
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let games = args.games as f64;
    println!(
        "players: {}  games: {}  failed: {failures}  checked: {}  trades: {}  scenario: {}",
        args.players,
        args.games,
        args.check,
        args.trades,
        args.scenario.as_deref().unwrap_or("none")
    );
    println!("wins by seat: {wins:?}");
    println!(
        "mean actions/game: {:.1}  mean turns/game: {:.1}",
        actions as f64 / games,
        turns as f64 / games
    );
    println!("us/action: {:.3}", secs * 1e6 / actions.max(1) as f64);
    println!("games/s: {:.1}", games / secs);
    if failures > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
