//! Earning by the robber and by connections: a harmless robber move pays 1 token; the
//! first connection of two players' networks pays the other player 1, then the builder 3.

use super::{Earned, FrenemiesEvent, FrenemiesState};
use crate::action::{Action, Seat};
use crate::board::Terrain;
use crate::event::Event;
use crate::game::{bit, Game};

impl Game {
    /// Hook: after any road (set-up, paid, free). Every opponent whose network the road
    /// reaches for the first time is connected to the builder for the rest of the game;
    /// in set-up that pays nothing. Otherwise each such opponent draws 1 (in seat order
    /// after the builder: **Decision**, the builder's choice of order is not asked), then
    /// the builder draws 3, once.
    pub(crate) fn frenemies_after_road(&mut self, seat: Seat, edge: u8, out: &mut Vec<Event>) {
        let [a, b] = self.topo.edge_corners[edge as usize];
        let ends = bit(a) | bit(b);
        let mut newly = Vec::new();
        for k in 1..self.n {
            let other = (seat + k) % self.n;
            if self.fs().is_connected(seat, other) {
                continue;
            }
            let p = &self.players[other as usize];
            if (p.buildings | p.road_corners) & ends != 0 {
                self.fs_mut().connected |= FrenemiesState::pair_bit(seat, other);
                newly.push(other);
            }
        }
        if newly.is_empty() || self.in_setup() {
            return;
        }
        for &other in &newly {
            out.push(Event::Frenemies(FrenemiesEvent::NetworksConnected {
                builder: seat,
                other,
            }));
            self.draw_tokens(other, 1, Earned::Connection, out);
        }
        self.draw_tokens(seat, 3, Earned::Connection, out);
    }

    /// True when no settlement or city stands on a corner of `hex`.
    fn hex_unbuilt(&self, hex: u8) -> bool {
        self.topo.hex_corners[hex as usize]
            .iter()
            .all(|&c| self.occupied & bit(c) == 0)
    }

    fn is_desert(&self, hex: u8) -> bool {
        self.board.terrain[hex as usize] == Terrain::Desert
    }

    /// Hook: the robber may be moved to the desert without stealing.
    pub(crate) fn frenemies_may_skip_steal(&self, hex: u8) -> bool {
        self.is_desert(hex)
    }

    /// Hook: after a robber move: 1 token when it harms nobody — to a hex without
    /// buildings, or to the desert without stealing.
    pub(crate) fn frenemies_robber_moved(
        &mut self,
        seat: Seat,
        hex: u8,
        victim: Option<Seat>,
        out: &mut Vec<Event>,
    ) {
        if self.hex_unbuilt(hex) || (victim.is_none() && self.is_desert(hex)) {
            self.draw_tokens(seat, 1, Earned::Robber, out);
        }
    }

    /// The desert without stealing, when the core lists only steals there.
    pub(crate) fn push_desert_no_steal(&self, acts: &mut Vec<Action>) {
        for h in 0..self.topo.hex_count() as u8 {
            if h != self.robber && self.is_desert(h) && !self.robber_victims(self.current, h).is_empty() {
                acts.push(Action::MoveRobber { hex: h, victim: None });
            }
        }
    }
}
