//! Unit tests for Frenemies: each Decision and limit of frenemies.md.

use super::{token_set, FrenemiesAction as F, FrenemiesEvent, Guild, TokenUse, VP_MARKERS};
use crate::action::{Action, DevCard, Seat};
use crate::config::{GameConfig, Scenario};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase};
use crate::resources::ResourceSet;
use crate::tests::{
    assert_refused, blank_with, edges_at, give, main_phase, ok, one, other_end, road, settle, Brick, Grain,
    Ore, Wool,
};
use crate::view::Viewer;

fn config(players: u8) -> GameConfig {
    GameConfig::with_scenario(players, Some(Scenario::Frenemies))
}

/// A game past set-up with no pieces on the board, seat 0 in its main phase.
fn blank(players: u8) -> Game {
    let mut g = blank_with(config(players), 7);
    main_phase(&mut g);
    g
}

/// Gives `seat` `n` usable tokens of `guild` from the supply.
fn tokens(g: &mut Game, seat: Seat, guild: Guild, n: u8) {
    let f = g.fs_mut();
    f.supply[guild.index()] -= n;
    f.held[seat as usize][guild.index()] += n;
    g.check_invariants().unwrap();
}

fn held(g: &Game, seat: Seat) -> u32 {
    g.fs().held_count(seat)
}

fn fa(a: F) -> Action {
    Action::Frenemies(a)
}

fn favor_error(e: RuleError) {
    assert!(matches!(e, RuleError::Favor { .. }), "{e:?}");
}

#[test]
fn token_sets_by_player_count_come_from_one_table() {
    let total = |p: u8| token_set(p).iter().map(|&n| n as u32).sum::<u32>();
    assert_eq!([total(3), total(4), total(5), total(6)], [44, 58, 72, 88]);
    // One copy: 8 Traders, 8 Merchants, 8 Road Builders, 17 Scholars, 17 Master Builders.
    assert_eq!(token_set(4), [8, 8, 8, 17, 17]);
    // The Decision's split: 2/2/2/4/4 dotted per copy.
    assert_eq!(token_set(3), [6, 6, 6, 13, 13]);
    assert_eq!(token_set(5), [10, 10, 10, 21, 21]);
    assert_eq!(token_set(6), [12, 12, 12, 26, 26]);
    for p in 3..=6 {
        let g = Game::new(config(p), 1).unwrap();
        assert_eq!(g.fs().supply_count(), total(p));
        assert_eq!(g.fs().markers_left, VP_MARKERS);
    }
}

#[test]
fn frenemies_plays_to_11_points_by_default() {
    assert_eq!(config(4).victory_points, 11);
    assert_eq!(GameConfig::with_scenario(4, None).victory_points, 10);
}

// ----- the robber ----------------------------------------------------------------------

fn robber_phase(players: u8) -> Game {
    let mut g = blank(players);
    g.phase = Phase::MoveRobber;
    g
}

/// A land hex other than the robber's, and one of its corners.
fn other_hex(g: &Game) -> (u8, u8) {
    let h = (0..g.topo.hex_count() as u8).find(|&h| h != g.robber).unwrap();
    (h, g.topo.hex_corners[h as usize][0])
}

#[test]
fn robber_to_a_hex_without_buildings_pays_one_token() {
    let mut g = robber_phase(4);
    let (h, _) = other_hex(&g);
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    assert_eq!(held(&g, 0), 1);
    assert_eq!(g.fs().fresh[0].iter().sum::<u8>(), 1);
}

#[test]
fn robber_to_a_hex_with_a_building_pays_nothing() {
    for owner in [0, 1] {
        let mut g = robber_phase(4);
        let (h, c) = other_hex(&g);
        settle(&mut g, owner, c);
        let victim = (owner != 0).then(|| {
            give(&mut g, owner, one(Ore));
            owner
        });
        ok(&mut g, 0, Action::MoveRobber { hex: h, victim });
        assert_eq!(held(&g, 0), 0, "building of seat {owner}");
    }
}

