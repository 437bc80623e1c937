//! Unit tests for The Helpers: each advantage's main effect and each limit in helpers.md.

use super::{Helper, Pending};
use crate::action::{Action, DevCard, Seat};
use crate::board::Terrain;
use crate::config::{GameConfig, Scenario};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, Game, Phase};
use crate::helpers::{HelpersAction, HelpersEvent};
use crate::resources::{Resource, ResourceSet};
use crate::view::Viewer;

fn config(players: u8) -> GameConfig {
    GameConfig {
        scenario: Some(Scenario::Helpers),
        ..GameConfig::with_players(players)
    }
}

/// A game just past set-up (first legal choices), in the first player's roll phase.
fn game(players: u8, seed: u64) -> Game {
    game_with(config(players), seed)
}

fn game_with(config: GameConfig, seed: u64) -> Game {
    let mut g = Game::new(config, seed).unwrap();
    while matches!(g.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
        let s = g.next_actor().unwrap();
        let a = g.legal_actions(s).actions[0];
        g.apply(s, a).unwrap();
    }
    assert_eq!(g.phase, Phase::Roll);
    g
}

/// Puts `helper` (sun side, usable) in front of `seat`, swapping tiles so that all 12
/// stay accounted for.
fn give_helper(g: &mut Game, seat: Seat, helper: Helper) {
    let h = g.scenario.helpers_mut().unwrap();
    let old = h.held[seat as usize].unwrap();
    if old != helper {
        if let Some(other) = (0..6).find(|&s| h.held[s] == Some(helper)) {
            h.held[other] = Some(old);
        } else if h.display & helper.bit() != 0 {
            h.display = (h.display & !helper.bit()) | old.bit();
        } else {
            h.out = (h.out & !helper.bit()) | old.bit();
        }
        h.held[seat as usize] = Some(helper);
    }
    h.moon[seat as usize] = false;
    h.received_turn[seat as usize] = 0;
    h.used_turn[seat as usize] = u32::MAX;
    g.check_invariants().unwrap();
}

/// Moves cards from the bank to `seat` (resources stay conserved).
fn give(g: &mut Game, seat: Seat, cards: ResourceSet) {
    g.bank.sub(&cards);
    g.players[seat as usize].hand.add(&cards);
}

/// Empties `seat`'s hand into the bank.
fn clear_hand(g: &mut Game, seat: Seat) {
    let hand = g.players[seat as usize].hand;
    g.pay(seat, &hand);
}

/// Puts the game in `seat`'s main phase (after the roll).
fn main_phase(g: &mut Game, seat: Seat) {
    g.current = seat;
    g.phase = Phase::Main;
    g.rolled = true;
}

fn refused(g: &mut Game, seat: Seat, a: Action) -> RuleError {
    let before = g.clone();
    let e = g.apply(seat, a).expect_err("should be refused");
    assert!(*g == before, "refused {a:?} changed the state");
    e
}

fn ok(g: &mut Game, seat: Seat, a: Action) -> Vec<Event> {
    let ev = g.apply(seat, a).unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
    g.check_invariants().unwrap();
    ev
}

fn pending(g: &Game) -> Pending {
    g.scenario.helpers().unwrap().pending
}

/// A resource Kaja may take now.
fn kaja_resource(g: &Game) -> Resource {
    g.board.terrain[g.robber as usize]
        .resource()
        .unwrap_or(Resource::Ore)
}

// ----- set-up and the general rules -----------------------------------------------------

#[test]
fn setup_deals_the_starting_stack_in_snake_order() {
    for players in [3, 4, 6] {
        let g = game(players, 5);
        let h = g.scenario.helpers().unwrap();
        // The last seat in snake order (the first player's predecessor's second placement
        // comes first in round two: the seat before `first`… i.e. the last of round one)
        // takes the top helper, number N.
        let last_of_round_one = (g.first + players - 1) % players;
        assert_eq!(
            h.held[last_of_round_one as usize],
            Some(Helper::ALL[players as usize - 1])
        );
        assert_eq!(h.held[g.first as usize], Some(Helper::Asla));
        assert_eq!(h.stack_len, 0);
        assert_eq!(h.display.count_ones(), (players as u32).min(12 - players as u32));
        g.check_invariants().unwrap();
    }
}

#[test]
fn all_helpers_variant_puts_every_remaining_helper_on_display() {
    let mut c = config(4);
    c.all_helpers = true;
    let g = Game::new(c, 1).unwrap();
    assert_eq!(g.scenario.helpers().unwrap().display.count_ones(), 8);
    assert_eq!(g.scenario.helpers().unwrap().out, 0);
}

#[test]
fn sun_side_may_flip_moon_side_must_exchange() {
    let mut g = game(4, 1);
    let s = g.current;
    give_helper(&mut g, s, Helper::Kaja);
    let r = kaja_resource(&g);
    ok(&mut g, s, Action::Helpers(HelpersAction::UseKaja { resource: r }));
    assert_eq!(pending(&g), Pending::FlipOrExchange { seat: s });
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    assert!(g.scenario.helpers().unwrap().moon[s as usize]);
    assert_eq!(g.phase, Phase::Roll, "resumes where it was");
    // Next own turn: moon side up, use again, flipping is refused.
    g.turn += 1;
    let r = kaja_resource(&g);
    ok(&mut g, s, Action::Helpers(HelpersAction::UseKaja { resource: r }));
    let e = refused(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    assert!(e.to_string().contains("moon"), "{e}");
    let take = super::helpers_in(g.scenario.helpers().unwrap().display)
        .next()
        .unwrap();
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::HelperExchange { helper: take }),
    );
    let h = g.scenario.helpers().unwrap();
    assert_eq!(h.held[s as usize], Some(take));
    assert!(!h.moon[s as usize]);
    assert!(h.display & Helper::Kaja.bit() != 0, "returned to the display");
}

