//! The scenario's 26-card deck (`barbarians.md`, Development cards): each card is carried
//! out when bought; choices (which path, which barbarians, which hex) are the buyer's
//! next action in the scenario's own phase. Used cards go to a public discard pile,
//! shuffled into a new deck when the deck runs out.

use super::{BarbariansEvent, BarbariansPhase, Card};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, Game, Phase};
use crate::resources::ResourceSet;
use crate::scenario::Step;

use super::BarbariansAction as BA;

impl Game {
    /// Hook: `seat` buys a card (turn and phase checked by the core): pay, draw, carry out.
    pub(crate) fn barbarians_buy_card(
        &mut self,
        seat: Seat,
        out: &mut Vec<Event>,
    ) -> Result<Step, RuleError> {
        self.check_afford(seat, &ResourceSet::DEV_CARD)?;
        self.pay(seat, &ResourceSet::DEV_CARD);
        out.push(Event::DevelopmentCardBought { seat, card: None });
        self.draw_barbarian_card(seat, out);
        Ok(Step::Replaced)
    }

    /// Draws the top card (reshuffling the discard pile into a new deck when empty) and
    /// carries it out.
    fn draw_barbarian_card(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.bs().deck_len == 0 {
            let mut deck = self.bs().deck;
            let mut len = 0;
            for (k, &n) in self.bs().discards.iter().enumerate() {
                for _ in 0..n {
                    deck[len] = Card::ALL[k];
                    len += 1;
                }
            }
            self.rng.shuffle(&mut deck[..len]);
            let b = self.bs_mut();
            b.deck = deck;
            b.deck_len = len as u8;
            b.discards = [0; 4];
            out.push(Event::Barbarians(BarbariansEvent::DeckReshuffled {
                size: len as u8,
            }));
        }
        let b = self.bs_mut();
        b.deck_len -= 1;
        let card = b.deck[b.deck_len as usize];
        b.card = Some(card);
        out.push(Event::Barbarians(BarbariansEvent::CardDrawn { seat, card }));
        match card {
            Card::Knighthood | Card::BlackKnight => {
                let castle = card == Card::Knighthood;
                if self.bs().knights_left[seat as usize] == 0 || self.card_knight_spots(castle) == 0 {
                    self.card_done(seat, true, out);
                } else {
                    self.phase = Phase::Barbarians(BarbariansPhase::PlaceKnight { castle });
                }
            }
            Card::Treason => {
                self.gain_gold(seat, 2, out);
                if self.treason_moves() == 0 {
                    self.card_done(seat, true, out);
                } else {
                    self.phase = Phase::Barbarians(BarbariansPhase::Treason);
                }
            }
            Card::Intrigue => {
                if self.bs().on_board() == 0 {
                    // Discard it and carry out the next card instead.
                    self.card_done(seat, true, out);
                    self.draw_barbarian_card(seat, out);
                } else {
                    self.phase = Phase::Barbarians(BarbariansPhase::Intrigue);
                }
            }
        }
    }

    /// The card in hand goes to the discard pile; the turn resumes in the main phase.
    fn card_done(&mut self, seat: Seat, no_effect: bool, out: &mut Vec<Event>) {
        let b = self.bs_mut();
        let card = b.card.take().expect("a card being carried out");
        b.discards[card.index()] += 1;
        if no_effect {
            out.push(Event::Barbarians(BarbariansEvent::CardWithoutEffect {
                seat,
                card,
            }));
        }
        self.phase = Phase::Main;
    }

    pub(crate) fn gain_gold(&mut self, seat: Seat, amount: u16, out: &mut Vec<Event>) {
        self.bs_mut().gold[seat as usize] += amount;
        out.push(Event::Barbarians(BarbariansEvent::GoldGained { seat, amount }));
    }

    /// Free paths for a card's knight: the castle's (Knighthood) or any (Black Knight).
    pub(crate) fn card_knight_spots(&self, castle: bool) -> u128 {
        let free = self.topo_all_edges() & !self.bs().all_knights();
        if castle {
            free & self.castle_edges()
        } else {
            free
        }
    }

    pub(crate) fn topo_all_edges(&self) -> u128 {
        (1u128 << self.topo.edge_count()) - 1
    }

    pub(crate) fn castle_edges(&self) -> u128 {
        self.topo.hex_edges[self.bs().castle as usize]
            .iter()
            .fold(0, |m, &e| m | bit(e))
    }

