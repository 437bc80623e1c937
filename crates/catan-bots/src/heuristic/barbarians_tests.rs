//! Barbarian Invasion's choices checked in seeded games (there is no position API for
//! the scenario's state yet): each test plays to the situations it judges and counts them,
//! so that it cannot pass vacuously.

use super::super::eval::{leader, Eval};
use super::super::seen::{bit, bits, Seen};
use super::super::HeuristicBot;
use super::*;
use crate::RandomBot;
use catan_rules::{Event, Game, GameConfig, Phase, Scenario};

fn config() -> GameConfig {
    GameConfig::with_scenario(4, Some(Scenario::Barbarians))
}

/// Who sits at a seat in [`play`].
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    New,
    Old,
    Random,
}

/// Plays a Barbarian Invasion game with `kinds[seat]` at each seat, calling `look`
/// with the position, the acting seat, its kind and its action before it is applied,
/// and `after` with the position and events after it.
fn play(
    seed: u64,
    kinds: [Kind; 4],
    mut look: impl FnMut(&Game, Seat, Kind, &Action),
    mut after: impl FnMut(&Game, Seat, Kind, &Action, &[Event]),
) -> Game {
    let mut game = Game::new(config(), seed).unwrap();
    let mut new = HeuristicBot::new(seed);
    let mut old = HeuristicBot::new(seed).without_barbarian_features();
    let mut random = RandomBot::new(seed);
    while !game.is_over() && game.turn() < 600 {
        let seat = game.next_actor().unwrap();
        let kind = kinds[seat as usize];
        let a = match kind {
            Kind::New => new.choose(&game, seat),
            Kind::Old => old.choose(&game, seat),
            Kind::Random => random.choose(&game, seat),
        }
        .unwrap();
        look(&game, seat, kind, &a);
        let events = game.apply(seat, a).unwrap();
        after(&game, seat, kind, &a, &events);
    }
    assert_eq!(new.fallbacks + old.fallbacks, 0);
    game
}

const MIXED: [Kind; 4] = [Kind::New, Kind::Random, Kind::New, Kind::Random];

/// Coastal hexes beside `edge`.
fn coast_at(game: &Game, edge: u8) -> impl Iterator<Item = u8> + '_ {
    let b = game.barbarians_state().unwrap();
    game.topology().edge_hexes[edge as usize]
        .into_iter()
        .filter(move |&h| h != NONE && b.coastal.contains(&h))
}

/// Knights of `mask` on `hex`'s paths.
fn count(game: &Game, hex: u8, mask: u128) -> u8 {
    game.topology().hex_edges[hex as usize]
        .iter()
        .filter(|&&e| mask & bit(e) != 0)
        .count() as u8
}

/// True if one more knight on `edge` makes the knights outnumber the barbarians of a
/// coastal hex there that they do not outnumber now.
fn tips(game: &Game, edge: u8) -> bool {
    let b = game.barbarians_state().unwrap();
    let all = b.all_knights();
    coast_at(game, edge).any(|h| {
        let n = b.barbarians[h as usize];
        let k = count(game, h, all);
        n > 0 && k <= n && k + 1 > n
    })
}

#[test]
fn landing_odds_name_three_numbers_and_follow_the_pips() {
    let total: f32 = (2..=12).filter(|&n| n != 7).map(landing).sum();
    assert!((total - 3.0).abs() < 1e-4, "{total}");
    assert!(landing(6) > landing(5) && landing(5) > landing(4) && landing(3) > landing(2));
    assert!((landing(2) - landing(12)).abs() < 1e-6);
    // Drawing without repeats lifts rare numbers above three times their share.
    assert!(landing(2) > 3.0 / 30.0 && landing(6) < 3.0 * 5.0 / 30.0);
    assert_eq!(landing(7), 0.0);
}

