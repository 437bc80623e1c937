//! Building: costs, piece limits, placement rules.

use super::*;

/// An inland corner (three edges, three neighbours each with three edges).
fn inland_corner(g: &Game) -> u8 {
    (0..g.topo.corner_count() as u8)
        .find(|&c| {
            edges_at(g, c).len() == 3
                && g.topo.corner_corners[c as usize]
                    .iter()
                    .all(|&d| d != NONE && edges_at(g, d).len() == 3)
        })
        .unwrap()
}

/// Seat 0 in its main phase with a settlement on an inland corner, which is returned.
fn start() -> (Game, u8) {
    let mut g = blank(4);
    main_phase(&mut g);
    let c = inland_corner(&g);
    settle(&mut g, 0, c);
    (g, c)
}

#[test]
fn road_costs_brick_and_lumber() {
    let (mut g, c) = start();
    let e = edges_at(&g, c)[0];
    give(&mut g, 0, rs(0, 1, 1, 1, 1));
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: e });
    assert_eq!(
        err,
        RuleError::NotEnoughResources {
            needed: ResourceSet::ROAD
        }
    );
    give(&mut g, 0, one(Brick));
    let bank = g.bank;
    let ev = ok(&mut g, 0, Action::BuildRoad { edge: e });
    assert!(ev.contains(&Event::RoadBuilt { seat: 0, edge: e }));
    assert_eq!(hand(&g, 0), rs(0, 0, 1, 1, 1));
    assert_eq!(g.bank[Brick], bank[Brick] + 1);
    assert_eq!(g.bank[Lumber], bank[Lumber] + 1);
    assert_eq!(g.edge_owner[e as usize], 0);
    assert_eq!(g.players[0].roads_left, 14);
    check(&g);
}

#[test]
fn settlement_costs_brick_lumber_wool_grain() {
    let (mut g, c) = start();
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    let x = other_end(&g, e2, d);
    roads(&mut g, 0, &[e1, e2]);
    give(&mut g, 0, rs(1, 1, 1, 0, 5));
    let err = assert_refused(&mut g, 0, Action::BuildSettlement { corner: x });
    assert_eq!(
        err,
        RuleError::NotEnoughResources {
            needed: ResourceSet::SETTLEMENT
        }
    );
    give(&mut g, 0, one(Grain));
    ok(&mut g, 0, Action::BuildSettlement { corner: x });
    assert_eq!(hand(&g, 0), n_of(Ore, 5));
    assert_eq!(g.players[0].settlements_left, 3);
    check(&g);
}

#[test]
fn city_costs_three_ore_two_grain() {
    let (mut g, c) = start();
    give(&mut g, 0, rs(0, 0, 0, 2, 2));
    let err = assert_refused(&mut g, 0, Action::BuildCity { corner: c });
    assert_eq!(
        err,
        RuleError::NotEnoughResources {
            needed: ResourceSet::CITY
        }
    );
    give(&mut g, 0, one(Ore));
    let ev = ok(&mut g, 0, Action::BuildCity { corner: c });
    assert!(ev.contains(&Event::CityBuilt { seat: 0, corner: c }));
    assert!(hand(&g, 0).is_empty());
    assert!(g.is_city(c));
    assert_eq!(g.victory_points(0), 2);
    check(&g);
}

#[test]
fn development_card_costs_ore_wool_grain() {
    let (mut g, _) = start();
    give(&mut g, 0, rs(0, 0, 1, 1, 0));
    let err = assert_refused(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(
        err,
        RuleError::NotEnoughResources {
            needed: ResourceSet::DEV_CARD
        }
    );
    give(&mut g, 0, one(Ore));
    let top = g.deck[g.deck_len as usize - 1];
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert!(hand(&g, 0).is_empty());
    assert_eq!(g.deck_len, 24);
    assert_eq!(g.players[0].dev[top.index()], 1);
    check(&g);
}

#[test]
fn no_sixteenth_road() {
    let mut g = blank(4);
    main_phase(&mut g);
    let path = coast_path(&g, 0, 16);
    let start_corner = path_corners(&g, &path)[0];
    settle(&mut g, 0, start_corner);
    roads(&mut g, 0, &path[..15]);
    assert_eq!(g.players[0].roads_left, 0);
    give(&mut g, 0, ResourceSet::ROAD);
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: path[15] });
    assert!(matches!(err, RuleError::NoPieceLeft { .. }), "{err:?}");
    assert!(!g
        .legal_actions(0)
        .actions
        .iter()
        .any(|a| matches!(a, Action::BuildRoad { .. })));
    check(&g);
}

