//! Gold and the 7 (`barbarians.md`, Gold and Rolling a 7): gold buys (at most twice a
//! turn, 2 gold for 1 resource), maritime trade for gold (4:1, or 3:1 with a generic
//! harbor; never with a 2:1 harbor), and the 7 without a robber: discards (gold never
//! counts), then the roller steals 1 random resource card from a player of their choice.

use super::{BarbariansEvent, BarbariansPhase, GOLD_BUYS, GOLD_PRICE};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase};
use crate::resources::{Resource, ResourceSet};
use crate::scenario::Step;

use super::BarbariansAction as BA;

impl Game {
    pub(crate) fn buy_with_gold(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "buy_with_gold")?;
        let b = self.bs();
        if b.gold_buys >= GOLD_BUYS {
            return Err(RuleError::barbarians("gold buys only twice a turn"));
        }
        if b.gold[seat as usize] < GOLD_PRICE {
            return Err(RuleError::barbarians("a resource costs 2 gold"));
        }
        if self.bank[resource] == 0 {
            return Err(RuleError::BankEmpty { resource });
        }
        let b = self.bs_mut();
        b.gold[seat as usize] -= GOLD_PRICE;
        b.gold_buys += 1;
        self.bank[resource] -= 1;
        self.players[seat as usize].hand[resource] += 1;
        out.push(Event::Barbarians(BarbariansEvent::BoughtWithGold {
            seat,
            resource,
        }));
        Ok(())
    }

    /// Cards of one resource the bank takes for 1 gold: 3 with a generic harbor, else 4
    /// (a 2:1 harbor does not help).
    pub fn gold_rate(&self, seat: Seat) -> u8 {
        if self.players[seat as usize].harbors & (1 << 5) != 0 {
            3
        } else {
            4
        }
    }

    pub(crate) fn trade_for_gold(
        &mut self,
        seat: Seat,
        give: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "trade_for_gold")?;
        let count = self.gold_rate(seat);
        let mut cards = ResourceSet::EMPTY;
        cards[give] = count;
        self.check_afford(seat, &cards)?;
        self.pay(seat, &cards);
        self.bs_mut().gold[seat as usize] += 1;
        out.push(Event::Barbarians(BarbariansEvent::TradedForGold {
            seat,
            give,
            count,
        }));
        Ok(())
    }

    pub(crate) fn push_gold_actions(&self, seat: Seat, acts: &mut Vec<Action>) {
        let b = self.bs();
        if b.gold_buys < GOLD_BUYS && b.gold[seat as usize] >= GOLD_PRICE {
            for r in Resource::ALL {
                if self.bank[r] > 0 {
                    acts.push(Action::Barbarians(BA::BuyWithGold { resource: r }));
                }
            }
        }
        let rate = self.gold_rate(seat);
        for r in Resource::ALL {
            if self.players[seat as usize].hand[r] >= rate {
                acts.push(Action::Barbarians(BA::TradeForGold { give: r }));
            }
        }
    }

    // ----- the 7 ---------------------------------------------------------------------

    /// Hook: a 7 was rolled: the discards as usual, then the steal (no robber).
    pub(crate) fn barbarians_on_seven(&mut self, out: &mut Vec<Event>) -> Step {
        self.start_discards(None, out);
        if self.phase == Phase::MoveRobber {
            self.barbarians_discards_done();
        }
        Step::Replaced
    }

    /// Hook: the discards after a 7 are over: the roller steals, if anyone has a card.
    pub(crate) fn barbarians_discards_done(&mut self) -> Step {
        let thief = self.current;
        let anyone = (0..self.n).any(|s| s != thief && self.players[s as usize].hand.total() > 0);
        self.phase = if anyone {
            Phase::Barbarians(BarbariansPhase::Steal)
        } else {
            Phase::Main
        };
        Step::Replaced
    }

    pub(crate) fn steal_from(
        &mut self,
        seat: Seat,
        victim: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_own_turn(seat, "steal")?;
        if self.phase != Phase::Barbarians(BarbariansPhase::Steal) {
            return Err(self.wrong_phase("steal_from"));
        }
        if victim >= self.n || victim == seat || self.players[victim as usize].hand.total() == 0 {
            return Err(RuleError::barbarians(
                "steal from another player who holds a resource card",
            ));
        }
        self.steal(seat, victim, out);
        self.phase = Phase::Main;
        Ok(())
    }

    pub(crate) fn push_steals(&self, seat: Seat, acts: &mut Vec<Action>) {
        for v in 0..self.n {
            if v != seat && self.players[v as usize].hand.total() > 0 {
                acts.push(Action::Barbarians(BA::StealFrom { victim: v }));
            }
        }
    }
}
