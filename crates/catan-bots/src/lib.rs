//! Bots for `catan-rules`. They know nothing of the rules beyond what
//! [`Game::legal_actions`] lists: any client could play the same way.

use catan_rules::HelpersAction;
use catan_rules::{Action, Game, LegalActions, Requirement, Resource, ResourceSet, Rng, Seat, SeatSet};

/// Picks uniformly among the legal actions and requirements of its seat, filling in a
/// requirement's cards at random. Its randomness is its own (seeded), never the game's.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Rng,
    /// Whether the bot may propose and counter domestic trades (answers are always allowed).
    pub trades: bool,
    legal: LegalActions,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: Rng::new(seed ^ 0xb07b_07b0),
            trades: false,
            legal: LegalActions::default(),
        }
    }

    pub fn with_trades(mut self, trades: bool) -> Self {
        self.trades = trades;
        self
    }

    /// Chooses an action for `seat`, or `None` if it has nothing to do.
    pub fn choose(&mut self, game: &Game, seat: Seat) -> Option<Action> {
        let mut legal = std::mem::take(&mut self.legal);
        game.legal_into(seat, &mut legal);
        let action = self.pick(game, seat, &legal);
        self.legal = legal;
        action
    }

    /// Requirements the bot may pick: not trade proposals unless it trades, and never
    /// `TradeGold` (it only says that offers may carry gold).
    fn pickable(&self, r: &Requirement) -> bool {
        match r {
            Requirement::OfferTrade | Requirement::CounterOffer => self.trades,
            Requirement::TradeGold { .. } => false,
            _ => true,
        }
    }

    fn pick(&mut self, game: &Game, seat: Seat, legal: &LegalActions) -> Option<Action> {
        let reqs: usize = legal.requirements.iter().filter(|r| self.pickable(r)).count();
        let total = legal.actions.len() + reqs;
        if total == 0 {
            return None;
        }
        let k = self.rng.below(total as u32) as usize;
        if k < legal.actions.len() {
            return Some(legal.actions[k]);
        }
        let req = legal
            .requirements
            .iter()
            .filter(|r| self.pickable(r))
            .nth(k - legal.actions.len())
            .copied()?;
        let hand = game.player(seat).hand;
        Some(match req {
            Requirement::Discard { count } => Action::Discard {
                cards: self.random_cards(hand, count as u32),
            },
            Requirement::OfferTrade => {
                let (give, get, give_gold, get_gold) = self.random_terms_with_gold(hand, legal);
                Action::OfferTrade {
                    give,
                    get,
                    give_gold,
                    get_gold,
                    to: SeatSet::EMPTY,
                }
            }
            Requirement::CounterOffer => {
                let (give, get, give_gold, get_gold) = self.random_terms_with_gold(hand, legal);
                Action::CounterOffer {
                    give,
                    get,
                    give_gold,
                    get_gold,
                }
            }
            Requirement::TradeGold { .. } => return None,
            Requirement::UseStina { resource, max } => {
                // 1..=max cards of other resources the bank holds.
                let mut bank = game.bank();
                bank[resource] = 0;
                let k = 1 + self.rng.below(max as u32);
                Action::Helpers(HelpersAction::UseStina {
                    give: resource,
                    get: self.random_cards(bank, k),
                })
            }
        })
    }

    /// `count` cards drawn uniformly from `hand`.
    pub fn random_cards(&mut self, mut hand: ResourceSet, count: u32) -> ResourceSet {
        let mut out = ResourceSet::EMPTY;
        for _ in 0..count.min(hand.total()) {
            let r = hand.nth_card(self.rng.below(hand.total()));
            hand[r] -= 1;
            out[r] += 1;
        }
        out
    }

    /// Random terms, with gold when the legal actions say trades may carry it
    /// (`TradeGold`): a third of the time 1–3 coins asked, or 1–3 offered when held; with no
    /// cards in hand, gold only. Without `TradeGold`, [`RandomBot::random_terms`].
    fn random_terms_with_gold(
        &mut self,
        hand: ResourceSet,
        legal: &LegalActions,
    ) -> (ResourceSet, ResourceSet, u16, u16) {
        let gold = legal.requirements.iter().find_map(|r| match r {
            Requirement::TradeGold { gold } => Some(*gold),
            _ => None,
        });
        let Some(gold) = gold else {
            let (give, get) = self.random_terms(hand);
            return (give, get, 0, 0);
        };
        let (give, get) = if hand.total() == 0 {
            (
                ResourceSet::EMPTY,
                self.random_cards(ResourceSet::new(9, 9, 9, 9, 9), 1),
            )
        } else {
            self.random_terms(hand)
        };
        if give.is_empty() {
            // Nothing but gold to give.
            return (give, get, 1 + self.rng.below(gold.clamp(1, 3) as u32) as u16, 0);
        }
        match self.rng.below(3) {
            0 if gold > 0 && self.rng.below(2) == 0 => {
                (give, get, 1 + self.rng.below(gold.min(3) as u32) as u16, 0)
            }
            0 => (give, get, 0, 1 + self.rng.below(3) as u16),
            _ => (give, get, 0, 0),
        }
    }

    /// Random trade terms: 1–2 cards from the hand for 1–2 cards of resources not given.
    fn random_terms(&mut self, hand: ResourceSet) -> (ResourceSet, ResourceSet) {
        let n = 1 + self.rng.below(2);
        let give = self.random_cards(hand, n);
        let mut get = ResourceSet::EMPTY;
        let options: Vec<Resource> = Resource::ALL.into_iter().filter(|&r| give[r] == 0).collect();
        for _ in 0..1 + self.rng.below(2) {
            let r = options[self.rng.below(options.len() as u32) as usize];
            get[r] += 1;
        }
        (give, get)
    }
}

mod heuristic;
mod level;
mod timeout;

pub use heuristic::HeuristicBot;
pub use level::{Bot, BotLevel};
pub use timeout::{discard_from, timeout_move};

#[cfg(test)]
mod tests {
    use super::*;
    use catan_rules::GameConfig;

    #[test]
    fn random_bots_finish_a_game() {
        let mut game = Game::new(GameConfig::default(), 1).unwrap();
        let mut bot = RandomBot::new(1).with_trades(true);
        let mut steps = 0;
        while !game.is_over() {
            let seat = game.next_actor().unwrap();
            let a = bot
                .choose(&game, seat)
                .expect("the seat the game waits on has a move");
            game.apply(seat, a)
                .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
            steps += 1;
            assert!(steps < 200_000);
        }
        assert!(game.victory_points(game.winner().unwrap()) >= 10);
    }
}
