//! The Special Building Phase of the 5–6 extension.

use super::*;
use crate::action::SeatSet;

fn cfg(players: u8, special_building: Option<bool>) -> GameConfig {
    GameConfig {
        players,
        special_building,
        ..GameConfig::default()
    }
}

#[test]
fn special_building_default_on_for_five_and_six_off_for_three_and_four() {
    for (n, on) in [(3, false), (4, false), (5, true), (6, true)] {
        assert_eq!(cfg(n, None).special_building(), on);
        let mut g = blank(n);
        main_phase(&mut g);
        ok(&mut g, 0, Action::EndTurn);
        if on {
            assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
            assert_eq!(g.current, 0);
        } else {
            assert_eq!(g.phase, Phase::Roll);
            assert_eq!(g.current, 1);
        }
    }
}

#[test]
fn special_building_can_be_switched_for_any_count() {
    let mut g = blank_with(cfg(4, Some(true)), 3);
    main_phase(&mut g);
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
    let mut g = blank_with(cfg(5, Some(false)), 3);
    main_phase(&mut g);
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.phase, Phase::Roll);
    assert_eq!(g.current, 1);
}

#[test]
fn five_player_game_starts_with_special_building_after_a_turn() {
    let mut g = game(5);
    let first = g.current;
    force_roll(&mut g, 2);
    let ev = ok(&mut g, first, Action::EndTurn);
    assert!(ev.contains(&Event::SpecialBuildTurn {
        seat: (first + 1) % 5
    }));
    assert_eq!(
        g.phase,
        Phase::SpecialBuild {
            seat: (first + 1) % 5
        }
    );
}

#[test]
fn special_builders_in_seat_order_from_the_next_seat_then_next_turn() {
    for (n, current) in [(5u8, 2u8), (6, 5)] {
        let mut g = blank(n);
        turn_of(&mut g, current);
        let ev = ok(&mut g, current, Action::EndTurn);
        assert_eq!(
            ev,
            vec![
                Event::TurnEnded { seat: current },
                Event::SpecialBuildTurn {
                    seat: (current + 1) % n
                }
            ]
        );
        let mut order = Vec::new();
        while let Phase::SpecialBuild { seat } = g.phase {
            order.push(seat);
            let mut only = SeatSet::EMPTY;
            only.insert(seat);
            assert_eq!(g.waiting_on(), only);
            // Nobody else may pass for the builder.
            for other in (0..n).filter(|&s| s != seat) {
                let err = assert_refused(&mut g, other, Action::EndTurn);
                assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
                assert!(g.legal_actions(other).is_empty());
            }
            assert!(g.legal_actions(seat).actions.contains(&Action::EndTurn));
            ok(&mut g, seat, Action::EndTurn);
        }
        let expected: Vec<Seat> = (1..n).map(|k| (current + k) % n).collect();
        assert_eq!(order, expected, "{n} players, seat {current} ended");
        assert_eq!(g.phase, Phase::Roll);
        assert_eq!(g.current, (current + 1) % n);
        check(&g);
    }
}

/// Five players; seat 0 has ended its turn and seat 1 is in its special build turn.
fn sbp() -> Game {
    let mut g = blank(5);
    main_phase(&mut g);
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
    g
}

#[test]
fn special_build_turn_allows_building_and_buying() {
    let mut g = sbp();
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| edges_at(&g, c).len() == 3)
        .unwrap();
    settle(&mut g, 1, c);
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    let x = other_end(&g, e2, d);
    give(&mut g, 1, times(ResourceSet::ROAD, 2));
    give(&mut g, 1, ResourceSet::SETTLEMENT);
    give(&mut g, 1, ResourceSet::CITY);
    give(&mut g, 1, ResourceSet::DEV_CARD);
    let legal = g.legal_actions(1).actions;
    assert!(legal.contains(&Action::BuildRoad { edge: e1 }));
    assert!(legal.contains(&Action::BuildCity { corner: c }));
    assert!(legal.contains(&Action::BuyDevelopmentCard));
    assert!(!legal.iter().any(|a| matches!(a, Action::MaritimeTrade { .. })));
    assert!(g.legal_actions(1).requirements.is_empty(), "no trade offers");
    // The one whose turn ended cannot build now.
    assert_refused(&mut g, 0, Action::BuildRoad { edge: e1 });
    ok(&mut g, 1, Action::BuildRoad { edge: e1 });
    ok(&mut g, 1, Action::BuildRoad { edge: e2 });
    ok(&mut g, 1, Action::BuildSettlement { corner: x });
    ok(&mut g, 1, Action::BuildCity { corner: c });
    stack_deck(&mut g, DevCard::Knight);
    ok(&mut g, 1, Action::BuyDevelopmentCard);
    assert!(hand(&g, 1).is_empty());
    assert_eq!(g.victory_points(1), 3);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
    // Bought before seat 1's own turn: playable in it.
    assert_refused(&mut g, 1, Action::PlayKnight);
    ok(&mut g, 1, Action::EndTurn);
    for s in [2, 3, 4] {
        ok(&mut g, s, Action::EndTurn);
    }
    assert_eq!(g.current, 1);
    ok(&mut g, 1, Action::PlayKnight);
    check(&g);
}

