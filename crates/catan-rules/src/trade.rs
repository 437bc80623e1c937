//! Trading: maritime with the bank, and domestic between the current player and others.

use crate::action::{Seat, SeatSet};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase, Response, TradeOffer};
use crate::resources::{Resource, ResourceSet};

impl Game {
    /// The best bank rate `seat` has for giving `r`: 2 with its 2:1 harbor, 3 with a generic
    /// harbor, else 4.
    pub fn maritime_rate(&self, seat: Seat, r: Resource) -> u8 {
        let h = self.players[seat as usize].harbors;
        if h & (1 << r.index()) != 0 {
            2
        } else if h & (1 << 5) != 0 {
            3
        } else {
            4
        }
    }

    /// Trading happens only in the current player's own turn after the roll (so do
    /// Frenemies' gifts and favors).
    pub(crate) fn require_trade_phase(&self, seat: Seat, action: &'static str) -> Result<(), RuleError> {
        self.require_own_turn(seat, action)?;
        if self.phase != Phase::Main {
            return Err(self.wrong_phase(action));
        }
        Ok(())
    }

    pub(crate) fn maritime_trade(
        &mut self,
        seat: Seat,
        give: Resource,
        get: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "maritime_trade")?;
        if give == get {
            return Err(RuleError::trade("you cannot trade a resource for itself"));
        }
        let rate = self.maritime_rate(seat, give);
        let mut gave = ResourceSet::EMPTY;
        gave[give] = rate;
        self.check_afford(seat, &gave)?;
        if self.bank[get] == 0 {
            return Err(RuleError::BankEmpty { resource: get });
        }
        self.pay(seat, &gave);
        self.bank[get] -= 1;
        self.players[seat as usize].hand[get] += 1;
        out.push(Event::MaritimeTrade {
            seat,
            gave,
            got: ResourceSet::one(get),
        });
        Ok(())
    }

    fn check_terms(&self, giver: Seat, give: &ResourceSet, get: &ResourceSet) -> Result<(), RuleError> {
        if give.is_empty() || get.is_empty() {
            return Err(RuleError::trade(
                "both sides must give at least one card (no gifts)",
            ));
        }
        if give.overlaps(get) {
            return Err(RuleError::trade("the same resource cannot be on both sides"));
        }
        if !self.players[giver as usize].hand.contains(give) {
            return Err(RuleError::trade("you do not hold the cards you offer"));
        }
        Ok(())
    }

    pub(crate) fn offer_trade(
        &mut self,
        seat: Seat,
        give: ResourceSet,
        get: ResourceSet,
        to: SeatSet,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "offer_trade")?;
        self.refuse_in_paired_part("offer_trade")?;
        self.check_terms(seat, &give, &get)?;
        let all_others = SeatSet(((1u16 << self.n) - 1) as u8 & !(1 << seat));
        let to = if to.is_empty() { all_others } else { to };
        if to.0 & !all_others.0 != 0 {
            return Err(RuleError::trade(
                "an offer can only go to the other players of this game",
            ));
        }
        let mut responses = crate::PerSeat::filled(self.n, Response::Declined);
        for s in to.iter() {
            responses[s as usize] = Response::Pending;
        }
        self.offer = Some(TradeOffer {
            give,
            get,
            to,
            responses,
        });
        out.push(Event::TradeOffered { seat, give, get, to });
        Ok(())
    }

    fn open_offer_for(&self, seat: Seat) -> Result<&TradeOffer, RuleError> {
        let Some(o) = &self.offer else {
            return Err(RuleError::trade("there is no open offer"));
        };
        if self.phase != Phase::Main {
            return Err(RuleError::trade("there is no open offer"));
        }
        if seat == self.current || !o.to.contains(seat) {
            return Err(RuleError::trade("the open offer is not addressed to you"));
        }
        if o.responses[seat as usize] != Response::Pending {
            return Err(RuleError::trade("you have already answered this offer"));
        }
        Ok(o)
    }

    pub(crate) fn answer_trade(
        &mut self,
        seat: Seat,
        answer: Response,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let o = self.open_offer_for(seat)?;
        if answer == Response::Accepted && !self.players[seat as usize].hand.contains(&o.get) {
            return Err(RuleError::trade("you do not hold the cards asked for"));
        }
        self.offer.as_mut().unwrap().responses[seat as usize] = answer;
        out.push(match answer {
            Response::Accepted => Event::TradeAccepted { seat },
            _ => Event::TradeDeclined { seat },
        });
        Ok(())
    }

    pub(crate) fn counter_offer(
        &mut self,
        seat: Seat,
        give: ResourceSet,
        get: ResourceSet,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.open_offer_for(seat)?;
        self.check_terms(seat, &give, &get)?;
        self.offer.as_mut().unwrap().responses[seat as usize] = Response::Countered { give, get };
        out.push(Event::TradeCountered { seat, give, get });
        Ok(())
    }

    /// The terms of a trade with `with` from the current player's side, if `with` accepted
    /// or countered: (current gives, current gets).
    pub(crate) fn terms_with(&self, with: Seat) -> Option<(ResourceSet, ResourceSet)> {
        let o = self.offer.as_ref()?;
        match *o.responses.get(with as usize)? {
            Response::Accepted if o.to.contains(with) => Some((o.give, o.get)),
            Response::Countered { give, get } => Some((get, give)),
            _ => None,
        }
    }

    pub(crate) fn confirm_trade(
        &mut self,
        seat: Seat,
        with: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "confirm_trade")?;
        if self.offer.is_none() {
            return Err(RuleError::trade("there is no open offer"));
        }
        let Some((gave, got)) = self.terms_with(with) else {
            return Err(RuleError::trade(
                "that player has not accepted or countered your offer",
            ));
        };
        if !self.players[seat as usize].hand.contains(&gave) {
            return Err(RuleError::trade("you no longer hold the cards for this trade"));
        }
        if !self.players[with as usize].hand.contains(&got) {
            return Err(RuleError::trade(
                "the other player no longer holds the cards for this trade",
            ));
        }
        let (me, them) = (seat as usize, with as usize);
        self.players[me].hand.sub(&gave);
        self.players[them].hand.add(&gave);
        self.players[them].hand.sub(&got);
        self.players[me].hand.add(&got);
        self.offer = None;
        out.push(Event::TradeCompleted {
            seat,
            with,
            gave,
            got,
        });
        Ok(())
    }

    pub(crate) fn cancel_trade(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "cancel_trade")?;
        if self.offer.is_none() {
            return Err(RuleError::trade("there is no open offer"));
        }
        self.offer = None;
        out.push(Event::TradeCancelled { seat });
        Ok(())
    }
}
