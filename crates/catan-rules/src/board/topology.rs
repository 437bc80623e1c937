//! Board geometry: hexes, corners and edges with small integer ids and precomputed
//! adjacency. Every layout (the base 19-hex island, the 30-hex 5–6 island, the Barbarian
//! Invasion board, which reuses the base shape) is produced by the same code from a list of
//! row lengths, so a new layout is data, not a new code path.
//!
//! Coordinates: pointy-top hexes in "doubled" coordinates: a hex at `(col, row)` has its
//! centre at `x = col, y = 3 * row`; its six corners sit at the integer offsets in
//! [`CORNER_OFFSETS`]. Corners shared by neighbouring hexes then have identical integer
//! keys, which is how corners and edges are deduplicated.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Sentinel for "no hex / no corner / no edge / no harbor" in the fixed-size tables.
pub const NONE: u8 = u8::MAX;

/// Corner offsets from a hex centre, clockwise on screen (y grows downward):
/// top, upper right, lower right, bottom, lower left, upper left.
pub const CORNER_OFFSETS: [(i16, i16); 6] = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];

/// Neighbour directions in doubled coordinates, clockwise starting east.
const NEIGHBOR_DIRS: [(i16, i16); 6] = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)];

/// Which island shape a game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// 19 hexes in rows 3-4-5-4-3, 9 harbors.
    Base,
    /// 30 hexes in rows 3-4-5-6-5-4-3, 11 harbors (5–6 player extension).
    FiveSix,
}

impl Layout {
    fn rows(self) -> &'static [u8] {
        match self {
            Layout::Base => &[3, 4, 5, 4, 3],
            Layout::FiveSix => &[3, 4, 5, 6, 5, 4, 3],
        }
    }

    fn harbor_count(self) -> usize {
        match self {
            Layout::Base => 9,
            Layout::FiveSix => 11,
        }
    }

    /// The precomputed tables for this layout (built once, then shared by every game).
    pub fn topology(self) -> &'static Topology {
        static BASE: OnceLock<Topology> = OnceLock::new();
        static FIVE_SIX: OnceLock<Topology> = OnceLock::new();
        match self {
            Layout::Base => BASE.get_or_init(|| Topology::build(self)),
            Layout::FiveSix => FIVE_SIX.get_or_init(|| Topology::build(self)),
        }
    }
}

/// Precomputed adjacency for one layout. All ids are `u8`; unused slots hold [`NONE`].
#[derive(Debug, PartialEq, Eq)]
pub struct Topology {
    pub layout: Layout,
    /// `(col, row)` of each hex, hexes ordered by row then column.
    pub hex_pos: Vec<(i16, i16)>,
    /// The six corners of each hex, clockwise from the top.
    pub hex_corners: Vec<[u8; 6]>,
    /// The six edges of each hex; edge `i` joins corners `i` and `i + 1`.
    pub hex_edges: Vec<[u8; 6]>,
    /// Land neighbours of each hex (clockwise from east), `NONE` where the sea is.
    pub hex_neighbors: Vec<[u8; 6]>,
    /// Integer position of each corner (same units as [`CORNER_OFFSETS`]).
    pub corner_pos: Vec<(i16, i16)>,
    pub corner_hexes: Vec<[u8; 3]>,
    pub corner_corners: Vec<[u8; 3]>,
    pub corner_edges: Vec<[u8; 3]>,
    /// Bitmask of the corners adjacent to each corner (for the distance rule).
    pub corner_adj_mask: Vec<u128>,
    /// Bitmask of the edges at each corner.
    pub corner_edge_mask: Vec<u128>,
    /// Bitmask of the corners of each hex.
    pub hex_corner_mask: Vec<u128>,
    /// Every corner of the board.
    pub all_corners_mask: u128,
    pub edge_corners: Vec<[u8; 2]>,
    pub edge_hexes: Vec<[u8; 2]>,
    /// Coastal edges (edges of exactly one land hex), clockwise round the island.
    pub coast: Vec<u8>,
    /// The edge of each harbor position.
    pub harbor_edges: Vec<u8>,
    /// The harbor position served by each corner, or `NONE`.
    pub corner_harbor: Vec<u8>,
    /// Rings of hexes from the outside in, each clockwise.
    pub rings: Vec<Vec<u8>>,
    /// The corner hexes of the outer ring (where token "A" may go), clockwise.
    pub spiral_starts: Vec<u8>,
    /// For each edge, the edges within `k` path moves of it (`k` = 0..=5, the edge itself
    /// excluded): a Barbarian Invasion knight's reach (3 paths, 5 with grain), looked up
    /// rather than searched each time the legal moves are listed.
    pub edge_reach: Vec<[u128; EDGE_REACH_STEPS + 1]>,
}

