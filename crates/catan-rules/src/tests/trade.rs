//! Trading: domestic offers between the current player and others; maritime with the bank.

use super::*;
use crate::action::SeatSet;
use crate::board::HarborKind;
use crate::game::Response;

fn seats(list: &[Seat]) -> SeatSet {
    let mut s = SeatSet::EMPTY;
    for &x in list {
        s.insert(x);
    }
    s
}

fn offer(give: ResourceSet, get: ResourceSet, to: &[Seat]) -> Action {
    Action::OfferTrade {
        give,
        get,
        to: seats(to),
        give_gold: 0,
        get_gold: 0,
    }
}

/// Seat 0 after its roll. Hands: 0 = 2 brick 2 lumber, 1 = 2 wool 2 grain,
/// 2 = 2 wool 1 ore, 3 = nothing.
fn trading() -> Game {
    let mut g = blank(4);
    main_phase(&mut g);
    give(&mut g, 0, rs(2, 2, 0, 0, 0));
    give(&mut g, 1, rs(0, 0, 2, 2, 0));
    give(&mut g, 2, rs(0, 0, 2, 0, 1));
    g
}

#[test]
fn no_trading_before_rolling() {
    let mut g = trading();
    g.phase = Phase::Roll;
    g.rolled = false;
    give(&mut g, 0, n_of(Brick, 2));
    let err = assert_refused(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    assert!(matches!(err, RuleError::WrongPhase { .. }), "{err:?}");
    let err = assert_refused(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert!(matches!(err, RuleError::WrongPhase { .. }), "{err:?}");
}

#[test]
fn no_trading_outside_ones_own_turn() {
    let mut g = trading();
    give(&mut g, 1, n_of(Wool, 2));
    let err = assert_refused(&mut g, 1, offer(one(Wool), one(Brick), &[0]));
    assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
    let err = assert_refused(&mut g, 1, offer(one(Wool), one(Ore), &[2]));
    assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
    let err = assert_refused(&mut g, 1, Action::MaritimeTrade { give: Wool, get: Ore });
    assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
}

#[test]
fn offer_to_everyone() {
    let mut g = trading();
    let ev = ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    let o = g.offer.unwrap();
    assert_eq!(o.to, seats(&[1, 2, 3]));
    assert!(ev.contains(&Event::TradeOffered {
        seat: 0,
        give: one(Brick),
        get: one(Wool),
        to: seats(&[1, 2, 3]),
        give_gold: 0,
        get_gold: 0
    }));
    for s in 1..4 {
        assert_eq!(o.responses[s], Response::Pending);
    }
    assert_eq!(g.pending_responders(), seats(&[1, 2, 3]));
    assert_eq!(g.waiting_on(), seats(&[0, 1, 2, 3]));
    // Offering moves no cards.
    assert_eq!(hand(&g, 0), rs(2, 2, 0, 0, 0));
}

#[test]
fn offer_to_named_players() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[2]));
    assert_eq!(g.pending_responders(), seats(&[2]));
    let err = assert_refused(&mut g, 1, Action::AcceptTrade);
    assert!(matches!(err, RuleError::InvalidTrade { .. }), "{err:?}");
    assert_refused(&mut g, 1, Action::DeclineTrade);
    assert_refused(
        &mut g,
        1,
        Action::CounterOffer {
            give: one(Grain),
            get: one(Brick),
            give_gold: 0,
            get_gold: 0,
        },
    );
    assert!(g.legal_actions(1).is_empty());
    ok(&mut g, 2, Action::AcceptTrade);
    let err = assert_refused(&mut g, 0, Action::ConfirmTrade { with: 1 });
    assert!(matches!(err, RuleError::InvalidTrade { .. }), "{err:?}");
    ok(&mut g, 0, Action::ConfirmTrade { with: 2 });
    assert_eq!(hand(&g, 0), rs(1, 2, 1, 0, 0));
    assert_eq!(hand(&g, 2), rs(1, 0, 1, 0, 1));
    check(&g);
}

