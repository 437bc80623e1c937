//! Road length: the longest trail of a player's roads using no edge twice, cut at every
//! corner where an opponent has a building.

use crate::action::Seat;
use crate::board::NONE;
use crate::game::{bit, bits, Game};

impl Game {
    /// Recomputes and stores `seat`'s road length.
    pub(crate) fn recompute_road(&mut self, seat: Seat) {
        self.players[seat as usize].road_len = self.road_length(seat);
    }

    /// The longest trail of `seat`'s roads (depth-first search; at most 15 roads).
    pub fn road_length(&self, seat: Seat) -> u8 {
        let p = &self.players[seat as usize];
        if p.roads == 0 {
            return 0;
        }
        let mut best = 0;
        // Only trail ends need to be tried as starts, but a cycle has none; corners of
        // degree 1 or 3 (or cut corners) cover every non-cyclic case, and any corner of a
        // pure cycle will do. Trying every touched corner is simple and cheap enough.
        for c in bits(p.road_corners) {
            best = best.max(self.trail(seat, c, 0));
            if best as u32 == p.roads.count_ones() {
                break;
            }
        }
        best
    }

    fn trail(&self, seat: Seat, corner: u8, used: u128) -> u8 {
        let mut best = 0;
        for &e in &self.topo.corner_edges[corner as usize] {
            if e == NONE {
                break;
            }
            if self.edge_owner[e as usize] != seat || used & bit(e) != 0 {
                continue;
            }
            let [a, b] = self.topo.edge_corners[e as usize];
            let other = if a == corner { b } else { a };
            let owner = self.corner_owner[other as usize];
            let len = if owner != NONE && owner != seat {
                1
            } else {
                1 + self.trail(seat, other, used | bit(e))
            };
            best = best.max(len);
        }
        best
    }
}