#[test]
fn special_build_turn_refuses_trades_and_card_plays() {
    let mut g = sbp();
    give(&mut g, 1, rs(4, 4, 4, 4, 4));
    give_dev(&mut g, 1, DevCard::Knight, false);
    give_dev(&mut g, 1, DevCard::Monopoly, false);
    give_dev(&mut g, 1, DevCard::YearOfPlenty, false);
    give_dev(&mut g, 1, DevCard::RoadBuilding, false);
    let to_all = SeatSet::EMPTY;
    for a in [
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
        Action::OfferTrade {
            give: one(Brick),
            get: one(Ore),
            to: to_all,
            give_gold: 0,
            get_gold: 0,
        },
        Action::PlayKnight,
        Action::PlayMonopoly { resource: Ore },
        Action::PlayYearOfPlenty {
            first: Ore,
            second: Ore,
        },
        Action::PlayRoadBuilding,
        Action::RollDice,
    ] {
        let err = assert_refused(&mut g, 1, a);
        assert!(
            err.to_string().contains("Special Building Phase"),
            "{a:?} should be refused as not allowed in the Special Building Phase, got: {err}"
        );
    }
    // Nor may the player whose turn ended trade or play.
    give(&mut g, 0, rs(4, 0, 0, 0, 0));
    for a in [
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
        Action::OfferTrade {
            give: one(Brick),
            get: one(Ore),
            to: to_all,
            give_gold: 0,
            get_gold: 0,
        },
    ] {
        assert_refused(&mut g, 0, a);
    }
    check(&g);
}

/// Five players, seat 0 has ended its turn; seat 1 (special builder, next to play) has
/// 4 coastal roads, 2 cities and 4 VP cards (8 points) and can build a fifth road for
/// Longest Road; seat 2 has a road reaching a middle corner of that path. Returns the
/// game, the fifth edge and the corner where seat 2 could cut.
fn sbp_longest_road() -> (Game, u8, u8) {
    let g0 = sbp();
    for s in 0..g0.topo.coast.len() {
        let mut g = g0.clone();
        let path = coast_path(&g, s, 5);
        let pc = path_corners(&g, &path);
        let Some(k) = [2, 3].into_iter().find(|&k| edges_at(&g, pc[k]).len() == 3) else {
            continue;
        };
        roads(&mut g, 1, &path[..4]);
        let inland = edges_at(&g, pc[k])
            .into_iter()
            .find(|e| !path.contains(e))
            .unwrap();
        road(&mut g, 2, inland);
        let cs = spare_corners(&g, 2);
        city(&mut g, 1, cs[0]);
        city(&mut g, 1, cs[1]);
        vp_cards(&mut g, 1, 4);
        assert_eq!(g.victory_points(1), 8);
        return (g, path[4], pc[k]);
    }
    unreachable!()
}

#[test]
fn no_win_during_the_special_building_phase_but_at_the_start_of_own_turn() {
    let (mut g, fifth, _) = sbp_longest_road();
    give(&mut g, 1, ResourceSet::ROAD);
    let ev = ok(&mut g, 1, Action::BuildRoad { edge: fifth });
    assert_eq!(g.longest_road, Some(1));
    assert_eq!(g.victory_points(1), 10);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 }, "no win during the SBP");
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    for s in [1, 2, 3] {
        let ev = ok(&mut g, s, Action::EndTurn);
        assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    }
    let ev = ok(&mut g, 4, Action::EndTurn);
    assert!(ev.contains(&Event::TurnStarted { seat: 1, turn: 2 }));
    assert!(ev.iter().any(|e| matches!(e, Event::GameOver { winner: 1, .. })));
    assert_eq!(g.winner(), Some(1));
    check(&g);
}

#[test]
fn victory_point_card_bought_in_the_special_building_phase_does_not_win_then() {
    let mut g = sbp();
    let cs = spare_corners(&g, 4);
    for &c in &cs {
        city(&mut g, 1, c);
    }
    vp_cards(&mut g, 1, 1);
    assert_eq!(g.victory_points(1), 9);
    stack_deck(&mut g, DevCard::VictoryPoint);
    give(&mut g, 1, ResourceSet::DEV_CARD);
    ok(&mut g, 1, Action::BuyDevelopmentCard);
    assert_eq!(g.victory_points(1), 10);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 1 });
    for s in [1, 2, 3, 4] {
        ok(&mut g, s, Action::EndTurn);
    }
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn special_builder_who_loses_the_target_before_own_turn_does_not_win() {
    let (mut g, fifth, cut) = sbp_longest_road();
    give(&mut g, 1, ResourceSet::ROAD);
    ok(&mut g, 1, Action::BuildRoad { edge: fifth });
    assert_eq!(g.victory_points(1), 10);
    ok(&mut g, 1, Action::EndTurn);
    // Seat 2, in its special build turn, cuts seat 1's road.
    give(&mut g, 2, ResourceSet::SETTLEMENT);
    let ev = ok(&mut g, 2, Action::BuildSettlement { corner: cut });
    assert!(ev.contains(&Event::LongestRoad {
        holder: None,
        length: 3
    }));
    assert_eq!(g.victory_points(1), 8);
    ok(&mut g, 2, Action::EndTurn);
    ok(&mut g, 3, Action::EndTurn);
    ok(&mut g, 4, Action::EndTurn);
    assert_eq!(g.current, 1);
    assert_eq!(g.phase, Phase::Roll);
    assert_eq!(g.winner(), None);
    check(&g);
}