#[test]
fn accept_decline_and_complete_with_one_acceptor() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    let ev = ok(&mut g, 1, Action::AcceptTrade);
    assert_eq!(ev, vec![Event::TradeAccepted { seat: 1 }]);
    ok(&mut g, 2, Action::AcceptTrade);
    let ev = ok(&mut g, 3, Action::DeclineTrade);
    assert_eq!(ev, vec![Event::TradeDeclined { seat: 3 }]);
    // One answer each.
    let err = assert_refused(&mut g, 1, Action::DeclineTrade);
    assert!(matches!(err, RuleError::InvalidTrade { .. }));
    assert_eq!(g.pending_responders(), SeatSet::EMPTY);
    // Not with the one who declined, nor with oneself.
    assert_refused(&mut g, 0, Action::ConfirmTrade { with: 3 });
    assert_refused(&mut g, 0, Action::ConfirmTrade { with: 0 });
    let legal = g.legal_actions(0).actions;
    assert!(legal.contains(&Action::ConfirmTrade { with: 1 }));
    assert!(legal.contains(&Action::ConfirmTrade { with: 2 }));
    assert!(!legal.contains(&Action::ConfirmTrade { with: 3 }));
    let ev = ok(&mut g, 0, Action::ConfirmTrade { with: 2 });
    assert!(ev.contains(&Event::TradeCompleted {
        seat: 0,
        with: 2,
        gave: one(Brick),
        got: one(Wool),
        gave_gold: 0,
        got_gold: 0
    }));
    assert_eq!(hand(&g, 0), rs(1, 2, 1, 0, 0));
    assert_eq!(hand(&g, 2), rs(1, 0, 1, 0, 1));
    assert_eq!(hand(&g, 1), rs(0, 0, 2, 2, 0), "the other acceptor is untouched");
    assert!(g.offer.is_none());
    // The offer is closed: no second completion.
    assert_refused(&mut g, 0, Action::ConfirmTrade { with: 1 });
    check(&g);
}

#[test]
fn accepting_needs_the_cards_asked_for() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    let err = assert_refused(&mut g, 3, Action::AcceptTrade);
    assert!(matches!(err, RuleError::InvalidTrade { .. }), "{err:?}");
    assert!(!g.legal_actions(3).actions.contains(&Action::AcceptTrade));
    ok(&mut g, 3, Action::DeclineTrade);
}

#[test]
fn counter_offer_can_be_completed() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    // Seat 1 would rather give 2 grain for 1 lumber.
    for (give, get) in [
        (ResourceSet::EMPTY, one(Lumber)),
        (n_of(Grain, 2), ResourceSet::EMPTY),
        (one(Grain), one(Grain)),
        (one(Ore), one(Lumber)),
    ] {
        let err = assert_refused(
            &mut g,
            1,
            Action::CounterOffer {
                give,
                get,
                give_gold: 0,
                get_gold: 0,
            },
        );
        assert!(matches!(err, RuleError::InvalidTrade { .. }), "{err:?}");
    }
    let ev = ok(
        &mut g,
        1,
        Action::CounterOffer {
            give: n_of(Grain, 2),
            get: one(Lumber),
            give_gold: 0,
            get_gold: 0,
        },
    );
    assert!(ev.contains(&Event::TradeCountered {
        seat: 1,
        give: n_of(Grain, 2),
        get: one(Lumber),
        give_gold: 0,
        get_gold: 0
    }));
    ok(&mut g, 0, Action::ConfirmTrade { with: 1 });
    assert_eq!(hand(&g, 0), rs(2, 1, 0, 2, 0));
    assert_eq!(hand(&g, 1), rs(0, 1, 2, 0, 0));
    check(&g);
}