/// Seat 0 has settlements on five corners and a road touching a sixth free corner.
fn five_settlements() -> (Game, Vec<u8>, u8) {
    let mut g = blank(4);
    main_phase(&mut g);
    let all: Vec<u8> = (0..g.topo.corner_count() as u8).collect();
    let cs = pick_corners(&g, &all, 6);
    for &c in &cs[..5] {
        settle(&mut g, 0, c);
    }
    let f = cs[5];
    let at = edges_at(&g, f)[0];
    road(&mut g, 0, at);
    (g, cs[..5].to_vec(), f)
}

#[test]
fn no_sixth_settlement() {
    let (mut g, _, f) = five_settlements();
    assert_eq!(g.players[0].settlements_left, 0);
    give(&mut g, 0, ResourceSet::SETTLEMENT);
    let err = assert_refused(&mut g, 0, Action::BuildSettlement { corner: f });
    assert!(matches!(err, RuleError::NoPieceLeft { .. }), "{err:?}");
    check(&g);
}

#[test]
fn city_returns_the_settlement_to_the_supply() {
    let (mut g, cs, f) = five_settlements();
    give(&mut g, 0, ResourceSet::SETTLEMENT);
    give(&mut g, 0, ResourceSet::CITY);
    assert_refused(&mut g, 0, Action::BuildSettlement { corner: f });
    ok(&mut g, 0, Action::BuildCity { corner: cs[0] });
    assert_eq!(g.players[0].settlements_left, 1);
    assert_eq!(g.players[0].cities_left, 3);
    ok(&mut g, 0, Action::BuildSettlement { corner: f });
    assert_eq!(g.players[0].settlements_left, 0);
    assert_eq!(g.victory_points(0), 7);
    check(&g);
}

#[test]
fn no_fifth_city() {
    let (mut g, cs, _) = five_settlements();
    for &c in &cs[..4] {
        give(&mut g, 0, ResourceSet::CITY);
        ok(&mut g, 0, Action::BuildCity { corner: c });
    }
    assert_eq!(g.players[0].cities_left, 0);
    assert_eq!(g.players[0].settlements_left, 4);
    give(&mut g, 0, ResourceSet::CITY);
    let err = assert_refused(&mut g, 0, Action::BuildCity { corner: cs[4] });
    assert!(matches!(err, RuleError::NoPieceLeft { .. }), "{err:?}");
    check(&g);
}

#[test]
fn road_must_connect_to_own_network() {
    let (mut g, c) = start();
    give(&mut g, 0, times(ResourceSet::ROAD, 3));
    // Far from the settlement.
    let far = (0..g.topo.edge_count() as u8)
        .find(|&e| {
            g.topo.edge_corners[e as usize]
                .iter()
                .all(|&x| x != c && g.topo.corner_adj_mask[c as usize] & bit(x) == 0)
        })
        .unwrap();
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: far });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    // A road may extend from the player's own road.
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    assert_refused(&mut g, 0, Action::BuildRoad { edge: e2 });
    ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    ok(&mut g, 0, Action::BuildRoad { edge: e2 });
    // Not on a taken edge, and not next to an opponent's road alone.
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: e1 });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }));
    let n = g.topo.edge_count() as u8;
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: n });
    assert!(matches!(err, RuleError::NoSuchPlace { .. }));
    check(&g);
}

