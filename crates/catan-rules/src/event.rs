//! What happened, in order. The game log; redacted per viewer by [`crate::view`].

use crate::action::{DevCard, Seat, SeatSet};
use crate::resources::{Resource, ResourceSet};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    SettlementBuilt {
        seat: Seat,
        corner: u8,
    },
    CityBuilt {
        seat: Seat,
        corner: u8,
    },
    RoadBuilt {
        seat: Seat,
        edge: u8,
    },
    /// The resources a second set-up settlement yields.
    StartingResources {
        seat: Seat,
        cards: ResourceSet,
    },
    TurnStarted {
        seat: Seat,
        turn: u32,
    },
    DiceRolled {
        seat: Seat,
        dice: [u8; 2],
    },
    Produced {
        seat: Seat,
        cards: ResourceSet,
    },
    /// The bank could not pay everyone owed this resource: nobody received it.
    ProductionBlocked {
        resource: Resource,
    },
    MustDiscard {
        seat: Seat,
        count: u8,
    },
    Discarded {
        seat: Seat,
        cards: ResourceSet,
    },
    RobberMoved {
        seat: Seat,
        hex: u8,
    },
    /// `resource` is known only to the thief and the victim; `None` for everyone else.
    Stole {
        thief: Seat,
        victim: Seat,
        resource: Option<Resource>,
    },
    /// `card` is known only to the buyer.
    DevelopmentCardBought {
        seat: Seat,
        card: Option<DevCard>,
    },
    DevelopmentCardPlayed {
        seat: Seat,
        card: DevCard,
    },
    YearOfPlenty {
        seat: Seat,
        cards: ResourceSet,
    },
    Monopoly {
        seat: Seat,
        resource: Resource,
        taken: crate::PerSeat<u8>,
    },
    MaritimeTrade {
        seat: Seat,
        gave: ResourceSet,
        got: ResourceSet,
    },
    TradeOffered {
        seat: Seat,
        give: ResourceSet,
        get: ResourceSet,
        /// Gold offered / asked (Barbarian Invasion; absent when 0).
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        give_gold: u16,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        get_gold: u16,
        to: SeatSet,
    },
    TradeAccepted {
        seat: Seat,
    },
    TradeDeclined {
        seat: Seat,
    },
    /// `give`/`get` from the countering seat's side.
    TradeCountered {
        seat: Seat,
        give: ResourceSet,
        get: ResourceSet,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        give_gold: u16,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        get_gold: u16,
    },
    TradeCancelled {
        seat: Seat,
    },
    /// `seat` (the current player) gave `gave` to `with` and received `got`.
    TradeCompleted {
        seat: Seat,
        with: Seat,
        gave: ResourceSet,
        got: ResourceSet,
        /// Gold that changed hands (Barbarian Invasion; absent when 0).
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        gave_gold: u16,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        got_gold: u16,
    },
    LongestRoad {
        holder: Option<Seat>,
        length: u8,
    },
    LargestArmy {
        holder: Option<Seat>,
        knights: u8,
    },
    TurnEnded {
        seat: Seat,
    },
    SpecialBuildTurn {
        seat: Seat,
    },
    /// Paired Players: player 1 (`partner`) ended their part of the turn; player 2
    /// (`seat`) now builds, buys, trades with the bank and may play one card.
    PairedTurn {
        seat: Seat,
        partner: Seat,
    },
    GameOver {
        winner: Seat,
        points: crate::PerSeat<u8>,
    },

    /// An event of The Helpers (flat on the wire).
    #[serde(untagged)]
    Helpers(crate::helpers::HelpersEvent),
    /// An event of Frenemies (flat on the wire).
    #[serde(untagged)]
    Frenemies(crate::frenemies::FrenemiesEvent),
    /// An event of Barbarian Invasion (flat on the wire; all public).
    #[serde(untagged)]
    Barbarians(crate::barbarians::BarbariansEvent),
}
