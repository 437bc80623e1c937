//! Barbarian Invasion's part of a [`crate::Position`]: the barbarians on each coastal hex
//! and in the supply, prisoners, gold, knights on paths, the scenario's deck and discard
//! pile, the card being carried out, and what the current player did this turn (knights
//! placed on the castle, knights moved, gold buys).
//!
//! Derived, never given: the castle, the desert and the battle order (from the board,
//! which must be a Barbarian Invasion board), the conquered hexes (those with 3
//! barbarians) and buildings, each player's knights in supply (6 less those on paths) and
//! harbor access (none through a conquered building).
//!
//! Refused, with a reason: barbarians that do not add up to 30 (supply + coast +
//! prisoners), more than 3 on a hex, more than 6 knights for a player, two knights on one
//! path, a knight on a path the board does not have, a knight listed as placed on the
//! castle this turn that is not the current player's or not on a castle path, moved
//! knights outside the movement step, more than two gold buys, deck and discards that do
//! not make the 26 cards, a card being carried out that does not match the phase, an
//! Intrigue with no barbarian to take, and a set-up position that is not the opening (no
//! barbarians land, nothing is bought or fought in the set-up). Gold is a non-negative
//! number by its type (a negative one does not parse).

use super::{BarbariansPhase, BarbariansState, Card, BARBARIANS, CONQUEST, DECK, GOLD_BUYS, KNIGHTS};
use crate::action::Seat;
use crate::config::MAX_SEATS;
use crate::game::{bit, bits, Game, Phase};
use crate::position::PositionError;
use serde::{Deserialize, Serialize};

/// A knight on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnightPosition {
    pub edge: u8,
    pub seat: Seat,
}

/// Barbarian Invasion's part of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BarbariansPosition {
    /// Barbarians on each coastal hex in battle order (clockwise from the castle, the
    /// view's `coastal`); an empty list: the opening (one on the "2", one on the "12").
    pub barbarians: Vec<u8>,
    /// `None`: the 30 less those on the coast and the prisoners.
    pub supply: Option<u8>,
    /// Prisoners per seat (an empty list: none).
    pub prisoners: Vec<u8>,
    /// Gold per seat (an empty list: none).
    pub gold: Vec<u16>,
    pub knights: Vec<KnightPosition>,
    /// The scenario's deck, bottom first (the top card, drawn next, last). `None`: every
    /// card not in the discard pile nor being carried out, shuffled by the game RNG.
    pub deck: Option<Vec<Card>>,
    /// The discard pile by kind (Knighthood, Black Knight, Treason, Intrigue).
    pub discards: [u8; 4],
    /// The card being carried out (phases `place_knight`, `treason`, `intrigue`).
    pub card: Option<Card>,
    /// Paths of knights placed on the castle this turn (they must leave it).
    pub castle_fresh: Vec<u8>,
    /// Paths of knights that have moved this turn (phase `move_knights`).
    pub moved: Vec<u8>,
    /// Gold buys made this turn (at most 2).
    pub gold_buys: u8,
}

fn bad(reason: impl Into<String>) -> PositionError {
    PositionError::Scenario {
        scenario: "barbarians",
        reason: reason.into(),
    }
}

/// Per-seat numbers: `n` entries, or none for all zero.
fn per_seat<T: Copy + Default>(v: &[T], n: u8, what: &'static str) -> Result<[T; MAX_SEATS], PositionError> {
    let mut out = [T::default(); MAX_SEATS];
    if v.is_empty() {
        return Ok(out);
    }
    if v.len() != n as usize {
        return Err(PositionError::SeatCount {
            what,
            expected: n,
            found: v.len(),
        });
    }
    out[..v.len()].copy_from_slice(v);
    Ok(out)
}