#[test]
fn not_usable_in_the_turn_received_nor_twice_a_turn() {
    let mut g = game(4, 2);
    let s = g.current;
    give_helper(&mut g, s, Helper::Kaja);
    g.scenario.helpers_mut().unwrap().received_turn[s as usize] = g.turn;
    let r = g.board.terrain[g.robber as usize]
        .resource()
        .unwrap_or(Resource::Ore);
    let e = refused(&mut g, s, Action::Helpers(HelpersAction::UseKaja { resource: r }));
    assert!(e.to_string().contains("turn it was received"), "{e}");
    assert!(!g
        .legal_actions(s)
        .actions
        .iter()
        .any(|a| matches!(a, Action::Helpers(HelpersAction::UseKaja { .. }))));
    g.scenario.helpers_mut().unwrap().received_turn[s as usize] = 0;
    assert!(!g.view(Viewer::Spectator).helpers.unwrap().held[s as usize].used);
    ok(&mut g, s, Action::Helpers(HelpersAction::UseKaja { resource: r }));
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    let e = refused(&mut g, s, Action::Helpers(HelpersAction::UseKaja { resource: r }));
    assert!(e.to_string().contains("once per turn"), "{e}");
    // Every view shows that the helper was used this turn (not only the event stream).
    for viewer in [Viewer::Spectator, Viewer::Seat(s), Viewer::Seat((s + 1) % 4)] {
        let held = &g.view(viewer).helpers.unwrap().held;
        assert!(held[s as usize].used);
        assert!(held.iter().filter(|h| h.used).count() == 1);
    }
}

#[test]
fn exchanged_helper_waits_for_a_later_turn() {
    let mut g = game(4, 3);
    let s = g.current;
    give_helper(&mut g, s, Helper::Kaja);
    let r = g.board.terrain[g.robber as usize]
        .resource()
        .unwrap_or(Resource::Ore);
    ok(&mut g, s, Action::Helpers(HelpersAction::UseKaja { resource: r }));
    let take = super::helpers_in(g.scenario.helpers().unwrap().display)
        .next()
        .unwrap();
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::HelperExchange { helper: take }),
    );
    assert_eq!(g.scenario.helpers().unwrap().received_turn[s as usize], g.turn);
}

#[test]
fn no_helper_in_the_special_building_phase() {
    let mut c = config(4);
    c.special_building = Some(true);
    let mut g = Game::new(c, 4).unwrap();
    while matches!(g.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
        let s = g.next_actor().unwrap();
        let a = g.legal_actions(s).actions[0];
        g.apply(s, a).unwrap();
    }
    let cur = g.current;
    main_phase(&mut g, cur);
    ok(&mut g, cur, Action::EndTurn);
    let Phase::SpecialBuild { seat } = g.phase else {
        panic!("{:?}", g.phase)
    };
    give_helper(&mut g, seat, Helper::Kaja);
    give(&mut g, seat, ResourceSet::splat(2));
    let r = g.board.terrain[g.robber as usize]
        .resource()
        .unwrap_or(Resource::Ore);
    refused(
        &mut g,
        seat,
        Action::Helpers(HelpersAction::UseKaja { resource: r }),
    );
    assert!(!g
        .legal_actions(seat)
        .actions
        .iter()
        .any(|a| matches!(a, Action::Helpers(HelpersAction::UseKaja { .. }))));
}

/// The helper an own-turn helper action uses, if any.
fn helper_of(a: &Action) -> Option<Helper> {
    let Action::Helpers(h) = a else { return None };
    Some(match h {
        HelpersAction::UseAsla { .. } => Helper::Asla,
        HelpersAction::BuildRoadWithYngvi { .. } => Helper::Yngvi,
        HelpersAction::UseHogni { .. } => Helper::Hogni,
        HelpersAction::BuyDevelopmentCardWithDiara { .. } => Helper::Diara,
        HelpersAction::UseRyan { .. } => Helper::Ryan,
        HelpersAction::UseGregor { .. } => Helper::Gregor,
        HelpersAction::UseStina { .. } => Helper::Stina,
        HelpersAction::UseDigur { .. } => Helper::Digur,
        HelpersAction::UseKaja { .. } => Helper::Kaja,
        HelpersAction::UseCarla { .. } => Helper::Carla,
        _ => return None,
    })
}