    fn require_card_phase(
        &self,
        seat: Seat,
        phase: BarbariansPhase,
        action: &'static str,
    ) -> Result<(), RuleError> {
        if seat != self.current || self.in_setup() {
            return Err(RuleError::turn(action));
        }
        match (self.phase, phase) {
            (Phase::Barbarians(BarbariansPhase::PlaceKnight { .. }), BarbariansPhase::PlaceKnight { .. }) => {
                Ok(())
            }
            (Phase::Barbarians(p), q) if p == q => Ok(()),
            _ => Err(self.wrong_phase(action)),
        }
    }

    pub(crate) fn place_card_knight(
        &mut self,
        seat: Seat,
        edge: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_card_phase(
            seat,
            BarbariansPhase::PlaceKnight { castle: false },
            "place_knight",
        )?;
        let Phase::Barbarians(BarbariansPhase::PlaceKnight { castle }) = self.phase else {
            unreachable!()
        };
        if edge as usize >= self.topo.edge_count() {
            return Err(RuleError::no_place("edge", edge));
        }
        if self.card_knight_spots(castle) & bit(edge) == 0 {
            return Err(RuleError::barbarians(if castle {
                "Knighthood places the knight on a free path of the castle"
            } else {
                "the knight needs a free path (one knight per path)"
            }));
        }
        let b = self.bs_mut();
        b.knights[seat as usize] |= bit(edge);
        b.knights_left[seat as usize] -= 1;
        if castle {
            b.castle_fresh |= bit(edge);
        }
        out.push(Event::Barbarians(BarbariansEvent::KnightPlaced { seat, edge }));
        self.card_done(seat, false, out);
        Ok(())
    }

    pub(crate) fn push_card_knight(&self, castle: bool, acts: &mut Vec<Action>) {
        for e in crate::game::bits(self.card_knight_spots(castle)) {
            acts.push(Action::Barbarians(BA::PlaceKnight { edge: e }));
        }
    }

    // ----- Treason -------------------------------------------------------------------

    /// Coastal hexes holding barbarians, as a mask by hex.
    fn occupied_coast(&self) -> u32 {
        let b = self.bs();
        b.coastal
            .iter()
            .filter(|&&h| b.barbarians[h as usize] > 0)
            .fold(0, |m, &h| m | 1 << h)
    }

    /// How Treason moves its 2 barbarians now: `(from the board, from the supply)`. Two
    /// from 2 different hexes when 2 hexes hold barbarians; **Decision:** when fewer hexes
    /// hold any, the missing ones come from the supply (as far as it goes).
    fn treason_sources(&self) -> (u32, u32) {
        let board = self.occupied_coast().count_ones().min(2);
        let supply = (2 - board).min(self.bs().supply as u32);
        (board, supply)
    }

    /// Barbarians Treason will move (0 when nothing can move or land).
    fn treason_moves(&self) -> u32 {
        let (board, supply) = self.treason_sources();
        let moving = board + supply;
        // Destinations: unconquered coastal hexes other than the sources; at least one must
        // exist whatever the sources are.
        let b = self.bs();
        let open = b.coastal.iter().filter(|&&h| !b.is_conquered(h)).count() as u32;
        if open == 0 {
            0
        } else {
            moving
        }
    }

    /// Validates a Treason choice; returns the sources and destinations in order.
    fn check_treason(&self, from: [Option<u8>; 2], to: [Option<u8>; 2]) -> Result<(), RuleError> {
        let b = self.bs();
        let (board, supply) = self.treason_sources();
        let given: Vec<u8> = from.iter().flatten().copied().collect();
        if given.len() as u32 != board {
            return Err(RuleError::barbarians(
                "Treason takes barbarians from 2 different coastal hexes (from the supply only when fewer hexes hold any)",
            ));
        }
        if given.len() == 2 && given[0] == given[1] {
            return Err(RuleError::barbarians(
                "the 2 barbarians must come from 2 different hexes",
            ));
        }
        let occupied = self.occupied_coast();
        if given
            .iter()
            .any(|&h| h as usize >= 32 || occupied & (1 << h) == 0)
        {
            return Err(RuleError::barbarians(
                "Treason moves barbarians from coastal hexes holding them",
            ));
        }
        let moving = board + supply;
        let dests: Vec<u8> = to.iter().flatten().copied().collect();
        // Destinations: different, coastal, unconquered, not a source.
        let open: Vec<u8> = b
            .coastal
            .iter()
            .copied()
            .filter(|&h| !b.is_conquered(h) && !given.contains(&h))
            .collect();
        let want = (moving as usize).min(open.len());
        if dests.len() != want {
            return Err(RuleError::barbarians(
                "name one destination for each barbarian Treason moves",
            ));
        }
        if dests.len() == 2 && dests[0] == dests[1] {
            return Err(RuleError::barbarians("the 2 barbarians go to 2 different hexes"));
        }
        if dests.iter().any(|h| !open.contains(h)) {
            return Err(RuleError::barbarians(
                "Treason moves barbarians to other, unconquered coastal hexes",
            ));
        }
        // Barbarians are alike: moving from hexes a and b to c and d is one choice however
        // the hexes are paired, so a choice names its hexes in battle order (clockwise
        // from the castle), the one form the legal actions list.
        let order = |h: &u8| b.coastal.iter().position(|c| c == h);
        if given.len() == 2 && order(&given[0]) > order(&given[1])
            || dests.len() == 2 && order(&dests[0]) > order(&dests[1])
        {
            return Err(RuleError::barbarians(
                "name Treason's hexes in order clockwise from the castle",
            ));
        }
        Ok(())
    }

