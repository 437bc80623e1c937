//! A rolled 7: discards, then the robber and the steal.

use super::*;

fn discard(cards: ResourceSet) -> Action {
    Action::Discard { cards }
}

/// Seat 1 holds 7 cards, seat 2 holds 9, seat 3 holds 8; seat 0 rolls a 7.
fn seven_with_big_hands() -> (Game, Vec<Event>) {
    let mut g = blank(4);
    give(&mut g, 1, rs(2, 2, 1, 1, 1));
    give(&mut g, 2, rs(3, 2, 2, 1, 1));
    give(&mut g, 3, rs(0, 0, 4, 4, 0));
    let ev = force_roll(&mut g, 7);
    (g, ev)
}

#[test]
fn hand_of_seven_keeps_its_cards_hand_of_nine_discards_four() {
    let (g, ev) = seven_with_big_hands();
    assert_eq!(g.phase, Phase::Discard);
    assert_eq!(g.discard_pending, [0, 0, 4, 4, 0, 0]);
    assert!(ev.contains(&Event::MustDiscard { seat: 2, count: 4 }));
    assert!(ev.contains(&Event::MustDiscard { seat: 3, count: 4 }));
    assert!(!ev.iter().any(|e| matches!(e, Event::MustDiscard { seat: 1, .. })));
    assert!(!ev.iter().any(|e| matches!(e, Event::Produced { .. })));
    assert_eq!(g.waiting_on().iter().collect::<Vec<_>>(), vec![2, 3]);
    assert_eq!(hand(&g, 1).total(), 7);
    check(&g);
}

#[test]
fn discard_must_be_exactly_half_and_of_held_cards() {
    let (mut g, _) = seven_with_big_hands();
    for bad in [rs(1, 1, 1, 0, 0), rs(1, 1, 1, 1, 1), ResourceSet::EMPTY] {
        let e = assert_refused(&mut g, 2, discard(bad));
        assert!(matches!(e, RuleError::InvalidDiscard { .. }), "{e:?}");
    }
    // Four cards, but not ones seat 2 holds (only one grain).
    let e = assert_refused(&mut g, 2, discard(rs(0, 0, 0, 4, 0)));
    assert!(matches!(e, RuleError::InvalidDiscard { .. }), "{e:?}");
    // Seat 1 (7 cards) and seat 0 (no cards) have nothing to discard.
    assert_refused(&mut g, 1, discard(rs(1, 1, 1, 0, 0)));
    assert_refused(&mut g, 0, discard(one(Brick)));
    let bank = g.bank;
    let ev = ok(&mut g, 2, discard(rs(3, 1, 0, 0, 0)));
    assert!(ev.contains(&Event::Discarded {
        seat: 2,
        cards: rs(3, 1, 0, 0, 0)
    }));
    assert_eq!(hand(&g, 2), rs(0, 1, 2, 1, 1));
    assert_eq!(g.bank[Brick], bank[Brick] + 3);
    // Once is enough.
    assert_refused(&mut g, 2, discard(rs(0, 1, 2, 1, 0)));
    check(&g);
}

#[test]
fn game_waits_for_every_discard_before_the_robber() {
    let (mut g, _) = seven_with_big_hands();
    let hex = empty_hex(&g, true);
    give(&mut g, 0, times(ResourceSet::ROAD, 1));
    for a in [
        Action::MoveRobber { hex, victim: None },
        Action::EndTurn,
        Action::BuildRoad { edge: 0 },
        Action::BuyDevelopmentCard,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
        Action::RollDice,
    ] {
        assert_refused(&mut g, 0, a);
    }
    ok(&mut g, 2, discard(rs(3, 1, 0, 0, 0)));
    assert_eq!(g.phase, Phase::Discard, "seat 3 has not discarded yet");
    assert_eq!(g.waiting_on().iter().collect::<Vec<_>>(), vec![3]);
    assert_refused(&mut g, 0, Action::MoveRobber { hex, victim: None });
    ok(&mut g, 3, discard(rs(0, 0, 2, 2, 0)));
    assert_eq!(g.phase, Phase::MoveRobber);
    assert_eq!(hand(&g, 3).total(), 4);
    ok(&mut g, 0, Action::MoveRobber { hex, victim: None });
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.robber, hex);
    check(&g);
}

#[test]
fn roller_discards_too() {
    let mut g = blank(4);
    give(&mut g, 0, rs(2, 2, 2, 2, 3));
    force_roll(&mut g, 7);
    assert_eq!(g.discard_pending[0], 5);
    ok(&mut g, 0, discard(rs(2, 2, 1, 0, 0)));
    assert_eq!(g.phase, Phase::MoveRobber);
}

#[test]
fn seven_without_big_hands_goes_straight_to_the_robber() {
    let mut g = blank(4);
    give(&mut g, 1, rs(1, 1, 1, 1, 3));
    force_roll(&mut g, 7);
    assert_eq!(g.phase, Phase::MoveRobber);
    assert_eq!(g.waiting_on().iter().collect::<Vec<_>>(), vec![0]);
}

/// Seat 0 to move the robber (after a 7), with the robber on the desert.
fn robber_phase() -> Game {
    let mut g = blank(4);
    main_phase(&mut g);
    g.phase = Phase::MoveRobber;
    g
}