#[test]
fn robber_to_the_desert_without_stealing_pays_one_token() {
    let mut g = robber_phase(4);
    let desert = g.robber;
    let (h, _) = other_hex(&g);
    g.robber = h;
    let c = g.topo.hex_corners[desert as usize][0];
    settle(&mut g, 1, c);
    give(&mut g, 1, one(Ore));
    assert!(g.legal_actions(0).actions.contains(&Action::MoveRobber {
        hex: desert,
        victim: None
    }));
    ok(
        &mut g,
        0,
        Action::MoveRobber {
            hex: desert,
            victim: None,
        },
    );
    assert_eq!(held(&g, 0), 1);
    assert_eq!(g.player(1).hand, one(Ore));
}

#[test]
fn nothing_is_earned_from_an_empty_supply() {
    let mut g = robber_phase(4);
    g.fs_mut().supply = [0; 5];
    g.fs_mut().redeemed = token_set(4);
    let (h, _) = other_hex(&g);
    let ev = ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    assert_eq!(held(&g, 0), 0);
    assert!(!ev.iter().any(|e| matches!(e, Event::Frenemies(_))));
    g.check_invariants().unwrap();
}

// ----- the gift --------------------------------------------------------------------------

#[test]
fn gift_to_an_opponent_with_more_visible_points_is_refused() {
    let mut g = blank(4);
    give(&mut g, 0, one(Wool));
    settle(&mut g, 1, 0);
    let e = assert_refused(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 1,
            resource: Wool,
        }),
    );
    favor_error(e);
    // Equal visible points are fine.
    ok(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 2,
            resource: Wool,
        }),
    );
}

#[test]
fn accepted_gift_moves_the_card_and_pays_the_giver_one_token() {
    let mut g = blank(4);
    give(&mut g, 0, ResourceSet::new(0, 0, 2, 0, 0));
    ok(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 2,
            resource: Wool,
        }),
    );
    assert_eq!(g.phase, Phase::Frenemies(super::FrenemiesPhase::GiftOffered));
    assert_eq!(g.waiting_on().iter().collect::<Vec<_>>(), vec![2]);
    // Only the addressee answers.
    assert_refused(&mut g, 1, fa(F::AcceptGift));
    ok(&mut g, 2, fa(F::AcceptGift));
    assert_eq!(g.player(2).hand, one(Wool));
    assert_eq!(held(&g, 0), 1);
    assert_eq!(g.phase, Phase::Main);
    // A second gift in the same turn is refused.
    favor_error(assert_refused(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 3,
            resource: Wool,
        }),
    ));
}

#[test]
fn after_a_rejection_the_giver_may_try_another_opponent() {
    let mut g = blank(4);
    give(&mut g, 0, one(Wool));
    ok(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 1,
            resource: Wool,
        }),
    );
    ok(&mut g, 1, fa(F::RejectGift));
    assert_eq!(held(&g, 0), 0);
    favor_error(assert_refused(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 1,
            resource: Wool,
        }),
    ));
    ok(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 3,
            resource: Wool,
        }),
    );
    ok(&mut g, 3, fa(F::AcceptGift));
    assert_eq!(held(&g, 0), 1);
}

#[test]
fn asking_for_another_resource_once_per_turn() {
    let mut g = blank(4);
    give(&mut g, 0, ResourceSet::new(1, 0, 1, 0, 0));
    ok(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 1,
            resource: Wool,
        }),
    );
    assert_refused(&mut g, 1, fa(F::AskOtherGift { resource: Wool }));
    ok(&mut g, 1, fa(F::AskOtherGift { resource: Brick }));
    assert_eq!(g.phase, Phase::Main);
    ok(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 1,
            resource: Brick,
        }),
    );
    favor_error(assert_refused(&mut g, 1, fa(F::AskOtherGift { resource: Grain })));
    ok(&mut g, 1, fa(F::AcceptGift));
    assert_eq!(g.player(1).hand, one(Brick));
}

// ----- connections -------------------------------------------------------------------------

/// A corner `y` with three edges: `e1` to `x`, `e0` and `e3` to `w`.
fn three_ways(g: &Game) -> (u8, u8, u8, u8, u8, u8) {
    for y in 0..g.topo.corner_count() as u8 {
        let e = edges_at(g, y);
        if e.len() == 3 {
            let x = other_end(g, e[0], y);
            let w = other_end(g, e[2], y);
            if edges_at(g, w).len() >= 2 {
                return (y, x, w, e[0], e[1], e[2]);
            }
        }
    }
    unreachable!()
}

