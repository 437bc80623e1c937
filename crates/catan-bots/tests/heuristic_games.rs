//! The heuristic bot over many complete games of every variant the engine has.
//!
//! Each game seats either heuristic bots only or one heuristic bot against random bots that
//! propose and counter trades (so the heuristic bot answers every kind of offer), the
//! seats rotating over the games. After every action: the acting bot's action was among
//! its seat's legal actions (listed, or filling a requirement exactly), the rules accepted
//! it, every invariant holds, and the heuristic bot never had to fall back to a safe
//! action. Every game ends with a winner within the turn cap. Over the run the heuristic
//! seats must have used each variant's features: bank and domestic trades, every kind of
//! development card, the Special Building Phase and Paired Players, every helper and the
//! display, every guild, gifts, VP markers, connections and harmless robber moves.
//!
//! `CATAN_PROPTEST_GAMES` sets the games per variant (default 300 locally; CI 500). The
//! feature checks need at least 100 games per variant and are skipped below that.

use catan_bots::{Bot, BotLevel};
use catan_rules::frenemies::{Earned, FrenemiesAction, FrenemiesEvent, Guild};
use catan_rules::{
    Action, DevCard, Event, FiveSixTurns, Game, GameConfig, Helper, HelpersAction, HelpersEvent,
    LegalActions, Phase, Requirement, Scenario, Seat,
};
use std::collections::BTreeMap;

const TURN_CAP: u32 = 1000;