#[test]
fn no_gifts_no_same_resource_on_both_sides() {
    let mut g = trading();
    for (give, get, to) in [
        (ResourceSet::EMPTY, one(Wool), vec![]),
        (one(Brick), ResourceSet::EMPTY, vec![]),
        (one(Brick), rs(1, 0, 1, 0, 0), vec![]),
        (n_of(Brick, 3), one(Wool), vec![]), // not held
        (one(Ore), one(Wool), vec![]),       // not held
        (one(Brick), one(Wool), vec![0]),    // to oneself
        (one(Brick), one(Wool), vec![4]),    // no such seat
    ] {
        let err = assert_refused(&mut g, 0, offer(give, get, &to));
        assert!(
            matches!(err, RuleError::InvalidTrade { .. }),
            "{give} / {get}: {err:?}"
        );
    }
}

#[test]
fn players_other_than_the_current_one_never_trade_with_each_other() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    ok(
        &mut g,
        1,
        Action::CounterOffer {
            give: one(Grain),
            get: one(Lumber),
            give_gold: 0,
            get_gold: 0,
        },
    );
    ok(&mut g, 2, Action::AcceptTrade);
    // Seat 2 cannot take up seat 1's counter, nor complete anything.
    for seat in [1, 2, 3] {
        for a in [
            Action::ConfirmTrade { with: 1 },
            Action::ConfirmTrade { with: 2 },
            Action::CancelTrade,
            offer(one(Wool), one(Grain), &[1]),
        ] {
            assert_refused(&mut g, seat, a);
        }
    }
    check(&g);
}

#[test]
fn open_offer_lapses_at_end_of_turn() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    ok(&mut g, 1, Action::AcceptTrade);
    ok(&mut g, 0, Action::EndTurn);
    assert!(g.offer.is_none());
    assert_eq!(g.current, 1);
    assert_refused(&mut g, 2, Action::AcceptTrade);
    assert_refused(&mut g, 0, Action::ConfirmTrade { with: 1 });
    assert_eq!(hand(&g, 0), rs(2, 2, 0, 0, 0));
    check(&g);
}

#[test]
fn cancel_and_stale_acceptance() {
    let mut g = trading();
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[]));
    ok(&mut g, 1, Action::AcceptTrade);
    // Seat 0 spends the brick it offered: the trade cannot be completed any more.
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| edges_at(&g, c).len() == 3)
        .unwrap();
    settle(&mut g, 0, c);
    let edge = edges_at(&g, c)[0];
    ok(&mut g, 0, Action::BuildRoad { edge });
    let edge = edges_at(&g, c)[1];
    ok(&mut g, 0, Action::BuildRoad { edge });
    let err = assert_refused(&mut g, 0, Action::ConfirmTrade { with: 1 });
    assert!(matches!(err, RuleError::InvalidTrade { .. }), "{err:?}");
    ok(&mut g, 0, Action::CancelTrade);
    assert!(g.offer.is_none());
    assert_refused(&mut g, 0, Action::CancelTrade);
    assert_refused(&mut g, 2, Action::AcceptTrade);
    check(&g);
}

// ----- maritime -----------------------------------------------------------------------

