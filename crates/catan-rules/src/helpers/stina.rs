//! Stina — 2:1 trade frenzy: one resource, traded with the bank at 2:1 as often as the
//! user likes, all in one action.

use super::Helper;
use crate::action::{Requirement, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::resources::{Resource, ResourceSet};

impl Game {
    pub(crate) fn push_stina(&self, seat: Seat, reqs: &mut Vec<Requirement>) {
        let hand = &self.players[seat as usize].hand;
        for resource in Resource::ALL {
            let others: u32 = self
                .bank
                .iter()
                .filter(|&(r, _)| r != resource)
                .map(|(_, n)| n as u32)
                .sum();
            let max = (hand[resource] as u32 / 2).min(others);
            if max > 0 {
                reqs.push(Requirement::UseStina {
                    resource,
                    max: max as u8,
                });
            }
        }
    }

    pub(crate) fn use_stina(
        &mut self,
        seat: Seat,
        give: Resource,
        get: ResourceSet,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Stina, "use_stina")?;
        let k = get.total();
        if k == 0 {
            return Err(RuleError::helper("Stina trades at least once"));
        }
        if get[give] > 0 {
            return Err(RuleError::trade("you cannot trade a resource for itself"));
        }
        let mut gave = ResourceSet::EMPTY;
        let n = 2 * k;
        if n > self.players[seat as usize].hand[give] as u32 {
            return Err(RuleError::NotEnoughResources {
                needed: ResourceSet::one(give),
            });
        }
        gave[give] = n as u8;
        if !self.bank.contains(&get) {
            return Err(RuleError::trade("the bank does not hold all the cards asked for"));
        }
        self.helper_used(seat, Helper::Stina, out);
        self.pay(seat, &gave);
        self.bank.sub(&get);
        self.players[seat as usize].hand.add(&get);
        out.push(Event::MaritimeTrade { seat, gave, got: get });
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