/// helpers.md, Decision (timing on your own turn): Digur, Kaja and Carla may be used before
/// or after the production roll; Asla, Yngvi, Högni, Diara, Ryan, Gregor and Stina only
/// after it. Each helper is set up so that its advantage is usable after the roll.
#[test]
fn own_turn_helpers_before_the_roll_only_digur_kaja_and_carla() {
    let own_turn = [
        Helper::Asla,
        Helper::Yngvi,
        Helper::Hogni,
        Helper::Diara,
        Helper::Ryan,
        Helper::Gregor,
        Helper::Stina,
        Helper::Digur,
        Helper::Kaja,
        Helper::Carla,
    ];
    for helper in own_turn {
        let mut g = game(4, 40);
        let s = g.current;
        let o = (s + 1) % 4;
        give_helper(&mut g, s, helper);
        for seat in 0..4 {
            give(&mut g, seat, ResourceSet::splat(3));
        }
        // Ryan needs an opponent ahead on visible points: o's settlement becomes a city.
        let c = crate::game::bits(g.players[o as usize].buildings).next().unwrap();
        g.cities |= bit(c);
        g.players[o as usize].cities_left -= 1;
        g.players[o as usize].settlements_left += 1;
        // Gregor needs a played knight; Carla an unplayed card.
        take_from_deck(&mut g, s, DevCard::Knight, false);
        take_from_deck(&mut g, s, DevCard::Knight, false);
        g.players[s as usize].dev[DevCard::Knight.index()] -= 1;
        g.players[s as usize].knights += 1;
        g.players[s as usize].played[DevCard::Knight.index()] += 1;
        g.cards_played[DevCard::Knight.index()] += 1;
        // Digur needs the robber off the desert.
        g.robber = (0..g.topo.hex_count() as u8)
            .find(|&h| g.board.terrain[h as usize] != Terrain::Desert)
            .unwrap();
        g.check_invariants().unwrap();
        assert_eq!(g.phase, Phase::Roll);

        let mut after = g.clone();
        after.phase = Phase::Main;
        after.rolled = true;
        let legal = after.legal_actions(s);
        let action = match helper {
            Helper::Stina => {
                assert!(legal
                    .requirements
                    .iter()
                    .any(|r| matches!(r, crate::action::Requirement::UseStina { .. })));
                Action::Helpers(HelpersAction::UseStina {
                    give: Resource::Brick,
                    get: ResourceSet::one(Resource::Ore),
                })
            }
            _ => *legal
                .actions
                .iter()
                .find(|a| helper_of(a) == Some(helper))
                .unwrap_or_else(|| panic!("{helper:?} not usable after the roll")),
        };
        ok(&mut after.clone(), s, action);

        let before = g.legal_actions(s);
        let listed = before.actions.iter().any(|a| helper_of(a) == Some(helper))
            || before
                .requirements
                .iter()
                .any(|r| matches!(r, crate::action::Requirement::UseStina { .. }));
        if helper.usable_before_roll() {
            assert!(listed, "{helper:?} is usable before the roll");
            ok(&mut g, s, action);
        } else {
            assert!(!listed, "{helper:?} is listed before the roll");
            let e = refused(&mut g, s, action);
            assert!(
                matches!(e, RuleError::WrongPhase { .. }),
                "{helper:?} before the roll: {e:?}"
            );
        }
    }
    assert_eq!(
        Helper::ALL
            .iter()
            .filter(|h| h.usable_before_roll())
            .copied()
            .collect::<Vec<_>>(),
        [Helper::Digur, Helper::Kaja, Helper::Carla]
    );
}

// ----- the twelve advantages ------------------------------------------------------------

#[test]
fn asla_takes_from_each_asked_player_and_returns_a_card_each() {
    let mut g = game(4, 6);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Asla);
    let (a, b) = ((s + 1) % 4, (s + 2) % 4);
    for x in [s, a, b] {
        clear_hand(&mut g, x);
    }
    give(&mut g, a, ResourceSet::new(0, 0, 0, 0, 1));
    give(&mut g, b, ResourceSet::new(0, 0, 0, 0, 2));
    give(&mut g, s, ResourceSet::new(0, 0, 0, 1, 0));
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseAsla {
            resource: Resource::Ore,
            first: a,
            second: Some(b),
        }),
    );
    assert_eq!(g.players[s as usize].hand[Resource::Ore], 2);
    assert!(matches!(
        pending(&g),
        Pending::AslaReturn {
            next: 0,
            count: 2,
            ..
        }
    ));
    // Build and trade are refused while the returns are pending.
    refused(&mut g, s, Action::EndTurn);
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::AslaReturn {
            resource: Resource::Grain,
        }),
    );
    assert_eq!(g.players[a as usize].hand, ResourceSet::new(0, 0, 0, 1, 0));
    // The same resource may go back.
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::AslaReturn {
            resource: Resource::Ore,
        }),
    );
    assert_eq!(g.players[b as usize].hand, ResourceSet::new(0, 0, 0, 0, 2));
    assert_eq!(pending(&g), Pending::FlipOrExchange { seat: s });
}

#[test]
fn asla_counts_as_used_when_the_asked_player_lacks_the_resource() {
    let mut g = game(4, 7);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Asla);
    let a = (s + 1) % 4;
    clear_hand(&mut g, a);
    let before = g.players[s as usize].hand;
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseAsla {
            resource: Resource::Wool,
            first: a,
            second: None,
        }),
    );
    assert_eq!(g.players[s as usize].hand, before);
    assert_eq!(pending(&g), Pending::FlipOrExchange { seat: s });
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseAsla {
            resource: Resource::Wool,
            first: s,
            second: None,
        }),
    );
}

#[test]
fn yngvi_pays_a_road_with_another_resource() {
    let mut g = game(4, 8);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Yngvi);
    clear_hand(&mut g, s);
    give(&mut g, s, ResourceSet::new(0, 1, 1, 0, 0));
    let edge = crate::game::bits(g.road_spots(s)).next().unwrap();
    refused(&mut g, s, Action::BuildRoad { edge });
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::BuildRoadWithYngvi {
            edge,
            replace: Resource::Wool,
            with: Resource::Grain,
        }),
    );
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::BuildRoadWithYngvi {
            edge,
            replace: Resource::Brick,
            with: Resource::Wool,
        }),
    );
    assert_eq!(g.edge_owner[edge as usize], s);
    assert!(g.players[s as usize].hand.is_empty());
    // Two lumber also works (next turn).
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    g.turn += 1;
    give(&mut g, s, ResourceSet::new(0, 2, 0, 0, 0));
    let edge = crate::game::bits(g.road_spots(s)).next().unwrap();
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::BuildRoadWithYngvi {
            edge,
            replace: Resource::Brick,
            with: Resource::Lumber,
        }),
    );
}

