//! Winning: at the target during one's own turn, or at the start of one's next turn.
//! Written on the public API: each test sets up its position with `Game::from_position`.

use catan_rules::{
    Action, Event, Game, GameConfig, Layout, Phase, PlacedBuilding, PlacedRoad, PlayerPosition, Position,
    ResourceSet, RuleError, Seat, Topology, Viewer,
};

fn topo() -> &'static Topology {
    Layout::Base.topology()
}

/// The edge joining corners `a` and `b`.
fn edge(a: u8, b: u8) -> u8 {
    let t = topo();
    (0..t.edge_count() as u8)
        .find(|&e| {
            let c = t.edge_corners[e as usize];
            c == [a, b] || c == [b, a]
        })
        .unwrap_or_else(|| panic!("no edge {a}-{b}"))
}

fn building(seat: Seat, corner: u8, city: bool) -> PlacedBuilding {
    PlacedBuilding { corner, seat, city }
}

fn road(seat: Seat, a: u8, b: u8) -> PlacedRoad {
    PlacedRoad {
        edge: edge(a, b),
        seat,
    }
}

fn players(hands: [(ResourceSet, u8); 4]) -> Vec<PlayerPosition> {
    hands
        .iter()
        .map(|&(hand, vp_cards)| {
            let mut p = PlayerPosition {
                hand,
                ..PlayerPosition::default()
            };
            p.development_cards.victory_point = vp_cards;
            p
        })
        .collect()
}

/// Seat 0, in its turn after the roll: cities on corners 0, 20, 40 and 50 (8 points), a
/// road 0–3–7 up to the free corner 7, and the cards for a settlement; `vp_cards` Victory
/// Point cards. Seat 1 holds 2 Victory Point cards.
fn nine_or_ten(vp_cards: u8) -> Position {
    let none = ResourceSet::EMPTY;
    Position {
        buildings: [0, 20, 40, 50].map(|c| building(0, c, true)).to_vec(),
        roads: vec![
            road(0, 0, 3),
            road(0, 3, 7),
            road(0, 20, 25),
            road(0, 40, 44),
            road(0, 50, 53),
        ],
        players: players([
            (ResourceSet::SETTLEMENT, vp_cards),
            (none, 2),
            (none, 0),
            (none, 0),
        ]),
        phase: Phase::Main,
        dice: Some([4, 5]),
        turn: 20,
        ..Position::default()
    }
}

#[test]
fn reaching_the_target_in_own_turn_ends_the_game() {
    let mut g = Game::from_position(GameConfig::default(), &nine_or_ten(1), 1).unwrap();
    assert_eq!(g.victory_points(0), 9);
    // Before the end, VP cards are seen only by their holder.
    for s in 0..4u8 {
        let v = g.view(Viewer::Spectator);
        assert_eq!(v.players[s as usize].victory_point_cards, None);
        let own = g.view(Viewer::Seat(s));
        for t in 0..4 {
            assert_eq!(own.players[t].victory_point_cards.is_some(), s as usize == t);
        }
    }
    assert_eq!(g.view(Viewer::Seat(0)).players[1].public_victory_points, 0);

    let ev = g.apply(0, Action::BuildSettlement { corner: 7 }).unwrap();
    assert_eq!(g.phase(), Phase::GameOver { winner: 0 });
    assert_eq!(g.winner(), Some(0));
    let (winner, points) = ev
        .iter()
        .find_map(|e| match e {
            Event::GameOver { winner, points } => Some((*winner, *points)),
            _ => None,
        })
        .expect("the game is over");
    assert_eq!(winner, 0);
    assert_eq!(points, [10, 2, 0, 0], "one entry per seat of this 4-player game");
    // VP cards revealed in every view.
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
    ] {
        let v = g.view(viewer);
        assert_eq!(v.winner, Some(0));
        assert_eq!(v.players[0].victory_point_cards, Some(1));
        assert_eq!(v.players[1].victory_point_cards, Some(2));
        assert_eq!(v.players[2].victory_point_cards, Some(0));
        assert_eq!(v.players[0].victory_points, Some(10));
        assert_eq!(v.players[1].victory_points, Some(2));
    }
    // Nothing more happens, and a finished game is a position like any other.
    for (seat, a) in [
        (0, Action::EndTurn),
        (1, Action::RollDice),
        (0, Action::BuyDevelopmentCard),
    ] {
        let before = g.position();
        assert_eq!(g.apply(seat, a), Err(RuleError::GameOver));
        assert_eq!(g.position(), before);
    }
    let again = Game::from_position(GameConfig::default(), &g.position(), 1).unwrap();
    assert_eq!(again.winner(), Some(0));
}

#[test]
fn below_the_target_the_game_goes_on() {
    let mut g = Game::from_position(GameConfig::default(), &nine_or_ten(0), 1).unwrap();
    // 8 + 1 = 9: not yet.
    g.apply(0, Action::BuildSettlement { corner: 7 }).unwrap();
    assert_eq!(g.victory_points(0), 9);
    assert_eq!(g.phase(), Phase::Main);
}