fn games() -> u32 {
    std::env::var("CATAN_PROPTEST_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// True if `a` is listed, or is of the kind a listed requirement asks for (the rules then
/// check the terms when it is applied).
fn covered(legal: &LegalActions, a: &Action) -> bool {
    legal.actions.contains(a)
        || legal.requirements.iter().any(|r| {
            matches!(
                (r, a),
                (Requirement::Discard { .. }, Action::Discard { .. })
                    | (Requirement::OfferTrade, Action::OfferTrade { .. })
                    | (Requirement::CounterOffer, Action::CounterOffer { .. })
                    | (
                        Requirement::UseStina { .. },
                        Action::Helpers(HelpersAction::UseStina { .. })
                    )
            )
        })
}

/// What the heuristic seats did, by kind.
#[derive(Default)]
struct Tally(BTreeMap<String, u64>);

impl Tally {
    fn add(&mut self, key: impl Into<String>) {
        *self.0.entry(key.into()).or_default() += 1;
    }
    fn merge(&mut self, other: Tally) {
        for (k, v) in other.0 {
            *self.0.entry(k).or_default() += v;
        }
    }
    fn count(&self, key: &str) -> u64 {
        self.0.get(key).copied().unwrap_or(0)
    }
}

/// Records what heuristic seats (`heur[seat]`) did: the acting seat's action, and the
/// events that credit a heuristic seat.
fn record(
    tally: &mut Tally,
    heur: &[bool],
    (phase, paired): (Phase, bool),
    seat: Seat,
    action: &Action,
    events: &[Event],
) {
    if heur[seat as usize] {
        if paired
            && matches!(
                action,
                Action::BuildRoad { .. }
                    | Action::BuildSettlement { .. }
                    | Action::BuildCity { .. }
                    | Action::BuyDevelopmentCard
            )
        {
            tally.add("paired_build");
        }
        if let Phase::SpecialBuild { .. } = phase {
            if matches!(
                action,
                Action::BuildRoad { .. }
                    | Action::BuildSettlement { .. }
                    | Action::BuildCity { .. }
                    | Action::BuyDevelopmentCard
            ) {
                tally.add("special_build");
            }
        }
        match action {
            Action::Frenemies(FrenemiesAction::ExchangeToken) => tally.add("exchange_token"),
            Action::Frenemies(FrenemiesAction::OfferGift { .. }) => tally.add("gift_offered"),
            Action::CounterOffer { .. } => tally.add("counter_offer"),
            Action::Barbarians(b) => tally.add(b.name()),
            _ => {}
        }
    }
    for e in events {
        let (who, key): (Seat, String) = match e {
            Event::MaritimeTrade { seat, .. } => (*seat, "maritime".into()),
            Event::TradeCompleted { seat, with, .. } => {
                if heur[*with as usize] {
                    tally.add("trade_completed_as_responder");
                }
                (*seat, "trade_completed_as_proposer".into())
            }
            Event::DevelopmentCardPlayed { seat, card } => (*seat, format!("played_{card:?}")),
            Event::LongestRoad { holder: Some(s), .. } => (*s, "longest_road".into()),
            Event::LargestArmy { holder: Some(s), .. } => (*s, "largest_army".into()),
            Event::Helpers(HelpersEvent::HelperUsed { seat, helper }) => {
                (*seat, format!("helper_{helper:?}"))
            }
            Event::Helpers(HelpersEvent::HelperExchanged { seat, .. }) => (*seat, "helper_exchanged".into()),
            Event::Frenemies(FrenemiesEvent::FavorRedeemed { seat, guild, .. }) => {
                (*seat, format!("redeemed_{guild:?}"))
            }
            Event::Frenemies(FrenemiesEvent::GiftAccepted { from, to, .. }) => {
                if heur[*to as usize] {
                    tally.add("gift_received");
                }
                (*from, "gift_given".into())
            }
            Event::Frenemies(FrenemiesEvent::VpMarkerTaken { seat }) => (*seat, "vp_marker".into()),
            Event::Frenemies(FrenemiesEvent::NetworksConnected { builder, .. }) => {
                (*builder, "connected".into())
            }
            Event::Frenemies(FrenemiesEvent::TokensDrawn {
                seat,
                reason: Earned::Robber,
                ..
            }) => (*seat, "harmless_robber".into()),
            _ => continue,
        };
        if heur[who as usize] {
            tally.add(key);
        }
    }
}

/// Plays one game with `levels[seat]` at each seat; checks every action.
fn play(config: GameConfig, seed: u64, levels: &[BotLevel], tally: &mut Tally) -> Result<(), String> {
    let mut game = Game::new(config, seed).unwrap();
    let mut bots: Vec<Bot> = levels
        .iter()
        .enumerate()
        .map(|(s, &l)| Bot::new(l, seed ^ s as u64).with_trades(true))
        .collect();
    let heur: Vec<bool> = levels.iter().map(|&l| l == BotLevel::Heuristic).collect();
    let mut legal = LegalActions::default();
    let mut events = Vec::new();
    while !game.is_over() {
        // Barbarian Invasion's random seats make long games (median 1,090 turns among
        // random bots alone).
        let cap = if config.scenario == Some(Scenario::Barbarians) {
            5 * TURN_CAP
        } else {
            TURN_CAP
        };
        if game.turn() > cap {
            return Err(format!("seed {seed}: no winner after {cap} turns"));
        }
        let seat = game.next_actor().ok_or(format!("seed {seed}: nobody to act"))?;
        game.legal_into(seat, &mut legal);
        let action = bots[seat as usize]
            .choose(&game, seat)
            .ok_or(format!("seed {seed}: seat {seat} awaited but chose nothing"))?;
        if !covered(&legal, &action) {
            return Err(format!("seed {seed}: seat {seat} sent unlisted {action:?}"));
        }
        let phase = (game.phase(), game.paired_part().is_some());
        events.clear();
        game.apply_into(seat, action, &mut events)
            .map_err(|e| format!("seed {seed}: {action:?} of seat {seat} refused: {e}"))?;
        game.check_invariants()
            .map_err(|e| format!("seed {seed}: after {action:?} by {seat}: {e}"))?;
        record(tally, &heur, phase, seat, &action, &events);
    }
    for (s, b) in bots.iter().enumerate() {
        if let Bot::Heuristic(h) = b {
            if h.fallbacks > 0 {
                return Err(format!(
                    "seed {seed}: the heuristic bot of seat {s} fell back {} times",
                    h.fallbacks
                ));
            }
        }
    }
    let w = game.winner().unwrap();
    if game.victory_points(w) < config.victory_points {
        return Err(format!("seed {seed}: winner below the target"));
    }
    tally.add(if heur[w as usize] { "won" } else { "lost" });
    Ok(())
}

/// Plays the variant's games (even ones heuristic only, odd ones one heuristic seat among
/// random bots, moving round the table) and returns the tally.
fn run(config: GameConfig, seed0: u64) -> (u32, Tally) {
    let n = config.players as usize;
    let count = games();
    let mut tally = Tally::default();
    for g in 0..count {
        let levels: Vec<BotLevel> = if g % 2 == 0 {
            vec![BotLevel::Heuristic; n]
        } else {
            (0..n)
                .map(|s| {
                    if s == (g as usize / 2) % n {
                        BotLevel::Heuristic
                    } else {
                        BotLevel::Random
                    }
                })
                .collect()
        };
        if let Err(e) = play(config, seed0 + g as u64, &levels, &mut tally) {
            panic!("{e}");
        }
    }
    (count, tally)
}

/// Asserts the heuristic seats did each of `keys` at least once (with enough games).
fn used(count: u32, tally: &Tally, keys: &[&str]) {
    eprintln!("{count} games: {:?}", tally.0);
    if count < 100 {
        return;
    }
    let missing: Vec<&str> = keys.iter().copied().filter(|k| tally.count(k) == 0).collect();
    assert!(missing.is_empty(), "never used: {missing:?}; tally {:?}", tally.0);
}

const BASE_FEATURES: &[&str] = &[
    "maritime",
    "trade_completed_as_proposer",
    "trade_completed_as_responder",
    "counter_offer",
    "played_Knight",
    "played_Monopoly",
    "played_YearOfPlenty",
    "played_RoadBuilding",
    "longest_road",
    "largest_army",
];

#[test]
fn base_four_players() {
    let (count, tally) = run(GameConfig::with_players(4), 1_000_000);
    used(count, &tally, BASE_FEATURES);
}

#[test]
fn base_three_players() {
    let (count, tally) = run(GameConfig::with_players(3), 2_000_000);
    used(count, &tally, BASE_FEATURES);
}

#[test]
fn five_and_six_players_with_special_building() {
    let (c5, t5) = run(GameConfig::with_players(5), 3_000_000);
    used(c5, &t5, &["special_build", "maritime", "played_Knight"]);
    let (c6, t6) = run(GameConfig::with_players(6), 4_000_000);
    used(c6, &t6, &["special_build", "maritime", "played_Knight"]);
}

#[test]
fn five_and_six_players_paired() {
    for (players, seed0) in [(5, 10_000_000), (6, 11_000_000)] {
        let config = GameConfig {
            five_six_turns: Some(FiveSixTurns::Paired),
            ..GameConfig::with_players(players)
        };
        let (c, t) = run(config, seed0);
        used(c, &t, &["paired_build", "maritime", "played_Knight"]);
    }
}

#[test]
fn the_helpers() {
    // Carla (swap a development card) is worth least of all to a bot whose cards are
    // mostly useful; it takes her only when holding a dead card, which may not happen.
    let mut keys: Vec<String> = Helper::ALL
        .iter()
        .filter(|&&h| h != Helper::Carla)
        .map(|h| format!("helper_{h:?}"))
        .collect();
    keys.push("helper_exchanged".into());
    let keys: Vec<&str> = keys.iter().map(|s| s.as_str()).collect();
    // Over both islands, with the usual display and with every helper in it.
    let (c4, mut t) = run(GameConfig::with_scenario(4, Some(Scenario::Helpers)), 5_000_000);
    let mut all = GameConfig::with_scenario(5, Some(Scenario::Helpers));
    all.all_helpers = true;
    let (c5, t5) = run(all, 6_000_000);
    t.merge(t5);
    used(c4.min(c5), &t, &keys);
}

#[test]
fn frenemies() {
    let mut keys: Vec<String> = Guild::ALL.iter().map(|g| format!("redeemed_{g:?}")).collect();
    keys.extend(
        [
            "gift_given",
            "vp_marker",
            "connected",
            "harmless_robber",
            "exchange_token",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let keys: Vec<&str> = keys.iter().map(|s| s.as_str()).collect();
    let (c, t) = run(GameConfig::with_scenario(4, Some(Scenario::Frenemies)), 7_000_000);
    used(c, &t, &keys);
    let (c, t) = run(GameConfig::with_scenario(3, Some(Scenario::Frenemies)), 8_000_000);
    used(c, &t, &keys);
    let (c, t) = run(GameConfig::with_scenario(6, Some(Scenario::Frenemies)), 9_000_000);
    used(c, &t, &keys);
}

/// Barbarian Invasion: the heuristic bot plays it with the scenario's features (knights
/// placed and moved, Treason and Intrigue, gold bought and traded for, steals after a 7);
/// every action it sends must be legal, with no fallback, and every game must end.
#[test]
fn barbarian_invasion() {
    let keys = [
        "maritime",
        "place_knight",
        "move_knight",
        "treason",
        "intrigue",
        "buy_with_gold",
        "trade_for_gold",
        "steal_from",
    ];
    let (c, t) = run(
        GameConfig::with_scenario(4, Some(Scenario::Barbarians)),
        12_000_000,
    );
    used(c, &t, &keys);
    let (c, t) = run(
        GameConfig::with_scenario(3, Some(Scenario::Barbarians)),
        13_000_000,
    );
    used(c, &t, &keys);
}

#[test]
fn dev_card_names_match_the_tally() {
    // The tally keys above are the Debug names of the cards.
    assert_eq!(format!("{:?}", DevCard::YearOfPlenty), "YearOfPlenty");
}