/// Finds a number whose roll gives `seat` nothing and someone else something.
fn roll_number(g: &Game, seat: Seat, gives_seat: bool) -> Option<u8> {
    (2..=12u8).filter(|&n| n != 7).find(|&n| {
        let mut h = g.clone();
        let before = h.players[seat as usize].hand;
        let mut ev = Vec::new();
        h.produce(n, &mut ev);
        (h.players[seat as usize].hand != before) == gives_seat
    })
}

#[test]
fn hilda_offers_a_card_after_a_roll_that_gave_the_holder_nothing() {
    let mut g = game(4, 9);
    let holder = (g.current + 1) % 4;
    give_helper(&mut g, holder, Helper::Hilda);
    let n = roll_number(&g, holder, false).unwrap();
    g.phase = Phase::Main;
    g.rolled = true;
    let mut ev = Vec::new();
    let receivers = g.produce(n, &mut ev);
    g.helpers_after_production(receivers);
    assert_eq!(pending(&g), Pending::HildaOffer { seat: holder });
    assert_eq!(g.next_actor(), Some(holder), "the game waits for the holder");
    let cur = g.current;
    refused(&mut g, cur, Action::EndTurn);
    let before = g.players[holder as usize].hand[Resource::Grain];
    ok(
        &mut g,
        holder,
        Action::Helpers(HelpersAction::UseHilda {
            resource: Resource::Grain,
        }),
    );
    assert_eq!(g.players[holder as usize].hand[Resource::Grain], before + 1);
    ok(&mut g, holder, Action::Helpers(HelpersAction::HelperFlip));
    assert_eq!(g.phase, Phase::Main);
}

#[test]
fn hilda_not_for_a_holder_who_received_nor_on_a_seven() {
    let mut g = game(4, 10);
    let holder = g.current;
    give_helper(&mut g, holder, Helper::Hilda);
    if let Some(n) = roll_number(&g, holder, true) {
        let mut h = g.clone();
        h.phase = Phase::Main;
        let mut ev = Vec::new();
        let receivers = h.produce(n, &mut ev);
        h.helpers_after_production(receivers);
        assert_eq!(pending(&h), Pending::None);
    }
    // A rolled 7 never offers Hilda: play until a 7 comes up.
    for _ in 0..200 {
        let mut h = g.clone();
        let ev = h.apply(holder, Action::RollDice).unwrap();
        if let Some(Event::DiceRolled { dice, .. }) = ev.first() {
            if dice[0] + dice[1] == 7 {
                assert!(!matches!(pending(&h), Pending::HildaOffer { .. }));
                return;
            }
        }
        g.rng.next_u64();
    }
    panic!("no 7 in 200 rolls");
}

#[test]
fn hilda_may_be_declined() {
    let mut g = game(4, 11);
    let holder = (g.current + 2) % 4;
    give_helper(&mut g, holder, Helper::Hilda);
    let n = roll_number(&g, holder, false).unwrap();
    g.phase = Phase::Main;
    g.rolled = true;
    let mut ev = Vec::new();
    let r = g.produce(n, &mut ev);
    g.helpers_after_production(r);
    let hand = g.players[holder as usize].hand;
    ok(&mut g, holder, Action::Helpers(HelpersAction::DeclineHilda));
    assert_eq!(g.players[holder as usize].hand, hand);
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(
        g.scenario.helpers().unwrap().used_turn[holder as usize],
        u32::MAX,
        "declining is not a use"
    );
}

/// Rolls until a 7 comes up (re-seeding the RNG), returning the events.
fn roll_seven(g: &mut Game) -> Vec<Event> {
    for k in 0..500 {
        let mut h = g.clone();
        h.rng = crate::rng::Rng::new(k);
        let s = h.current;
        let ev = h.apply(s, Action::RollDice).unwrap();
        if let Some(Event::DiceRolled { dice, .. }) = ev.first() {
            if dice[0] + dice[1] == 7 {
                *g = h;
                return ev;
            }
        }
    }
    panic!("no 7");
}

#[test]
fn thorolf_with_eight_cards_discards_nothing() {
    let mut g = game(4, 12);
    let holder = (g.current + 1) % 4;
    give_helper(&mut g, holder, Helper::Thorolf);
    clear_hand(&mut g, holder);
    give(&mut g, holder, ResourceSet::new(2, 2, 2, 1, 1));
    roll_seven(&mut g);
    assert_eq!(g.discard_pending[holder as usize], 0);
    assert_eq!(pending(&g), Pending::FlipOrExchange { seat: holder });
    ok(&mut g, holder, Action::Helpers(HelpersAction::HelperFlip));
    assert_eq!(g.players[holder as usize].hand.total(), 8);
    assert!(matches!(g.phase, Phase::Discard | Phase::MoveRobber));
}

#[test]
fn thorolf_with_five_cards_takes_one() {
    let mut g = game(4, 13);
    let holder = (g.current + 1) % 4;
    give_helper(&mut g, holder, Helper::Thorolf);
    clear_hand(&mut g, holder);
    give(&mut g, holder, ResourceSet::new(1, 1, 1, 1, 1));
    roll_seven(&mut g);
    assert_eq!(pending(&g), Pending::ThorolfTake { seat: holder });
    refused(&mut g, holder, Action::Helpers(HelpersAction::HelperFlip));
    ok(
        &mut g,
        holder,
        Action::Helpers(HelpersAction::ThorolfTake {
            resource: Resource::Ore,
        }),
    );
    assert_eq!(g.players[holder as usize].hand.total(), 6);
    ok(&mut g, holder, Action::Helpers(HelpersAction::HelperFlip));
}

