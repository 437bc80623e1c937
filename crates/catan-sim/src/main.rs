//! `catan-sim`: plays complete games between bots on one thread.
//!
//! `catan-sim --games N --players P [--seed S] [--check] [--trades] [--five-six-turns paired]
//! [--bots L,L,…] [--timing]`
//! `--bots` names one bot level per seat (`heuristic`, `random`; default all random); the
//! seats rotate who goes first over the games, and `win rates:` reports each one's share of
//! the games won, in the order given. The last line printed is `games/s: <number>`. Exits
//! non-zero if any game breaks an invariant (`--check`, after every action) or fails to
//! finish within the turn cap.

use catan_bots::{Bot, BotLevel, RandomBot};
use catan_rules::{Event, FiveSixTurns, Game, GameConfig, Scenario, Seat, TokenPlacement};
use clap::Parser;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(name = "catan-sim", about = "Play complete Catan games between bots")]
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
    /// Turn limit after which a game counts as failed (default 5000; 30000 for Barbarian
    /// Invasion, whose random games have a long tail: with random play, conquered coasts
    /// are won back and prisoners taken only slowly).
    #[arg(long)]
    turn_cap: Option<u32>,
    /// Victory point target (default: the scenario's: 10, 11 for Frenemies, 12 for
    /// Barbarian Invasion).
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
    /// Scenario: `helpers` (The Helpers), `frenemies` (Catan Frenemies) or `barbarians`
    /// (Barbarian Invasion).
    #[arg(long)]
    scenario: Option<String>,
    /// The Helpers: every remaining helper goes to the display.
    #[arg(long)]
    all_helpers: bool,
    /// One bot level per seat, comma-separated: `heuristic` or `random` (default: all
    /// random). Seats rotate who goes first over the games.
    #[arg(long, value_delimiter = ',')]
    bots: Vec<BotLevel>,
    /// Time every bot decision and print p50/p99 per level.
    #[arg(long)]
    timing: bool,
}

/// The bots of one game: one per seat of the `--bots` list, or one shared random bot (the
/// default, exactly as before `--bots` existed).
enum Seats {
    Shared(RandomBot),
    Listed(Vec<Bot>),
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
        Some("barbarians") => Some(Scenario::Barbarians),
        Some(other) => {
            eprintln!("unknown --scenario {other} (helpers, frenemies, barbarians)");
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
    let turn_cap = args.turn_cap.unwrap_or(match scenario {
        Some(Scenario::Barbarians) => 30_000,
        _ => 5000,
    });
    if let Err(e) = config.validate() {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    let n = args.players as usize;
    if !args.bots.is_empty() && args.bots.len() != n {
        eprintln!(
            "--bots names {} bots for {} players: give one level per seat",
            args.bots.len(),
            n
        );
        return ExitCode::from(2);
    }
    let levels: Vec<BotLevel> = if args.bots.is_empty() {
        vec![BotLevel::Random; n]
    } else {
        args.bots.clone()
    };
    let shared = levels.iter().all(|&l| l == BotLevel::Random);
    // Decision times in nanoseconds, by level (with --timing).
    let mut times: Vec<Vec<u32>> = vec![Vec::new(); BotLevel::ALL.len()];
    let mut won_by_bot = vec![0u64; n];
    let mut game_turns: Vec<u32> = Vec::with_capacity(args.games as usize);

    let mut events: Vec<Event> = Vec::with_capacity(64);
    let mut wins = vec![0u64; args.players as usize];
    let (mut actions, mut turns, mut failures) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let mut game = Game::new(config, seed).expect("validated config");
        // Bot k of the list sits at seat (first + k + i) mod n: over n games each bot
        // starts once.
        let first = game.next_actor().expect("a new game waits on its first player") as usize;
        let bot_at = |seat: Seat| (seat as usize + 2 * n - first - (i as usize % n)) % n;
        let mut bots = if shared {
            Seats::Shared(RandomBot::new(seed).with_trades(args.trades))
        } else {
            Seats::Listed(
                levels
                    .iter()
                    .enumerate()
                    .map(|(k, &level)| Bot::new(level, seed ^ (k as u64) << 56).with_trades(args.trades))
                    .collect(),
            )
        };
        let result = loop {
            if game.is_over() {
                break Ok(());
            }
            if game.turn() > turn_cap {
                // Live: someone can still score (a slow game, not a dead end).
                let live = if game.may_still_score() {
                    "live"
                } else {
                    "dead end"
                };
                break Err(format!("no winner after {turn_cap} turns ({live})"));
            }
            let Some(seat) = game.next_actor() else {
                break Err("nobody to act".into());
            };
            let started = args.timing.then(Instant::now);
            let choice = match &mut bots {
                Seats::Shared(bot) => bot.choose(&game, seat),
                Seats::Listed(list) => list[bot_at(seat)].choose(&game, seat),
            };
            if let Some(t) = started {
                let level = levels[bot_at(seat)] as usize;
                times[level].push(t.elapsed().as_nanos().min(u32::MAX as u128) as u32);
            }
            let Some(action) = choice else {
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
        game_turns.push(game.turn());
        match result {
            Ok(()) => {
                let winner = game.winner().unwrap();
                wins[winner as usize] += 1;
                won_by_bot[bot_at(winner)] += 1;
            }
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
    let names: Vec<&str> = levels.iter().map(|l| l.name()).collect();
    println!("bots: {}", names.join(","));
    let rates: Vec<String> = won_by_bot
        .iter()
        .map(|&w| format!("{:.2}", w as f64 / games.max(1.0)))
        .collect();
    println!("win rates: {}", rates.join(" "));
    println!("wins by bot: {won_by_bot:?}");
    game_turns.sort_unstable();
    println!("median turns: {}", median(&game_turns));
    for level in BotLevel::ALL {
        let t = &mut times[level as usize];
        if t.is_empty() {
            continue;
        }
        t.sort_unstable();
        let q = |p: f64| t[((t.len() - 1) as f64 * p).round() as usize] as f64 / 1e3;
        println!(
            "decision us ({level}): p50 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}  decisions {}",
            q(0.5),
            q(0.99),
            q(0.999),
            q(1.0),
            t.len()
        );
    }
    println!("us/action: {:.3}", secs * 1e6 / actions.max(1) as f64);
    println!("games/s: {:.1}", games / secs);
    if failures > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The median of sorted values (the mean of the middle two for an even count, rounded).
fn median(sorted: &[u32]) -> u32 {
    match sorted.len() {
        0 => 0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]).div_ceil(2),
    }
}