impl Game {
    /// The scenario's part of [`Game::position`].
    pub(crate) fn barbarians_position(&self, b: &BarbariansState) -> BarbariansPosition {
        let n = self.n as usize;
        let mut knights: Vec<KnightPosition> = (0..n as u8)
            .flat_map(|s| bits(b.knights[s as usize]).map(move |edge| KnightPosition { edge, seat: s }))
            .collect();
        knights.sort_by_key(|k| k.edge);
        BarbariansPosition {
            barbarians: b.coastal.iter().map(|&h| b.barbarians[h as usize]).collect(),
            supply: Some(b.supply),
            prisoners: b.prisoners[..n].to_vec(),
            gold: b.gold[..n].to_vec(),
            knights,
            deck: Some(b.deck[..b.deck_len as usize].to_vec()),
            discards: b.discards,
            card: b.card,
            castle_fresh: bits(b.castle_fresh).collect(),
            moved: bits(b.moved).collect(),
            gold_buys: b.gold_buys,
        }
    }

    /// Validates the scenario's part of a position against the rest of the game (built
    /// from the same position: board, pieces, phase) and builds the scenario state.
    pub(crate) fn barbarians_from_position(
        &mut self,
        part: &BarbariansPosition,
    ) -> Result<BarbariansState, PositionError> {
        let n = self.n;
        if super::castle_of(&self.board).is_none() {
            return Err(bad(
                "the board is not a Barbarian Invasion board (castle and desert on opposite \
                 corners of the outer ring, the coastal tokens clockwise from the castle)",
            ));
        }
        // The opening state (deck shuffled below), then the position's numbers.
        let mut s = BarbariansState::new(&self.board, &mut crate::rng::Rng::new(0));
        if !part.barbarians.is_empty() {
            if part.barbarians.len() != s.coastal.len() {
                return Err(bad(format!(
                    "barbarians: {} entries; the coast has {} hexes (battle order)",
                    part.barbarians.len(),
                    s.coastal.len()
                )));
            }
            let coastal = s.coastal;
            for (i, &h) in coastal.iter().enumerate() {
                let count = part.barbarians[i];
                if count > CONQUEST {
                    return Err(bad(format!(
                        "coastal hex {h} holds {count} barbarians; a hex holds at most {CONQUEST}"
                    )));
                }
                s.barbarians[h as usize] = count;
            }
        }
        s.prisoners = per_seat(&part.prisoners, n, "barbarians.prisoners")?;
        s.gold = per_seat(&part.gold, n, "barbarians.gold")?;
        let placed = s.on_board() + s.prisoners.iter().map(|&p| p as u32).sum::<u32>();
        s.supply = match part.supply {
            Some(supply) if placed + supply as u32 == BARBARIANS as u32 => supply,
            None if placed <= BARBARIANS as u32 => BARBARIANS - placed as u8,
            _ => {
                return Err(bad(format!(
                    "{placed} barbarians on the coast and as prisoners{}: the game has {BARBARIANS}",
                    part.supply
                        .map_or(String::new(), |x| format!(", {x} in the supply"))
                )))
            }
        };
        self.barbarians_knights_from(part, &mut s)?;
        self.barbarians_deck_from(part, &mut s)?;
        self.barbarians_turn_from(part, &mut s)?;
        if self.in_setup() {
            let opening = BarbariansState::new(&self.board, &mut crate::rng::Rng::new(0));
            let mut same = s;
            same.deck = opening.deck;
            if same != opening {
                return Err(bad(
                    "during the set-up nothing has happened yet: no landings, prisoners, gold, \
                     knights or cards",
                ));
            }
        }
        Ok(s)
    }

    /// Knights: on paths of the board, one per path, at most 6 per seat.
    fn barbarians_knights_from(
        &self,
        part: &BarbariansPosition,
        s: &mut BarbariansState,
    ) -> Result<(), PositionError> {
        for k in &part.knights {
            if k.edge as usize >= self.topo.edge_count() {
                return Err(PositionError::NoSuchPlace {
                    what: "edge",
                    id: k.edge,
                });
            }
            self.position_seat(k.seat, || format!("the knight on edge {}", k.edge))?;
            if s.all_knights() & bit(k.edge) != 0 {
                return Err(bad(format!("two knights on path {}", k.edge)));
            }
            if s.knights_left[k.seat as usize] == 0 {
                return Err(bad(format!(
                    "seat {} has more than {KNIGHTS} knights on the board",
                    k.seat
                )));
            }
            s.knights[k.seat as usize] |= bit(k.edge);
            s.knights_left[k.seat as usize] -= 1;
        }
        Ok(())
    }

