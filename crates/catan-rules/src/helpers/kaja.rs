//! Kaja — take the robber's resource: 1 card of what the robber's hex produces, or of the
//! user's choice when the robber is on a desert.

use super::Helper;
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::HelpersAction;
use crate::resources::Resource;

impl Game {
    pub(crate) fn push_kaja(&self, _seat: Seat, acts: &mut Vec<Action>) {
        match self.board.terrain[self.robber as usize].resource() {
            Some(r) => {
                if self.bank[r] > 0 {
                    acts.push(Action::Helpers(HelpersAction::UseKaja { resource: r }));
                }
            }
            None => {
                for r in Resource::ALL {
                    if self.bank[r] > 0 {
                        acts.push(Action::Helpers(HelpersAction::UseKaja { resource: r }));
                    }
                }
            }
        }
    }

    pub(crate) fn use_kaja(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Kaja, "use_kaja")?;
        let r = match self.board.terrain[self.robber as usize].resource() {
            Some(r) if r != resource => {
                return Err(RuleError::helper("Kaja takes what the robber's hex produces"));
            }
            _ => resource,
        };
        if self.bank[r] == 0 {
            return Err(RuleError::BankEmpty { resource: r });
        }
        self.helper_used(seat, Helper::Kaja, out);
        self.take_from_bank(seat, Helper::Kaja, r, out);
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