/// How many path moves [`Topology::edge_reach`] covers.
pub const EDGE_REACH_STEPS: usize = 5;

/// Edges within `steps` path moves of `from` (each move to a path sharing a corner),
/// `from` excluded: a breadth-first search over the corner tables.
fn reach_search(edge_corners: &[[u8; 2]], corner_edge_mask: &[u128], from: u8, steps: u8) -> u128 {
    let start = 1u128 << from;
    let (mut reached, mut frontier) = (start, start);
    for _ in 0..steps {
        let mut next = 0u128;
        let mut f = frontier;
        while f != 0 {
            let e = f.trailing_zeros() as usize;
            f &= f - 1;
            let [a, b] = edge_corners[e];
            next |= corner_edge_mask[a as usize] | corner_edge_mask[b as usize];
        }
        frontier = next & !reached;
        reached |= next;
    }
    reached & !start
}

impl Topology {
    /// Edges within `steps` path moves of `from` (passing over anything), `from`
    /// excluded: a Barbarian Invasion knight's reach, from [`Topology::edge_reach`] up to
    /// [`EDGE_REACH_STEPS`], searched beyond.
    pub fn edges_within(&self, from: u8, steps: u8) -> u128 {
        if let Some(reach) = self.edge_reach[from as usize].get(steps as usize) {
            return *reach;
        }
        reach_search(&self.edge_corners, &self.corner_edge_mask, from, steps)
    }

    pub fn hex_count(&self) -> usize {
        self.hex_pos.len()
    }
    pub fn corner_count(&self) -> usize {
        self.corner_pos.len()
    }
    pub fn edge_count(&self) -> usize {
        self.edge_corners.len()
    }
    pub fn harbor_count(&self) -> usize {
        self.harbor_edges.len()
    }

