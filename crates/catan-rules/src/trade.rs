//! Trading: maritime with the bank, and domestic between the current player and others
//! (with gold on either side in Barbarian Invasion, `barbarians.md`, Gold).

use crate::action::{Seat, SeatSet};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase, Response, TradeOffer};
use crate::resources::{Resource, ResourceSet};

/// The terms of a domestic trade from one side: cards and gold given, cards and gold
/// received. Gold is only ever non-zero in Barbarian Invasion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Terms {
    pub give: ResourceSet,
    pub get: ResourceSet,
    pub give_gold: u16,
    pub get_gold: u16,
}

impl Terms {
    pub fn new(give: ResourceSet, get: ResourceSet, give_gold: u16, get_gold: u16) -> Terms {
        Terms {
            give,
            get,
            give_gold,
            get_gold,
        }
    }
    pub fn has_gold(&self) -> bool {
        self.give_gold > 0 || self.get_gold > 0
    }
}

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

    /// Gold `seat` holds (0 outside Barbarian Invasion).
    pub fn gold_of(&self, seat: Seat) -> u16 {
        self.scenario.barbarians().map_or(0, |b| b.gold[seat as usize])
    }

    /// Whether `seat` holds what it would give under `terms`, cards and gold.
    pub(crate) fn holds(&self, seat: Seat, give: &ResourceSet, give_gold: u16) -> bool {
        self.players[seat as usize].hand.contains(give) && self.gold_of(seat) >= give_gold
    }

    /// The terms `giver` proposes: each side gives something (cards, or gold in Barbarian
    /// Invasion), nothing on both sides, and the giver holds what they give.
    fn check_terms(&self, giver: Seat, t: &Terms) -> Result<(), RuleError> {
        if t.has_gold() && self.scenario.barbarians().is_none() {
            return Err(RuleError::trade("gold is traded only in Barbarian Invasion"));
        }
        if (t.give.is_empty() && t.give_gold == 0) || (t.get.is_empty() && t.get_gold == 0) {
            return Err(RuleError::trade(
                "both sides must give at least one card (no gifts)",
            ));
        }
        if t.give.overlaps(&t.get) {
            return Err(RuleError::trade("the same resource cannot be on both sides"));
        }
        if t.give_gold > 0 && t.get_gold > 0 {
            return Err(RuleError::trade("gold cannot be on both sides"));
        }
        if !self.players[giver as usize].hand.contains(&t.give) {
            return Err(RuleError::trade("you do not hold the cards you offer"));
        }
        if self.gold_of(giver) < t.give_gold {
            return Err(RuleError::trade("you do not hold the gold you offer"));
        }
        Ok(())
    }

    pub(crate) fn offer_trade(
        &mut self,
        seat: Seat,
        terms: Terms,
        to: SeatSet,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "offer_trade")?;
        self.refuse_in_paired_part("offer_trade")?;
        self.check_terms(seat, &terms)?;
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
        let Terms {
            give,
            get,
            give_gold,
            get_gold,
        } = terms;
        self.offer = Some(TradeOffer {
            give,
            get,
            give_gold,
            get_gold,
            to,
            responses,
        });
        out.push(Event::TradeOffered {
            seat,
            give,
            get,
            give_gold,
            get_gold,
            to,
        });
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
        if answer == Response::Accepted {
            if !self.players[seat as usize].hand.contains(&o.get) {
                return Err(RuleError::trade("you do not hold the cards asked for"));
            }
            if self.gold_of(seat) < o.get_gold {
                return Err(RuleError::trade("you do not hold the gold asked for"));
            }
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
        terms: Terms,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.open_offer_for(seat)?;
        self.check_terms(seat, &terms)?;
        let Terms {
            give,
            get,
            give_gold,
            get_gold,
        } = terms;
        self.offer.as_mut().unwrap().responses[seat as usize] = Response::Countered {
            give,
            get,
            give_gold,
            get_gold,
        };
        out.push(Event::TradeCountered {
            seat,
            give,
            get,
            give_gold,
            get_gold,
        });
        Ok(())
    }

    /// The terms of a trade with `with` from the current player's side, if `with` accepted
    /// or countered.
    pub(crate) fn terms_with(&self, with: Seat) -> Option<Terms> {
        let o = self.offer.as_ref()?;
        match *o.responses.get(with as usize)? {
            Response::Accepted if o.to.contains(with) => {
                Some(Terms::new(o.give, o.get, o.give_gold, o.get_gold))
            }
            Response::Countered {
                give,
                get,
                give_gold,
                get_gold,
            } => Some(Terms::new(get, give, get_gold, give_gold)),
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
        let Some(t) = self.terms_with(with) else {
            return Err(RuleError::trade(
                "that player has not accepted or countered your offer",
            ));
        };
        if !self.holds(seat, &t.give, t.give_gold) {
            return Err(RuleError::trade("you no longer hold the cards for this trade"));
        }
        if !self.holds(with, &t.get, t.get_gold) {
            return Err(RuleError::trade(
                "the other player no longer holds the cards for this trade",
            ));
        }
        let (me, them) = (seat as usize, with as usize);
        self.players[me].hand.sub(&t.give);
        self.players[them].hand.add(&t.give);
        self.players[them].hand.sub(&t.get);
        self.players[me].hand.add(&t.get);
        if t.has_gold() {
            let b = self.bs_mut();
            b.gold[me] = (b.gold[me] - t.give_gold).saturating_add(t.get_gold);
            b.gold[them] = (b.gold[them] - t.get_gold).saturating_add(t.give_gold);
        }
        self.offer = None;
        out.push(Event::TradeCompleted {
            seat,
            with,
            gave: t.give,
            got: t.get,
            gave_gold: t.give_gold,
            got_gold: t.get_gold,
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