#[test]
fn thorolf_does_not_act_on_a_knight() {
    let mut g = game(4, 14);
    let s = g.current;
    let holder = (s + 1) % 4;
    give_helper(&mut g, holder, Helper::Thorolf);
    g.players[s as usize].dev[DevCard::Knight.index()] = 1;
    g.deck_len -= 1; // keep the deck count honest: the knight came from the deck
    let k = (0..g.deck_len as usize)
        .rev()
        .find(|&i| g.deck[i] == DevCard::Knight)
        .unwrap();
    g.deck[k] = g.deck[g.deck_len as usize];
    ok(&mut g, s, Action::PlayKnight);
    assert_eq!(g.phase, Phase::MoveRobber);
    assert_eq!(pending(&g), Pending::None);
}

#[test]
fn diara_substitutes_a_payment_and_keeps_one_of_three() {
    let mut g = game(4, 15);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Diara);
    clear_hand(&mut g, s);
    give(&mut g, s, ResourceSet::new(1, 0, 1, 1, 0));
    let deck = g.deck_len;
    let top3: Vec<DevCard> = (0..3).map(|i| g.deck[(deck - 1 - i) as usize]).collect();
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::BuyDevelopmentCardWithDiara {
            replace: Some(Resource::Ore),
            with: Some(Resource::Brick),
        }),
    );
    assert!(g.players[s as usize].hand.is_empty());
    let Pending::DiaraKeep { count: 3, cards, .. } = pending(&g) else {
        panic!()
    };
    assert_eq!(cards.to_vec(), top3);
    // Only the user sees the cards.
    let other = g.view(Viewer::Seat((s + 1) % 4));
    let mine = g.view(Viewer::Seat(s));
    assert_ne!(
        serde_json::to_string(&other.helpers).unwrap(),
        serde_json::to_string(&mine.helpers).unwrap()
    );
    assert_eq!(mine.helpers.as_ref().unwrap().looked_at, Some(top3.clone()));
    assert_eq!(other.helpers.as_ref().unwrap().looked_at, None);
    assert_eq!(g.view(Viewer::Spectator).helpers.unwrap().looked_at, None);
    let public = serde_json::to_string(&other.helpers.as_ref().unwrap().pending).unwrap();
    assert!(
        public.contains("diara_keep") && !public.contains("cards"),
        "{public}"
    );
    ok(&mut g, s, Action::Helpers(HelpersAction::DiaraKeep { index: 1 }));
    assert_eq!(g.players[s as usize].dev[top3[1].index()], 1);
    assert_eq!(
        g.players[s as usize].dev_new[top3[1].index()],
        1,
        "counts as bought this turn"
    );
    assert_eq!(g.deck_len, deck - 1);
}

#[test]
fn diara_with_a_short_deck_looks_at_what_is_left() {
    let mut g = game(4, 16);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Diara);
    // Move all but one card out of the deck into the played pile (kept conserved).
    while g.deck_len > 1 {
        g.deck_len -= 1;
        let c = g.deck[g.deck_len as usize];
        if c == DevCard::VictoryPoint {
            g.players[3].dev[c.index()] += 1;
            continue;
        }
        g.cards_played[c.index()] += 1;
        g.players[3].played[c.index()] += 1;
        if c == DevCard::Knight {
            g.players[3].knights += 1;
        }
    }
    g.update_largest_army(&mut Vec::new());
    give(&mut g, s, ResourceSet::DEV_CARD);
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::BuyDevelopmentCardWithDiara {
            replace: None,
            with: None,
        }),
    );
    assert!(matches!(pending(&g), Pending::DiaraKeep { count: 1, .. }));
    refused(&mut g, s, Action::Helpers(HelpersAction::DiaraKeep { index: 1 }));
    ok(&mut g, s, Action::Helpers(HelpersAction::DiaraKeep { index: 0 }));
    assert_eq!(g.deck_len, 0);
}

#[test]
fn ryan_takes_from_a_leader_by_visible_points_only() {
    let mut g = game(4, 17);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Ryan);
    let t = (s + 1) % 4;
    // Equal visible points: not a target, even with hidden VP cards.
    g.players[t as usize].dev[DevCard::VictoryPoint.index()] = 1;
    let k = (0..g.deck_len as usize)
        .find(|&i| g.deck[i] == DevCard::VictoryPoint)
        .unwrap();
    g.deck_len -= 1;
    g.deck.swap(k, g.deck_len as usize);
    give(&mut g, t, ResourceSet::new(0, 0, 0, 0, 2));
    refused(&mut g, s, Action::Helpers(HelpersAction::UseRyan { target: t }));
    // Give the target a city: now a leader.
    let c = crate::game::bits(g.players[t as usize].buildings).next().unwrap();
    g.cities |= bit(c);
    g.players[t as usize].cities_left -= 1;
    g.players[t as usize].settlements_left += 1;
    ok(&mut g, s, Action::Helpers(HelpersAction::UseRyan { target: t }));
    let mine = g.view(Viewer::Seat(s)).helpers.unwrap();
    assert_eq!(mine.revealed_hand, Some(g.players[t as usize].hand));
    assert_eq!(
        g.view(Viewer::Seat((s + 2) % 4)).helpers.unwrap().revealed_hand,
        None
    );
    assert_eq!(g.view(Viewer::Spectator).helpers.unwrap().revealed_hand, None);
    let ev = ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::RyanTake {
            resource: Resource::Ore,
        }),
    );
    let took = ev
        .iter()
        .find(|e| matches!(e, Event::Helpers(HelpersEvent::RyanTook { .. })))
        .unwrap();
    assert!(matches!(
        crate::view::redact(took, Viewer::Seat(t)),
        Event::Helpers(HelpersEvent::RyanTook {
            resource: Some(_),
            ..
        })
    ));
    assert!(matches!(
        crate::view::redact(took, Viewer::Seat((s + 2) % 4)),
        Event::Helpers(HelpersEvent::RyanTook { resource: None, .. })
    ));
}

