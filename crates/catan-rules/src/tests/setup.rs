//! Set-up: snake order, the distance rule, the set-up road, starting resources.

use super::*;
use crate::view::Viewer;

/// Places the set-up settlement at `corner` for the seat whose turn it is.
fn place_at(g: &mut Game, corner: u8) -> Vec<Event> {
    let seat = g.setup_seat();
    ok(g, seat, Action::BuildSettlement { corner })
}

/// Places the first legal set-up piece (settlement or road) for the seat to move.
fn place_first_legal(g: &mut Game) -> Vec<Event> {
    let seat = g.setup_seat();
    let a = g.legal_actions(seat).actions[0];
    ok(g, seat, a)
}

/// Plays first-legal set-up moves until `setup_index` reaches `index` in the settlement
/// phase.
fn advance_to(g: &mut Game, index: u8) {
    while !(g.setup_index == index && g.phase == Phase::SetupSettlement) {
        place_first_legal(g);
    }
}

#[test]
fn setup_runs_in_snake_order_from_the_first_seat() {
    for seed in [1, 2, 3, 4, 5] {
        let mut g = new_game(4, seed);
        let first = g.current;
        let mut order = Vec::new();
        while matches!(g.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
            let seat = g.setup_seat();
            assert_eq!(g.waiting_on().iter().collect::<Vec<_>>(), vec![seat]);
            assert_eq!(g.view(Viewer::Spectator).current, seat);
            if g.phase == Phase::SetupSettlement {
                order.push(seat);
            }
            // Nobody else may place now.
            let a = g.legal_actions(seat).actions[0];
            for other in (0..4).filter(|&s| s != seat) {
                assert!(g.legal_actions(other).is_empty());
                let e = assert_refused(&mut g, other, a);
                assert!(matches!(e, RuleError::NotYourTurn { .. }), "{e:?}");
            }
            ok(&mut g, seat, a);
        }
        let expected: Vec<Seat> = [0, 1, 2, 3, 3, 2, 1, 0].iter().map(|k| (first + k) % 4).collect();
        assert_eq!(order, expected, "seed {seed}");
        // Then the first player starts the first turn.
        assert_eq!(g.phase, Phase::Roll);
        assert_eq!(g.current, first);
        assert_eq!(g.turn, 1);
        for s in 0..4 {
            assert_eq!(g.players[s].settlements_left, 3);
            assert_eq!(g.players[s].roads_left, 13);
        }
        check(&g);
    }
}

#[test]
fn snake_order_with_three_and_six_players() {
    for n in [3u8, 6] {
        let mut g = new_game(n, 21);
        let first = g.current;
        let mut order = Vec::new();
        while matches!(g.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
            if g.phase == Phase::SetupSettlement {
                order.push(g.setup_seat());
            }
            place_first_legal(&mut g);
        }
        let expected: Vec<Seat> = (0..n).chain((0..n).rev()).map(|k| (first + k) % n).collect();
        assert_eq!(order, expected);
        assert_eq!(g.current, first);
        check(&g);
    }
}

#[test]
fn first_player_is_drawn_by_the_rng() {
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let g = new_game(4, seed);
        assert_eq!(g.current, g.first);
        // The same seed always draws the same first seat.
        assert_eq!(new_game(4, seed).first, g.first);
        firsts.insert(g.first);
    }
    assert_eq!(firsts.len(), 4, "every seat can start: {firsts:?}");
}

#[test]
fn setup_distance_rule() {
    let mut g = new_game(4, 3);
    // An inland corner with three neighbours.
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| hexes_at(&g, c).len() == 3)
        .unwrap();
    place_at(&mut g, c);
    place_first_legal(&mut g); // its road
    let next = g.setup_seat();
    let e = assert_refused(&mut g, next, Action::BuildSettlement { corner: c });
    assert!(matches!(e, RuleError::IllegalPlacement { .. }));
    for &d in g.topo.corner_corners[c as usize].iter().filter(|&&d| d != NONE) {
        let e = assert_refused(&mut g, next, Action::BuildSettlement { corner: d });
        assert!(matches!(e, RuleError::IllegalPlacement { .. }), "{e:?}");
        assert!(g
            .legal_actions(next)
            .actions
            .iter()
            .all(|a| *a != Action::BuildSettlement { corner: d }));
    }
    // Two steps away is fine.
    let d = g.topo.corner_corners[c as usize][0];
    let far = g.topo.corner_corners[d as usize]
        .iter()
        .copied()
        .find(|&x| x != NONE && x != c && g.blocked & bit(x) == 0)
        .unwrap();
    place_at(&mut g, far);
    assert_eq!(g.corner_owner[far as usize], next);
    check(&g);
}