    /// The deck and the discard pile make the 26 cards with the card being carried out; the
    /// card matches the phase.
    fn barbarians_deck_from(
        &mut self,
        part: &BarbariansPosition,
        s: &mut BarbariansState,
    ) -> Result<(), PositionError> {
        let mut elsewhere = part.discards;
        if let Some(c) = part.card {
            elsewhere[c.index()] += 1;
        }
        let deck: Vec<Card> = match &part.deck {
            Some(deck) => deck.clone(),
            None => {
                let mut deck = Vec::with_capacity(DECK);
                for card in Card::ALL {
                    for _ in elsewhere[card.index()]..Card::COUNTS[card.index()].max(elsewhere[card.index()])
                    {
                        deck.push(card);
                    }
                }
                self.rng.shuffle(&mut deck);
                deck
            }
        };
        for card in Card::ALL {
            let i = card.index();
            let in_deck = deck.iter().filter(|&&c| c == card).count();
            if in_deck + elsewhere[i] as usize != Card::COUNTS[i] as usize {
                return Err(bad(format!(
                    "{in_deck} {card:?} cards in the deck and {} discarded or being carried out; \
                     the game has {}",
                    elsewhere[i],
                    Card::COUNTS[i]
                )));
            }
        }
        s.deck_len = deck.len() as u8;
        s.deck[..deck.len()].copy_from_slice(&deck);
        s.discards = part.discards;
        s.card = part.card;
        let expected = match self.phase {
            Phase::Barbarians(BarbariansPhase::PlaceKnight { castle: true }) => Some(Card::Knighthood),
            Phase::Barbarians(BarbariansPhase::PlaceKnight { castle: false }) => Some(Card::BlackKnight),
            Phase::Barbarians(BarbariansPhase::Treason) => Some(Card::Treason),
            Phase::Barbarians(BarbariansPhase::Intrigue) => Some(Card::Intrigue),
            _ => None,
        };
        if part.card != expected {
            return Err(bad(format!(
                "the card being carried out ({:?}) does not fit the phase (it needs {:?})",
                part.card, expected
            )));
        }
        if part.card == Some(Card::Intrigue) && s.on_board() == 0 {
            return Err(bad(
                "an Intrigue waits for its choice but no coastal hex holds a barbarian",
            ));
        }
        Ok(())
    }

    /// This turn's record: fresh castle knights, moved knights, gold buys.
    fn barbarians_turn_from(
        &self,
        part: &BarbariansPosition,
        s: &mut BarbariansState,
    ) -> Result<(), PositionError> {
        let mine = s.knights[self.current as usize];
        let castle_paths = self.topo.hex_edges[s.castle as usize]
            .iter()
            .fold(0u128, |m, &e| m | bit(e));
        for &e in &part.castle_fresh {
            if mine & castle_paths & bit(e) == 0 {
                return Err(bad(format!(
                    "castle_fresh names path {e}: not a castle path holding a knight of the \
                     current player"
                )));
            }
            s.castle_fresh |= bit(e);
        }
        for &e in &part.moved {
            if mine & bit(e) == 0 {
                return Err(bad(format!(
                    "moved names path {e}: no knight of the current player stands there"
                )));
            }
            s.moved |= bit(e);
        }
        let moving = self.phase == Phase::Barbarians(BarbariansPhase::MoveKnights);
        if moving != (s.moved != 0) {
            return Err(bad(
                "knights have moved this turn exactly in the phase `move_knights` (the first \
                 move starts it)",
            ));
        }
        if s.castle_fresh & s.moved != 0 {
            return Err(bad("a knight that moved is no longer on the castle"));
        }
        if part.gold_buys > GOLD_BUYS {
            return Err(bad(format!(
                "{} gold buys this turn; at most {GOLD_BUYS}",
                part.gold_buys
            )));
        }
        let before_roll = matches!(self.phase, Phase::Roll) || self.in_setup();
        if before_roll && (part.gold_buys > 0 || s.castle_fresh != 0) {
            return Err(bad("before the roll nothing is bought yet this turn"));
        }
        s.gold_buys = part.gold_buys;
        Ok(())
    }
}
