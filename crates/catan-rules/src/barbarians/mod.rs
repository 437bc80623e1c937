//! Scenario: Barbarian Invasion (`barbarians.md`): a castle board, barbarians landing on
//! the coast after every settlement or city, knights placed by the scenario's own
//! 26-card deck and moved after building, a battle at the end of every turn, gold, and
//! 12 VP. Joined to the core only through the scenario seam ([`crate::scenario`]): the
//! board, the set-up city, landings after a build, forbidden corners and paths, production
//! of conquered hexes, the deck (buying), the 7 (no robber), the end of a turn (battle),
//! victory points, legal actions, views and invariants; its actions arrive as
//! [`BarbariansAction`] through `Game::barbarians_apply`.

mod battle;
mod board;
mod deck;
mod gold;
mod knights;
mod landing;
mod position;
mod view;
mod wire;

pub use board::{castle_of, COASTAL_TOKENS};
pub(crate) use board::{from_parts as board_from_parts, generate as generate_board};
pub use position::{BarbariansPosition, KnightPosition};
pub use view::{BarbariansView, CardCounts, KnightView};
pub use wire::{BarbariansAction, BarbariansEvent, BarbariansPhase};

use crate::action::{LegalActions, Seat, SeatSet};
use crate::board::{Board, MAX_HEXES};
use crate::config::MAX_SEATS;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, bits, Game, Phase};
use serde::{Deserialize, Serialize};

/// Barbarians in the game.
pub const BARBARIANS: u8 = 30;
/// Knights per player.
pub const KNIGHTS: u8 = 6;
/// Barbarians that conquer a coastal hex.
pub const CONQUEST: u8 = 3;
/// Gold paid for a lost knight and to each loser of a prisoner roll-off.
pub const CONSOLATION: u16 = 3;
/// Gold buys allowed per turn.
pub const GOLD_BUYS: u8 = 2;
/// Gold one bought resource costs.
pub const GOLD_PRICE: u16 = 2;
/// The scenario's victory point target.
pub const TARGET: u8 = 12;

/// The scenario's development cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Card {
    /// Place a knight on a free castle path.
    Knighthood,
    /// Place a knight on any free path.
    BlackKnight,
    /// 2 gold, then move 2 barbarians.
    Treason,
    /// Take 1 barbarian prisoner.
    Intrigue,
}

impl Card {
    pub const ALL: [Card; 4] = [Card::Knighthood, Card::BlackKnight, Card::Treason, Card::Intrigue];
    /// How many of each the deck holds.
    pub const COUNTS: [u8; 4] = [14, 4, 4, 4];
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Cards in the deck.
pub const DECK: usize = 26;

/// Everything the scenario adds to a game. `Copy`, so games still clone flat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarbariansState {
    pub castle: u8,
    pub desert: u8,
    /// The 10 coastal hexes clockwise from the castle: the battle order.
    pub coastal: [u8; 10],
    /// Barbarians on each hex (only coastal hexes hold any).
    pub barbarians: [u8; MAX_HEXES],
    pub supply: u8,
    pub prisoners: [u8; MAX_SEATS],
    pub gold: [u16; MAX_SEATS],
    /// Edges holding each seat's knights.
    pub knights: [u128; MAX_SEATS],
    pub knights_left: [u8; MAX_SEATS],
    /// The deck, top last; `deck_len` cards.
    pub deck: [Card; DECK],
    pub deck_len: u8,
    /// The discard pile by [`Card`] index (public).
    pub discards: [u8; 4],
    /// The card being carried out (between its purchase and its choice).
    pub card: Option<Card>,
    // ----- this turn ----------------------------------------------------------------
    /// Knights placed on a castle path this turn (they must leave it), by edge.
    pub castle_fresh: u128,
    /// Knights that have moved this turn, by the edge they stand on now.
    pub moved: u128,
    pub gold_buys: u8,
}