#[test]
fn distance_rule_in_the_main_game() {
    let mut g = blank(4);
    main_phase(&mut g);
    // Seat 0: settlement at c, roads c-d-e.
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| hexes_at(&g, c).len() == 3)
        .unwrap();
    settle(&mut g, 0, c);
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    let e = other_end(&g, e2, d);
    roads(&mut g, 0, &[e1, e2]);
    give(&mut g, 0, times(ResourceSet::SETTLEMENT, 2));
    let err = assert_refused(&mut g, 0, Action::BuildSettlement { corner: d });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    // An opponent's building next to the target corner blocks it too.
    let mut blocked = g.clone();
    let x = g.topo.corner_corners[e as usize]
        .iter()
        .copied()
        .find(|&x| x != NONE && x != d)
        .unwrap();
    settle(&mut blocked, 1, x);
    let err = assert_refused(&mut blocked, 0, Action::BuildSettlement { corner: e });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    // Two roads away from any building: allowed.
    ok(&mut g, 0, Action::BuildSettlement { corner: e });
    assert_eq!(g.corner_owner[e as usize], 0);
    check(&g);
}

#[test]
fn setup_road_must_touch_the_settlement_just_placed() {
    let mut g = new_game(4, 5);
    // The last seat of round one places twice in a row.
    advance_to(&mut g, 3);
    let seat = g.setup_seat();
    let ev = place_first_legal(&mut g);
    let Event::SettlementBuilt { corner: c1, .. } = ev[0] else {
        panic!("{ev:?}")
    };
    place_first_legal(&mut g);
    let r1 = g.players[seat as usize].roads.trailing_zeros() as u8;
    assert_eq!(g.setup_seat(), seat);
    // Second settlement somewhere else.
    let c2 = g.legal_actions(seat).actions.last().copied().unwrap();
    let Action::BuildSettlement { corner: c2 } = c2 else {
        panic!()
    };
    ok(&mut g, seat, Action::BuildSettlement { corner: c2 });
    assert_eq!(g.phase, Phase::SetupRoad { corner: c2 });
    // An edge at the first settlement, and one extending the first road, are refused.
    let at_c1 = edges_at(&g, c1).into_iter().find(|&e| e != r1).unwrap();
    let err = assert_refused(&mut g, seat, Action::BuildRoad { edge: at_c1 });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    let far = other_end(&g, r1, c1);
    let beyond = edges_at(&g, far).into_iter().find(|&e| e != r1).unwrap();
    assert_refused(&mut g, seat, Action::BuildRoad { edge: beyond });
    // Nor can the seat place another settlement instead.
    assert_refused(&mut g, seat, Action::BuildSettlement { corner: c1 });
    // Every edge the game offers touches the new settlement.
    let legal = g.legal_actions(seat).actions;
    assert!(!legal.is_empty());
    for a in &legal {
        let Action::BuildRoad { edge } = *a else {
            panic!("{a:?}")
        };
        assert!(g.topo.edge_corners[edge as usize].contains(&c2));
    }
    ok(&mut g, seat, legal[0]);
    check(&g);
}

#[test]
fn setup_road_refused_before_the_settlement() {
    let mut g = new_game(4, 5);
    let seat = g.setup_seat();
    let err = assert_refused(&mut g, seat, Action::BuildRoad { edge: 0 });
    assert!(matches!(err, RuleError::WrongPhase { .. }), "{err:?}");
    for a in [Action::RollDice, Action::EndTurn, Action::BuyDevelopmentCard] {
        assert_refused(&mut g, seat, a);
    }
}

#[test]
fn first_settlement_yields_nothing() {
    let mut g = new_game(4, 9);
    let bank = g.bank;
    // A corner on three producing hexes.
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| {
            let hs = hexes_at(&g, c);
            hs.len() == 3
                && hs
                    .iter()
                    .all(|&h| g.board.terrain[h as usize].resource().is_some())
        })
        .unwrap();
    let seat = g.setup_seat();
    let ev = place_at(&mut g, c);
    assert!(!ev.iter().any(|e| matches!(e, Event::StartingResources { .. })));
    assert!(hand(&g, seat).is_empty());
    assert_eq!(g.bank, bank);
}

