//! Ryan — take a card from the leader: after the user's production is resolved, pick an
//! opponent with more visible points (Decision: hidden VP cards do not count), see their
//! hand (only the user sees it) and take 1 card of the user's choice.

use super::{Helper, Pending};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::{HelpersAction, HelpersEvent};
use crate::resources::Resource;

impl Game {
    fn ryan_target_ok(&self, seat: Seat, target: Seat) -> bool {
        target < self.n
            && target != seat
            && self.public_victory_points(target) > self.public_victory_points(seat)
            && self.players[target as usize].hand.total() > 0
    }

    pub(crate) fn push_ryan(&self, seat: Seat, acts: &mut Vec<Action>) {
        for target in 0..self.n {
            if self.ryan_target_ok(seat, target) {
                acts.push(Action::Helpers(HelpersAction::UseRyan { target }));
            }
        }
    }

    pub(crate) fn use_ryan(
        &mut self,
        seat: Seat,
        target: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Ryan, "use_ryan")?;
        if !self.ryan_target_ok(seat, target) {
            return Err(RuleError::helper(
                "Ryan takes from an opponent with more visible points and at least one card",
            ));
        }
        self.helper_used(seat, Helper::Ryan, out);
        self.begin_pending(Pending::RyanTake { seat, target });
        Ok(())
    }

    pub(crate) fn ryan_take(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Pending::RyanTake { target, .. } = self.require_pending(seat, "ryan_take")? else {
            return Err(self.wrong_phase("ryan_take"));
        };
        if self.players[target as usize].hand[resource] == 0 {
            return Err(RuleError::helper("that player holds no such card"));
        }
        self.players[target as usize].hand[resource] -= 1;
        self.players[seat as usize].hand[resource] += 1;
        out.push(Event::Helpers(HelpersEvent::RyanTook {
            seat,
            target,
            resource: Some(resource),
        }));
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
