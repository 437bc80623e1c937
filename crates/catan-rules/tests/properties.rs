//! Property tests over many random complete games.
//!
//! Each case is one game, driven by the random bot from a proptest-chosen seed. After every
//! action: all invariants (`Game::check_invariants`); every action listed as legal for the
//! acting seat is accepted; random actions are either listed as legal or refused with the
//! state unchanged; each seat's view is the spectator's with its seat parts laid over it;
//! now and then, the game's position sets up an identical game. At the end: a winner at or
//! above the target within the turn cap, and seed + action log replays to the identical
//! state.
//!
//! `CATAN_PROPTEST_GAMES` sets the number of games per player count (default 300; CI 500;
//! the 5–6 player runs use half).

use catan_bots::RandomBot;
use catan_rules::barbarians::BarbariansAction;
use catan_rules::frenemies::{FrenemiesAction, Guild};
use catan_rules::HelpersAction;
use catan_rules::{
    Action, DevCard, FiveSixTurns, Game, GameConfig, Helper, LegalActions, Requirement, Resource,
    ResourceSet, Rng, Scenario, Seat, SeatSet, Viewer,
};
use proptest::prelude::*;

const TURN_CAP: u32 = 5000;

/// The turn cap of a variant: Barbarian Invasion's random games are longer (the random
/// bot picks a kind of action first there; median about 440 turns, the longest seen about
/// 2,300 in 3,000 four-player games), and every one must still end.
fn turn_cap(config: &GameConfig) -> u32 {
    match config.scenario {
        Some(Scenario::Barbarians) => 10_000,
        _ => TURN_CAP,
    }
}

