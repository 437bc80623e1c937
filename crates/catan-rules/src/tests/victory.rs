//! Winning: at the target during one's own turn, or at the start of one's next turn.

use super::*;
use crate::view::Viewer;

#[test]
fn reaching_the_target_in_own_turn_ends_the_game() {
    let mut g = blank(4);
    main_phase(&mut g);
    let cs = spare_corners(&g, 5);
    for &c in &cs[..4] {
        city(&mut g, 0, c);
    }
    vp_cards(&mut g, 0, 1);
    vp_cards(&mut g, 1, 2);
    let f = cs[4];
    let at = edges_at(&g, f)[0];
    road(&mut g, 0, at);
    assert_eq!(g.victory_points(0), 9);
    // Before the end, VP cards are seen only by their holder.
    for s in 0..4 {
        let v = g.view(Viewer::Spectator);
        assert_eq!(v.players[s].victory_point_cards, None);
        let own = g.view(Viewer::Seat(s as Seat));
        for t in 0..4 {
            assert_eq!(own.players[t].victory_point_cards.is_some(), s == t);
        }
    }
    assert_eq!(g.view(Viewer::Seat(0)).players[1].public_victory_points, 0);

    give(&mut g, 0, ResourceSet::SETTLEMENT);
    let ev = ok(&mut g, 0, Action::BuildSettlement { corner: f });
    assert_eq!(g.phase, Phase::GameOver { winner: 0 });
    assert_eq!(g.winner(), Some(0));
    assert!(g.is_over());
    let over = ev.iter().find_map(|e| match e {
        Event::GameOver { winner, points } => Some((*winner, *points)),
        _ => None,
    });
    let (winner, points) = over.expect("the game is over");
    assert_eq!(winner, 0);
    assert_eq!(points, [10, 2, 0, 0], "one entry per seat of this 4-player game");
    // VP cards revealed in every view.
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
        Viewer::Seat(3),
    ] {
        let v = g.view(viewer);
        assert_eq!(v.winner, Some(0));
        assert_eq!(v.players[0].victory_point_cards, Some(1));
        assert_eq!(v.players[1].victory_point_cards, Some(2));
        assert_eq!(v.players[2].victory_point_cards, Some(0));
        assert_eq!(v.players[0].victory_points, Some(10));
        assert_eq!(v.players[1].victory_points, Some(2));
    }
    // Nothing more happens.
    for (seat, a) in [
        (0, Action::EndTurn),
        (1, Action::RollDice),
        (0, Action::BuyDevelopmentCard),
    ] {
        assert_eq!(assert_refused(&mut g, seat, a), RuleError::GameOver);
    }
    check(&g);
}

#[test]
fn below_the_target_the_game_goes_on() {
    let mut g = blank(4);
    main_phase(&mut g);
    let cs = spare_corners(&g, 5);
    for &c in &cs[..4] {
        city(&mut g, 0, c);
    }
    let at = edges_at(&g, cs[4])[0];
    road(&mut g, 0, at);
    give(&mut g, 0, ResourceSet::SETTLEMENT);
    // 8 + 1 = 9: not yet.
    ok(&mut g, 0, Action::BuildSettlement { corner: cs[4] });
    assert_eq!(g.victory_points(0), 9);
    assert_eq!(g.phase, Phase::Main);
}

#[test]
fn reaching_the_target_outside_own_turn_wins_at_the_start_of_the_next_turn() {
    // Seat 0 holds Longest Road (7), seat 1 has 5, seat 2 has 4; seat 3 will cut seat 0.
    let (mut g, cut) = super::titles::cut_position(4);
    let cs = spare_corners(&g, 2);
    city(&mut g, 1, cs[0]);
    city(&mut g, 1, cs[1]);
    vp_cards(&mut g, 1, 4);
    assert_eq!(g.victory_points(1), 8);
    give(&mut g, 3, ResourceSet::SETTLEMENT);
    let ev = ok(&mut g, 3, Action::BuildSettlement { corner: cut });
    assert!(ev.contains(&Event::LongestRoad {
        holder: Some(1),
        length: 5
    }));
    assert_eq!(g.victory_points(1), 10);
    // Not seat 1's turn: the game goes on.
    assert_eq!(g.phase, Phase::Main);
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    ok(&mut g, 3, Action::EndTurn);
    assert_eq!(g.current, 0);
    assert_eq!(g.phase, Phase::Roll, "seat 0's turn: seat 1 does not win yet");
    force_roll(&mut g, 2);
    let ev = ok(&mut g, 0, Action::EndTurn);
    // Seat 1's turn starts and it wins at once.
    assert!(ev.contains(&Event::TurnStarted {
        seat: 1,
        turn: g.turn
    }));
    assert!(ev.iter().any(|e| matches!(e, Event::GameOver { winner: 1, .. })));
    assert_eq!(g.winner(), Some(1));
    assert_eq!(g.current, 1);
    check(&g);
}
