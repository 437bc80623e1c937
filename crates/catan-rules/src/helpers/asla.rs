//! Asla — forced trade: ask 1 or 2 players, one after the other, for 1 of a resource;
//! give each who gave one card back of the user's choice. Counts as used even if nobody
//! had the resource (DE).

use super::{Helper, Pending};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::{HelpersAction, HelpersEvent};
use crate::resources::Resource;

impl Game {
    pub(crate) fn push_asla(&self, seat: Seat, acts: &mut Vec<Action>) {
        for resource in Resource::ALL {
            for first in (0..self.n).filter(|&s| s != seat) {
                acts.push(Action::Helpers(HelpersAction::UseAsla {
                    resource,
                    first,
                    second: None,
                }));
                for second in (0..self.n).filter(|&s| s != seat && s != first) {
                    acts.push(Action::Helpers(HelpersAction::UseAsla {
                        resource,
                        first,
                        second: Some(second),
                    }));
                }
            }
        }
    }

    pub(crate) fn use_asla(
        &mut self,
        seat: Seat,
        resource: Resource,
        first: Seat,
        second: Option<Seat>,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Asla, "use_asla")?;
        for s in [Some(first), second].into_iter().flatten() {
            if s >= self.n || s == seat {
                return Err(RuleError::helper("Asla asks other players of this game"));
            }
        }
        if second == Some(first) {
            return Err(RuleError::helper("Asla asks two different players"));
        }
        self.helper_used(seat, Helper::Asla, out);
        let mut to = [0; 2];
        let mut count = 0;
        for from in [Some(first), second].into_iter().flatten() {
            if self.players[from as usize].hand[resource] > 0 {
                self.players[from as usize].hand[resource] -= 1;
                self.players[seat as usize].hand[resource] += 1;
                out.push(Event::Helpers(HelpersEvent::AslaGave {
                    from,
                    to: seat,
                    resource,
                }));
                to[count as usize] = from;
                count += 1;
            }
        }
        if count > 0 {
            self.begin_pending(Pending::AslaReturn {
                seat,
                to,
                next: 0,
                count,
            });
        } else {
            self.ask_flip_or_exchange(seat);
        }
        Ok(())
    }

    pub(crate) fn asla_return(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Pending::AslaReturn { to, next, count, .. } = self.require_pending(seat, "asla_return")? else {
            return Err(self.wrong_phase("asla_return"));
        };
        if self.players[seat as usize].hand[resource] == 0 {
            return Err(RuleError::helper("you do not hold that resource"));
        }
        let target = to[next as usize];
        self.players[seat as usize].hand[resource] -= 1;
        self.players[target as usize].hand[resource] += 1;
        out.push(Event::Helpers(HelpersEvent::AslaReturned {
            seat,
            to: target,
            resource,
        }));
        if next + 1 == count {
            self.ask_flip_or_exchange(seat);
        } else {
            self.hs_mut().pending = Pending::AslaReturn {
                seat,
                to,
                next: next + 1,
                count,
            };
        }
        Ok(())
    }
}
