//! Frenemies' own actions, events and phases, joined to the core ones by one variant each
//! (`Action::Frenemies`, `Event::Frenemies`, `Phase::Frenemies`); flat on the wire.

use super::Guild;
use crate::action::Seat;
use crate::resources::{Resource, ResourceSet};
use crate::view::Viewer;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FrenemiesAction {
    /// Offer 1 `resource` card to `to` (an opponent with no more visible points).
    OfferGift { to: Seat, resource: Resource },
    /// The gift's addressee takes the card (the giver earns a favor token).
    AcceptGift,
    /// The gift's addressee refuses it; the giver may try another eligible opponent.
    RejectGift,
    /// The gift's addressee would rather have `resource` (once per turn per addressee).
    AskOtherGift { resource: Resource },
    /// Traders (1 wagon): trade 1 `give` for 1 `get` with the bank (at most twice a turn).
    RedeemTraders { give: Resource, get: Resource },
    /// Merchants (1 ship): take 1 `resource` from the bank.
    RedeemMerchants { resource: Resource },
    /// Road Builders (1 shovel): build a road at `edge` for free.
    RedeemRoadBuilders { edge: u8 },
    /// Scholars (2 books): draw a development card for free (bought this turn).
    RedeemScholars,
    /// Master Builders (2 compasses): take a VP marker.
    RedeemMasterBuilders,
    /// Draw 1 token from the supply; then `return_token`.
    ExchangeToken,
    /// After `exchange_token`: return 1 token of `guild` to the supply, face down.
    ReturnToken { guild: Guild },
}

impl FrenemiesAction {
    pub fn name(&self) -> &'static str {
        match self {
            FrenemiesAction::OfferGift { .. } => "offer_gift",
            FrenemiesAction::AcceptGift => "accept_gift",
            FrenemiesAction::RejectGift => "reject_gift",
            FrenemiesAction::AskOtherGift { .. } => "ask_other_gift",
            FrenemiesAction::RedeemTraders { .. } => "redeem_traders",
            FrenemiesAction::RedeemMerchants { .. } => "redeem_merchants",
            FrenemiesAction::RedeemRoadBuilders { .. } => "redeem_road_builders",
            FrenemiesAction::RedeemScholars => "redeem_scholars",
            FrenemiesAction::RedeemMasterBuilders => "redeem_master_builders",
            FrenemiesAction::ExchangeToken => "exchange_token",
            FrenemiesAction::ReturnToken { .. } => "return_token",
        }
    }
}

/// Why favor tokens were drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Earned {
    /// A harmless robber move.
    Robber,
    /// An accepted gift.
    Gift,
    /// The first connection of two players' networks.
    Connection,
    /// An exchange (draw 1, return 1).
    Exchange,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrenemiesEvent {
    /// `seat` drew `count` tokens; `guilds` (by guild) only for `seat`.
    TokensDrawn {
        seat: Seat,
        count: u8,
        reason: Earned,
        guilds: Option<[u8; 5]>,
    },
    /// `seat` put a token back into the supply face down; its guild only for `seat`.
    TokenReturned {
        seat: Seat,
        guild: Option<Guild>,
    },
    /// Tokens returned face up: the favor carried out (cards taken / given, if any).
    FavorRedeemed {
        seat: Seat,
        guild: Guild,
        tokens: u8,
        gave: ResourceSet,
        got: ResourceSet,
    },
    GiftOffered {
        from: Seat,
        to: Seat,
        resource: Resource,
    },
    GiftAccepted {
        from: Seat,
        to: Seat,
        resource: Resource,
    },
    GiftRejected {
        from: Seat,
        to: Seat,
    },
    GiftAskedOther {
        from: Seat,
        to: Seat,
        resource: Resource,
    },
    /// The first connection between `builder`'s and `other`'s networks.
    NetworksConnected {
        builder: Seat,
        other: Seat,
    },
    VpMarkerTaken {
        seat: Seat,
    },
}

impl FrenemiesEvent {
    /// The event as `viewer` may see it: a drawn or returned token's guild is private.
    pub fn redact(&self, viewer: Viewer) -> FrenemiesEvent {
        match *self {
            FrenemiesEvent::TokensDrawn {
                seat,
                count,
                reason,
                guilds,
            } => FrenemiesEvent::TokensDrawn {
                seat,
                count,
                reason,
                guilds: if viewer.is(seat) { guilds } else { None },
            },
            FrenemiesEvent::TokenReturned { seat, guild } => FrenemiesEvent::TokenReturned {
                seat,
                guild: if viewer.is(seat) { guild } else { None },
            },
            ref e => e.clone(),
        }
    }
}

/// The scenario's own phases (both interrupt the current player's main phase and return
/// to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum FrenemiesPhase {
    /// The gift's addressee answers (see the view's `gift`).
    GiftOffered,
    /// After drawing in an exchange, the current player returns one token.
    ReturnToken,
}

impl FrenemiesPhase {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            FrenemiesPhase::GiftOffered => "a gift is waiting for its answer",
            FrenemiesPhase::ReturnToken => "return a favor token first",
        }
    }
}