#[test]
fn conquest_risk_grows_with_barbarians_and_inner_hexes_never_fall() {
    let game = Game::new(config(), 1).unwrap();
    let seen = Seen::new(&game, 0);
    let risks = Risks::new(&seen);
    for &h in seen.coastal() {
        let r: Vec<f32> = (0..4).map(|b| risks.of(h, b)).collect();
        assert!(
            r[0] < r[1] && r[1] < r[2] && r[2] < r[3] && r[3] == 1.0,
            "hex {h}: {r:?}"
        );
    }
    for h in 0..seen.topo.hex_count() as u8 {
        if !seen.is_coastal(h) {
            assert_eq!(risks.of(h, 2), 0.0);
            assert_eq!(hex_factor(&seen, h), 1.0);
        }
    }
}

#[test]
fn set_up_corners_that_can_fall_cost_their_points_and_the_castle_is_safe() {
    let mut cases = 0;
    for seed in 0..20 {
        let game = Game::new(config(), seed).unwrap();
        let seen = Seen::new(&game, game.next_actor().unwrap());
        let castle = seen.castle().unwrap();
        for c in 0..seen.topo.corner_count() as u8 {
            let hexes = seen.topo.corner_hexes[c as usize];
            let land: Vec<u8> = hexes.into_iter().filter(|&h| h != NONE).collect();
            let p = setup_penalty(&seen, c, 2.0);
            if land.iter().all(|&h| seen.is_coastal(h)) {
                cases += 1;
                assert!(p > 0.0, "seed {seed}: corner {c} can fall");
            } else {
                assert!(p <= 0.0, "seed {seed}: corner {c} never falls");
            }
            if land.contains(&castle) {
                assert!(p < 0.0, "the castle's corners are preferred");
            }
        }
    }
    assert!(cases > 100);
}

#[test]
fn set_up_buildings_avoid_corners_that_can_fall() {
    // The same set-up positions, placed by the bot with and without the features:
    // with them, fewer set-up buildings stand where only coastal hexes surround them.
    let exposed = |kind: Kind| {
        let mut n = 0;
        for seed in 0..60 {
            let mut game = Game::new(config(), seed).unwrap();
            let mut bot = HeuristicBot::new(seed);
            if kind == Kind::Old {
                bot = bot.without_barbarian_features();
            }
            while matches!(game.phase(), Phase::SetupSettlement | Phase::SetupRoad { .. }) {
                let seat = game.next_actor().unwrap();
                let a = bot.choose(&game, seat).unwrap();
                if let Action::BuildSettlement { corner } = a {
                    let seen = Seen::new(&game, seat);
                    let land = seen.topo.corner_hexes[corner as usize]
                        .into_iter()
                        .filter(|&h| h != NONE);
                    if land.clone().all(|h| seen.is_coastal(h)) {
                        n += 1;
                    }
                }
                game.apply(seat, a).unwrap();
            }
        }
        n
    };
    let (new, old) = (exposed(Kind::New), exposed(Kind::Old));
    assert!(old >= 20, "the test needs exposed corners to be tempting: {old}");
    assert!(
        new * 3 <= old,
        "exposed set-up buildings: {new} with the features, {old} without"
    );
}

