//! The 5–6 player island and components.

use super::*;
use crate::board::{HarborKind, Layout, Terrain};

/// The token letters A..Zc of five-six.md.
const LETTERS: [u8; 28] = [
    2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4, 8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6,
];

fn five_six(seed: u64) -> Game {
    new_game(5, seed)
}

#[test]
fn five_and_six_players_use_the_large_island() {
    for n in [5, 6] {
        let g = new_game(n, 1);
        assert_eq!(g.board.layout, Layout::FiveSix);
        assert_eq!(g.topo.hex_count(), 30);
    }
    for n in [3, 4] {
        assert_eq!(new_game(n, 1).board.layout, Layout::Base);
    }
    // Rows of 3-4-5-6-5-4-3.
    let t = Layout::FiveSix.topology();
    let mut rows = std::collections::BTreeMap::new();
    for &(_, r) in &t.hex_pos {
        *rows.entry(r).or_insert(0) += 1;
    }
    assert_eq!(
        rows.values().copied().collect::<Vec<_>>(),
        vec![3, 4, 5, 6, 5, 4, 3]
    );
}

#[test]
fn five_six_terrain_counts() {
    for seed in 0..30 {
        let g = five_six(seed);
        let t = &g.board.terrain[..30];
        let count = |k: Terrain| t.iter().filter(|&&x| x == k).count();
        assert_eq!(count(Terrain::Forest), 6);
        assert_eq!(count(Terrain::Pasture), 6);
        assert_eq!(count(Terrain::Fields), 6);
        assert_eq!(count(Terrain::Hills), 5);
        assert_eq!(count(Terrain::Mountains), 5);
        assert_eq!(count(Terrain::Desert), 2);
    }
}

#[test]
fn five_six_tokens_multiset() {
    for seed in 0..30 {
        let g = five_six(seed);
        let mut counts = [0u8; 13];
        for h in 0..30 {
            let t = g.board.token[h];
            assert_eq!(
                t == 0,
                g.board.terrain[h] == Terrain::Desert,
                "seed {seed} hex {h}"
            );
            counts[t as usize] += 1;
        }
        assert_eq!(counts[0], 2);
        assert_eq!((counts[2], counts[12]), (2, 2));
        for n in [3, 4, 5, 6, 8, 9, 10, 11] {
            assert_eq!(counts[n], 3, "token {n}");
        }
        assert_eq!(counts[7], 0);
        assert_eq!(counts.iter().map(|&c| c as u32).sum::<u32>() - 2, 28);
    }
}

/// The (start, clockwise) spirals that reproduce the letter order on this board.
fn matching_spirals(g: &Game) -> Vec<(usize, bool)> {
    let t = g.topo;
    let mut out = Vec::new();
    for start in 0..t.spiral_starts.len() {
        for cw in [true, false] {
            let seq: Vec<u8> = t
                .spiral(start, cw)
                .into_iter()
                .filter(|&h| g.board.terrain[h as usize] != Terrain::Desert)
                .map(|h| g.board.token[h as usize])
                .collect();
            if seq == LETTERS {
                out.push((start, cw));
            }
        }
    }
    out
}

#[test]
fn five_six_tokens_follow_the_spiral_skipping_both_deserts() {
    let mut used = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let g = five_six(seed);
        let m = matching_spirals(&g);
        assert!(
            !m.is_empty(),
            "seed {seed}: tokens are not in letter order along a spiral"
        );
        // Token A sits on a corner hex of the outer ring.
        let (start, _) = m[0];
        let a = g.topo.spiral_starts[start];
        assert_eq!(
            g.topo.hex_neighbors[a as usize]
                .iter()
                .filter(|&&n| n != NONE)
                .count(),
            3
        );
        used.extend(m);
    }
    // Decision: the starting corner and the direction come from the game RNG.
    let starts: std::collections::BTreeSet<usize> = used.iter().map(|&(s, _)| s).collect();
    let dirs: std::collections::BTreeSet<bool> = used.iter().map(|&(_, d)| d).collect();
    assert!(starts.len() > 2, "{used:?}");
    assert_eq!(dirs.len(), 2, "{used:?}");
}

