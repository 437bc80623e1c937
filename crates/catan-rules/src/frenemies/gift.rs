//! The gift: on their own turn after rolling, a player offers 1 resource card to an
//! opponent whose visible points are not above their own; the opponent accepts, rejects
//! or asks for another resource. An accepted gift earns the giver 1 token; at most one
//! gift is accepted per turn.

use super::{Earned, FrenemiesAction, FrenemiesEvent, FrenemiesPhase, GiftOffer};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase};
use crate::resources::Resource;

impl Game {
    /// Why `from` may not offer a gift to `to` now, if anything forbids it (not the card).
    fn gift_refusal(&self, from: Seat, to: Seat) -> Option<&'static str> {
        if self.paired.is_some() {
            return Some(crate::paired::PAIRED_NO_DEALINGS);
        }
        let f = self.fs();
        if f.gift_accepted {
            return Some("only one gift per turn");
        }
        if to == from || to >= self.n {
            return Some("a gift goes to an opponent");
        }
        if self.public_victory_points(to) > self.public_victory_points(from) {
            return Some("a gift goes to an opponent with no more visible points than yours");
        }
        if f.gift_rejected.contains(to) {
            return Some("that opponent already rejected a gift this turn");
        }
        None
    }

    pub(crate) fn offer_gift(
        &mut self,
        seat: Seat,
        to: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "offer_gift")?;
        if let Some(reason) = self.gift_refusal(seat, to) {
            return Err(RuleError::favor(reason));
        }
        if self.players[seat as usize].hand[resource] == 0 {
            return Err(RuleError::favor("you do not hold that resource"));
        }
        self.fs_mut().gift = Some(GiftOffer {
            from: seat,
            to,
            resource,
        });
        self.phase = Phase::Frenemies(FrenemiesPhase::GiftOffered);
        out.push(Event::Frenemies(FrenemiesEvent::GiftOffered {
            from: seat,
            to,
            resource,
        }));
        Ok(())
    }

    /// The open gift, if `seat` is its addressee.
    fn gift_to(&self, seat: Seat, action: &'static str) -> Result<GiftOffer, RuleError> {
        if self.phase != Phase::Frenemies(FrenemiesPhase::GiftOffered) {
            return Err(self.wrong_phase(action));
        }
        match self.fs().gift {
            Some(g) if g.to == seat => Ok(g),
            _ => Err(RuleError::turn(action)),
        }
    }

    fn close_gift(&mut self) {
        self.fs_mut().gift = None;
        self.phase = Phase::Main;
    }

    pub(crate) fn accept_gift(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let g = self.gift_to(seat, "accept_gift")?;
        self.players[g.from as usize].hand[g.resource] -= 1;
        self.players[g.to as usize].hand[g.resource] += 1;
        self.fs_mut().gift_accepted = true;
        self.close_gift();
        out.push(Event::Frenemies(FrenemiesEvent::GiftAccepted {
            from: g.from,
            to: g.to,
            resource: g.resource,
        }));
        self.draw_tokens(g.from, 1, Earned::Gift, out);
        Ok(())
    }

    pub(crate) fn reject_gift(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let g = self.gift_to(seat, "reject_gift")?;
        self.fs_mut().gift_rejected.insert(seat);
        self.close_gift();
        out.push(Event::Frenemies(FrenemiesEvent::GiftRejected {
            from: g.from,
            to: g.to,
        }));
        Ok(())
    }

    /// **Decision:** an addressee may ask for another resource once per turn (so that a
    /// gift cannot bounce forever); the giver may then offer that one, or not.
    pub(crate) fn ask_other_gift(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let g = self.gift_to(seat, "ask_other_gift")?;
        if self.fs().gift_asked.contains(seat) {
            return Err(RuleError::favor(
                "you already asked for another resource this turn",
            ));
        }
        if resource == g.resource {
            return Err(RuleError::favor("ask for a different resource"));
        }
        self.fs_mut().gift_asked.insert(seat);
        self.close_gift();
        out.push(Event::Frenemies(FrenemiesEvent::GiftAskedOther {
            from: g.from,
            to: g.to,
            resource,
        }));
        Ok(())
    }

    pub(crate) fn push_gift_offers(&self, seat: Seat, acts: &mut Vec<Action>) {
        for to in 0..self.n {
            if self.gift_refusal(seat, to).is_some() {
                continue;
            }
            for (resource, n) in self.players[seat as usize].hand.iter() {
                if n > 0 {
                    acts.push(Action::Frenemies(FrenemiesAction::OfferGift { to, resource }));
                }
            }
        }
    }

    pub(crate) fn push_gift_answers(&self, seat: Seat, acts: &mut Vec<Action>) {
        let Ok(g) = self.gift_to(seat, "answer a gift") else {
            return;
        };
        acts.push(Action::Frenemies(FrenemiesAction::AcceptGift));
        acts.push(Action::Frenemies(FrenemiesAction::RejectGift));
        if !self.fs().gift_asked.contains(seat) {
            for resource in Resource::ALL {
                if resource != g.resource {
                    acts.push(Action::Frenemies(FrenemiesAction::AskOtherGift { resource }));
                }
            }
        }
    }
}