#[test]
fn knights_move_only_to_tip_battles_or_guard_the_coast() {
    // Every move the bot chooses (but a knight leaving the castle, which must) ends
    // beside a coastal hex holding barbarians or one of the bot's buildings (a guard);
    // a move paid with grain makes its knights outnumber the barbarians of a hex
    // there; a good share of moves win a battle.
    let (mut moves, mut grain, mut wins) = (0, 0, 0);
    for seed in 0..40 {
        let forced = std::cell::Cell::new(false);
        play(
            seed,
            MIXED,
            |game, _, kind, a| {
                if kind == Kind::New {
                    let mut legal = catan_rules::LegalActions::default();
                    game.legal_into(game.current(), &mut legal);
                    forced.set(!legal.actions.contains(&Action::EndTurn));
                }
                let _ = a;
            },
            |game, _, kind, a, _| {
                let Action::Barbarians(BA::MoveKnight { from, to, grain: g }) = *a else {
                    return;
                };
                if kind != Kind::New || forced.get() {
                    return;
                }
                moves += 1;
                let b = game.barbarians_state().unwrap();
                let seat = game.current();
                assert!(
                    coast_at(game, to).any(|h| b.barbarians[h as usize] > 0 || stake(game, seat, h) > 0),
                    "seed {seed}: knight {from}->{to} wanders"
                );
                let win = coast_at(game, to).any(|h| {
                    let n = b.barbarians[h as usize];
                    n > 0 && count(game, h, b.all_knights()) > n
                });
                wins += win as u32;
                if g {
                    grain += 1;
                    assert!(win, "seed {seed}: a grain move {from}->{to} that wins nothing");
                }
            },
        );
    }
    assert!(
        moves > 50 && wins * 5 > moves,
        "{moves} moves, {wins} winning, {grain} with grain"
    );
}

#[test]
fn card_knights_go_where_battles_are() {
    // Black Knight: beside a coastal hex holding barbarians whenever a free path is,
    // and on a path where it wins a battle at once in most cases where one exists.
    // Knighthood: on a castle path from which such a path (or one that makes a guard
    // of two with another knight) is within 3 moves.
    let (mut black, mut tipping, mut tipped, mut castle) = (0, 0, 0, 0);
    for seed in 0..80 {
        play(
            seed,
            MIXED,
            |game, seat, kind, a| {
                let (Kind::New, Phase::Barbarians(BarbariansPhase::PlaceKnight { castle: c })) =
                    (kind, game.phase())
                else {
                    return;
                };
                let Action::Barbarians(BA::PlaceKnight { edge }) = *a else {
                    panic!("{a:?}")
                };
                let seen = Seen::new(game, seat);
                let b = game.barbarians_state().unwrap();
                let free = !seen.all_knights() & ((1u128 << seen.topo.edge_count()) - 1);
                let cas = castle_edges(&seen);
                let battle =
                    |e: u8| free & bit(e) != 0 && coast_at(game, e).any(|h| b.barbarians[h as usize] > 0);
                if c {
                    // Or beside a coastal hex where it joins another knight: two
                    // outnumber any single landing.
                    let guard = |e: u8| {
                        free & bit(e) != 0 && coast_at(game, e).any(|h| count(game, h, b.all_knights()) > 0)
                    };
                    let from_path = |p: u8| {
                        bits(seen.topo.edges_within(p, FREE_STEPS) & !cas).any(|e| battle(e) || guard(e))
                    };
                    if bits(cas & free).any(from_path) {
                        castle += 1;
                        assert!(
                            from_path(edge),
                            "seed {seed}: castle path {edge} reaches no battle or guard"
                        );
                    }
                } else if bits(free).any(battle) {
                    black += 1;
                    assert!(
                        battle(edge),
                        "seed {seed}: Black Knight on {edge} beside no barbarians"
                    );
                    if bits(free).any(|e| tips(game, e)) {
                        tipping += 1;
                        tipped += tips(game, edge) as u32;
                    }
                }
            },
            |_, _, _, _, _| {},
        );
    }
    assert!(
        black >= 5 && castle >= 20,
        "{black} Black Knights, {castle} Knighthoods"
    );
    assert!(
        tipping >= 3 && tipped * 2 >= tipping,
        "{tipped}/{tipping} Black Knights win at once"
    );
}

/// Buildings of `seat` on coastal hex `h`.
fn stake(game: &Game, seat: Seat, h: u8) -> u32 {
    (game.player(seat).buildings & game.topology().hex_corner_mask[h as usize]).count_ones()
}

