//! Högni — move a road: take 1 of the user's end roads (one end touching none of the
//! user's own pieces) and place it elsewhere by the normal rules; Longest Road is
//! re-evaluated.

use super::Helper;
use crate::action::{Action, Seat};
use crate::board::NONE;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, bits, Game};
use crate::helpers::{HelpersAction, HelpersEvent};

impl Game {
    /// True if road `edge` of `seat` has an end touching no other piece of `seat`.
    fn is_end_road(&self, seat: Seat, edge: u8) -> bool {
        let p = &self.players[seat as usize];
        if p.roads & bit(edge) == 0 {
            return false;
        }
        self.topo.edge_corners[edge as usize].iter().any(|&c| {
            p.buildings & bit(c) == 0
                && self.topo.corner_edges[c as usize]
                    .iter()
                    .all(|&e| e == NONE || e == edge || p.roads & bit(e) == 0)
        })
    }

    /// Takes `edge` off the board back into `seat`'s supply.
    fn lift_road(&mut self, seat: Seat, edge: u8) {
        self.edge_owner[edge as usize] = NONE;
        self.roads_taken &= !bit(edge);
        let p = &mut self.players[seat as usize];
        p.roads &= !bit(edge);
        p.roads_left += 1;
        let mut corners = 0u128;
        for e in bits(p.roads) {
            for c in self.topo.edge_corners[e as usize] {
                corners |= bit(c);
            }
        }
        p.road_corners = corners;
    }

    pub(crate) fn push_hogni(&self, seat: Seat, acts: &mut Vec<Action>) {
        for from in bits(self.players[seat as usize].roads) {
            if self.is_end_road(seat, from) {
                let mut g = self.clone();
                g.lift_road(seat, from);
                for to in bits(g.road_spots(seat)) {
                    if to != from {
                        acts.push(Action::Helpers(HelpersAction::UseHogni { from, to }));
                    }
                }
            }
        }
    }

    pub(crate) fn use_hogni(
        &mut self,
        seat: Seat,
        from: u8,
        to: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Hogni, "use_hogni")?;
        if from as usize >= self.topo.edge_count() || !self.is_end_road(seat, from) {
            return Err(RuleError::helper("Högni moves one of your end roads"));
        }
        if to as usize >= self.topo.edge_count() || to == from {
            return Err(RuleError::helper("the road must move to another edge"));
        }
        let mut g = self.clone();
        g.lift_road(seat, from);
        if g.road_spots(seat) & bit(to) == 0 {
            return Err(RuleError::place(
                "a road must touch your own road, settlement or city, and cannot pass an opponent's building",
            ));
        }
        *self = g;
        self.helper_used(seat, Helper::Hogni, out);
        self.place_road(seat, to);
        out.push(Event::Helpers(HelpersEvent::RoadMoved { seat, from, to }));
        self.recompute_road(seat);
        self.update_longest_road(out);
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