    fn build(layout: Layout) -> Topology {
        // Hex positions: each row centred, with the same parity shift for every row so
        // that rows interlock.
        let rows = layout.rows();
        let mid = (rows.len() / 2) as i16;
        let mut hex_pos = Vec::new();
        for (ri, &n) in rows.iter().enumerate() {
            let row = ri as i16 - mid;
            let n = n as i16;
            // col = 2k - (n-1) + s with col ≡ row (mod 2); pick the smallest s ≥ 0.
            let s = (row - (1 - n)).rem_euclid(2);
            for k in 0..n {
                hex_pos.push((2 * k - (n - 1) + s, row));
            }
        }
        let hex_index: BTreeMap<(i16, i16), u8> =
            hex_pos.iter().enumerate().map(|(i, &p)| (p, i as u8)).collect();

        // Corners, deduplicated by position, ordered top to bottom, left to right.
        let mut corner_keys: Vec<(i16, i16)> = Vec::new();
        for &(c, r) in &hex_pos {
            for (dx, dy) in CORNER_OFFSETS {
                corner_keys.push((c + dx, 3 * r + dy));
            }
        }
        corner_keys.sort_by_key(|&(x, y)| (y, x));
        corner_keys.dedup();
        let corner_index: BTreeMap<(i16, i16), u8> = corner_keys
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, i as u8))
            .collect();
        assert!(corner_keys.len() <= 128, "corner bitmasks are u128");

        let hex_corners: Vec<[u8; 6]> = hex_pos
            .iter()
            .map(|&(c, r)| {
                let mut out = [0u8; 6];
                for (i, (dx, dy)) in CORNER_OFFSETS.iter().enumerate() {
                    out[i] = corner_index[&(c + dx, 3 * r + dy)];
                }
                out
            })
            .collect();

        // Edges, deduplicated by their (sorted) corner pair.
        let mut edge_pairs: Vec<[u8; 2]> = Vec::new();
        for hc in &hex_corners {
            for i in 0..6 {
                let (a, b) = (hc[i], hc[(i + 1) % 6]);
                edge_pairs.push([a.min(b), a.max(b)]);
            }
        }
        edge_pairs.sort();
        edge_pairs.dedup();
        assert!(edge_pairs.len() <= 128, "edge bitmasks are u128");
        let edge_index: BTreeMap<[u8; 2], u8> = edge_pairs
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, i as u8))
            .collect();
        let hex_edges: Vec<[u8; 6]> = hex_corners
            .iter()
            .map(|hc| {
                let mut out = [0u8; 6];
                for i in 0..6 {
                    let (a, b) = (hc[i], hc[(i + 1) % 6]);
                    out[i] = edge_index[&[a.min(b), a.max(b)]];
                }
                out
            })
            .collect();

        let hex_neighbors: Vec<[u8; 6]> = hex_pos
            .iter()
            .map(|&(c, r)| {
                let mut out = [NONE; 6];
                for (i, (dc, dr)) in NEIGHBOR_DIRS.iter().enumerate() {
                    if let Some(&h) = hex_index.get(&(c + dc, r + dr)) {
                        out[i] = h;
                    }
                }
                out
            })
            .collect();

        let nc = corner_keys.len();
        let ne = edge_pairs.len();
        let push = |slots: &mut [u8], v: u8| {
            if !slots.contains(&v) {
                let free = slots.iter().position(|&s| s == NONE).expect("slot overflow");
                slots[free] = v;
            }
        };
        let mut corner_hexes = vec![[NONE; 3]; nc];
        for (h, hc) in hex_corners.iter().enumerate() {
            for &c in hc {
                push(&mut corner_hexes[c as usize], h as u8);
            }
        }
        let mut corner_corners = vec![[NONE; 3]; nc];
        let mut corner_edges = vec![[NONE; 3]; nc];
        let mut edge_hexes = vec![[NONE; 2]; ne];
        for (e, &[a, b]) in edge_pairs.iter().enumerate() {
            push(&mut corner_corners[a as usize], b);
            push(&mut corner_corners[b as usize], a);
            push(&mut corner_edges[a as usize], e as u8);
            push(&mut corner_edges[b as usize], e as u8);
        }
        for (h, he) in hex_edges.iter().enumerate() {
            for &e in he {
                push(&mut edge_hexes[e as usize], h as u8);
            }
        }
        let corner_adj_mask = corner_corners
            .iter()
            .map(|cc| {
                cc.iter()
                    .filter(|&&c| c != NONE)
                    .fold(0u128, |m, &c| m | 1u128 << c)
            })
            .collect();

        let corner_edge_mask: Vec<u128> = corner_edges
            .iter()
            .map(|ce| {
                ce.iter()
                    .filter(|&&e| e != NONE)
                    .fold(0u128, |m, &e| m | 1u128 << e)
            })
            .collect();
        let hex_corner_mask: Vec<u128> = hex_corners
            .iter()
            .map(|hc| hc.iter().fold(0u128, |m, &c| m | 1u128 << c))
            .collect();
        let all_corners_mask = if nc == 128 { u128::MAX } else { (1u128 << nc) - 1 };

        // The coast, walked clockwise: a coastal edge directed along its only hex's
        // clockwise order follows the island's outline clockwise.
        let mut next_on_coast: BTreeMap<u8, (u8, u8)> = BTreeMap::new();
        for (h, hc) in hex_corners.iter().enumerate() {
            for i in 0..6 {
                let e = hex_edges[h][i];
                if edge_hexes[e as usize][1] == NONE {
                    next_on_coast.insert(hc[i], (e, hc[(i + 1) % 6]));
                }
            }
        }
        // Start at the upper-left corner of the first hex (top row, leftmost), walking
        // toward its top corner, so that the first harbor sits on the top-left coast.
        let mut coast = Vec::new();
        let start = hex_corners[0][5];
        let mut at = start;
        loop {
            let (e, to) = next_on_coast[&at];
            coast.push(e);
            at = to;
            if at == start {
                break;
            }
        }
        assert_eq!(coast.len(), next_on_coast.len(), "the coast is one loop");

        // Harbor positions: spread evenly round the coast (gaps differ by at most one,
        // and with at least one free edge between harbors no two share a corner). For the
        // base frame this gives the printed 3-3-4 rhythm.
        let nh = layout.harbor_count();
        let harbor_edges: Vec<u8> = (0..nh).map(|k| coast[1 + k * coast.len() / nh]).collect();
        let mut corner_harbor = vec![NONE; nc];
        for (i, &e) in harbor_edges.iter().enumerate() {
            for c in edge_pairs[e as usize] {
                assert_eq!(corner_harbor[c as usize], NONE, "harbors share a corner");
                corner_harbor[c as usize] = i as u8;
            }
        }

        // Rings for the spiral, peeled from the outside in; each sorted clockwise by angle
        // round the island's centre.
        let cx = hex_pos.iter().map(|p| p.0 as f64).sum::<f64>() / hex_pos.len() as f64;
        let cy = hex_pos.iter().map(|p| p.1 as f64 * 3.0).sum::<f64>() / hex_pos.len() as f64;
        let angle = |h: u8| {
            let (c, r) = hex_pos[h as usize];
            // x scaled so that the hex lattice is regular (col step = √3/2 of a radius,
            // row step = 1.5 radius → in our units y step is 3, x step is 1·√3).
            let x = (c as f64 - cx) * 3f64.sqrt();
            let y = r as f64 * 3.0 - cy;
            y.atan2(x)
        };
        let mut remaining: Vec<u8> = (0..hex_pos.len() as u8).collect();
        let mut rings = Vec::new();
        while !remaining.is_empty() {
            let inside = |h: u8, set: &[u8]| set.contains(&h);
            let mut ring: Vec<u8> = remaining
                .iter()
                .copied()
                .filter(|&h| {
                    hex_neighbors[h as usize]
                        .iter()
                        .any(|&n| n == NONE || !inside(n, &remaining))
                })
                .collect();
            if ring.is_empty() {
                ring = remaining.clone();
            }
            ring.sort_by(|&a, &b| angle(a).partial_cmp(&angle(b)).unwrap());
            remaining.retain(|h| !ring.contains(h));
            rings.push(ring);
        }
        let spiral_starts: Vec<u8> = rings[0]
            .iter()
            .copied()
            .filter(|&h| hex_neighbors[h as usize].iter().filter(|&&n| n != NONE).count() == 3)
            .collect();

        let edge_reach = (0..edge_pairs.len() as u8)
            .map(|from| std::array::from_fn(|k| reach_search(&edge_pairs, &corner_edge_mask, from, k as u8)))
            .collect();

        Topology {
            edge_reach,
            layout,
            hex_pos,
            hex_corners,
            hex_edges,
            hex_neighbors,
            corner_pos: corner_keys,
            corner_hexes,
            corner_corners,
            corner_edges,
            corner_adj_mask,
            corner_edge_mask,
            hex_corner_mask,
            all_corners_mask,
            edge_corners: edge_pairs,
            edge_hexes,
            coast,
            harbor_edges,
            corner_harbor,
            rings,
            spiral_starts,
        }
    }

    /// The spiral order of all hexes starting at outer-ring corner hex number `start`
    /// (index into `spiral_starts`), clockwise or counter-clockwise: the outer ring from
    /// the start, then each inner ring from the hex nearest the start's direction.
    pub fn spiral(&self, start: usize, clockwise: bool) -> Vec<u8> {
        let first = self.spiral_starts[start];
        let (c0, r0) = self.hex_pos[first as usize];
        let mut out = Vec::with_capacity(self.hex_count());
        for (i, ring) in self.rings.iter().enumerate() {
            let begin = if i == 0 {
                ring.iter().position(|&h| h == first).unwrap()
            } else {
                // Nearest hex of this ring to the start hex.
                (0..ring.len())
                    .min_by_key(|&k| {
                        let (c, r) = self.hex_pos[ring[k] as usize];
                        let (dx, dy) = ((c - c0) as i32, (r - r0) as i32 * 3);
                        (dx * dx * 3 + dy * dy, k)
                    })
                    .unwrap()
            };
            for k in 0..ring.len() {
                let idx = if clockwise {
                    (begin + k) % ring.len()
                } else {
                    (begin + ring.len() - k) % ring.len()
                };
                out.push(ring[idx]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_consistency(t: &Topology) {
        for (h, hc) in t.hex_corners.iter().enumerate() {
            for &c in hc {
                assert!(t.corner_hexes[c as usize].contains(&(h as u8)));
            }
        }
        for (e, &[a, b]) in t.edge_corners.iter().enumerate() {
            assert!(t.corner_edges[a as usize].contains(&(e as u8)));
            assert!(t.corner_edges[b as usize].contains(&(e as u8)));
            assert!(t.corner_corners[a as usize].contains(&b));
        }
        // Every corner has 2 or 3 neighbours; coastal edges have one hex.
        for cc in &t.corner_corners {
            let n = cc.iter().filter(|&&c| c != NONE).count();
            assert!(n == 2 || n == 3);
        }
        let mut seen = t.spiral(0, true);
        seen.sort();
        assert_eq!(seen, (0..t.hex_count() as u8).collect::<Vec<_>>());
        // Consecutive hexes along the spiral are neighbours (the spiral is a path).
        for start in 0..t.spiral_starts.len() {
            for cw in [true, false] {
                let s = t.spiral(start, cw);
                for w in s.windows(2) {
                    assert!(
                        t.hex_neighbors[w[0] as usize].contains(&w[1]),
                        "{:?} spiral {start} {cw} breaks at {w:?}: {s:?}",
                        t.layout
                    );
                }
            }
        }
    }

    #[test]
    fn base_board_counts() {
        let t = Layout::Base.topology();
        assert_eq!(t.hex_count(), 19);
        assert_eq!(t.corner_count(), 54);
        assert_eq!(t.edge_count(), 72);
        assert_eq!(t.coast.len(), 30);
        assert_eq!(t.harbor_count(), 9);
        assert_eq!(t.spiral_starts.len(), 6);
        assert_eq!(
            t.rings.iter().map(|r| r.len()).collect::<Vec<_>>(),
            vec![12, 6, 1]
        );
        check_consistency(t);
        // Harbor gaps along the coast: the printed 3-3-4 rhythm.
        let pos: Vec<usize> = t
            .harbor_edges
            .iter()
            .map(|e| t.coast.iter().position(|c| c == e).unwrap())
            .collect();
        let gaps: Vec<usize> = (0..9).map(|i| (pos[(i + 1) % 9] + 30 - pos[i]) % 30).collect();
        assert_eq!(gaps, vec![3, 3, 4, 3, 3, 4, 3, 3, 4]);
    }

    #[test]
    fn five_six_board_counts() {
        let t = Layout::FiveSix.topology();
        assert_eq!(t.hex_count(), 30);
        // V = 2·H + 2·rows + ... counted directly: 80 corners, 109 edges for 3-4-5-6-5-4-3.
        assert_eq!(t.corner_count(), 80);
        assert_eq!(t.edge_count(), 109);
        assert_eq!(t.harbor_count(), 11);
        assert_eq!(t.spiral_starts.len(), 6);
        check_consistency(t);
        let n = t.coast.len();
        let pos: Vec<usize> = t
            .harbor_edges
            .iter()
            .map(|e| t.coast.iter().position(|c| c == e).unwrap())
            .collect();
        let gaps: Vec<usize> = (0..11).map(|i| (pos[(i + 1) % 11] + n - pos[i]) % n).collect();
        let (lo, hi) = (*gaps.iter().min().unwrap(), *gaps.iter().max().unwrap());
        assert!(hi - lo <= 1 && lo >= 2, "{gaps:?}");
    }
}