#[test]
fn treason_sends_barbarians_away_from_the_bot_and_towards_others() {
    // The chosen move changes the barbarians next to the bot's own buildings less
    // (or lowers them more) than the average listed choice, and those next to
    // opponents' more.
    let (mut cases, mut own_better, mut opp_better) = (0, 0, 0);
    for seed in 0..120 {
        play(
            seed,
            MIXED,
            |game, seat, kind, a| {
                if kind != Kind::New || game.phase() != Phase::Barbarians(BarbariansPhase::Treason) {
                    return;
                }
                let mut legal = catan_rules::LegalActions::default();
                game.legal_into(seat, &mut legal);
                let shift = |x: &Action| {
                    let Action::Barbarians(BA::Treason { from, to }) = *x else {
                        unreachable!()
                    };
                    let mut own = 0i32;
                    let mut opp = 0i32;
                    for (hexes, sign) in [(from, -1), (to, 1)] {
                        for h in hexes.into_iter().flatten() {
                            own += sign * stake(game, seat, h) as i32;
                            opp += sign
                                * (0..4)
                                    .filter(|&o| o != seat)
                                    .map(|o| stake(game, o, h))
                                    .sum::<u32>() as i32;
                        }
                    }
                    (own, opp)
                };
                let n = legal.actions.len() as f32;
                let mean_own = legal.actions.iter().map(|x| shift(x).0 as f32).sum::<f32>() / n;
                let mean_opp = legal.actions.iter().map(|x| shift(x).1 as f32).sum::<f32>() / n;
                let (own, opp) = shift(a);
                cases += 1;
                own_better += (own as f32 <= mean_own) as u32;
                opp_better += (opp as f32 >= mean_opp) as u32;
            },
            |_, _, _, _, _| {},
        );
    }
    assert!(cases >= 20, "{cases} Treasons");
    assert!(own_better * 10 >= cases * 9, "{own_better}/{cases} spare the bot");
    assert!(opp_better * 10 >= cases * 7, "{opp_better}/{cases} hit opponents");
}

#[test]
fn intrigue_takes_barbarians_off_the_bots_own_coast() {
    // When barbarians stand next to the bot's buildings, Intrigue takes one from
    // there (nearly always), and never from a hex whose battle the bot alone wins
    // this turn anyway (those barbarians are its prisoners already).
    let (mut cases, mut near, mut from_near) = (0, 0, 0);
    for seed in 0..200 {
        play(
            seed,
            MIXED,
            |game, seat, kind, a| {
                if kind != Kind::New || game.phase() != Phase::Barbarians(BarbariansPhase::Intrigue) {
                    return;
                }
                let Action::Barbarians(BA::Intrigue { hex }) = *a else {
                    unreachable!()
                };
                cases += 1;
                let b = game.barbarians_state().unwrap();
                let occupied = |h: u8| b.barbarians[h as usize] > 0;
                let mine = |h: u8| stake(game, seat, h) > 0;
                let won_alone = |h: u8| {
                    let k = count(game, h, b.all_knights());
                    k > b.barbarians[h as usize] && k == count(game, h, b.knights[seat as usize])
                };
                if b.coastal.iter().any(|&h| occupied(h) && !won_alone(h)) {
                    assert!(
                        !won_alone(hex),
                        "seed {seed}: Intrigue took its own prisoner-to-be on {hex}"
                    );
                }
                if b.coastal.iter().any(|&h| occupied(h) && mine(h)) {
                    near += 1;
                    from_near += mine(hex) as u32;
                }
            },
            |_, _, _, _, _| {},
        );
    }
    assert!(
        cases >= 20 && near >= 10,
        "{cases} Intrigues, {near} near the bot"
    );
    assert!(
        from_near * 10 >= near * 8,
        "{from_near}/{near} from the bot's own coast"
    );
}