#[test]
fn gregor_trades_a_knight_for_a_cheap_city_and_army_is_reevaluated() {
    let mut g = game(4, 18);
    let s = g.current;
    let o = (s + 1) % 4;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Gregor);
    // s has 3 knights and Largest Army; o has 3 too (tie kept by the holder).
    for (seat, n) in [(s, 3u8), (o, 3u8)] {
        g.players[seat as usize].knights = n;
        for _ in 0..n {
            let k = (0..g.deck_len as usize)
                .rev()
                .find(|&i| g.deck[i] == DevCard::Knight)
                .unwrap();
            g.deck_len -= 1;
            g.deck.swap(k, g.deck_len as usize);
            g.cards_played[DevCard::Knight.index()] += 1;
            g.players[seat as usize].played[DevCard::Knight.index()] += 1;
        }
    }
    g.largest_army = Some(s);
    clear_hand(&mut g, s);
    give(&mut g, s, ResourceSet::new(0, 0, 0, 1, 2));
    let c = crate::game::bits(g.players[s as usize].buildings).next().unwrap();
    refused(&mut g, s, Action::BuildCity { corner: c });
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseGregor {
            corner: c,
            city: true,
        }),
    );
    assert!(g.is_city(c));
    assert_eq!(g.players[s as usize].knights, 2);
    assert_eq!(g.largest_army, Some(o), "the other player alone has the most now");
}

#[test]
fn stina_trades_six_brick_for_three_cards_in_one_action() {
    let mut g = game(4, 19);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Stina);
    clear_hand(&mut g, s);
    give(&mut g, s, ResourceSet::new(6, 0, 0, 0, 0));
    let l = g.legal_actions(s);
    assert!(l.requirements.contains(&crate::action::Requirement::UseStina {
        resource: Resource::Brick,
        max: 3
    }));
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseStina {
            give: Resource::Brick,
            get: ResourceSet::new(0, 1, 1, 1, 1),
        }),
    );
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseStina {
            give: Resource::Brick,
            get: ResourceSet::new(1, 0, 1, 0, 0),
        }),
    );
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseStina {
            give: Resource::Brick,
            get: ResourceSet::new(0, 0, 1, 1, 1),
        }),
    );
    assert_eq!(g.players[s as usize].hand, ResourceSet::new(0, 0, 1, 1, 1));
}

#[test]
fn digur_chases_the_robber_to_the_desert_and_takes_its_resource() {
    let mut g = game(4, 20);
    let s = g.current;
    give_helper(&mut g, s, Helper::Digur);
    let desert = g.robber;
    assert_eq!(g.board.terrain[desert as usize], Terrain::Desert);
    refused(&mut g, s, Action::Helpers(HelpersAction::UseDigur { desert }));
    let hex = (0..19u8)
        .find(|&h| g.board.terrain[h as usize] == Terrain::Mountains)
        .unwrap();
    g.robber = hex;
    let ore = g.players[s as usize].hand[Resource::Ore];
    // Before the roll is allowed.
    ok(&mut g, s, Action::Helpers(HelpersAction::UseDigur { desert }));
    assert_eq!(g.robber, desert);
    assert_eq!(g.players[s as usize].hand[Resource::Ore], ore + 1);
}

#[test]
fn digur_chooses_a_desert_on_the_five_six_board() {
    let mut g = game(6, 21);
    let s = g.current;
    give_helper(&mut g, s, Helper::Digur);
    let deserts: Vec<u8> = (0..30u8)
        .filter(|&h| g.board.terrain[h as usize] == Terrain::Desert)
        .collect();
    assert_eq!(deserts.len(), 2);
    g.robber = (0..30u8)
        .find(|&h| g.board.terrain[h as usize] == Terrain::Fields)
        .unwrap();
    let l = g.legal_actions(s);
    for &d in &deserts {
        assert!(l
            .actions
            .contains(&Action::Helpers(HelpersAction::UseDigur { desert: d })));
    }
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseDigur { desert: deserts[1] }),
    );
    assert_eq!(g.robber, deserts[1]);
}

#[test]
fn kaja_takes_the_robbers_resource_or_any_on_the_desert() {
    let mut g = game(4, 22);
    let s = g.current;
    give_helper(&mut g, s, Helper::Kaja);
    assert_eq!(g.board.terrain[g.robber as usize], Terrain::Desert);
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseKaja {
            resource: Resource::Wool,
        }),
    );
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    g.turn += 1;
    g.robber = (0..19u8)
        .find(|&h| g.board.terrain[h as usize] == Terrain::Hills)
        .unwrap();
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseKaja {
            resource: Resource::Wool,
        }),
    );
    let brick = g.players[s as usize].hand[Resource::Brick];
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseKaja {
            resource: Resource::Brick,
        }),
    );
    assert_eq!(g.players[s as usize].hand[Resource::Brick], brick + 1);
}

#[test]
fn carla_swaps_a_card_and_the_new_one_counts_as_bought() {
    let mut g = game(4, 23);
    let s = g.current;
    give_helper(&mut g, s, Helper::Carla);
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseCarla {
            card: DevCard::Knight,
        }),
    );
    // Hold a monopoly card (taken from the deck, kept conserved).
    let k = (0..g.deck_len as usize)
        .find(|&i| g.deck[i] == DevCard::Monopoly)
        .unwrap();
    g.deck_len -= 1;
    g.deck.swap(k, g.deck_len as usize);
    g.players[s as usize].dev[DevCard::Monopoly.index()] = 1;
    let top = g.deck[g.deck_len as usize - 1];
    let len = g.deck_len;
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseCarla {
            card: DevCard::Monopoly,
        }),
    );
    assert_eq!(g.deck[0], DevCard::Monopoly, "under the deck");
    assert_eq!(g.deck_len, len);
    assert_eq!(
        g.players[s as usize].dev[top.index()],
        1,
        "the top card is now in hand"
    );
    assert_eq!(g.players[s as usize].dev_new[top.index()], 1);
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    if top == DevCard::Knight {
        refused(&mut g, s, Action::PlayKnight);
    }
}

