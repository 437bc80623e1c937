//! Carla — development card swap: put 1 unplayed card under the deck and draw the top
//! card, which counts as bought this turn. Not with an empty deck or no card in hand.

use super::Helper;
use crate::action::{Action, DevCard, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::{HelpersAction, HelpersEvent};

impl Game {
    pub(crate) fn push_carla(&self, seat: Seat, acts: &mut Vec<Action>) {
        if self.deck_len == 0 {
            return;
        }
        for card in DevCard::ALL {
            if self.players[seat as usize].dev[card.index()] > 0 {
                acts.push(Action::Helpers(HelpersAction::UseCarla { card }));
            }
        }
    }

    pub(crate) fn use_carla(
        &mut self,
        seat: Seat,
        card: DevCard,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Carla, "use_carla")?;
        if self.deck_len == 0 {
            return Err(RuleError::DeckEmpty);
        }
        if self.players[seat as usize].dev[card.index()] == 0 {
            return Err(RuleError::helper("you do not hold that development card"));
        }
        self.helper_used(seat, Helper::Carla, out);
        // Decision (helpers.md): with copies of the kind bought this turn and earlier, a
        // copy bought this turn goes under the deck; the playable one stays.
        let p = &mut self.players[seat as usize];
        p.dev[card.index()] -= 1;
        p.dev_new[card.index()] = p.dev_new[card.index()].saturating_sub(1);
        // The deck's top is its end: the bottom is index 0.
        let len = self.deck_len as usize;
        self.deck.copy_within(0..len, 1);
        self.deck[0] = card;
        let drew = self.deck[len];
        let p = &mut self.players[seat as usize];
        p.dev[drew.index()] += 1;
        p.dev_new[drew.index()] += 1;
        out.push(Event::Helpers(HelpersEvent::CarlaSwapped {
            seat,
            put: Some(card),
            drew: Some(drew),
        }));
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