#[test]
fn robber_must_move_to_a_different_hex() {
    let mut g = robber_phase();
    let here = g.robber;
    let e = assert_refused(
        &mut g,
        0,
        Action::MoveRobber {
            hex: here,
            victim: None,
        },
    );
    assert!(matches!(e, RuleError::Robber { .. }), "{e:?}");
    let n = g.topo.hex_count() as u8;
    let e = assert_refused(&mut g, 0, Action::MoveRobber { hex: n, victim: None });
    assert!(matches!(e, RuleError::NoSuchPlace { .. }), "{e:?}");
    // Only the current player moves it.
    let other = empty_hex(&g, true);
    assert_refused(
        &mut g,
        1,
        Action::MoveRobber {
            hex: other,
            victim: None,
        },
    );
    assert!(!g
        .legal_actions(0)
        .actions
        .iter()
        .any(|a| matches!(a, Action::MoveRobber { hex, .. } if *hex == here)));
}

#[test]
fn robber_may_move_to_the_desert() {
    let mut g = robber_phase();
    let desert = g.robber;
    assert_eq!(g.board.terrain[desert as usize], crate::board::Terrain::Desert);
    g.robber = empty_hex(&g, true);
    ok(
        &mut g,
        0,
        Action::MoveRobber {
            hex: desert,
            victim: None,
        },
    );
    assert_eq!(g.robber, desert);
    assert_eq!(g.phase, Phase::Main);
}

#[test]
fn steal_needs_a_victim_with_a_building_and_a_card() {
    let mut g = robber_phase();
    let h = empty_hex(&g, true);
    let cs = pick_corners(&g, &g.topo.hex_corners[h as usize], 3);
    settle(&mut g, 1, cs[0]); // no cards
    settle(&mut g, 2, cs[1]);
    settle(&mut g, 0, cs[2]); // the thief's own building
    give(&mut g, 2, n_of(Wool, 2));
    give(&mut g, 3, rs(1, 1, 1, 1, 1)); // cards, but no building on h
    give(&mut g, 0, one(Ore));
    for victim in [Some(1), Some(3), Some(0), Some(9), None] {
        let e = assert_refused(&mut g, 0, Action::MoveRobber { hex: h, victim });
        assert!(matches!(e, RuleError::Robber { .. }), "{victim:?}: {e:?}");
    }
    let legal: Vec<Action> = g
        .legal_actions(0)
        .actions
        .into_iter()
        .filter(|a| matches!(a, Action::MoveRobber { hex, .. } if *hex == h))
        .collect();
    assert_eq!(
        legal,
        vec![Action::MoveRobber {
            hex: h,
            victim: Some(2)
        }]
    );
    let ev = ok(
        &mut g,
        0,
        Action::MoveRobber {
            hex: h,
            victim: Some(2),
        },
    );
    assert!(ev.contains(&Event::Stole {
        thief: 0,
        victim: 2,
        resource: Some(Wool)
    }));
    assert_eq!(hand(&g, 2), one(Wool));
    assert_eq!(hand(&g, 0), rs(0, 0, 1, 0, 1));
    assert_eq!(g.robber, h);
    assert_eq!(g.phase, Phase::Main);
    check(&g);
}

#[test]
fn no_steal_when_nobody_is_eligible() {
    let mut g = robber_phase();
    let h = empty_hex(&g, true);
    let c = g.topo.hex_corners[h as usize][0];
    settle(&mut g, 1, c); // a building but no cards
    give(&mut g, 2, rs(1, 1, 1, 1, 1));
    let e = assert_refused(
        &mut g,
        0,
        Action::MoveRobber {
            hex: h,
            victim: Some(1),
        },
    );
    assert!(matches!(e, RuleError::Robber { .. }));
    assert_refused(
        &mut g,
        0,
        Action::MoveRobber {
            hex: h,
            victim: Some(2),
        },
    );
    let ev = ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    assert!(!ev.iter().any(|e| matches!(e, Event::Stole { .. })));
    assert_eq!(hand(&g, 2).total(), 5);
    check(&g);
}

#[test]
fn no_steal_from_an_empty_hex() {
    let mut g = robber_phase();
    give(&mut g, 1, rs(1, 1, 1, 1, 1));
    let h = empty_hex(&g, true);
    assert_refused(
        &mut g,
        0,
        Action::MoveRobber {
            hex: h,
            victim: Some(1),
        },
    );
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
}

#[test]
fn full_seven_flow_with_a_steal() {
    let (mut g, _) = seven_with_big_hands();
    // Seat 1 (7 cards) has a building on the target hex.
    let h = empty_hex(&g, true);
    let at = g.topo.hex_corners[h as usize][0];
    settle(&mut g, 1, at);
    ok(&mut g, 2, discard(rs(3, 1, 0, 0, 0)));
    ok(&mut g, 3, discard(rs(0, 0, 2, 2, 0)));
    ok(
        &mut g,
        0,
        Action::MoveRobber {
            hex: h,
            victim: Some(1),
        },
    );
    assert_eq!(hand(&g, 1).total(), 6);
    assert_eq!(hand(&g, 0).total(), 1);
    assert_eq!(g.phase, Phase::Main);
    check(&g);
}
