//! What each viewer sees of the scenario: everyone sees token counts, redeemed tokens, VP
//! markers, connected pairs and the gift in progress; a player's guilds only they see.

use super::{FrenemiesState, GiftOffer, TokenUse};
use crate::action::Seat;
use crate::game::Game;
use crate::view::Viewer;
use serde::{Deserialize, Serialize};

/// One seat's tokens. Guild arrays are in [`super::Guild`] order (traders, merchants,
/// road builders, scholars, master builders).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TokenHolder {
    pub seat: Seat,
    pub token_count: u8,
    pub vp_markers: u8,
    /// The seat's tokens by guild: only in its own view.
    pub tokens: Option<[u8; 5]>,
    /// Of `tokens`, those received this turn (not usable yet): only in its own view.
    pub fresh_tokens: Option<[u8; 5]>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrenemiesView {
    pub holders: Vec<TokenHolder>,
    pub supply_count: u8,
    /// Tokens redeemed so far (face up, out of play), by guild.
    pub redeemed: [u8; 5],
    pub vp_markers_left: u8,
    /// Pairs of seats whose networks have met (each pair once, lower seat first).
    pub connected: Vec<[Seat; 2]>,
    /// The gift waiting for its answer.
    pub gift: Option<GiftOffer>,
    /// What the current player did with tokens this turn.
    pub token_use: TokenUse,
    pub traders_used: u8,
    pub gift_accepted: bool,
}

impl Game {
    pub(crate) fn frenemies_view(&self, f: &FrenemiesState, viewer: Viewer) -> FrenemiesView {
        let connected = f.connected_pairs(self.n);
        FrenemiesView {
            holders: (0..self.n)
                .map(|s| TokenHolder {
                    seat: s,
                    token_count: f.held_count(s) as u8,
                    vp_markers: f.markers[s as usize],
                    tokens: viewer.is(s).then_some(f.held[s as usize]),
                    fresh_tokens: viewer.is(s).then_some(f.fresh[s as usize]),
                })
                .collect(),
            supply_count: f.supply_count() as u8,
            redeemed: f.redeemed,
            vp_markers_left: f.markers_left,
            connected,
            gift: f.gift,
            token_use: f.used,
            traders_used: f.traders_used,
            gift_accepted: f.gift_accepted,
        }
    }
}
