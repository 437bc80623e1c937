//! Why an action was refused. Every variant reads as a sentence a player understands.

use crate::action::Seat;
use crate::resources::{Resource, ResourceSet};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no seat {seat} in this game")]
    NoSuchSeat { seat: Seat },
    #[error("it is not your turn to {action}")]
    NotYourTurn { action: Cow<'static, str> },
    #[error("{action} is not possible now: {reason}")]
    WrongPhase {
        action: Cow<'static, str>,
        reason: Cow<'static, str>,
    },
    #[error("not enough resources: you need {needed}")]
    NotEnoughResources { needed: ResourceSet },
    #[error("you have no {piece} left in your supply")]
    NoPieceLeft { piece: Cow<'static, str> },
    #[error("there is no {what} {id} on this board")]
    NoSuchPlace { what: Cow<'static, str>, id: u8 },
    #[error("you cannot build there: {reason}")]
    IllegalPlacement { reason: Cow<'static, str> },
    #[error("you cannot play that card: {reason}")]
    DevCard { reason: Cow<'static, str> },
    #[error("the development deck is empty")]
    DeckEmpty,
    #[error("the bank has no {resource} left")]
    BankEmpty { resource: Resource },
    #[error("invalid trade: {reason}")]
    InvalidTrade { reason: Cow<'static, str> },
    #[error("invalid discard: {reason}")]
    InvalidDiscard { reason: Cow<'static, str> },
    #[error("invalid robber move: {reason}")]
    Robber { reason: Cow<'static, str> },
    #[error("cannot use the helper: {reason}")]
    Helper { reason: Cow<'static, str> },
    #[error("favor tokens: {reason}")]
    Favor { reason: Cow<'static, str> },
    #[error("barbarian invasion: {reason}")]
    Barbarians { reason: Cow<'static, str> },
}

impl RuleError {
    pub(crate) fn phase(action: &'static str, reason: &'static str) -> Self {
        RuleError::WrongPhase {
            action: Cow::Borrowed(action),
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn turn(action: &'static str) -> Self {
        RuleError::NotYourTurn {
            action: Cow::Borrowed(action),
        }
    }
    pub(crate) fn place(reason: &'static str) -> Self {
        RuleError::IllegalPlacement {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn card(reason: &'static str) -> Self {
        RuleError::DevCard {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn trade(reason: &'static str) -> Self {
        RuleError::InvalidTrade {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn discard(reason: &'static str) -> Self {
        RuleError::InvalidDiscard {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn robber(reason: &'static str) -> Self {
        RuleError::Robber {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn helper(reason: &'static str) -> Self {
        RuleError::Helper {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn barbarians(reason: &'static str) -> Self {
        RuleError::Barbarians {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn favor(reason: &'static str) -> Self {
        RuleError::Favor {
            reason: Cow::Borrowed(reason),
        }
    }
    pub(crate) fn no_piece(piece: &'static str) -> Self {
        RuleError::NoPieceLeft {
            piece: Cow::Borrowed(piece),
        }
    }
    pub(crate) fn no_place(what: &'static str, id: u8) -> Self {
        RuleError::NoSuchPlace {
            what: Cow::Borrowed(what),
            id,
        }
    }
}