fn games() -> u32 {
    std::env::var("CATAN_PROPTEST_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

fn random_resource(rng: &mut Rng) -> Resource {
    Resource::from_index(rng.below(5) as usize)
}

/// Gold for a trade: none two times in three, else 1–3 coins.
fn random_gold(rng: &mut Rng) -> u16 {
    rng.below(6).saturating_sub(3) as u16
}

fn random_set(rng: &mut Rng) -> ResourceSet {
    let mut s = ResourceSet::EMPTY;
    for _ in 0..rng.below(4) {
        s[random_resource(rng)] += 1;
    }
    s
}

/// Any action at all, legal or not, with parameters in and slightly out of range.
fn random_action(rng: &mut Rng, game: &Game) -> Action {
    let t = game.topology();
    let edge = rng.below(t.edge_count() as u32 + 3) as u8;
    let corner = rng.below(t.corner_count() as u32 + 3) as u8;
    let hex = rng.below(t.hex_count() as u32 + 2) as u8;
    let seat = rng.below(game.players() as u32 + 1) as u8;
    let card = DevCard::ALL[rng.below(5) as usize];
    let maybe_hex = |rng: &mut Rng| (rng.below(4) != 0).then(|| rng.below(t.hex_count() as u32 + 1) as u8);
    match rng.below(55) {
        48 => Action::Barbarians(BarbariansAction::PlaceKnight { edge }),
        49 => Action::Barbarians(BarbariansAction::Treason {
            from: [maybe_hex(rng), maybe_hex(rng)],
            to: [maybe_hex(rng), maybe_hex(rng)],
        }),
        50 => Action::Barbarians(BarbariansAction::Intrigue { hex }),
        51 => Action::Barbarians(BarbariansAction::MoveKnight {
            from: edge,
            to: rng.below(t.edge_count() as u32 + 2) as u8,
            grain: rng.below(2) == 0,
        }),
        52 => Action::Barbarians(BarbariansAction::BuyWithGold {
            resource: random_resource(rng),
        }),
        53 => Action::Barbarians(BarbariansAction::TradeForGold {
            give: random_resource(rng),
        }),
        54 => Action::Barbarians(BarbariansAction::StealFrom { victim: seat }),
        37 => Action::Frenemies(FrenemiesAction::OfferGift {
            to: seat,
            resource: random_resource(rng),
        }),
        38 => Action::Frenemies(FrenemiesAction::AcceptGift),
        39 => Action::Frenemies(FrenemiesAction::RejectGift),
        40 => Action::Frenemies(FrenemiesAction::AskOtherGift {
            resource: random_resource(rng),
        }),
        41 => Action::Frenemies(FrenemiesAction::RedeemTraders {
            give: random_resource(rng),
            get: random_resource(rng),
        }),
        42 => Action::Frenemies(FrenemiesAction::RedeemMerchants {
            resource: random_resource(rng),
        }),
        43 => Action::Frenemies(FrenemiesAction::RedeemRoadBuilders { edge }),
        44 => Action::Frenemies(FrenemiesAction::RedeemScholars),
        45 => Action::Frenemies(FrenemiesAction::RedeemMasterBuilders),
        46 => Action::Frenemies(FrenemiesAction::ExchangeToken),
        47 => Action::Frenemies(FrenemiesAction::ReturnToken {
            guild: Guild::ALL[rng.below(5) as usize],
        }),
        19 => Action::Helpers(HelpersAction::UseAsla {
            resource: random_resource(rng),
            first: seat,
            second: if rng.below(2) == 0 {
                None
            } else {
                Some(rng.below(7) as u8)
            },
        }),
        20 => Action::Helpers(HelpersAction::AslaReturn {
            resource: random_resource(rng),
        }),
        21 => Action::Helpers(HelpersAction::BuildRoadWithYngvi {
            edge,
            replace: random_resource(rng),
            with: random_resource(rng),
        }),
        22 => Action::Helpers(HelpersAction::UseHilda {
            resource: random_resource(rng),
        }),
        23 => Action::Helpers(HelpersAction::DeclineHilda),
        24 => Action::Helpers(HelpersAction::UseHogni {
            from: edge,
            to: rng.below(t.edge_count() as u32) as u8,
        }),
        25 => Action::Helpers(HelpersAction::ThorolfTake {
            resource: random_resource(rng),
        }),
        26 => Action::Helpers(HelpersAction::BuyDevelopmentCardWithDiara {
            replace: (rng.below(2) == 0).then(|| random_resource(rng)),
            with: (rng.below(2) == 0).then(|| random_resource(rng)),
        }),
        27 => Action::Helpers(HelpersAction::DiaraKeep {
            index: rng.below(4) as u8,
        }),
        28 => Action::Helpers(HelpersAction::UseRyan { target: seat }),
        29 => Action::Helpers(HelpersAction::RyanTake {
            resource: random_resource(rng),
        }),
        30 => Action::Helpers(HelpersAction::UseGregor {
            corner,
            city: rng.below(2) == 0,
        }),
        31 => Action::Helpers(HelpersAction::UseStina {
            give: random_resource(rng),
            get: random_set(rng),
        }),
        32 => Action::Helpers(HelpersAction::UseDigur { desert: hex }),
        33 => Action::Helpers(HelpersAction::UseKaja {
            resource: random_resource(rng),
        }),
        34 => Action::Helpers(HelpersAction::UseCarla { card }),
        35 => Action::Helpers(HelpersAction::HelperFlip),
        36 => Action::Helpers(HelpersAction::HelperExchange {
            helper: Helper::ALL[rng.below(12) as usize],
        }),
        0 => Action::RollDice,
        1 => Action::BuildRoad { edge },
        2 => Action::BuildSettlement { corner },
        3 => Action::BuildCity { corner },
        4 => Action::BuyDevelopmentCard,
        5 => Action::PlayKnight,
        6 => Action::PlayRoadBuilding,
        7 => Action::PlayYearOfPlenty {
            first: random_resource(rng),
            second: random_resource(rng),
        },
        8 => Action::PlayMonopoly {
            resource: random_resource(rng),
        },
        9 => Action::MoveRobber {
            hex,
            victim: if rng.below(2) == 0 { None } else { Some(seat) },
        },
        10 => Action::Discard {
            cards: random_set(rng),
        },
        11 => Action::MaritimeTrade {
            give: random_resource(rng),
            get: random_resource(rng),
        },
        12 => Action::OfferTrade {
            give: random_set(rng),
            get: random_set(rng),
            give_gold: random_gold(rng),
            get_gold: random_gold(rng),
            to: SeatSet(rng.below(64) as u8),
        },
        13 => Action::AcceptTrade,
        14 => Action::DeclineTrade,
        15 => Action::CounterOffer {
            give: random_set(rng),
            get: random_set(rng),
            give_gold: random_gold(rng),
            get_gold: random_gold(rng),
        },
        16 => Action::ConfirmTrade { with: seat },
        17 => Action::CancelTrade,
        _ => Action::EndTurn,
    }
}

/// True if `action` is what `legal` offers, directly or by filling a requirement.
fn covered(legal: &LegalActions, action: &Action) -> bool {
    // Year of Plenty is listed once per pair, in resource order.
    let action = &match *action {
        Action::PlayYearOfPlenty { first, second } if second < first => Action::PlayYearOfPlenty {
            first: second,
            second: first,
        },
        a => a,
    };
    legal.actions.contains(action)
        || legal.requirements.iter().any(|r| {
            matches!(
                (r, action),
                (Requirement::Discard { .. }, Action::Discard { .. })
                    | (
                        Requirement::UseStina { .. },
                        Action::Helpers(HelpersAction::UseStina { .. })
                    )
                    | (Requirement::OfferTrade, Action::OfferTrade { .. })
                    | (Requirement::CounterOffer, Action::CounterOffer { .. })
            )
        })
}

fn play_checked_game(players: u8, seed: u64, trades: bool) -> Result<(), TestCaseError> {
    play_checked(GameConfig::with_players(players), seed, trades)
}

fn play_checked(config: GameConfig, seed: u64, trades: bool) -> Result<(), TestCaseError> {
    let mut game = Game::new(config, seed).unwrap();
    let mut bot = RandomBot::new(seed).with_trades(trades);
    let mut chaos = Rng::new(seed ^ 0xdead_beef);
    let mut log: Vec<(Seat, Action)> = Vec::new();
    let mut legal = LegalActions::default();
    while !game.is_over() {
        let cap = turn_cap(&config);
        prop_assert!(
            game.turn() <= cap,
            "seed {seed}: no winner after {cap} turns (may still score: {})",
            game.may_still_score()
        );
        let seat = game.next_actor().expect("a running game waits on someone");

        // Every listed action is accepted.
        game.legal_into(seat, &mut legal);
        prop_assert!(
            !legal.is_empty(),
            "seed {seed}: awaited seat {seat} has nothing to do"
        );
        for &a in &legal.actions {
            let mut probe = game.clone();
            if let Err(e) = probe.apply(seat, a) {
                return Err(TestCaseError::fail(format!(
                    "seed {seed}: listed {a:?} for {seat} refused: {e}"
                )));
            }
        }
        // Random actions by random seats: listed, or refused with the state unchanged.
        for _ in 0..4 {
            let who = chaos.below(game.players() as u32) as Seat;
            let a = random_action(&mut chaos, &game);
            let mut probe = game.clone();
            match probe.apply(who, a) {
                Ok(_) => {
                    let l = game.legal_actions(who);
                    prop_assert!(covered(&l, &a), "seed {seed}: unlisted {a:?} by {who} accepted");
                }
                Err(_) => prop_assert!(probe == game, "seed {seed}: refused {a:?} changed the state"),
            }
        }

        let action = bot.choose(&game, seat).expect("bot finds a move");
        if let Err(e) = game.apply(seat, action) {
            return Err(TestCaseError::fail(format!(
                "seed {seed}: bot's {action:?} refused: {e}"
            )));
        }
        log.push((seat, action));
        if let Err(e) = game.check_invariants() {
            return Err(TestCaseError::fail(format!(
                "seed {seed}: after {action:?} by {seat}: {e}"
            )));
        }
        // A seat's view is the spectator's view with the seat's own parts laid over it
        // (servers build views that way).
        let public = game.view_state(Viewer::Spectator);
        for s in 0..game.players() {
            let mut view = public.clone();
            view.overlay(game.seat_parts(s));
            prop_assert!(
                view == game.view_state(Viewer::Seat(s)),
                "seed {seed}: after {action:?} by {seat}, seat {s}'s view is not the spectator's with its seat parts"
            );
        }
        // Every position a game reaches is one `from_position` accepts and reads back.
        if log.len().is_multiple_of(23) {
            let position = game.position();
            match Game::from_position(config, &position, seed) {
                Ok(copy) => prop_assert!(copy.position() == position, "seed {seed}: position differs"),
                Err(e) => {
                    return Err(TestCaseError::fail(format!(
                        "seed {seed}: position after {action:?} refused: {e}"
                    )))
                }
            }
        }
    }
    let winner = game.winner().unwrap();
    prop_assert!(game.victory_points(winner) >= game.config().victory_points);
    let replayed = Game::replay(config, seed, &log)
        .map_err(|e| TestCaseError::fail(format!("seed {seed}: replay failed: {e}")))?;
    prop_assert!(replayed == game, "seed {seed}: replay differs");
    Ok(())
}

fn cases(divisor: u32) -> ProptestConfig {
    ProptestConfig {
        cases: (games() / divisor).max(1),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cases(1))]
    #[test]
    fn random_games_3_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked_game(3, seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(1))]
    #[test]
    fn random_games_4_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked_game(4, seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_5_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked_game(5, seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_6_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked_game(6, seed, trades)?;
    }
}

fn helpers(players: u8, all_helpers: bool) -> GameConfig {
    GameConfig {
        scenario: Some(Scenario::Helpers),
        all_helpers,
        ..GameConfig::with_players(players)
    }
}

// The Helpers: the base invariants plus one helper per player and all 12 tiles accounted
// for (display + held + out of the game), checked by `check_invariants`.
proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_helpers_4_players(seed in any::<u64>(), trades in any::<bool>(), all in any::<bool>()) {
        play_checked(helpers(4, all), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_helpers_6_players(seed in any::<u64>(), trades in any::<bool>(), all in any::<bool>()) {
        play_checked(helpers(6, all), seed, trades)?;
    }
}

fn frenemies(players: u8) -> GameConfig {
    GameConfig::with_scenario(players, Some(Scenario::Frenemies))
}

// Frenemies: the base invariants plus token conservation (supply + held + redeemed = the
// set's size, per guild) and VP markers (held + left = 8), checked by `check_invariants`;
// refused actions (random Frenemies actions included) leave the game unchanged.
proptest! {
    #![proptest_config(cases(1))]
    #[test]
    fn random_games_frenemies_3_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(frenemies(3), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(1))]
    #[test]
    fn random_games_frenemies_4_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(frenemies(4), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(1))]
    #[test]
    fn random_games_frenemies_6_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(frenemies(6), seed, trades)?;
    }
}