#[test]
fn road_cannot_continue_through_an_opponents_building() {
    let (mut g, c) = start();
    // Seat 0: roads c-d-x; seat 1: settlement on x with its own road.
    let (e1, d, e2, x) = edges_at(&g, c)
        .into_iter()
        .flat_map(|e1| {
            let d = other_end(&g, e1, c);
            edges_at(&g, d)
                .into_iter()
                .filter(move |&e2| e2 != e1)
                .map(move |e2| (e1, d, e2))
        })
        .map(|(e1, d, e2)| (e1, d, e2, other_end(&g, e2, d)))
        .find(|&(_, _, _, x)| edges_at(&g, x).len() == 3)
        .unwrap();
    roads(&mut g, 0, &[e1, e2]);
    let rest: Vec<u8> = edges_at(&g, x).into_iter().filter(|&e| e != e2).collect();
    assert_eq!(rest.len(), 2, "x must have three edges");
    road(&mut g, 1, rest[0]);
    settle(&mut g, 1, x);
    give(&mut g, 0, times(ResourceSet::ROAD, 2));
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: rest[1] });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    // Branching at d, before the opponent's building, is fine.
    let at_d = edges_at(&g, d).into_iter().find(|&e| e != e1 && e != e2).unwrap();
    ok(&mut g, 0, Action::BuildRoad { edge: at_d });
    // The opponent may continue from its own building.
    turn_of(&mut g, 1);
    give(&mut g, 1, ResourceSet::ROAD);
    ok(&mut g, 1, Action::BuildRoad { edge: rest[1] });
    check(&g);
}

#[test]
fn settlement_needs_own_road() {
    let (mut g, c) = start();
    // Seat 1's road reaches a corner two steps from seat 0's settlement.
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    let x = other_end(&g, e2, d);
    road(&mut g, 1, e2);
    give(&mut g, 0, ResourceSet::SETTLEMENT);
    let err = assert_refused(&mut g, 0, Action::BuildSettlement { corner: x });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    // A corner nobody's road reaches.
    let lonely = pick_corners(&g, &(0..g.topo.corner_count() as u8).collect::<Vec<_>>(), 1)[0];
    assert_refused(&mut g, 0, Action::BuildSettlement { corner: lonely });
    // Seat 1 may build there.
    turn_of(&mut g, 1);
    give(&mut g, 1, ResourceSet::SETTLEMENT);
    ok(&mut g, 1, Action::BuildSettlement { corner: x });
    check(&g);
}

#[test]
fn city_only_on_own_settlement() {
    let (mut g, c) = start();
    let others: Vec<u8> = (0..g.topo.corner_count() as u8).collect();
    let cs = pick_corners(&g, &others, 2);
    settle(&mut g, 1, cs[0]);
    give(&mut g, 0, times(ResourceSet::CITY, 2));
    for corner in [cs[0], cs[1]] {
        let err = assert_refused(&mut g, 0, Action::BuildCity { corner });
        assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    }
    let n = g.topo.corner_count() as u8;
    let err = assert_refused(&mut g, 0, Action::BuildCity { corner: n });
    assert!(matches!(err, RuleError::NoSuchPlace { .. }), "{err:?}");
    ok(&mut g, 0, Action::BuildCity { corner: c });
    // Not on a city.
    let err = assert_refused(&mut g, 0, Action::BuildCity { corner: c });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    check(&g);
}

#[test]
fn no_building_before_the_roll_or_out_of_turn() {
    let (mut g, c) = start();
    give(&mut g, 0, ResourceSet::ROAD);
    give(&mut g, 1, ResourceSet::ROAD);
    let e = edges_at(&g, c)[0];
    let err = assert_refused(&mut g, 1, Action::BuildRoad { edge: e });
    assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
    g.phase = Phase::Roll;
    g.rolled = false;
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: e });
    assert!(matches!(err, RuleError::WrongPhase { .. }), "{err:?}");
    assert_refused(&mut g, 0, Action::BuyDevelopmentCard);
    assert_refused(&mut g, 0, Action::BuildCity { corner: c });
}