/// The corners along the coastal path of `len` edges from coast edge `start`.
fn coast_path(start: usize, len: usize) -> (Vec<u8>, Vec<u8>) {
    let t = topo();
    let edges: Vec<u8> = (0..len).map(|i| t.coast[(start + i) % t.coast.len()]).collect();
    let [a, b] = t.edge_corners[edges[0] as usize];
    let mut at = if t.edge_corners[edges[1] as usize].contains(&a) {
        b
    } else {
        a
    };
    let mut corners = vec![at];
    for &e in &edges {
        let [a, b] = t.edge_corners[e as usize];
        at = if a == at { b } else { a };
        corners.push(at);
    }
    (edges, corners)
}

/// Seat 0 holds Longest Road with 7 coastal roads from its settlement; seat 1 has 5 from a
/// city, another city and 4 VP cards (8 points); seat 2 has 4 roads. Seat 3, in its turn
/// after the roll, has a road 2 long from its settlement to the middle corner of seat 0's
/// road, where a settlement cuts it, and the cards for it. Returns the position and the
/// cutting corner.
fn cut_position() -> (Position, u8) {
    let t = topo();
    let n = t.coast.len();
    'start: for s in 0..n {
        let (p0, c0) = coast_path(s, 7);
        let (p1, c1) = coast_path(s + 10, 5);
        let (p2, c2) = coast_path(s + 18, 4);
        let cut = c0[3];
        let Some(&inland) = t.corner_edges[cut as usize]
            .iter()
            .find(|&&e| e != 255 && !p0.contains(&e))
        else {
            continue;
        };
        let [a, b] = t.edge_corners[inland as usize];
        let y = if a == cut { b } else { a };
        let mut buildings = vec![
            building(0, c0[0], false),
            building(1, c1[0], true),
            building(2, c2[0], false),
        ];
        let taken: Vec<u8> = p0.iter().chain(&p1).chain(&p2).copied().collect();
        let free = |c: u8, buildings: &[PlacedBuilding]| {
            buildings
                .iter()
                .all(|b| b.corner != c && !t.corner_corners[c as usize].contains(&b.corner))
        };
        // Seat 3's settlement two steps inland from the cut.
        let Some(x) = t.corner_corners[y as usize]
            .iter()
            .copied()
            .find(|&x| x != 255 && x != cut && !c0.contains(&x) && free(x, &buildings))
        else {
            continue 'start;
        };
        buildings.push(building(3, x, false));
        // Seat 1's second city, anywhere free with a free edge.
        let Some((z, ze)) = (0..t.corner_count() as u8).find_map(|z| {
            let e = t.corner_edges[z as usize]
                .iter()
                .copied()
                .find(|&e| e != 255 && !taken.contains(&e) && e != inland && e != edge(x, y))?;
            (free(z, &buildings) && !c0.contains(&z) && z != y).then_some((z, e))
        }) else {
            continue 'start;
        };
        buildings.push(building(1, z, true));
        let mut roads: Vec<PlacedRoad> = Vec::new();
        for (seat, path) in [(0, &p0), (1, &p1), (2, &p2)] {
            roads.extend(path.iter().map(|&edge| PlacedRoad { edge, seat }));
        }
        roads.push(PlacedRoad { edge: ze, seat: 1 });
        roads.push(road(3, x, y));
        roads.push(PlacedRoad {
            edge: inland,
            seat: 3,
        });
        let none = ResourceSet::EMPTY;
        let position = Position {
            buildings,
            roads,
            players: players([(none, 0), (none, 4), (none, 0), (ResourceSet::SETTLEMENT, 0)]),
            longest_road: Some(0),
            phase: Phase::Main,
            current: 3,
            dice: Some([2, 3]),
            turn: 30,
            ..Position::default()
        };
        return (position, cut);
    }
    unreachable!("no coastal start fits")
}

#[test]
fn reaching_the_target_outside_own_turn_wins_at_the_start_of_the_next_turn() {
    let (position, cut) = cut_position();
    let mut g = Game::from_position(GameConfig::default(), &position, 5).unwrap();
    assert_eq!(g.longest_road(), Some(0));
    assert_eq!(g.victory_points(1), 8);
    let ev = g.apply(3, Action::BuildSettlement { corner: cut }).unwrap();
    assert!(ev.contains(&Event::LongestRoad {
        holder: Some(1),
        length: 5
    }));
    assert_eq!(g.victory_points(1), 10);
    // Not seat 1's turn: the game goes on.
    assert_eq!(g.phase(), Phase::Main);
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    g.apply(3, Action::EndTurn).unwrap();
    assert_eq!(
        (g.current(), g.phase()),
        (0, Phase::Roll),
        "seat 0's turn: seat 1 does not win yet"
    );
    // Seat 0 rolls (and, on a 7, moves the robber) and ends its turn.
    g.apply(0, Action::RollDice).unwrap();
    while g.phase() != Phase::Main {
        let seat = g.next_actor().unwrap();
        let a = g.legal_actions(seat).actions[0];
        g.apply(seat, a).unwrap();
    }
    assert!(!g.is_over());
    let ev = g.apply(0, Action::EndTurn).unwrap();
    // Seat 1's turn starts and it wins at once.
    assert!(ev.contains(&Event::TurnStarted {
        seat: 1,
        turn: g.turn()
    }));
    assert!(ev.iter().any(|e| matches!(e, Event::GameOver { winner: 1, .. })));
    assert_eq!((g.winner(), g.current()), (Some(1), 1));
}
