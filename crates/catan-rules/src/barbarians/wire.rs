//! Barbarian Invasion's own actions, events and phases, joined to the core ones by one
//! variant each (`Action::Barbarians`, `Event::Barbarians`, `Phase::Barbarians`); flat on
//! the wire.

use super::Card;
use crate::action::Seat;
use crate::resources::Resource;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BarbariansAction {
    /// Knighthood / Black Knight just bought: put one of your knights on path `edge` (a
    /// free castle path for Knighthood, any free path for Black Knight).
    PlaceKnight { edge: u8 },
    /// Treason just bought: move barbarians from the coastal hexes `from` (`null`: from
    /// the supply) to the coastal hexes `to`, one each.
    Treason {
        from: [Option<u8>; 2],
        to: [Option<u8>; 2],
    },
    /// Intrigue just bought: take 1 barbarian from coastal hex `hex` as your prisoner.
    Intrigue { hex: u8 },
    /// Move your knight on path `from` to path `to` (up to 3 paths, or 5 paying 1 grain
    /// with `grain: true`). The first move starts the movement step: no more trading or
    /// building this turn.
    MoveKnight { from: u8, to: u8, grain: bool },
    /// Pay 2 gold for 1 `resource` from the bank (at most twice a turn).
    BuyWithGold { resource: Resource },
    /// Give 4 (3 with a generic harbor) `give` to the bank for 1 gold.
    TradeForGold { give: Resource },
    /// After a 7 (and its discards): take 1 random resource card from `victim`.
    StealFrom { victim: Seat },
}

impl BarbariansAction {
    pub fn name(&self) -> &'static str {
        match self {
            BarbariansAction::PlaceKnight { .. } => "place_knight",
            BarbariansAction::Treason { .. } => "treason",
            BarbariansAction::Intrigue { .. } => "intrigue",
            BarbariansAction::MoveKnight { .. } => "move_knight",
            BarbariansAction::BuyWithGold { .. } => "buy_with_gold",
            BarbariansAction::TradeForGold { .. } => "trade_for_gold",
            BarbariansAction::StealFrom { .. } => "steal_from",
        }
    }
}

/// Barbarian Invasion's events. Everything in them is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BarbariansEvent {
    /// A landing roll named `number`; `landed` says whether a barbarian was placed on
    /// `hex` (not when it already held 3 or the supply was empty).
    BarbarianLanding {
        number: u8,
        hex: u8,
        landed: bool,
    },
    /// `hex` now holds 3 barbarians: conquered.
    HexConquered {
        hex: u8,
    },
    /// `hex` lost its barbarians below 3: freed.
    HexFreed {
        hex: u8,
    },
    /// `seat` bought and carries out `card`.
    CardDrawn {
        seat: Seat,
        card: Card,
    },
    /// The discard pile was shuffled into a new deck.
    DeckReshuffled {
        size: u8,
    },
    /// A card had no effect (Knighthood with no free castle path or no knight left, …).
    CardWithoutEffect {
        seat: Seat,
        card: Card,
    },
    KnightPlaced {
        seat: Seat,
        edge: u8,
    },
    KnightMoved {
        seat: Seat,
        from: u8,
        to: u8,
        grain: bool,
    },
    /// A barbarian moved by Treason (`from: null`: from the supply).
    BarbarianMoved {
        from: Option<u8>,
        to: u8,
    },
    GoldGained {
        seat: Seat,
        amount: u16,
    },
    BoughtWithGold {
        seat: Seat,
        resource: Resource,
    },
    TradedForGold {
        seat: Seat,
        give: Resource,
        count: u8,
    },
    /// The battle at `hex`: `knights` against `barbarians`; `won` if the knights
    /// outnumber them.
    Battle {
        hex: u8,
        knights: u8,
        barbarians: u8,
        won: bool,
    },
    /// A roll-off among tied players (2d6 each, in seat order).
    RollOff {
        seats: Vec<Seat>,
        rolls: Vec<u8>,
    },
    PrisonersTaken {
        seat: Seat,
        count: u8,
    },
    /// The knight-loss die after a won battle at `hex` rolled `face` (1–6): the knights on
    /// edges `edges` go back to their owners.
    KnightLossDie {
        hex: u8,
        face: u8,
        edges: [u8; 2],
    },
    KnightLost {
        seat: Seat,
        edge: u8,
    },
}

/// The scenario's own phases (flat on the wire: `{"phase": "place_knight", …}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum BarbariansPhase {
    /// The current player places the knight of a Knighthood (`castle: true`) or Black
    /// Knight card.
    PlaceKnight { castle: bool },
    /// The current player carries out Treason.
    Treason,
    /// The current player carries out Intrigue.
    Intrigue,
    /// After a 7: the roller picks whom to steal from.
    Steal,
    /// The movement step: knights move, then `end_turn` (battle).
    MoveKnights,
}

impl BarbariansPhase {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            BarbariansPhase::PlaceKnight { .. } => "place the knight of the card you bought first",
            BarbariansPhase::Treason => "carry out Treason first",
            BarbariansPhase::Intrigue => "carry out Intrigue first",
            BarbariansPhase::Steal => "choose whom to steal from first",
            BarbariansPhase::MoveKnights => "knights are moving: no more trading or building this turn",
        }
    }
}