impl BarbariansState {
    /// The state for `board` (laid out by [`board::generate`]): one barbarian on the
    /// coastal "2" and one on the "12", a full supply, the deck shuffled by `rng`.
    pub(crate) fn new(board: &Board, rng: &mut crate::rng::Rng) -> BarbariansState {
        let (castle, desert, coastal) = castle_of(board).expect("a Barbarian Invasion board");
        let mut deck = [Card::Knighthood; DECK];
        let mut i = 0;
        for (k, &n) in Card::COUNTS.iter().enumerate() {
            for _ in 0..n {
                deck[i] = Card::ALL[k];
                i += 1;
            }
        }
        rng.shuffle(&mut deck);
        let mut s = BarbariansState {
            castle,
            desert,
            coastal,
            barbarians: [0; MAX_HEXES],
            supply: BARBARIANS,
            prisoners: [0; MAX_SEATS],
            gold: [0; MAX_SEATS],
            knights: [0; MAX_SEATS],
            knights_left: [KNIGHTS; MAX_SEATS],
            deck,
            deck_len: DECK as u8,
            discards: [0; 4],
            card: None,
            castle_fresh: 0,
            moved: 0,
            gold_buys: 0,
        };
        for number in [2, 12] {
            let h = s.coastal_hex(board, number);
            s.barbarians[h as usize] += 1;
            s.supply -= 1;
        }
        s
    }

    /// The coastal hex carrying `number` (2–12 but 7: exactly one).
    pub fn coastal_hex(&self, board: &Board, number: u8) -> u8 {
        *self
            .coastal
            .iter()
            .find(|&&h| board.token[h as usize] == number)
            .expect("every number but 7 is on one coastal hex")
    }

    /// A coastal hex holding 3 barbarians.
    #[inline]
    pub fn is_conquered(&self, hex: u8) -> bool {
        self.barbarians[hex as usize] >= CONQUEST
    }

    /// Conquered hexes as a mask by hex id.
    pub fn conquered_mask(&self) -> u32 {
        let mut m = 0;
        for &h in &self.coastal {
            if self.is_conquered(h) {
                m |= 1 << h;
            }
        }
        m
    }

    /// Every knight on the board.
    #[inline]
    pub fn all_knights(&self) -> u128 {
        self.knights.iter().fold(0, |a, &k| a | k)
    }

    /// The seat whose knight stands on `edge`.
    pub fn knight_at(&self, edge: u8) -> Option<Seat> {
        (0..MAX_SEATS as u8).find(|&s| self.knights[s as usize] & bit(edge) != 0)
    }

    pub fn on_board(&self) -> u32 {
        self.coastal
            .iter()
            .map(|&h| self.barbarians[h as usize] as u32)
            .sum()
    }
}

impl Game {
    pub(crate) fn bs(&self) -> &BarbariansState {
        self.scenario.barbarians().expect("barbarians scenario")
    }
    pub(crate) fn bs_mut(&mut self) -> &mut BarbariansState {
        self.scenario.barbarians_mut().expect("barbarians scenario")
    }

    pub fn barbarians_state(&self) -> Option<&BarbariansState> {
        self.scenario.barbarians()
    }

    /// Carries out one of the scenario's actions (the seam's one dispatch arm).
    pub(crate) fn barbarians_apply(
        &mut self,
        seat: Seat,
        action: BarbariansAction,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.scenario.barbarians().is_none() {
            return Err(RuleError::barbarians(
                "this game is not played with Barbarian Invasion",
            ));
        }
        match action {
            BarbariansAction::PlaceKnight { edge } => self.place_card_knight(seat, edge, out),
            BarbariansAction::Treason { from, to } => self.treason(seat, from, to, out),
            BarbariansAction::Intrigue { hex } => self.intrigue(seat, hex, out),
            BarbariansAction::MoveKnight { from, to, grain } => self.move_knight(seat, from, to, grain, out),
            BarbariansAction::BuyWithGold { resource } => self.buy_with_gold(seat, resource, out),
            BarbariansAction::TradeForGold { give } => self.trade_for_gold(seat, give, out),
            BarbariansAction::StealFrom { victim } => self.steal_from(seat, victim, out),
        }
    }

    /// Whether the building on `corner` is conquered: every land hex it touches is
    /// (castle and desert are never conquered, so a building touching them never is).
    pub fn building_conquered(&self, corner: u8) -> bool {
        let Some(b) = self.scenario.barbarians() else {
            return false;
        };
        self.topo.corner_hexes[corner as usize]
            .iter()
            .filter(|&&h| h != crate::board::NONE)
            .all(|&h| b.is_conquered(h))
    }

