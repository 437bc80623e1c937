//! Gregor — assign a knight to a building: remove 1 played knight from the game and build
//! a settlement for 1 lumber + 1 brick or a city for 2 ore + 1 grain. Largest Army is
//! re-evaluated by the one rule for both titles.

use super::Helper;
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bits, Game};
use crate::helpers::{HelpersAction, HelpersEvent};
use crate::resources::ResourceSet;

const SETTLEMENT: ResourceSet = ResourceSet::new(1, 1, 0, 0, 0);
const CITY: ResourceSet = ResourceSet::new(0, 0, 0, 1, 2);

impl Game {
    pub(crate) fn push_gregor(&self, seat: Seat, acts: &mut Vec<Action>) {
        let p = &self.players[seat as usize];
        if p.knights == 0 {
            return;
        }
        if p.settlements_left > 0 && p.hand.contains(&SETTLEMENT) {
            for corner in bits(self.settlement_spots(seat)) {
                acts.push(Action::Helpers(HelpersAction::UseGregor { corner, city: false }));
            }
        }
        if p.cities_left > 0 && p.hand.contains(&CITY) {
            for corner in bits(p.buildings & !self.cities) {
                acts.push(Action::Helpers(HelpersAction::UseGregor { corner, city: true }));
            }
        }
    }

    pub(crate) fn use_gregor(
        &mut self,
        seat: Seat,
        corner: u8,
        city: bool,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Gregor, "use_gregor")?;
        if self.players[seat as usize].knights == 0 {
            return Err(RuleError::helper("Gregor needs one of your played knights"));
        }
        let cost = if city {
            self.check_city(seat, corner)?;
            CITY
        } else {
            self.check_settlement(seat, corner, true)?;
            SETTLEMENT
        };
        self.check_afford(seat, &cost)?;
        self.helper_used(seat, Helper::Gregor, out);
        self.pay(seat, &cost);
        out.push(Event::Helpers(HelpersEvent::HelperPaid { seat, cards: cost }));
        self.players[seat as usize].knights -= 1;
        self.hs_mut().knights_removed += 1;
        out.push(Event::Helpers(HelpersEvent::KnightRemoved { seat }));
        self.update_largest_army(out);
        if city {
            self.upgrade_to_city(seat, corner, out);
        } else {
            self.place_settlement(seat, corner);
            out.push(Event::SettlementBuilt { seat, corner });
            self.after_settlement_cut(seat, corner, out);
        }
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
