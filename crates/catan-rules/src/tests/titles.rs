//! Longest Road and Largest Army: road length, and the one rule for both titles.

use super::*;

/// An inland hex (six neighbours), its corners and its edges (edge i joins corners i and
/// i + 1).
fn inland_hex(g: &Game) -> (u8, [u8; 6], [u8; 6]) {
    let h = (0..g.topo.hex_count() as u8)
        .find(|&h| g.topo.hex_neighbors[h as usize].iter().all(|&n| n != NONE))
        .unwrap();
    (h, g.topo.hex_corners[h as usize], g.topo.hex_edges[h as usize])
}

/// The edge at `corner` that leaves hex `h`.
fn outward(g: &Game, h: u8, corner: u8) -> u8 {
    let he = g.topo.hex_edges[h as usize];
    edges_at(g, corner).into_iter().find(|e| !he.contains(e)).unwrap()
}

#[test]
fn road_length_with_a_fork() {
    let mut g = blank(4);
    let (h, cs, he) = inland_hex(&g);
    // c0-c1-c2-c3 around the hex, and a two-road spur from c1.
    roads(&mut g, 0, &[he[0], he[1], he[2]]);
    assert_eq!(g.road_length(0), 3);
    let s1 = outward(&g, h, cs[1]);
    let d = other_end(&g, s1, cs[1]);
    let s2 = edges_at(&g, d).into_iter().find(|&e| e != s1).unwrap();
    road(&mut g, 0, s1);
    assert_eq!(g.road_length(0), 3);
    road(&mut g, 0, s2);
    // Five roads, but the longest path is spur (2) + c1..c3 (2).
    assert_eq!(g.road_length(0), 4);
    assert_eq!(g.players[0].road_len, 4);
    assert_eq!(g.longest_road, None);
    check(&g);
}

#[test]
fn road_length_with_a_loop() {
    let mut g = blank(4);
    let (h, cs, he) = inland_hex(&g);
    roads(&mut g, 0, &he);
    assert_eq!(g.road_length(0), 6);
    assert_eq!(g.longest_road, Some(0));
    // A tail on the loop: the whole loop plus the tail.
    let at = outward(&g, h, cs[0]);
    road(&mut g, 0, at);
    assert_eq!(g.road_length(0), 7);
    // A second tail on the opposite corner: eight roads, but no path uses them all.
    let at = outward(&g, h, cs[3]);
    road(&mut g, 0, at);
    assert_eq!(g.road_length(0), 7);
    check(&g);
}

#[test]
fn road_length_of_rings_cut_rings_and_a_figure_eight() {
    // Two separate rings (no corner of one on or next to the other), each counted whole.
    let g0 = blank(4);
    let t = &g0.topo;
    let hexes = 0..t.hex_count() as u8;
    let apart = hexes
        .clone()
        .flat_map(|a| hexes.clone().map(move |b| (a, b)))
        .find(|&(a, b)| {
            let near_a = t.hex_corners[a as usize]
                .iter()
                .fold(0u128, |m, &c| m | bit(c) | t.corner_adj_mask[c as usize]);
            t.hex_corners[b as usize].iter().all(|&d| near_a & bit(d) == 0)
        })
        .unwrap();
    let mut g = g0.clone();
    roads(&mut g, 0, &t.hex_edges[apart.0 as usize]);
    roads(&mut g, 0, &t.hex_edges[apart.1 as usize][..4]);
    assert_eq!(g.road_length(0), 6, "a ring and a path of four");
    road(&mut g, 0, t.hex_edges[apart.1 as usize][4]);
    road(&mut g, 0, t.hex_edges[apart.1 as usize][5]);
    assert_eq!(g.road_length(0), 6, "two rings of six");
    // A ring cut by an opponent's settlement is a path of six from the cut corner.
    settle(&mut g, 1, t.hex_corners[apart.0 as usize][2]);
    assert_eq!(g.road_length(0), 6);
    check(&g);

    // A figure eight (the rings of two hexes that share an edge: 11 roads, two forks):
    // one trail uses all eleven roads (from one fork round one ring to the other fork,
    // back across the shared road, round the other ring).
    let mut g = g0.clone();
    let (h, _, a) = inland_hex(&g);
    let b = g.topo.hex_edges[g.topo.hex_neighbors[h as usize][0] as usize];
    roads(&mut g, 0, &a);
    for &e in &b {
        if g.edge_owner[e as usize] == NONE {
            road(&mut g, 0, e);
        }
    }
    assert_eq!(g.players[0].roads.count_ones(), 11);
    assert_eq!(g.road_length(0), 11, "an Euler trail between the two forks");
    check(&g);
}

#[test]
fn opponent_building_cuts_a_road() {
    let mut g = blank(4);
    let path = coast_path(&g, 0, 6);
    let pc = path_corners(&g, &path);
    roads(&mut g, 0, &path);
    assert_eq!(g.road_length(0), 6);
    // Own buildings do not cut.
    settle(&mut g, 0, pc[2]);
    assert_eq!(g.road_length(0), 6);
    settle(&mut g, 1, pc[4]);
    assert_eq!(g.road_length(0), 4);
    check(&g);
}

#[test]
fn longest_road_needs_five_roads() {
    let mut g = blank(4);
    main_phase(&mut g);
    let path = coast_path(&g, 0, 5);
    let at = path_corners(&g, &path)[0];
    settle(&mut g, 0, at);
    roads(&mut g, 0, &path[..4]);
    assert_eq!(g.longest_road, None);
    give(&mut g, 0, ResourceSet::ROAD);
    let ev = ok(&mut g, 0, Action::BuildRoad { edge: path[4] });
    assert!(ev.contains(&Event::LongestRoad {
        holder: Some(0),
        length: 5
    }));
    assert_eq!(g.longest_road, Some(0));
    assert_eq!(g.victory_points(0), 3);
    check(&g);
}