fn barbarians(players: u8) -> GameConfig {
    GameConfig::with_scenario(players, Some(Scenario::Barbarians))
}

// Barbarian Invasion: the base invariants plus barbarians conserved (supply + board +
// prisoners = 30, at most 3 a hex, only on the coast), knights conserved (board + supply =
// 6 a player) and one a path, the 26 cards conserved, harbors consistent with the
// conquered buildings, checked by `check_invariants` (gold is unsigned: never negative);
// every game ends or reaches a dead end (`may_dead_end`); refused actions (random
// scenario actions included) change nothing. Half the count of games per player count
// (1,000 each in CI) keeps the cost modest: these games are long.
proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_barbarians_3_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(barbarians(3), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_barbarians_4_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(barbarians(4), seed, trades)?;
    }
}

/// `config` with Paired Players instead of the Special Building Phase.
fn paired(config: GameConfig) -> GameConfig {
    GameConfig {
        five_six_turns: Some(FiveSixTurns::Paired),
        ..config
    }
}

// Paired Players (5–6): the same invariants and legality checks over player 2's parts
// (builds, bank trades, one development card, a Knight's robber, helpers and favors), and
// replay; random actions by every seat during a part are listed or refused unchanged.
proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_paired_5_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(paired(GameConfig::with_players(5)), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(2))]
    #[test]
    fn random_games_paired_6_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(paired(GameConfig::with_players(6)), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(4))]
    #[test]
    fn random_games_paired_helpers_5_players(seed in any::<u64>(), trades in any::<bool>(), all in any::<bool>()) {
        play_checked(paired(helpers(5, all)), seed, trades)?;
    }
}

proptest! {
    #![proptest_config(cases(4))]
    #[test]
    fn random_games_paired_frenemies_6_players(seed in any::<u64>(), trades in any::<bool>()) {
        play_checked(paired(frenemies(6)), seed, trades)?;
    }
}