#[test]
fn first_connection_pays_builder_three_and_the_other_one_once_per_pair() {
    let mut g = blank(4);
    let (y, x, w, e1, e0, e3) = three_ways(&g);
    settle(&mut g, 1, x);
    road(&mut g, 0, e0);
    give(&mut g, 0, ResourceSet::ROAD);
    let ev = ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    assert!(ev.contains(&Event::Frenemies(FrenemiesEvent::NetworksConnected {
        builder: 0,
        other: 1
    })));
    assert_eq!((held(&g, 0), held(&g, 1)), (3, 1));
    assert!(g.fs().is_connected(1, 0));
    // Another meeting of the same two networks pays nothing.
    let e4 = edges_at(&g, w).into_iter().find(|&e| e != e3).unwrap();
    road(&mut g, 1, e4);
    give(&mut g, 0, ResourceSet::ROAD);
    let _ = y;
    ok(&mut g, 0, Action::BuildRoad { edge: e3 });
    assert_eq!((held(&g, 0), held(&g, 1)), (3, 1));
}

#[test]
fn a_road_reaching_two_opponents_pays_each_and_the_builder_once() {
    let mut g = blank(4);
    let (_, x, _, e1, e0, _) = three_ways(&g);
    settle(&mut g, 1, x);
    let e2 = edges_at(&g, x).into_iter().find(|&e| e != e1).unwrap();
    road(&mut g, 2, e2);
    road(&mut g, 0, e0);
    give(&mut g, 0, ResourceSet::ROAD);
    ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    assert_eq!([held(&g, 0), held(&g, 1), held(&g, 2), held(&g, 3)], [3, 1, 1, 0]);
}

#[test]
fn joining_ones_own_networks_pays_nothing() {
    let mut g = blank(4);
    let (_, x, _, e1, e0, _) = three_ways(&g);
    let e2 = edges_at(&g, x).into_iter().find(|&e| e != e1).unwrap();
    road(&mut g, 0, e0);
    road(&mut g, 0, e2);
    give(&mut g, 0, ResourceSet::ROAD);
    ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    assert_eq!(held(&g, 0), 0);
}

#[test]
fn setup_connections_pay_nothing_and_count_as_made() {
    let mut g = blank(4);
    let (_, x, _, e1, e0, _) = three_ways(&g);
    settle(&mut g, 1, x);
    road(&mut g, 0, e0);
    road(&mut g, 0, e1);
    g.phase = Phase::SetupRoad { corner: x };
    let mut ev = Vec::new();
    g.frenemies_after_road(0, e1, &mut ev);
    assert!(ev.is_empty());
    assert!(g.fs().is_connected(0, 1));
    assert_eq!(held(&g, 0) + held(&g, 1), 0);
}

// ----- using tokens -------------------------------------------------------------------------

#[test]
fn tokens_received_this_turn_wait_for_the_next_turn() {
    let mut g = robber_phase(4);
    let (h, _) = other_hex(&g);
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    let guild = Guild::ALL
        .into_iter()
        .find(|&x| g.fs().held[0][x.index()] > 0)
        .unwrap();
    // Make it a one-token favor whatever was drawn.
    let f = g.fs_mut();
    f.held[0][guild.index()] -= 1;
    f.fresh[0][guild.index()] -= 1;
    f.supply[guild.index()] += 1;
    f.supply[Guild::Merchants.index()] -= 1;
    f.held[0][Guild::Merchants.index()] += 1;
    f.fresh[0][Guild::Merchants.index()] += 1;
    g.check_invariants().unwrap();
    favor_error(assert_refused(
        &mut g,
        0,
        fa(F::RedeemMerchants { resource: Ore }),
    ));
    ok(&mut g, 0, Action::EndTurn);
    g.current = 0;
    main_phase(&mut g);
    ok(&mut g, 0, fa(F::RedeemMerchants { resource: Ore }));
    assert_eq!(g.player(0).hand, one(Ore));
}

