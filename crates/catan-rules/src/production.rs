//! Rolling the dice: production with the bank-shortage rule, and on a 7 the discards,
//! the robber and the steal.

use crate::action::Seat;
use crate::board::NONE;
use crate::config::MAX_SEATS;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, Game, Phase};
use crate::resources::{Resource, ResourceSet};
use crate::scenario::Step;

impl Game {
    pub(crate) fn roll_dice(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.require_own_turn(seat, "roll the dice")?;
        if self.phase != Phase::Roll {
            return Err(self.wrong_phase("roll_dice"));
        }
        let dice = [self.rng.die(), self.rng.die()];
        self.dice = Some(dice);
        self.rolled = true;
        out.push(Event::DiceRolled { seat, dice });
        let sum = dice[0] + dice[1];
        if sum == 7 {
            if self.hook_on_seven(out) == Step::Core {
                self.start_discards(None, out);
            }
        } else {
            let receivers = self.produce(sum, out);
            self.phase = Phase::Main;
            self.hook_after_production(receivers, out);
        }
        Ok(())
    }

    /// Every settlement on a hex with `number` collects 1, every city 2; the robber's hex
    /// produces nothing. If the bank cannot pay everyone owed a resource, nobody gets it,
    /// unless only one player is owed it: that player gets what is left.
    pub(crate) fn produce(&mut self, number: u8, out: &mut Vec<Event>) -> crate::action::SeatSet {
        let mut owed = [ResourceSet::EMPTY; MAX_SEATS];
        for &h in &self.board.token_hexes[number as usize] {
            if h == NONE {
                break;
            }
            if h == self.robber || !self.hook_hex_produces(h) {
                continue;
            }
            let Some(r) = self.board.terrain[h as usize].resource() else {
                continue;
            };
            for &c in &self.topo.hex_corners[h as usize] {
                let owner = self.corner_owner[c as usize];
                if owner != NONE {
                    owed[owner as usize][r] += if self.cities & bit(c) != 0 { 2 } else { 1 };
                }
            }
        }
        let n = self.n as usize;
        for r in Resource::ALL {
            let total: u32 = owed[..n].iter().map(|o| o[r] as u32).sum();
            if total == 0 || total <= self.bank[r] as u32 {
                continue;
            }
            let claimants = owed[..n].iter().filter(|o| o[r] > 0).count();
            if claimants == 1 {
                for o in owed[..n].iter_mut() {
                    if o[r] > 0 {
                        o[r] = self.bank[r];
                    }
                }
            } else {
                for o in owed[..n].iter_mut() {
                    o[r] = 0;
                }
                out.push(Event::ProductionBlocked { resource: r });
            }
        }
        let mut receivers = crate::action::SeatSet::EMPTY;
        for (s, cards) in owed[..n].iter().enumerate() {
            if !cards.is_empty() {
                self.bank.sub(cards);
                self.players[s].hand.add(cards);
                out.push(Event::Produced {
                    seat: s as Seat,
                    cards: *cards,
                });
                receivers.insert(s as Seat);
            }
        }
        receivers
    }

    /// After a rolled 7: everyone with more than 7 cards must give up half (rounded
    /// down); the game waits for all of them, then the robber moves. `exempt` (a
    /// scenario's choice) discards nothing; returns whether the exemption was needed.
    pub(crate) fn start_discards(&mut self, exempt: Option<Seat>, out: &mut Vec<Event>) -> bool {
        let mut any = false;
        let mut exempted = false;
        for s in 0..self.n {
            let total = self.players[s as usize].hand.total();
            if total > 7 && exempt == Some(s) {
                exempted = true;
            } else if total > 7 {
                let count = (total / 2) as u8;
                self.discard_pending[s as usize] = count;
                out.push(Event::MustDiscard { seat: s, count });
                any = true;
            }
        }
        self.phase = if any { Phase::Discard } else { Phase::MoveRobber };
        exempted
    }

    pub(crate) fn discard(
        &mut self,
        seat: Seat,
        cards: ResourceSet,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.phase != Phase::Discard {
            return Err(self.wrong_phase("discard"));
        }
        let need = self.discard_pending[seat as usize];
        if need == 0 {
            return Err(RuleError::discard("you do not have to discard"));
        }
        if cards.total() != need as u32 {
            return Err(RuleError::InvalidDiscard {
                reason: format!("you must discard exactly {need} cards, not {}", cards.total()).into(),
            });
        }
        if !self.players[seat as usize].hand.contains(&cards) {
            return Err(RuleError::discard("you do not hold those cards"));
        }
        self.pay(seat, &cards);
        self.discard_pending[seat as usize] = 0;
        out.push(Event::Discarded { seat, cards });
        if self.discard_pending.iter().all(|&n| n == 0) {
            self.phase = Phase::MoveRobber;
            self.hook_discards_done();
        }
        Ok(())
    }

    /// Seats (other than `thief`) with a building on `hex` and at least one card.
    pub(crate) fn robber_victims(&self, thief: Seat, hex: u8) -> crate::action::SeatSet {
        let mut set = crate::action::SeatSet::EMPTY;
        for &c in &self.topo.hex_corners[hex as usize] {
            let o = self.corner_owner[c as usize];
            if o != NONE && o != thief && self.players[o as usize].hand.total() > 0 {
                set.insert(o);
            }
        }
        set
    }

    pub(crate) fn move_robber(
        &mut self,
        seat: Seat,
        hex: u8,
        victim: Option<Seat>,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_own_turn(seat, "move the robber")?;
        if self.phase != Phase::MoveRobber {
            return Err(self.wrong_phase("move_robber"));
        }
        if hex as usize >= self.topo.hex_count() {
            return Err(RuleError::no_place("hex", hex));
        }
        if hex == self.robber {
            return Err(RuleError::robber("the robber must move to a different hex"));
        }
        let victims = self.robber_victims(seat, hex);
        match victim {
            Some(v) if !victims.contains(v) => {
                return Err(RuleError::robber(
                    "the victim must be another player with a building on that hex and at least one card",
                ))
            }
            None if !victims.is_empty() && !self.hook_may_skip_steal(hex) => {
                return Err(RuleError::robber(
                    "you must steal from one of the players on that hex",
                ))
            }
            _ => {}
        }
        self.robber = hex;
        out.push(Event::RobberMoved { seat, hex });
        if let Some(v) = victim {
            self.steal(seat, v, out);
        }
        self.phase = if self.rolled { Phase::Main } else { Phase::Roll };
        self.hook_robber_moved(seat, hex, victim, out);
        Ok(())
    }
}
