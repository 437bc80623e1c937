//! Development cards: buying, and playing with every timing rule (not in the turn bought,
//! at most one per turn, only in one's own turn, before or after the roll).

use crate::action::{DevCard, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase};
use crate::resources::{Resource, ResourceSet};
use crate::scenario::Step;

impl Game {
    pub(crate) fn buy_dev_card(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match self.phase {
            Phase::Main if seat == self.current => {}
            Phase::SpecialBuild { seat: s } if s == seat => {}
            _ if seat == self.current && !matches!(self.phase, Phase::SpecialBuild { .. }) => {
                return Err(self.wrong_phase("buy_development_card"))
            }
            _ => return Err(RuleError::turn("buy a development card")),
        }
        if self.hook_buy_card(seat, out)? == Step::Replaced {
            return Ok(());
        }
        if self.deck_len == 0 {
            return Err(RuleError::DeckEmpty);
        }
        self.check_afford(seat, &ResourceSet::DEV_CARD)?;
        self.pay(seat, &ResourceSet::DEV_CARD);
        self.draw_dev_card(seat, out);
        Ok(())
    }

    /// The top card of the deck to `seat`, as bought this turn (the deck is not empty).
    pub(crate) fn draw_dev_card(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.deck_len -= 1;
        let card = self.deck[self.deck_len as usize];
        let p = &mut self.players[seat as usize];
        p.dev[card.index()] += 1;
        p.dev_new[card.index()] += 1;
        out.push(Event::DevelopmentCardBought {
            seat,
            card: Some(card),
        });
    }

    /// Common checks for playing `card`: own turn, before or after the roll (not in the
    /// middle of a robber move, discard or road building), one per turn, held since
    /// before this turn.
    fn check_play(&self, seat: Seat, card: DevCard, action: &'static str) -> Result<(), RuleError> {
        self.require_own_turn(seat, action)?;
        if !matches!(self.phase, Phase::Roll | Phase::Main) {
            return Err(self.wrong_phase(action));
        }
        if self.dev_played {
            return Err(RuleError::card(
                "only one development card may be played per turn",
            ));
        }
        let p = &self.players[seat as usize];
        if p.dev[card.index()] == 0 {
            return Err(RuleError::card("you do not hold that card"));
        }
        if p.playable(card) == 0 {
            return Err(RuleError::card(
                "a card cannot be played in the turn it was bought",
            ));
        }
        Ok(())
    }

    fn consume(&mut self, seat: Seat, card: DevCard, out: &mut Vec<Event>) {
        let p = &mut self.players[seat as usize];
        p.dev[card.index()] -= 1;
        p.played[card.index()] += 1;
        self.cards_played[card.index()] += 1;
        self.dev_played = true;
        out.push(Event::DevelopmentCardPlayed { seat, card });
    }

    pub(crate) fn play_knight(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_play(seat, DevCard::Knight, "play_knight")?;
        self.consume(seat, DevCard::Knight, out);
        self.players[seat as usize].knights += 1;
        self.update_largest_army(out);
        self.phase = Phase::MoveRobber;
        Ok(())
    }

    pub(crate) fn play_road_building(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_play(seat, DevCard::RoadBuilding, "play_road_building")?;
        self.consume(seat, DevCard::RoadBuilding, out);
        let left = self.players[seat as usize].roads_left.min(2);
        // As many roads as the supply and the legal spots allow (possibly none).
        if left > 0 && self.road_spots(seat) != 0 {
            self.phase = Phase::RoadBuilding { left };
        }
        Ok(())
    }

    /// Year of Plenty: the pair asked for from the bank. Decision (base.md): when the bank
    /// cannot supply the pair, the player takes the single card it can supply of the two
    /// (with one card left in the whole bank, that card), and the card is played; with
    /// neither in the bank the card cannot be played.
    pub(crate) fn play_year_of_plenty(
        &mut self,
        seat: Seat,
        first: Resource,
        second: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_play(seat, DevCard::YearOfPlenty, "play_year_of_plenty")?;
        let cards = self.year_of_plenty_cards(first, second);
        if cards.is_empty() {
            return Err(RuleError::BankEmpty { resource: first });
        }
        self.consume(seat, DevCard::YearOfPlenty, out);
        self.bank.sub(&cards);
        self.players[seat as usize].hand.add(&cards);
        out.push(Event::YearOfPlenty { seat, cards });
        Ok(())
    }

    /// What Year of Plenty asking for `first` and `second` takes from the bank now: both,
    /// or the one card the bank can supply of them, or nothing.
    pub(crate) fn year_of_plenty_cards(&self, first: Resource, second: Resource) -> ResourceSet {
        let mut cards = ResourceSet::one(first);
        cards[second] += 1;
        if self.bank.contains(&cards) {
            return cards;
        }
        for r in [first, second] {
            if self.bank[r] > 0 {
                return ResourceSet::one(r);
            }
        }
        ResourceSet::EMPTY
    }

    pub(crate) fn play_monopoly(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_play(seat, DevCard::Monopoly, "play_monopoly")?;
        self.consume(seat, DevCard::Monopoly, out);
        let mut taken = crate::PerSeat::filled(self.n, 0u8);
        let mut total = 0;
        for s in 0..self.n as usize {
            if s != seat as usize {
                let n = self.players[s].hand[resource];
                self.players[s].hand[resource] = 0;
                taken[s] = n;
                total += n;
            }
        }
        self.players[seat as usize].hand[resource] += total;
        out.push(Event::Monopoly {
            seat,
            resource,
            taken,
        });
        Ok(())
    }
}