#[test]
fn maritime_four_to_one() {
    let mut g = blank(4);
    main_phase(&mut g);
    give(&mut g, 0, n_of(Brick, 3));
    let err = assert_refused(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert_eq!(
        err,
        RuleError::NotEnoughResources {
            needed: n_of(Brick, 4)
        }
    );
    give(&mut g, 0, one(Brick));
    let err = assert_refused(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Brick,
        },
    );
    assert!(matches!(err, RuleError::InvalidTrade { .. }));
    let ev = ok(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert!(ev.contains(&Event::MaritimeTrade {
        seat: 0,
        gave: n_of(Brick, 4),
        got: one(Ore)
    }));
    assert_eq!(hand(&g, 0), one(Ore));
    check(&g);
}

/// The two corners of the first harbor of `kind`.
fn harbor_corners(g: &Game, kind: HarborKind) -> [u8; 2] {
    let i = (0..g.topo.harbor_count())
        .find(|&i| g.board.harbors[i] == kind)
        .unwrap();
    g.topo.edge_corners[g.topo.harbor_edges[i] as usize]
}

#[test]
fn maritime_three_to_one_with_a_generic_harbor() {
    let mut g = blank(4);
    main_phase(&mut g);
    let [c, _] = harbor_corners(&g, HarborKind::Generic);
    settle(&mut g, 0, c);
    for r in Resource::ALL {
        assert_eq!(g.maritime_rate(0, r), 3);
        assert_eq!(g.maritime_rate(1, r), 4);
    }
    give(&mut g, 0, n_of(Wool, 2));
    assert_refused(&mut g, 0, Action::MaritimeTrade { give: Wool, get: Ore });
    give(&mut g, 0, one(Wool));
    ok(&mut g, 0, Action::MaritimeTrade { give: Wool, get: Ore });
    assert_eq!(hand(&g, 0), one(Ore));
    check(&g);
}

#[test]
fn maritime_two_to_one_only_with_a_building_on_that_harbor() {
    let mut g = blank(4);
    main_phase(&mut g);
    let [c, other] = harbor_corners(&g, HarborKind::Brick);
    // A road touching the harbor gives nothing.
    let at = edges_at(&g, other)[0];
    road(&mut g, 0, at);
    assert_eq!(g.maritime_rate(0, Brick), 4);
    give(&mut g, 0, n_of(Brick, 2));
    let err = assert_refused(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert!(matches!(err, RuleError::NotEnoughResources { .. }));
    settle(&mut g, 0, c);
    assert_eq!(g.maritime_rate(0, Brick), 2);
    // Other resources stay at 4:1 (no generic harbor).
    for r in [Lumber, Wool, Grain, Ore] {
        assert_eq!(g.maritime_rate(0, r), 4);
    }
    give(&mut g, 0, n_of(Wool, 3));
    assert_refused(&mut g, 0, Action::MaritimeTrade { give: Wool, get: Ore });
    ok(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert_eq!(hand(&g, 0), rs(0, 0, 3, 0, 1));
    check(&g);
}

#[test]
fn maritime_needs_the_card_in_the_bank() {
    let mut g = blank(4);
    main_phase(&mut g);
    give(&mut g, 0, n_of(Brick, 4));
    drain_bank(&mut g, Ore, 0, 2);
    let err = assert_refused(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert_eq!(err, RuleError::BankEmpty { resource: Ore });
    assert!(!g.legal_actions(0).actions.contains(&Action::MaritimeTrade {
        give: Brick,
        get: Ore
    }));
    ok(
        &mut g,
        0,
        Action::MaritimeTrade {
            give: Brick,
            get: Grain,
        },
    );
    check(&g);
}

#[test]
fn gold_is_traded_only_in_barbarian_invasion() {
    let mut g = trading();
    for a in [
        Action::OfferTrade {
            give: one(Brick),
            get: one(Wool),
            give_gold: 1,
            get_gold: 0,
            to: SeatSet::EMPTY,
        },
        Action::OfferTrade {
            give: one(Brick),
            get: ResourceSet::EMPTY,
            give_gold: 0,
            get_gold: 2,
            to: SeatSet::EMPTY,
        },
    ] {
        let err = assert_refused(&mut g, 0, a);
        assert!(err.to_string().contains("only in Barbarian Invasion"), "{err}");
    }
    ok(&mut g, 0, offer(one(Brick), one(Wool), &[1]));
    let err = assert_refused(
        &mut g,
        1,
        Action::CounterOffer {
            give: one(Wool),
            get: ResourceSet::EMPTY,
            give_gold: 0,
            get_gold: 1,
        },
    );
    assert!(err.to_string().contains("only in Barbarian Invasion"), "{err}");
    // No gold requirement outside the scenario.
    assert!(!g
        .legal_actions(1)
        .requirements
        .iter()
        .any(|r| matches!(r, crate::action::Requirement::TradeGold { .. })));
}