#[test]
fn second_settlement_yields_one_card_per_producing_hex() {
    let mut g = new_game(4, 9);
    advance_to(&mut g, 4);
    let seat = g.setup_seat();
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| {
            let hs = hexes_at(&g, c);
            g.blocked & bit(c) == 0
                && hs.len() == 3
                && hs
                    .iter()
                    .all(|&h| g.board.terrain[h as usize].resource().is_some())
        })
        .unwrap();
    let mut expected = ResourceSet::EMPTY;
    for h in hexes_at(&g, c) {
        expected[g.board.terrain[h as usize].resource().unwrap()] += 1;
    }
    let bank = g.bank;
    let ev = place_at(&mut g, c);
    assert_eq!(hand(&g, seat), expected);
    assert_eq!(hand(&g, seat).total(), 3);
    assert!(ev.contains(&Event::StartingResources {
        seat,
        cards: expected
    }));
    let mut b = g.bank;
    b.add(&expected);
    assert_eq!(b, bank);
    check(&g);
}

#[test]
fn second_settlement_gets_nothing_for_the_desert() {
    // Look for a seed whose desert has a corner with three land hexes still free.
    for seed in 0..50 {
        let mut g = new_game(4, seed);
        advance_to(&mut g, 4);
        let d = first_desert(&g);
        let Some(c) = g.topo.hex_corners[d as usize]
            .iter()
            .copied()
            .find(|&c| g.blocked & bit(c) == 0 && hexes_at(&g, c).len() == 3)
        else {
            continue;
        };
        let seat = g.setup_seat();
        let mut expected = ResourceSet::EMPTY;
        for h in hexes_at(&g, c) {
            if h != d {
                expected[g.board.terrain[h as usize].resource().unwrap()] += 1;
            }
        }
        place_at(&mut g, c);
        assert_eq!(hand(&g, seat), expected);
        assert_eq!(hand(&g, seat).total(), 2, "two producing hexes, one desert");
        check(&g);
        return;
    }
    panic!("no seed with a free three-hex corner on the desert");
}

#[test]
fn setup_ends_with_everyone_holding_second_settlement_cards() {
    let g = game(4);
    for s in 0..4u8 {
        let p = &g.players[s as usize];
        // The hand is what the second settlement produced: at most 3 cards.
        assert!(p.hand.total() <= 3);
        assert_eq!(p.buildings.count_ones(), 2);
        assert_eq!(p.roads.count_ones(), 2);
    }
    check(&g);
}

// ----- board set-up (base island) ---------------------------------------------------------

/// The base token letters A..R of base.md.
const BASE_LETTERS: [u8; 18] = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11];

#[test]
fn base_tokens_follow_a_spiral_from_a_drawn_corner_and_direction() {
    use crate::board::Terrain;
    let mut used = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let g = new_game(4, seed);
        let t = g.topo;
        let mut found = false;
        for start in 0..t.spiral_starts.len() {
            for cw in [true, false] {
                let seq: Vec<u8> = t
                    .spiral(start, cw)
                    .into_iter()
                    .filter(|&h| g.board.terrain[h as usize] != Terrain::Desert)
                    .map(|h| g.board.token[h as usize])
                    .collect();
                if seq == BASE_LETTERS {
                    used.insert((start, cw));
                    found = true;
                }
            }
        }
        assert!(found, "seed {seed}");
        assert_eq!(g.robber, first_desert(&g));
        assert_eq!(g.board.token[g.robber as usize], 0);
        assert_eq!(g.bank, ResourceSet::splat(19));
    }
    let starts: std::collections::BTreeSet<usize> = used.iter().map(|&(s, _)| s).collect();
    assert!(starts.len() > 2 && used.iter().any(|u| u.1) && used.iter().any(|u| !u.1));
}

#[test]
fn token_placement_options() {
    use crate::board::{red_adjacent, TokenPlacement};
    for seed in 0..30 {
        let cfg = GameConfig {
            tokens: TokenPlacement::Random,
            ..GameConfig::default()
        };
        let g = Game::new(cfg, seed).unwrap();
        assert!(!red_adjacent(g.topo, &g.board.token), "seed {seed}");
        let cfg = GameConfig {
            players: 5,
            tokens: TokenPlacement::Random,
            ..GameConfig::default()
        };
        let g = Game::new(cfg, seed).unwrap();
        assert!(!red_adjacent(g.topo, &g.board.token), "5-6 seed {seed}");
    }
    let beginner = GameConfig {
        tokens: TokenPlacement::Beginner,
        ..GameConfig::default()
    };
    let a = Game::new(beginner, 1).unwrap();
    let b = Game::new(beginner, 2).unwrap();
    assert_eq!(a.board, b.board, "the beginner board is fixed");
    let five = GameConfig {
        players: 5,
        ..beginner
    };
    assert!(
        Game::new(five, 1).is_err(),
        "no beginner board for the 5-6 island"
    );
}