#[test]
fn five_six_harbors() {
    for seed in 0..20 {
        let g = five_six(seed);
        let t = g.topo;
        assert_eq!(t.harbor_count(), 11);
        let kinds = &g.board.harbors[..11];
        let count = |k: HarborKind| kinds.iter().filter(|&&x| x == k).count();
        assert_eq!(count(HarborKind::Generic), 5);
        assert_eq!(count(HarborKind::Wool), 2);
        for k in [
            HarborKind::Brick,
            HarborKind::Lumber,
            HarborKind::Grain,
            HarborKind::Ore,
        ] {
            assert_eq!(count(k), 1, "{k:?}");
        }
        let mut corners = 0u128;
        for &e in &t.harbor_edges {
            // On a coastal edge: exactly one land hex.
            let hs = t.edge_hexes[e as usize];
            assert!(hs[0] != NONE && hs[1] == NONE, "harbor edge {e} is not coastal");
            for c in t.edge_corners[e as usize] {
                assert_eq!(corners & bit(c), 0, "two harbors share corner {c}");
                corners |= bit(c);
                assert!(g.board.harbor_at(c).is_some());
            }
        }
        assert_eq!(corners.count_ones(), 22);
    }
}

#[test]
fn five_six_harbor_gaps_differ_by_at_most_one() {
    let t = Layout::FiveSix.topology();
    let n = t.coast.len();
    let pos: Vec<usize> = t
        .harbor_edges
        .iter()
        .map(|e| t.coast.iter().position(|c| c == e).unwrap())
        .collect();
    let gaps: Vec<usize> = (0..11).map(|i| (pos[(i + 1) % 11] + n - pos[i]) % n).collect();
    let (lo, hi) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
    assert!(hi - lo <= 1, "{gaps:?}");
}

#[test]
fn five_six_robber_starts_on_the_first_desert() {
    for seed in 0..30 {
        let g = five_six(seed);
        let deserts: Vec<u8> = (0..30u8)
            .filter(|&h| g.board.terrain[h as usize] == Terrain::Desert)
            .collect();
        assert_eq!(deserts.len(), 2);
        assert_eq!(g.robber, deserts[0]);
        assert_eq!(g.robber, first_desert(&g));
    }
}

#[test]
fn five_six_bank_and_deck() {
    for n in [5, 6] {
        let g = new_game(n, 4);
        assert_eq!(g.bank, ResourceSet::splat(24));
        assert_eq!(g.deck_len, 34);
        let mut counts = [0u8; 5];
        for c in &g.deck[..34] {
            counts[c.index()] += 1;
        }
        assert_eq!(counts, [20, 5, 3, 3, 3]);
        for s in 0..n as usize {
            assert_eq!(
                (
                    g.players[s].roads_left,
                    g.players[s].settlements_left,
                    g.players[s].cities_left
                ),
                (15, 5, 4)
            );
        }
        check(&g);
    }
}

#[test]
fn same_seed_same_board() {
    for seed in [0, 1, 99, 12345] {
        let a = five_six(seed);
        let b = five_six(seed);
        assert_eq!(a.board, b.board);
        assert_eq!(a, b);
    }
    // Different seeds give different boards.
    let boards: std::collections::BTreeSet<Vec<u8>> =
        (0..10).map(|s| five_six(s).board.token[..30].to_vec()).collect();
    assert!(boards.len() > 5);
}

#[test]
fn six_player_setup_and_first_turns() {
    let mut g = game(6);
    let first = g.current;
    for s in 0..6 {
        assert_eq!(g.players[s].buildings.count_ones(), 2);
    }
    force_roll(&mut g, 2);
    ok(&mut g, first, Action::EndTurn);
    for k in 1..6 {
        assert_eq!(
            g.phase,
            Phase::SpecialBuild {
                seat: (first + k) % 6
            }
        );
        ok(&mut g, (first + k) % 6, Action::EndTurn);
    }
    assert_eq!((g.current, g.phase), ((first + 1) % 6, Phase::Roll));
    check(&g);
}