    /// Whether someone can still gain a point, so that the game can still end: a liveness
    /// check that tells a slow game from a dead one (issue 10: every game ends; random
    /// play has a long tail). Points come from barbarians still to capture (on the coast
    /// or in the supply: Knighthood keeps placing knights), a city on an unconquered
    /// settlement, or a settlement on a free corner (now, or after more road). All of them
    /// need income: a hand, 2 gold, or an unconquered building on a producing hex.
    /// During the set-up and outside Barbarian Invasion: whether the game is still running.
    pub fn may_still_score(&self) -> bool {
        if self.is_over() {
            return false;
        }
        let Some(b) = self.scenario.barbarians() else {
            return true;
        };
        if self.in_setup() {
            return true;
        }
        let n = self.n as usize;
        let producing = |c: u8| {
            self.topo.corner_hexes[c as usize]
                .iter()
                .any(|&h| h != crate::board::NONE && self.board.token[h as usize] != 0 && !b.is_conquered(h))
        };
        let income = (0..n).any(|s| {
            let p = &self.players[s];
            p.hand.total() > 0 || b.gold[s] >= GOLD_PRICE || bits(p.buildings).any(producing)
        });
        if !income {
            return false;
        }
        if b.supply as u32 + b.on_board() > 0 {
            return true;
        }
        (0..n as u8).any(|s| {
            let p = &self.players[s as usize];
            let settlements = p.buildings & !self.cities;
            (p.cities_left > 0 && bits(settlements).any(|c| !self.building_conquered(c)))
                || (p.settlements_left > 0
                    && (self.settlement_spots(s) != 0 || (p.roads_left > 0 && self.road_spots(s) != 0)))
        })
    }

    /// Hook: corners where nobody may place a settlement (corners of conquered hexes).
    pub(crate) fn barbarians_forbidden_corners(&self) -> u128 {
        let b = self.bs();
        let mut m = 0;
        for &h in &b.coastal {
            if b.is_conquered(h) {
                m |= self.topo.hex_corner_mask[h as usize];
            }
        }
        m
    }

    /// Hook: edges where nobody may build a road (paths of conquered hexes).
    pub(crate) fn barbarians_forbidden_edges(&self) -> u128 {
        let b = self.bs();
        let mut m = 0;
        for &h in &b.coastal {
            if b.is_conquered(h) {
                for &e in &self.topo.hex_edges[h as usize] {
                    m |= bit(e);
                }
            }
        }
        m
    }

    /// Hook: points of `seat`'s conquered buildings (they score 0).
    pub(crate) fn barbarians_vp_withheld(&self, seat: Seat) -> u8 {
        let mut vp = 0;
        for c in bits(self.players[seat as usize].buildings) {
            if self.building_conquered(c) {
                vp += if self.cities & bit(c) != 0 { 2 } else { 1 };
            }
        }
        vp
    }

    /// Harbor access from buildings that are not conquered (a conquered building's harbor
    /// cannot be used); run after every change of the barbarians.
    pub(crate) fn barbarians_recompute_harbors(&mut self) {
        for s in 0..self.n as usize {
            let mut h = 0;
            for c in bits(self.players[s].buildings) {
                if !self.building_conquered(c) {
                    if let Some(k) = self.board.harbor_at(c) {
                        h |= k.bit();
                    }
                }
            }
            self.players[s].harbors = h;
        }
    }

    /// After barbarians changed: events for hexes conquered or freed since `before` (a
    /// [`BarbariansState::conquered_mask`]), and harbors recomputed.
    pub(crate) fn barbarians_changed(&mut self, before: u32, out: &mut Vec<Event>) {
        let now = self.bs().conquered_mask();
        if now != before {
            for h in 0..MAX_HEXES as u8 {
                let m = 1u32 << h;
                if now & m != 0 && before & m == 0 {
                    out.push(Event::Barbarians(BarbariansEvent::HexConquered { hex: h }));
                } else if now & m == 0 && before & m != 0 {
                    out.push(Event::Barbarians(BarbariansEvent::HexFreed { hex: h }));
                }
            }
        }
        self.barbarians_recompute_harbors();
    }

    /// Hook: a turn begins: the last turn's limits reset.
    pub(crate) fn barbarians_new_turn(&mut self) {
        let b = self.bs_mut();
        b.castle_fresh = 0;
        b.moved = 0;
        b.gold_buys = 0;
    }

