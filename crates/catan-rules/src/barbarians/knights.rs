//! Knight movement (`barbarians.md`, Knights): after trading and building, each knight may
//! move once, up to 3 paths (path to adjoining path), or up to 5 for 1 grain; it may pass
//! over anything but not end on another knight's path or a castle path (the grain is
//! paid, and accepted, only for a move of 4 or 5 paths). **Decision:**
//! the first move starts a step of its own (no trading or building after it). A knight
//! placed on the castle this turn must leave it before the turn ends (**Decision:** it
//! stays if it has no legal destination).

use super::{BarbariansEvent, BarbariansPhase};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, bits, Game, Phase};
use crate::resources::{Resource, ResourceSet};

use super::BarbariansAction as BA;

/// Paths a knight moves for free, and with 1 grain.
pub const FREE_STEPS: u8 = 3;
pub const GRAIN_STEPS: u8 = 5;

impl Game {
    /// Edges within `steps` path moves of `from`: [`crate::Topology::edges_within`].
    pub(crate) fn edges_within(&self, from: u8, steps: u8) -> u128 {
        self.topo.edges_within(from, steps)
    }

    /// Where the knight on `from` may end a move of up to `steps` paths.
    pub(crate) fn knight_destinations(&self, from: u8, steps: u8) -> u128 {
        self.edges_within(from, steps) & !self.bs().all_knights() & !self.castle_edges()
    }

    pub(crate) fn move_knight(
        &mut self,
        seat: Seat,
        from: u8,
        to: u8,
        grain: bool,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_own_turn(seat, "move a knight")?;
        match self.phase {
            Phase::Main | Phase::Barbarians(BarbariansPhase::MoveKnights) => {}
            _ => return Err(self.wrong_phase("move_knight")),
        }
        if self.offer.is_some() {
            return Err(RuleError::barbarians(
                "withdraw or complete your trade offer first",
            ));
        }
        let ne = self.topo.edge_count();
        if from as usize >= ne {
            return Err(RuleError::no_place("edge", from));
        }
        if to as usize >= ne {
            return Err(RuleError::no_place("edge", to));
        }
        let b = self.bs();
        if b.knights[seat as usize] & bit(from) == 0 {
            return Err(RuleError::barbarians("you have no knight on that path"));
        }
        if b.moved & bit(from) != 0 {
            return Err(RuleError::barbarians("that knight has already moved this turn"));
        }
        if b.all_knights() & bit(to) != 0 {
            return Err(RuleError::barbarians(
                "a knight cannot end on a path holding another knight",
            ));
        }
        if self.castle_edges() & bit(to) != 0 {
            return Err(RuleError::barbarians(
                "a knight cannot end its move on a castle path",
            ));
        }
        let steps = if grain { GRAIN_STEPS } else { FREE_STEPS };
        if self.knight_destinations(from, steps) & bit(to) == 0 {
            return Err(RuleError::barbarians(if grain {
                "a knight moves at most 5 paths with 1 grain"
            } else {
                "a knight moves at most 3 paths (5 with 1 grain)"
            }));
        }
        if grain && self.knight_destinations(from, FREE_STEPS) & bit(to) != 0 {
            return Err(RuleError::barbarians(
                "the grain pays for a move of 4 or 5 paths; up to 3 are free",
            ));
        }
        if grain {
            self.check_afford(seat, &ResourceSet::one(Resource::Grain))?;
            self.pay(seat, &ResourceSet::one(Resource::Grain));
        }
        self.phase = Phase::Barbarians(BarbariansPhase::MoveKnights);
        let b = self.bs_mut();
        b.knights[seat as usize] = (b.knights[seat as usize] & !bit(from)) | bit(to);
        b.moved |= bit(to);
        b.castle_fresh &= !bit(from);
        out.push(Event::Barbarians(BarbariansEvent::KnightMoved {
            seat,
            from,
            to,
            grain,
        }));
        Ok(())
    }

    pub(crate) fn push_knight_moves(&self, seat: Seat, acts: &mut Vec<Action>) {
        if self.offer.is_some() {
            return;
        }
        let b = self.bs();
        let has_grain = self.players[seat as usize].hand[Resource::Grain] > 0;
        // Where no knight may end: computed once, not per knight.
        let blocked = b.all_knights() | self.castle_edges();
        for from in bits(b.knights[seat as usize] & !b.moved) {
            let near = self.edges_within(from, FREE_STEPS) & !blocked;
            for to in bits(near) {
                acts.push(Action::Barbarians(BA::MoveKnight {
                    from,
                    to,
                    grain: false,
                }));
            }
            if has_grain {
                for to in bits(self.edges_within(from, GRAIN_STEPS) & !blocked & !near) {
                    acts.push(Action::Barbarians(BA::MoveKnight {
                        from,
                        to,
                        grain: true,
                    }));
                }
            }
        }
    }

    /// Hook: may `seat` end the turn? Not while a knight placed on the castle this turn
    /// could still leave it.
    pub(crate) fn may_end_turn_barbarians(&self, seat: Seat) -> Result<(), RuleError> {
        let b = self.bs();
        let has_grain = self.players[seat as usize].hand[Resource::Grain] > 0;
        let steps = if has_grain {
            super::knights::GRAIN_STEPS
        } else {
            FREE_STEPS
        };
        for e in bits(b.castle_fresh & b.knights[seat as usize]) {
            if self.knight_destinations(e, steps) != 0 {
                return Err(RuleError::barbarians(
                    "a knight placed on the castle this turn must leave it first",
                ));
            }
        }
        Ok(())
    }
}