#[test]
fn gold_buys_what_the_plan_lacks_and_steals_hit_the_leader() {
    let (mut buys, mut steals, mut at_leader) = (0, 0, 0);
    for seed in 0..40 {
        play(
            seed,
            MIXED,
            |game, seat, kind, a| {
                if kind != Kind::New {
                    return;
                }
                let seen = Seen::new(game, seat);
                match *a {
                    Action::Barbarians(BA::BuyWithGold { resource }) => {
                        buys += 1;
                        // The plan lacks it.
                        let hand = seen.hand();
                        let eval = Eval::new(&seen);
                        let plan = super::super::plan::choose(&seen, &eval, &mut Vec::new());
                        assert!(
                            hand[resource] < plan.cost[resource],
                            "seed {seed}: bought {resource:?} holding {hand:?} for {plan:?}"
                        );
                    }
                    Action::Barbarians(BA::StealFrom { victim }) => {
                        if let Some(l) = leader(&seen) {
                            if seen.cards(l) > 0 {
                                steals += 1;
                                at_leader += (victim == l) as u32;
                            }
                        }
                    }
                    Action::Barbarians(BA::TradeForGold { .. }) => {
                        assert!(
                            seen.hand().total() >= 8,
                            "seed {seed}: cards to gold from a small hand"
                        );
                    }
                    _ => {}
                }
            },
            |_, _, _, _, _| {},
        );
    }
    assert!(buys >= 20, "{buys} gold buys");
    assert!(
        steals >= 5 && at_leader == steals,
        "{at_leader}/{steals} steals from the leader"
    );
}

#[test]
fn an_odd_prisoner_counts_towards_who_leads() {
    let mut cases = 0;
    for seed in 0..10 {
        let game = play(seed, MIXED, |_, _, _, _| {}, |_, _, _, _, _| {});
        let seen = Seen::new(&game, 1);
        for s in 0..4 {
            let p = seen.prisoners(s);
            let ev = super::super::eval::effective_vp(&seen, s);
            let base = seen.public_vp(s) as f32 + 0.2 * seen.dev_count(s) as f32;
            assert_eq!(
                ev - base,
                if p % 2 == 1 { 0.5 } else { 0.0 },
                "seed {seed} seat {s}"
            );
            cases += (p % 2) as u32;
        }
        let _ = Eval::new(&seen);
    }
    assert!(cases >= 3, "{cases}");
}

#[test]
fn the_features_win_prisoners_and_games_against_the_plain_bot() {
    // Two seats each, swapped every other game.
    let (mut wins, mut prisoners) = ([0u32; 2], [0u32; 2]);
    for seed in 0..40 {
        let kinds = if seed % 2 == 0 {
            [Kind::New, Kind::Old, Kind::New, Kind::Old]
        } else {
            [Kind::Old, Kind::New, Kind::Old, Kind::New]
        };
        let game = play(seed, kinds, |_, _, _, _| {}, |_, _, _, _, _| {});
        let side = |s: Seat| (kinds[s as usize] != Kind::New) as usize;
        if let Some(w) = game.winner() {
            wins[side(w)] += 1;
        }
        for s in 0..4 {
            prisoners[side(s)] += game.barbarians_state().unwrap().prisoners[s as usize] as u32;
        }
    }
    assert!(wins[0] >= 3 * wins[1], "wins new/old: {wins:?}");
    assert!(
        prisoners[0] > 2 * prisoners[1],
        "prisoners new/old: {prisoners:?}"
    );
}

#[test]
fn the_same_seed_plays_the_same_game() {
    // Deterministic given its seed: the bot's choices replay action for action.
    let log = |seed: u64| {
        let mut actions = Vec::new();
        let game = play(
            seed,
            [Kind::New; 4],
            |_, seat, _, a| actions.push((seat, *a)),
            |_, _, _, _, _| {},
        );
        (actions, game.winner())
    };
    for seed in [3, 11] {
        let (a, w) = log(seed);
        assert!(a.len() > 200 && w.is_some(), "seed {seed}: {} actions", a.len());
        assert_eq!((a, w), log(seed), "seed {seed}");
    }
}