#[test]
fn carla_refused_with_an_empty_deck() {
    let mut g = game(4, 24);
    let s = g.current;
    give_helper(&mut g, s, Helper::Carla);
    while g.deck_len > 0 {
        g.deck_len -= 1;
        let c = g.deck[g.deck_len as usize];
        g.players[s as usize].dev[c.index()] += 1;
    }
    assert_eq!(
        refused(
            &mut g,
            s,
            Action::Helpers(HelpersAction::UseCarla {
                card: DevCard::Knight
            })
        ),
        RuleError::DeckEmpty
    );
}

/// Takes a card of `card`'s kind out of the deck into `seat`'s hand (bought this turn if
/// `new`).
fn take_from_deck(g: &mut Game, seat: Seat, card: DevCard, new: bool) {
    let len = g.deck_len as usize;
    let k = (0..len).find(|&i| g.deck[i] == card).unwrap();
    g.deck.swap(k, len - 1);
    g.deck_len -= 1;
    g.players[seat as usize].dev[card.index()] += 1;
    if new {
        g.players[seat as usize].dev_new[card.index()] += 1;
    }
}

/// helpers.md, Carla, Decision: when the user holds copies of the chosen kind both bought
/// this turn and earlier, a copy bought this turn goes under the deck (the playable one
/// stays).
#[test]
fn carla_returns_a_copy_bought_this_turn_first() {
    let mut g = game(4, 23);
    let s = g.current;
    give_helper(&mut g, s, Helper::Carla);
    take_from_deck(&mut g, s, DevCard::Knight, false);
    take_from_deck(&mut g, s, DevCard::Knight, true);
    // The next card drawn is a Monopoly.
    let len = g.deck_len as usize;
    let m = (0..len).find(|&i| g.deck[i] == DevCard::Monopoly).unwrap();
    g.deck.swap(m, len - 1);
    assert_eq!(g.players[s as usize].playable(DevCard::Knight), 1);
    ok(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseCarla {
            card: DevCard::Knight,
        }),
    );
    let p = g.players[s as usize];
    assert_eq!(p.dev[DevCard::Knight.index()], 1);
    assert_eq!(p.dev_new[DevCard::Knight.index()], 0, "the new copy went under");
    assert_eq!(p.playable(DevCard::Knight), 1, "the playable copy stays");
    assert_eq!(p.dev_new[DevCard::Monopoly.index()], 1);
    assert_eq!(g.deck[0], DevCard::Knight);
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    // Before the roll (Carla may be used then), the kept knight is played at once.
    assert_eq!(g.phase, Phase::Roll);
    ok(&mut g, s, Action::PlayKnight);
    g.check_invariants().unwrap();
}

#[test]
fn hogni_moves_an_end_road_and_longest_road_follows() {
    let mut g = game(4, 25);
    let s = g.current;
    main_phase(&mut g, s);
    give_helper(&mut g, s, Helper::Hogni);
    let road = crate::game::bits(g.players[s as usize].roads).next().unwrap();
    // A set-up road touches its settlement at one end only: it is an end road.
    let l = g.legal_actions(s);
    let mv = l
        .actions
        .iter()
        .find(|a| matches!(a, Action::Helpers(HelpersAction::UseHogni { from, .. }) if *from == road))
        .copied()
        .unwrap();
    let Action::Helpers(HelpersAction::UseHogni { to, .. }) = mv else {
        unreachable!()
    };
    ok(&mut g, s, mv);
    assert_eq!(g.edge_owner[road as usize], crate::board::NONE);
    assert_eq!(g.edge_owner[to as usize], s);
    assert_eq!(g.players[s as usize].roads_left, 13);
    // A road that is not an end road (both ends touch own pieces) cannot move.
    ok(&mut g, s, Action::Helpers(HelpersAction::HelperFlip));
    g.turn += 1;
    refused(
        &mut g,
        s,
        Action::Helpers(HelpersAction::UseHogni { from: 0, to: 1 }),
    );
}