#[test]
fn redeem_and_exchange_in_one_turn_is_refused() {
    let mut g = blank(4);
    tokens(&mut g, 0, Guild::Merchants, 3);
    ok(&mut g, 0, fa(F::RedeemMerchants { resource: Ore }));
    favor_error(assert_refused(&mut g, 0, fa(F::ExchangeToken)));
    // Several favors in one turn are fine.
    ok(&mut g, 0, fa(F::RedeemMerchants { resource: Wool }));

    let mut g = blank(4);
    tokens(&mut g, 0, Guild::Merchants, 3);
    ok(&mut g, 0, fa(F::ExchangeToken));
    assert_eq!(held(&g, 0), 4);
    assert_refused(&mut g, 0, Action::EndTurn);
    ok(
        &mut g,
        0,
        fa(F::ReturnToken {
            guild: Guild::Merchants,
        }),
    );
    assert_eq!(held(&g, 0), 3);
    assert_eq!(g.fs().used, TokenUse::Exchanged);
    favor_error(assert_refused(
        &mut g,
        0,
        fa(F::RedeemMerchants { resource: Ore }),
    ));
    favor_error(assert_refused(&mut g, 0, fa(F::ExchangeToken)));
}

#[test]
fn traders_third_trade_in_a_turn_is_refused() {
    let mut g = blank(4);
    tokens(&mut g, 0, Guild::Traders, 3);
    give(&mut g, 0, ResourceSet::new(3, 0, 0, 0, 0));
    ok(
        &mut g,
        0,
        fa(F::RedeemTraders {
            give: Brick,
            get: Ore,
        }),
    );
    ok(
        &mut g,
        0,
        fa(F::RedeemTraders {
            give: Brick,
            get: Wool,
        }),
    );
    favor_error(assert_refused(
        &mut g,
        0,
        fa(F::RedeemTraders {
            give: Brick,
            get: Grain,
        }),
    ));
    assert_eq!(g.player(0).hand, ResourceSet::new(1, 0, 1, 0, 1));
    assert_eq!(g.fs().held[0][Guild::Traders.index()], 1);
}

#[test]
fn scholars_card_counts_as_bought_this_turn() {
    let mut g = blank(4);
    tokens(&mut g, 0, Guild::Scholars, 2);
    g.deck[g.deck_len as usize - 1] = DevCard::Knight;
    ok(&mut g, 0, fa(F::RedeemScholars));
    assert_eq!(g.player(0).dev[DevCard::Knight.index()], 1);
    assert!(matches!(
        assert_refused(&mut g, 0, Action::PlayKnight),
        RuleError::DevCard { .. }
    ));
    assert_eq!(held(&g, 0), 0);
    assert_eq!(g.fs().redeemed[Guild::Scholars.index()], 2);
}

#[test]
fn master_builders_take_a_public_vp_marker_while_any_remain() {
    let mut g = blank(4);
    tokens(&mut g, 0, Guild::MasterBuilders, 4);
    let before = g.public_victory_points(0);
    ok(&mut g, 0, fa(F::RedeemMasterBuilders));
    assert_eq!(g.public_victory_points(0), before + 1);
    // The ninth marker does not exist.
    let f = g.fs_mut();
    f.markers[1] = VP_MARKERS - 1;
    f.markers_left = 0;
    g.check_invariants().unwrap();
    favor_error(assert_refused(&mut g, 0, fa(F::RedeemMasterBuilders)));
}

#[test]
fn vp_markers_decide_who_may_receive_a_gift() {
    let mut g = blank(4);
    give(&mut g, 0, one(Wool));
    let f = g.fs_mut();
    f.markers[1] = 1;
    f.markers_left -= 1;
    favor_error(assert_refused(
        &mut g,
        0,
        fa(F::OfferGift {
            to: 1,
            resource: Wool,
        }),
    ));
}

#[test]
fn road_builders_build_a_free_road_with_normal_placement() {
    let mut g = blank(4);
    let (_, _, _, e1, e0, _) = three_ways(&g);
    tokens(&mut g, 0, Guild::RoadBuilders, 1);
    let far = (0..g.topo.edge_count() as u8)
        .find(|&e| g.road_spots(0) & crate::game::bit(e) == 0 && e != e0)
        .unwrap();
    road(&mut g, 0, e0);
    assert!(matches!(
        assert_refused(&mut g, 0, fa(F::RedeemRoadBuilders { edge: far })),
        RuleError::IllegalPlacement { .. }
    ));
    ok(&mut g, 0, fa(F::RedeemRoadBuilders { edge: e1 }));
    assert_eq!(g.edge_owner(e1), Some(0));
    assert!(g.player(0).hand.is_empty());
}

