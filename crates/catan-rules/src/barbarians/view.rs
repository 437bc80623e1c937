//! What everyone sees of the scenario: all of it (barbarians, knights, gold, prisoners,
//! conquered hexes and buildings, the discard pile), except the deck order — only its
//! size. Hands stay hidden by the core's projection.

use super::{BarbariansState, Card};
use crate::action::Seat;
use crate::game::{bits, Game};
use crate::view::Viewer;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KnightView {
    pub edge: u8,
    pub seat: Seat,
    /// Moved this turn (a knight moves once a turn).
    pub moved: bool,
    /// Placed on the castle this turn: must leave it before the turn ends.
    pub must_leave_castle: bool,
}

/// Cards by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CardCounts {
    pub knighthood: u8,
    pub black_knight: u8,
    pub treason: u8,
    pub intrigue: u8,
}

/// Barbarian Invasion, all public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BarbariansView {
    pub castle: u8,
    pub desert: u8,
    /// The coastal hexes in battle order (clockwise from the castle).
    pub coastal: Vec<u8>,
    /// Barbarians on each coastal hex, in the order of `coastal`.
    pub barbarians: Vec<u8>,
    pub supply: u8,
    pub conquered_hexes: Vec<u8>,
    /// Corners of buildings that are conquered (0 VP, no harbor, no upgrade).
    pub conquered_buildings: Vec<u8>,
    pub knights: Vec<KnightView>,
    /// Knights in each seat's supply.
    pub knights_left: Vec<u8>,
    pub gold: Vec<u16>,
    pub prisoners: Vec<u8>,
    pub deck_size: u8,
    /// The discard pile by card.
    pub discard_pile: CardCounts,
    /// The card being carried out, if any.
    pub card: Option<Card>,
    /// Gold buys left to the current player this turn.
    pub gold_buys_left: u8,
}

impl Game {
    pub(crate) fn barbarians_view(&self, b: &BarbariansState, _viewer: Viewer) -> BarbariansView {
        let n = self.n as usize;
        let mut knights = Vec::new();
        for s in 0..n {
            for e in bits(b.knights[s]) {
                knights.push(KnightView {
                    edge: e,
                    seat: s as Seat,
                    moved: b.moved & crate::game::bit(e) != 0,
                    must_leave_castle: b.castle_fresh & crate::game::bit(e) != 0,
                });
            }
        }
        knights.sort_by_key(|k| k.edge);
        let conquered_buildings = (0..self.topo.corner_count() as u8)
            .filter(|&c| self.corner_owner(c).is_some() && self.building_conquered(c))
            .collect();
        BarbariansView {
            castle: b.castle,
            desert: b.desert,
            coastal: b.coastal.to_vec(),
            barbarians: b.coastal.iter().map(|&h| b.barbarians[h as usize]).collect(),
            supply: b.supply,
            conquered_hexes: b.coastal.iter().copied().filter(|&h| b.is_conquered(h)).collect(),
            conquered_buildings,
            knights,
            knights_left: b.knights_left[..n].to_vec(),
            gold: b.gold[..n].to_vec(),
            prisoners: b.prisoners[..n].to_vec(),
            deck_size: b.deck_len,
            discard_pile: CardCounts {
                knighthood: b.discards[Card::Knighthood.index()],
                black_knight: b.discards[Card::BlackKnight.index()],
                treason: b.discards[Card::Treason.index()],
                intrigue: b.discards[Card::Intrigue.index()],
            },
            card: b.card,
            gold_buys_left: super::GOLD_BUYS - b.gold_buys,
        }
    }
}