/// The seam nests the scenario's actions, events and phase in one variant each; the wire
/// stays flat and tagged exactly as before.
#[test]
fn helpers_wire_format_is_flat() {
    use crate::{Action, Event, Phase};
    let a = Action::Helpers(HelpersAction::UseAsla {
        resource: Resource::Ore,
        first: 1,
        second: None,
    });
    let j = r#"{"type":"use_asla","resource":"ore","first":1,"second":null}"#;
    assert_eq!(serde_json::to_string(&a).unwrap(), j);
    assert_eq!(serde_json::from_str::<Action>(j).unwrap(), a);
    let flip = r#"{"type":"helper_flip"}"#;
    assert_eq!(
        serde_json::from_str::<Action>(flip).unwrap(),
        Action::Helpers(HelpersAction::HelperFlip)
    );
    assert!(serde_json::from_str::<Action>(r#"{"type":"use_kaja","resource":"ore","x":1}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"type":"use_kaja"}"#).is_err());
    let e = Event::Helpers(HelpersEvent::KnightRemoved { seat: 2 });
    let j = r#"{"type":"knight_removed","seat":2}"#;
    assert_eq!(serde_json::to_string(&e).unwrap(), j);
    assert_eq!(serde_json::from_str::<Event>(j).unwrap(), e);
    let p = Phase::Helpers(crate::helpers::HelpersPhase::Decision);
    let j = r#"{"phase":"helper_decision"}"#;
    assert_eq!(serde_json::to_string(&p).unwrap(), j);
    assert_eq!(serde_json::from_str::<Phase>(j).unwrap(), p);
    // Core variants still come first and still refuse unknown fields.
    assert!(serde_json::from_str::<Action>(r#"{"type":"build_road","edge":1,"x":1}"#).is_err());
}

// ----- Paired Players (five-six.md) ------------------------------------------------------

/// A paired 5–6 game with The Helpers, past set-up, in the first player's roll phase.
fn paired_game(players: u8, seed: u64) -> Game {
    let mut c = config(players);
    c.five_six_turns = Some(crate::config::FiveSixTurns::Paired);
    game_with(c, seed)
}

/// five-six.md: player 2 may use a helper during their part of a paired turn (the Helpers'
/// rules: "player 2 can play a helper during their portion of the paired turn"). Decision:
/// once in the part, which does not use up their own next turn's.
#[test]
fn paired_player_2_may_use_a_helper_once_in_their_part() {
    let mut g = paired_game(5, 30);
    let p1 = g.current;
    let p2 = (p1 + 3) % 5;
    give_helper(&mut g, p2, Helper::Kaja);
    main_phase(&mut g, p1);
    // Not in player 1's part.
    let r = kaja_resource(&g);
    refused(
        &mut g,
        p2,
        Action::Helpers(HelpersAction::UseKaja { resource: r }),
    );
    ok(&mut g, p1, Action::EndTurn);
    assert_eq!(g.current, p2);
    let r = kaja_resource(&g);
    let use_kaja = Action::Helpers(HelpersAction::UseKaja { resource: r });
    assert!(g.legal_actions(p2).actions.contains(&use_kaja));
    ok(&mut g, p2, use_kaja);
    assert_eq!(pending(&g), Pending::FlipOrExchange { seat: p2 });
    ok(&mut g, p2, Action::Helpers(HelpersAction::HelperFlip));
    assert_eq!((g.phase, g.current), (Phase::Main, p2), "back to the part");
    let e = refused(&mut g, p2, use_kaja);
    assert!(e.to_string().contains("once per turn"), "{e}");
    assert!(g.view(Viewer::Spectator).helpers.unwrap().held[p2 as usize].used);
    // On to player 2's own turn: the helper (moon side) is usable again.
    ok(&mut g, p2, Action::EndTurn);
    while g.current != p2 || g.paired.is_some() {
        let s = g.current;
        main_phase(&mut g, s);
        ok(&mut g, s, Action::EndTurn);
    }
    assert_eq!(g.phase, Phase::Roll);
    let r = kaja_resource(&g);
    ok(
        &mut g,
        p2,
        Action::Helpers(HelpersAction::UseKaja { resource: r }),
    );
}

/// Decision: the part belongs to player 1's turn, so a helper player 2 received earlier in
/// that turn (exchanged after Hilda on player 1's roll) waits for a later turn.
#[test]
fn paired_helper_received_earlier_in_the_turn_waits() {
    let mut g = paired_game(6, 31);
    let p1 = g.current;
    let p2 = (p1 + 3) % 6;
    give_helper(&mut g, p2, Helper::Hilda);
    let n = roll_number(&g, p2, false).unwrap();
    g.phase = Phase::Main;
    g.rolled = true;
    g.dice = Some([1, n - 1]);
    let mut ev = Vec::new();
    let receivers = g.produce(n, &mut ev);
    g.helpers_after_production(receivers);
    assert_eq!(pending(&g), Pending::HildaOffer { seat: p2 });
    ok(
        &mut g,
        p2,
        Action::Helpers(HelpersAction::UseHilda {
            resource: Resource::Grain,
        }),
    );
    let take = super::helpers_in(g.hs().display).next().unwrap();
    ok(
        &mut g,
        p2,
        Action::Helpers(HelpersAction::HelperExchange { helper: take }),
    );
    ok(&mut g, p1, Action::EndTurn);
    assert_eq!(g.current, p2);
    assert!(g.view(Viewer::Spectator).helpers.unwrap().held[p2 as usize].fresh);
    assert!(g.check_own_helper(p2, take, "use a helper").is_err());
    assert!(!g.legal_actions(p2).actions.iter().any(|a| helper_of(a).is_some()));
}

/// Decision: every own-turn helper works in player 2's part (the turn's roll is resolved),
/// Asla's forced trade included: it is a helper's advantage, not a trade offer.
#[test]
fn paired_player_2_may_use_asla_and_ryan_in_their_part() {
    for helper in [Helper::Asla, Helper::Ryan] {
        let mut g = paired_game(6, 32);
        let p1 = g.current;
        let p2 = (p1 + 3) % 6;
        let other = (p2 + 1) % 6;
        give_helper(&mut g, p2, helper);
        give(&mut g, other, ResourceSet::splat(1));
        // Ryan needs someone ahead on visible points.
        let c = crate::game::bits(g.players[other as usize].buildings)
            .next()
            .unwrap();
        g.cities |= bit(c);
        g.players[other as usize].cities_left -= 1;
        g.players[other as usize].settlements_left += 1;
        main_phase(&mut g, p1);
        ok(&mut g, p1, Action::EndTurn);
        assert_eq!(g.current, p2);
        let a = match helper {
            Helper::Asla => Action::Helpers(HelpersAction::UseAsla {
                resource: Resource::Ore,
                first: other,
                second: None,
            }),
            _ => Action::Helpers(HelpersAction::UseRyan { target: other }),
        };
        assert!(g.legal_actions(p2).actions.contains(&a), "{helper:?}");
        ok(&mut g, p2, a);
        assert_eq!(pending(&g).seat(), Some(p2));
    }
}