#[test]
fn no_favor_in_the_special_building_phase() {
    let mut g = blank(6);
    tokens(&mut g, 1, Guild::Merchants, 1);
    tokens(&mut g, 0, Guild::Merchants, 1);
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
    assert!(!g
        .legal_actions(1)
        .actions
        .iter()
        .any(|a| matches!(a, Action::Frenemies(_))));
    assert_refused(&mut g, 1, fa(F::RedeemMerchants { resource: Ore }));
    assert_refused(&mut g, 1, fa(F::ExchangeToken));
    assert_refused(&mut g, 0, fa(F::RedeemMerchants { resource: Ore }));
}

#[test]
fn tokens_drawn_in_a_special_building_phase_are_usable_on_the_next_own_turn() {
    let mut g = blank(5);
    let (_, x, _, e1, e0, _) = three_ways(&g);
    settle(&mut g, 0, x);
    road(&mut g, 1, e0);
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
    give(&mut g, 1, ResourceSet::ROAD);
    ok(&mut g, 1, Action::BuildRoad { edge: e1 });
    assert_eq!((held(&g, 1), held(&g, 0)), (3, 1));
    for s in [1, 2, 3, 4] {
        ok(&mut g, s, Action::EndTurn);
    }
    assert_eq!((g.phase, g.current), (Phase::Roll, 1));
    main_phase(&mut g);
    let guild = Guild::ALL
        .into_iter()
        .find(|&x| g.fs().held[1][x.index()] >= x.cost())
        .unwrap();
    assert!(g.fs().usable(1, guild) >= guild.cost());
    tokens(&mut g, 1, Guild::Merchants, 1);
    ok(&mut g, 1, fa(F::RedeemMerchants { resource: Ore }));
}

#[test]
fn favors_only_on_ones_own_turn() {
    let mut g = blank(4);
    tokens(&mut g, 1, Guild::Merchants, 1);
    assert!(matches!(
        assert_refused(&mut g, 1, fa(F::RedeemMerchants { resource: Ore })),
        RuleError::NotYourTurn { .. }
    ));
    g.phase = Phase::Roll;
    g.current = 1;
    g.rolled = false;
    assert_refused(&mut g, 1, fa(F::RedeemMerchants { resource: Ore }));
}

// ----- views --------------------------------------------------------------------------------

#[test]
fn token_guilds_are_private_to_their_holder() {
    let mut g = blank(4);
    tokens(&mut g, 1, Guild::Traders, 2);
    tokens(&mut g, 2, Guild::Scholars, 2);
    let json = |g: &Game, v: Viewer| serde_json::to_string(&g.view(v)).unwrap();
    let mut swapped = g.clone();
    {
        let f = swapped.fs_mut();
        f.held[1] = [0, 0, 0, 2, 0];
        f.held[2] = [2, 0, 0, 0, 0];
    }
    for v in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(3)] {
        assert_eq!(json(&g, v), json(&swapped, v), "{v:?}");
    }
    assert_ne!(json(&g, Viewer::Seat(1)), json(&swapped, Viewer::Seat(1)));
    let v = g.view(Viewer::Seat(1)).frenemies.unwrap();
    assert_eq!(v.holders[1].tokens, Some([2, 0, 0, 0, 0]));
    assert_eq!(v.holders[2].tokens, None);
    assert_eq!(v.holders[2].token_count, 2);
}

#[test]
fn drawn_token_guilds_are_redacted_like_steals() {
    let mut g = robber_phase(4);
    let (h, _) = other_hex(&g);
    let ev = ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    let drawn = ev
        .iter()
        .find(|e| matches!(e, Event::Frenemies(FrenemiesEvent::TokensDrawn { .. })))
        .unwrap();
    let mine = crate::view::redact(drawn, Viewer::Seat(0));
    let theirs = crate::view::redact(drawn, Viewer::Seat(1));
    assert!(matches!(
        mine,
        Event::Frenemies(FrenemiesEvent::TokensDrawn { guilds: Some(_), .. })
    ));
    assert!(matches!(
        theirs,
        Event::Frenemies(FrenemiesEvent::TokensDrawn {
            guilds: None,
            count: 1,
            ..
        })
    ));
    let j = serde_json::to_string(&theirs).unwrap();
    assert_eq!(
        j,
        r#"{"type":"tokens_drawn","seat":0,"count":1,"reason":"robber","guilds":null}"#
    );
}