#[test]
fn longest_road_tie_keeps_the_holder_and_longer_takes_it() {
    let mut g = blank(4);
    let at = coast_path(&g, 0, 5);
    roads(&mut g, 0, &at);
    assert_eq!(g.longest_road, Some(0));
    let p1 = coast_path(&g, 10, 6);
    roads(&mut g, 1, &p1[..4]);
    turn_of(&mut g, 1);
    give(&mut g, 1, times(ResourceSet::ROAD, 2));
    let ev = ok(&mut g, 1, Action::BuildRoad { edge: p1[4] });
    assert_eq!(g.players[1].road_len, 5);
    assert_eq!(g.longest_road, Some(0), "a tie keeps the holder");
    assert!(!ev.iter().any(|e| matches!(e, Event::LongestRoad { .. })));
    let ev = ok(&mut g, 1, Action::BuildRoad { edge: p1[5] });
    assert!(ev.contains(&Event::LongestRoad {
        holder: Some(1),
        length: 6
    }));
    assert_eq!(g.longest_road, Some(1));
    check(&g);
}

/// Seat 0 holds Longest Road with 7 coastal roads, seat 1 has 5, seat 2 has `len2`, and
/// seat 3 has a road reaching a middle corner of seat 0's road where a settlement would cut
/// it into pieces shorter than 5. Returns the game (seat 3's turn, after the roll) and the
/// cutting corner.
pub(crate) fn cut_position(len2: usize) -> (Game, u8) {
    let g0 = blank(4);
    let n = g0.topo.coast.len();
    for s in 0..n {
        let mut g = g0.clone();
        let p0 = coast_path(&g, s, 7);
        let pc = path_corners(&g, &p0);
        let Some(k) = [3, 4].into_iter().find(|&k| edges_at(&g, pc[k]).len() == 3) else {
            continue;
        };
        roads(&mut g, 0, &p0);
        let at = coast_path(&g, s + 10, 5);
        roads(&mut g, 1, &at);
        let at = coast_path(&g, s + 18, len2);
        roads(&mut g, 2, &at);
        assert_eq!(g.longest_road, Some(0));
        let inland = edges_at(&g, pc[k]).into_iter().find(|e| !p0.contains(e)).unwrap();
        road(&mut g, 3, inland);
        turn_of(&mut g, 3);
        return (g, pc[k]);
    }
    unreachable!()
}

#[test]
fn settlement_cutting_the_holder_to_a_tie_of_others_sets_the_title_aside() {
    let (mut g, cut) = cut_position(5);
    assert_eq!(g.victory_points(0), 2);
    give(&mut g, 3, ResourceSet::SETTLEMENT);
    let ev = ok(&mut g, 3, Action::BuildSettlement { corner: cut });
    assert!(g.players[0].road_len < 5);
    assert_eq!(g.players[1].road_len, 5);
    assert_eq!(g.players[2].road_len, 5);
    assert_eq!(g.longest_road, None, "two others tie: the title is set aside");
    assert!(ev.contains(&Event::LongestRoad {
        holder: None,
        length: 5
    }));
    assert_eq!(g.victory_points(0), 0);
    check(&g);
    // Later one of them pulls ahead alone and takes it.
    turn_of(&mut g, 1);
    let p1 = coast_path(&g, 0, 30);
    let next = p1
        .iter()
        .copied()
        .find(|&e| g.edge_owner[e as usize] == NONE && g.road_spots(1) & bit(e) != 0)
        .unwrap();
    give(&mut g, 1, ResourceSet::ROAD);
    ok(&mut g, 1, Action::BuildRoad { edge: next });
    assert_eq!(g.longest_road, Some(1));
    check(&g);
}

#[test]
fn largest_army_at_three_knights() {
    let mut g = blank(4);
    main_phase(&mut g);
    knights_played(&mut g, 0, 2);
    assert_eq!(g.largest_army, None);
    give_dev(&mut g, 0, DevCard::Knight, false);
    let ev = ok(&mut g, 0, Action::PlayKnight);
    assert!(ev.contains(&Event::LargestArmy {
        holder: Some(0),
        knights: 3
    }));
    assert_eq!(g.largest_army, Some(0));
    assert_eq!(g.victory_points(0), 2);
    check(&g);
}

#[test]
fn largest_army_tie_keeps_the_holder_and_overtaking_takes_it() {
    let mut g = blank(4);
    knights_played(&mut g, 0, 3);
    assert_eq!(g.largest_army, Some(0));
    knights_played(&mut g, 1, 2);
    give_dev(&mut g, 1, DevCard::Knight, false);
    give_dev(&mut g, 1, DevCard::Knight, false);
    turn_of(&mut g, 1);
    let h = empty_hex(&g, true);
    let ev = ok(&mut g, 1, Action::PlayKnight);
    assert_eq!(g.players[1].knights, 3);
    assert_eq!(g.largest_army, Some(0), "a tie keeps the holder");
    assert!(!ev.iter().any(|e| matches!(e, Event::LargestArmy { .. })));
    ok(&mut g, 1, Action::MoveRobber { hex: h, victim: None });
    g.start_turn(1, &mut Vec::new());
    let ev = ok(&mut g, 1, Action::PlayKnight);
    assert!(ev.contains(&Event::LargestArmy {
        holder: Some(1),
        knights: 4
    }));
    assert_eq!(g.largest_army, Some(1));
    assert_eq!(g.victory_points(0), 0);
    assert_eq!(g.victory_points(1), 2);
    check(&g);
}