    pub(crate) fn treason(
        &mut self,
        seat: Seat,
        from: [Option<u8>; 2],
        to: [Option<u8>; 2],
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.require_card_phase(seat, BarbariansPhase::Treason, "treason")?;
        self.check_treason(from, to)?;
        let (_, supply) = self.treason_sources();
        let before = self.bs().conquered_mask();
        let mut sources: Vec<Option<u8>> = from.iter().flatten().map(|&h| Some(h)).collect();
        sources.extend(std::iter::repeat_n(None, supply as usize));
        let dests: Vec<u8> = to.iter().flatten().copied().collect();
        // A barbarian with no destination (too few open hexes) stays where it is.
        for (src, &dst) in sources.iter().zip(dests.iter()) {
            let b = self.bs_mut();
            match src {
                Some(h) => b.barbarians[*h as usize] -= 1,
                None => b.supply -= 1,
            }
            b.barbarians[dst as usize] += 1;
            out.push(Event::Barbarians(BarbariansEvent::BarbarianMoved {
                from: *src,
                to: dst,
            }));
        }
        self.barbarians_changed(before, out);
        self.card_done(seat, false, out);
        Ok(())
    }

    pub(crate) fn push_treason(&self, acts: &mut Vec<Action>) {
        let b = self.bs();
        let occupied: Vec<u8> = b
            .coastal
            .iter()
            .copied()
            .filter(|&h| b.barbarians[h as usize] > 0)
            .collect();
        let (board, _) = self.treason_sources();
        let mut froms: Vec<[Option<u8>; 2]> = Vec::new();
        match board {
            0 => froms.push([None, None]),
            1 => froms.extend(occupied.iter().map(|&h| [Some(h), None])),
            _ => {
                for i in 0..occupied.len() {
                    for j in i + 1..occupied.len() {
                        froms.push([Some(occupied[i]), Some(occupied[j])]);
                    }
                }
            }
        }
        for from in froms {
            let open: Vec<u8> = b
                .coastal
                .iter()
                .copied()
                .filter(|&h| !b.is_conquered(h) && !from.contains(&Some(h)))
                .collect();
            let (bd, sp) = self.treason_sources();
            let want = ((bd + sp) as usize).min(open.len());
            match want {
                0 => acts.push(Action::Barbarians(BA::Treason {
                    from,
                    to: [None, None],
                })),
                1 => {
                    for &d in &open {
                        acts.push(Action::Barbarians(BA::Treason {
                            from,
                            to: [Some(d), None],
                        }));
                    }
                }
                _ => {
                    for i in 0..open.len() {
                        for j in i + 1..open.len() {
                            acts.push(Action::Barbarians(BA::Treason {
                                from,
                                to: [Some(open[i]), Some(open[j])],
                            }));
                        }
                    }
                }
            }
        }
    }

    // ----- Intrigue ------------------------------------------------------------------

    pub(crate) fn intrigue(&mut self, seat: Seat, hex: u8, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.require_card_phase(seat, BarbariansPhase::Intrigue, "intrigue")?;
        if hex as usize >= 32 || self.occupied_coast() & (1 << hex) == 0 {
            return Err(RuleError::barbarians(
                "Intrigue takes a barbarian from a coastal hex holding one",
            ));
        }
        let before = self.bs().conquered_mask();
        let b = self.bs_mut();
        b.barbarians[hex as usize] -= 1;
        b.prisoners[seat as usize] += 1;
        out.push(Event::Barbarians(BarbariansEvent::PrisonersTaken {
            seat,
            count: 1,
        }));
        self.barbarians_changed(before, out);
        self.card_done(seat, false, out);
        Ok(())
    }

    pub(crate) fn push_intrigue(&self, acts: &mut Vec<Action>) {
        let b = self.bs();
        for &h in &b.coastal {
            if b.barbarians[h as usize] > 0 {
                acts.push(Action::Barbarians(BA::Intrigue { hex: h }));
            }
        }
    }
}
