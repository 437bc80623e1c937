//! Hilda — resource compensation: after any production roll that is not a 7, a holder who
//! received nothing may take 1 resource of their choice from the bank, before play goes on.

use super::{Helper, Pending};
use crate::action::{Seat, SeatSet};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::HelpersEvent;
use crate::resources::{Resource, ResourceSet};

impl Game {
    /// Hook: after production on a non-7 roll, offer Hilda to an eligible holder.
    pub(crate) fn helpers_after_production(&mut self, receivers: SeatSet) {
        let Some(holder) = self.holder_of(Helper::Hilda) else {
            return;
        };
        if self.helper_rested(holder).is_err() || receivers.contains(holder) || self.bank.is_empty() {
            return;
        }
        self.begin_pending(Pending::HildaOffer { seat: holder });
    }

    pub(crate) fn use_hilda(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Pending::HildaOffer { .. } = self.require_pending(seat, "use_hilda")? else {
            return Err(self.wrong_phase("use_hilda"));
        };
        if self.bank[resource] == 0 {
            return Err(RuleError::BankEmpty { resource });
        }
        self.helper_used(seat, Helper::Hilda, out);
        self.take_from_bank(seat, Helper::Hilda, resource, out);
        self.ask_flip_or_exchange(seat);
        Ok(())
    }

    pub(crate) fn decline_hilda(&mut self, seat: Seat) -> Result<(), RuleError> {
        let Pending::HildaOffer { .. } = self.require_pending(seat, "decline_hilda")? else {
            return Err(self.wrong_phase("decline_hilda"));
        };
        self.end_pending();
        Ok(())
    }

    /// Moves one `resource` from the bank to `seat` (the caller checked the bank).
    pub(crate) fn take_from_bank(
        &mut self,
        seat: Seat,
        helper: Helper,
        resource: Resource,
        out: &mut Vec<Event>,
    ) {
        self.bank[resource] -= 1;
        self.players[seat as usize].hand[resource] += 1;
        out.push(Event::Helpers(HelpersEvent::HelperGained {
            seat,
            helper,
            cards: ResourceSet::one(resource),
        }));
    }
}
