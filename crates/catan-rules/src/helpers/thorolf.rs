//! Thorolf — protection from the 7: when any player rolls a 7 the holder must use him:
//! with more than 7 cards they discard nothing; with 7 or fewer they take 1 resource.

use super::{Helper, HelpersEvent, Pending};
use crate::action::Seat;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::resources::Resource;
use crate::scenario::Step;

impl Game {
    /// The holder of a usable Thorolf on this turn's 7, if any.
    pub(crate) fn thorolf_holder(&self) -> Option<Seat> {
        let holder = self.holder_of(Helper::Thorolf)?;
        self.helper_rested(holder).is_ok().then_some(holder)
    }

    /// Hook: a 7 was rolled. With a usable Thorolf this replaces the core's discard step:
    /// his holder is exempted when over 7 cards, and Thorolf acts before the turn
    /// proceeds.
    pub(crate) fn helpers_on_seven(&mut self, out: &mut Vec<Event>) -> Step {
        let Some(holder) = self.thorolf_holder() else {
            return Step::Core;
        };
        let exempted = self.start_discards(Some(holder), out);
        self.helper_used(holder, Helper::Thorolf, out);
        if exempted {
            out.push(Event::Helpers(HelpersEvent::DiscardPrevented { seat: holder }));
            self.ask_flip_or_exchange(holder);
        } else if self.bank.is_empty() {
            self.ask_flip_or_exchange(holder);
        } else {
            self.begin_pending(Pending::ThorolfTake { seat: holder });
        }
        Step::Replaced
    }

    pub(crate) fn thorolf_take(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Pending::ThorolfTake { .. } = self.require_pending(seat, "thorolf_take")? else {
            return Err(self.wrong_phase("thorolf_take"));
        };
        if self.bank[resource] == 0 {
            return Err(RuleError::BankEmpty { resource });
        }
        self.take_from_bank(seat, Helper::Thorolf, resource, out);
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
