//! Diara — development card choice: when buying, pay 1 of the 3 resources with any other;
//! then look at the top 3 cards (fewer if fewer remain), keep 1, shuffle the rest back.
//! Only the user sees the cards looked at.

use super::{Helper, Pending};
use crate::action::{Action, DevCard, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::{HelpersAction, HelpersEvent};
use crate::resources::{Resource, ResourceSet};

fn cost(replace: Option<Resource>, with: Option<Resource>) -> Option<ResourceSet> {
    let mut c = ResourceSet::DEV_CARD;
    match (replace, with) {
        (None, None) => Some(c),
        (Some(r), Some(w)) if c[r] == 1 && r != w => {
            c[r] -= 1;
            c[w] += 1;
            Some(c)
        }
        _ => None,
    }
}

impl Game {
    pub(crate) fn push_diara(&self, seat: Seat, acts: &mut Vec<Action>) {
        if self.deck_len == 0 {
            return;
        }
        let hand = &self.players[seat as usize].hand;
        if hand.contains(&ResourceSet::DEV_CARD) {
            acts.push(Action::Helpers(HelpersAction::BuyDevelopmentCardWithDiara {
                replace: None,
                with: None,
            }));
        }
        for replace in [Resource::Wool, Resource::Grain, Resource::Ore] {
            for with in Resource::ALL {
                if let Some(c) = cost(Some(replace), Some(with)) {
                    if hand.contains(&c) {
                        acts.push(Action::Helpers(HelpersAction::BuyDevelopmentCardWithDiara {
                            replace: Some(replace),
                            with: Some(with),
                        }));
                    }
                }
            }
        }
    }

    pub(crate) fn use_diara(
        &mut self,
        seat: Seat,
        replace: Option<Resource>,
        with: Option<Resource>,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Diara, "buy_development_card_with_diara")?;
        let Some(cost) = cost(replace, with) else {
            return Err(RuleError::helper(
                "Diara replaces the wool, grain or ore of the price with another resource",
            ));
        };
        if self.deck_len == 0 {
            return Err(RuleError::DeckEmpty);
        }
        self.check_afford(seat, &cost)?;
        self.helper_used(seat, Helper::Diara, out);
        self.pay(seat, &cost);
        out.push(Event::Helpers(HelpersEvent::HelperPaid { seat, cards: cost }));
        let count = self.deck_len.min(3);
        let mut cards = [DevCard::Knight; 3];
        for i in 0..count {
            self.deck_len -= 1;
            cards[i as usize] = self.deck[self.deck_len as usize];
        }
        out.push(Event::Helpers(HelpersEvent::DiaraLooked { seat, count }));
        self.begin_pending(Pending::DiaraKeep { seat, cards, count });
        Ok(())
    }

    pub(crate) fn diara_keep(
        &mut self,
        seat: Seat,
        index: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Pending::DiaraKeep { cards, count, .. } = self.require_pending(seat, "diara_keep")? else {
            return Err(self.wrong_phase("diara_keep"));
        };
        if index >= count {
            return Err(RuleError::helper("no such card among those looked at"));
        }
        let kept = cards[index as usize];
        let p = &mut self.players[seat as usize];
        p.dev[kept.index()] += 1;
        p.dev_new[kept.index()] += 1;
        for (i, &c) in cards[..count as usize].iter().enumerate() {
            if i != index as usize {
                self.deck[self.deck_len as usize] = c;
                self.deck_len += 1;
            }
        }
        let len = self.deck_len as usize;
        self.rng.shuffle(&mut self.deck[..len]);
        out.push(Event::DevelopmentCardBought {
            seat,
            card: Some(kept),
        });
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