#[test]
fn special_builder_later_in_the_order_wins_at_its_own_turn() {
    // Seat 3 reaches the target in the SBP after seat 0's turn; seat 1 and seat 2 play
    // their turns first, and seat 3 wins when its own turn starts.
    let mut g = sbp();
    let cs = spare_corners(&g, 5);
    for &c in &cs[..4] {
        city(&mut g, 3, c);
    }
    vp_cards(&mut g, 3, 1);
    let at = edges_at(&g, cs[4])[0];
    road(&mut g, 3, at);
    for s in [1, 2] {
        ok(&mut g, s, Action::EndTurn);
    }
    give(&mut g, 3, ResourceSet::SETTLEMENT);
    ok(&mut g, 3, Action::BuildSettlement { corner: cs[4] });
    assert_eq!(g.victory_points(3), 10);
    assert_eq!(g.phase, Phase::SpecialBuild { seat: 3 });
    ok(&mut g, 3, Action::EndTurn);
    ok(&mut g, 4, Action::EndTurn);
    assert_eq!((g.current, g.phase), (1, Phase::Roll));
    // Seat 1's turn and the SBP after it (seats 2, 3, 4, 0).
    force_roll(&mut g, 2);
    ok(&mut g, 1, Action::EndTurn);
    for b in [2, 3, 4, 0] {
        assert_eq!(g.winner(), None);
        ok(&mut g, b, Action::EndTurn);
    }
    // Seat 2's turn and the SBP after it (seats 3, 4, 0, 1).
    assert_eq!((g.current, g.phase, g.winner()), (2, Phase::Roll, None));
    force_roll(&mut g, 2);
    ok(&mut g, 2, Action::EndTurn);
    for b in [3, 4, 0, 1] {
        assert_eq!(g.winner(), None);
        ok(&mut g, b, Action::EndTurn);
    }
    assert_eq!(g.current, 3);
    assert_eq!(g.winner(), Some(3));
    check(&g);
}

/// Rolls a 2 for the current player, ends the turn and lets every special builder pass.
fn play_quiet_turn(g: &mut Game) {
    let seat = g.current;
    force_roll(g, 2);
    ok(g, seat, Action::EndTurn);
    while let Phase::SpecialBuild { seat: b } = g.phase {
        assert_eq!(g.winner(), None);
        ok(g, b, Action::EndTurn);
    }
}

#[test]
fn player_whose_turn_ended_does_not_win_during_the_special_building_phase() {
    // Seat 2 holds Longest Road with 7 coastal roads; seat 0 has 5 and 8 other points.
    // In the SBP after seat 0's turn, seat 1 cuts seat 2's road: seat 0 takes the title
    // and reaches 10, but wins only when its own next turn starts.
    let g0 = blank(5);
    let n = g0.topo.coast.len();
    let (mut g, cut) = (0..n)
        .find_map(|s| {
            let mut g = g0.clone();
            let p2 = coast_path(&g, s, 7);
            let pc = path_corners(&g, &p2);
            let k = [3, 4].into_iter().find(|&k| edges_at(&g, pc[k]).len() == 3)?;
            roads(&mut g, 2, &p2);
            let p0 = coast_path(&g, s + 12, 5);
            roads(&mut g, 0, &p0);
            let inland = edges_at(&g, pc[k]).into_iter().find(|e| !p2.contains(e)).unwrap();
            road(&mut g, 1, inland);
            Some((g, pc[k]))
        })
        .unwrap();
    assert_eq!(g.longest_road, Some(2));
    let cs = spare_corners(&g, 2);
    city(&mut g, 0, cs[0]);
    city(&mut g, 0, cs[1]);
    vp_cards(&mut g, 0, 4);
    assert_eq!(g.victory_points(0), 8);
    main_phase(&mut g);
    ok(&mut g, 0, Action::EndTurn);
    give(&mut g, 1, ResourceSet::SETTLEMENT);
    let ev = ok(&mut g, 1, Action::BuildSettlement { corner: cut });
    assert!(ev.contains(&Event::LongestRoad {
        holder: Some(0),
        length: 5
    }));
    assert_eq!(g.victory_points(0), 10);
    assert_eq!(
        g.phase,
        Phase::SpecialBuild { seat: 1 },
        "nobody wins during the SBP"
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    for b in [1, 2, 3, 4] {
        ok(&mut g, b, Action::EndTurn);
    }
    assert_eq!((g.current, g.winner()), (1, None));
    while g.current != 0 {
        assert_eq!(g.winner(), None);
        play_quiet_turn(&mut g);
    }
    assert_eq!(g.winner(), Some(0));
    check(&g);
}