    /// Hook: the scenario's legal actions of `seat`.
    pub(crate) fn barbarians_legal(&self, seat: Seat, out: &mut LegalActions) {
        use crate::action::Requirement;
        // Domestic trades may carry gold (Gold): said beside the offer or counter.
        if out
            .requirements
            .iter()
            .any(|r| matches!(r, Requirement::OfferTrade | Requirement::CounterOffer))
        {
            out.requirements.push(Requirement::TradeGold {
                gold: self.bs().gold[seat as usize],
            });
        }
        if seat != self.current {
            return;
        }
        match self.phase {
            Phase::Main => {
                if self.may_end_turn_barbarians(seat).is_err() {
                    out.actions.retain(|a| *a != crate::action::Action::EndTurn);
                }
                self.push_gold_actions(seat, &mut out.actions);
                self.push_knight_moves(seat, &mut out.actions);
            }
            Phase::Barbarians(BarbariansPhase::MoveKnights) => {
                if self.may_end_turn_barbarians(seat).is_ok() {
                    out.actions.push(crate::action::Action::EndTurn);
                }
                self.push_knight_moves(seat, &mut out.actions);
            }
            Phase::Barbarians(BarbariansPhase::PlaceKnight { castle }) => {
                self.push_card_knight(castle, &mut out.actions)
            }
            Phase::Barbarians(BarbariansPhase::Treason) => self.push_treason(&mut out.actions),
            Phase::Barbarians(BarbariansPhase::Intrigue) => self.push_intrigue(&mut out.actions),
            Phase::Barbarians(BarbariansPhase::Steal) => self.push_steals(seat, &mut out.actions),
            _ => {}
        }
    }

    /// Hook: who the game waits on in the scenario's phases (always the current player).
    pub(crate) fn barbarians_waiting_on(&self, s: &mut SeatSet) {
        s.insert(self.current);
    }

    /// Scenario invariants: barbarians conserved (supply + board + prisoners = 30), at
    /// most 3 per hex and none off the coast, knights conserved (board + supply = 6 per
    /// player), one knight per path, the deck conserved (deck + discards + the card in
    /// hand = 26), harbors consistent with the conquered buildings.
    pub(crate) fn check_barbarian_invariants(&self, b: &BarbariansState) -> Result<(), String> {
        let n = self.n as usize;
        let prisoners: u32 = b.prisoners[..n].iter().map(|&p| p as u32).sum();
        let total = b.supply as u32 + b.on_board() + prisoners;
        if total != BARBARIANS as u32 {
            return Err(format!(
                "barbarians: supply {} + board {} + prisoners {prisoners} != 30",
                b.supply,
                b.on_board()
            ));
        }
        for h in 0..MAX_HEXES {
            let coastal = b.coastal.contains(&(h as u8));
            if b.barbarians[h] > CONQUEST || (!coastal && b.barbarians[h] > 0) {
                return Err(format!("hex {h} holds {} barbarians", b.barbarians[h]));
            }
        }
        let mut seen = 0u128;
        for s in 0..n {
            if b.knights[s] & seen != 0 {
                return Err(format!("seat {s}: a knight shares a path"));
            }
            seen |= b.knights[s];
            if b.knights[s].count_ones() + b.knights_left[s] as u32 != KNIGHTS as u32 {
                return Err(format!("seat {s}: knights on board + supply != 6"));
            }
        }
        if b.knights[n..].iter().any(|&k| k != 0) || seen >> self.topo.edge_count() != 0 {
            return Err("a knight off the board".into());
        }
        let cards =
            b.deck_len as u32 + b.discards.iter().map(|&d| d as u32).sum::<u32>() + b.card.is_some() as u32;
        if cards != DECK as u32 {
            return Err(format!("barbarian deck: {cards} cards accounted for"));
        }
        for s in 0..n {
            let mut h = 0;
            for c in bits(self.players[s].buildings) {
                if !self.building_conquered(c) {
                    if let Some(k) = self.board.harbor_at(c) {
                        h |= k.bit();
                    }
                }
            }
            if h != self.players[s].harbors {
                return Err(format!("seat {s}: harbors out of step with conquest"));
            }
        }
        if self.is_over() || self.in_setup() {
            return Ok(());
        }
        if b.gold_buys > GOLD_BUYS {
            return Err("more than two gold buys this turn".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