#[test]
fn frenemies_wire_format_is_flat() {
    let a = fa(F::OfferGift {
        to: 2,
        resource: Wool,
    });
    let j = r#"{"type":"offer_gift","to":2,"resource":"wool"}"#;
    assert_eq!(serde_json::to_string(&a).unwrap(), j);
    assert_eq!(serde_json::from_str::<Action>(j).unwrap(), a);
    let r = fa(F::ReturnToken {
        guild: Guild::MasterBuilders,
    });
    let j = r#"{"type":"return_token","guild":"master_builders"}"#;
    assert_eq!(serde_json::to_string(&r).unwrap(), j);
    assert_eq!(serde_json::from_str::<Action>(j).unwrap(), r);
    let p = Phase::Frenemies(super::FrenemiesPhase::GiftOffered);
    assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"phase":"gift_offered"}"#);
    // Base views carry no frenemies field.
    let base = crate::tests::blank(4);
    assert!(!serde_json::to_string(&base.view(Viewer::Spectator))
        .unwrap()
        .contains("frenemies"));
}

// ----- Paired Players (five-six.md) ------------------------------------------------------

/// A paired game (`five_six_turns: "paired"`) with no pieces, seat 0 in its main phase.
fn paired(players: u8) -> Game {
    let mut c = config(players);
    c.five_six_turns = Some(crate::config::FiveSixTurns::Paired);
    let mut g = blank_with(c, 7);
    main_phase(&mut g);
    g
}

/// Decision: in their part of a paired turn player 2 may redeem or exchange favor tokens
/// (the part is their turn for the per-turn limits, which start afresh), but not give
/// gifts (no dealings with other players).
#[test]
fn paired_player_2_may_redeem_favors_but_not_give_gifts() {
    let mut g = paired(6);
    tokens(&mut g, 0, Guild::Traders, 2);
    tokens(&mut g, 3, Guild::Traders, 3);
    give(&mut g, 0, ResourceSet::splat(2));
    give(&mut g, 3, ResourceSet::splat(2));
    // Player 1 uses the Traders twice (the limit).
    for _ in 0..2 {
        ok(
            &mut g,
            0,
            fa(F::RedeemTraders {
                give: Brick,
                get: Ore,
            }),
        );
    }
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.current, 3);
    assert_eq!((g.fs().used, g.fs().traders_used), (TokenUse::None, 0));
    let legal = g.legal_actions(3).actions;
    assert!(legal.contains(&fa(F::RedeemTraders {
        give: Brick,
        get: Ore
    })));
    assert!(!legal
        .iter()
        .any(|a| matches!(a, Action::Frenemies(F::OfferGift { .. }))));
    favor_error(assert_refused(
        &mut g,
        3,
        fa(F::OfferGift {
            to: 4,
            resource: Wool,
        }),
    ));
    for _ in 0..2 {
        ok(
            &mut g,
            3,
            fa(F::RedeemTraders {
                give: Brick,
                get: Ore,
            }),
        );
    }
    favor_error(assert_refused(
        &mut g,
        3,
        fa(F::RedeemTraders { give: Wool, get: Ore }),
    ));
}

/// Decision: tokens player 2 received earlier in the same turn (player 1's part) are not
/// usable in the part (the part belongs to player 1's turn).
#[test]
fn paired_tokens_received_earlier_in_the_turn_wait() {
    let mut g = paired(5);
    let (_, x, _, e1, e0, _) = three_ways(&g);
    // Player 1 (seat 0) connects to player 2's (seat 3) network: seat 3 draws 1.
    settle(&mut g, 3, x);
    road(&mut g, 0, e0);
    give(&mut g, 0, ResourceSet::ROAD);
    let drawn_before = held(&g, 3);
    ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    assert_eq!(held(&g, 3), drawn_before + 1);
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.current, 3);
    let f = g.fs();
    for guild in Guild::ALL {
        assert_eq!(f.usable(3, guild), 0, "{guild:?} usable in the same turn");
    }
    assert!(!g
        .legal_actions(3)
        .actions
        .iter()
        .any(|a| matches!(a, Action::Frenemies(_))));
}
