//! Frenemies' part of a [`crate::Position`]: favor tokens held, in the supply and redeemed,
//! VP markers, connected pairs, and what the current player did this turn.

use super::{token_set, FrenemiesPhase, FrenemiesState, GiftOffer, Guild, TokenUse, VP_MARKERS};
use crate::action::SeatSet;
use crate::config::MAX_SEATS;
use crate::game::{Game, Phase};
use crate::position::PositionError;
use serde::{Deserialize, Serialize};

/// One seat's tokens, by guild (traders, merchants, road builders, scholars, master
/// builders), and VP markers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TokenHolderPosition {
    pub tokens: [u8; 5],
    /// Of `tokens`, those received this turn (usable from the next turn).
    pub fresh: [u8; 5],
    pub vp_markers: u8,
}

/// Frenemies' part of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrenemiesPosition {
    /// One entry per seat.
    pub holders: Vec<TokenHolderPosition>,
    /// The face-down supply by guild; `None`: the game's token set less what is held and
    /// redeemed.
    pub supply: Option<[u8; 5]>,
    /// Tokens redeemed (face up, out of play) by guild.
    pub redeemed: [u8; 5],
    /// Pairs of seats whose networks have met.
    pub connected: Vec<[u8; 2]>,
    /// What the current player did with tokens this turn.
    pub token_use: TokenUse,
    pub traders_used: u8,
    pub gift_accepted: bool,
    /// Opponents who rejected a gift this turn.
    pub gift_rejected: SeatSet,
    /// Opponents who asked for another resource this turn.
    pub gift_asked: SeatSet,
    /// The gift waiting for its answer (phase `gift_offered`).
    pub gift: Option<GiftOffer>,
}

impl Default for FrenemiesPosition {
    fn default() -> Self {
        FrenemiesPosition {
            holders: Vec::new(),
            supply: None,
            redeemed: [0; 5],
            connected: Vec::new(),
            token_use: TokenUse::None,
            traders_used: 0,
            gift_accepted: false,
            gift_rejected: SeatSet::EMPTY,
            gift_asked: SeatSet::EMPTY,
            gift: None,
        }
    }
}

fn bad(reason: impl Into<String>) -> PositionError {
    PositionError::Scenario {
        scenario: "frenemies",
        reason: reason.into(),
    }
}

impl Game {
    /// The scenario's part of [`Game::position`].
    pub(crate) fn frenemies_position(&self, f: &FrenemiesState) -> FrenemiesPosition {
        let connected = f.connected_pairs(self.n);
        FrenemiesPosition {
            holders: (0..self.n as usize)
                .map(|s| TokenHolderPosition {
                    tokens: f.held[s],
                    fresh: f.fresh[s],
                    vp_markers: f.markers[s],
                })
                .collect(),
            supply: Some(f.supply),
            redeemed: f.redeemed,
            connected,
            token_use: f.used,
            traders_used: f.traders_used,
            gift_accepted: f.gift_accepted,
            gift_rejected: f.gift_rejected,
            gift_asked: f.gift_asked,
            gift: f.gift,
        }
    }

    /// Validates the scenario's part of a position against the rest of the game (built
    /// from the same position) and builds the scenario state.
    pub(crate) fn frenemies_from_position(
        &self,
        part: &FrenemiesPosition,
    ) -> Result<FrenemiesState, PositionError> {
        let n = self.n as usize;
        if part.holders.len() != n {
            return Err(PositionError::SeatCount {
                what: "frenemies.holders",
                expected: self.n,
                found: part.holders.len(),
            });
        }
        let set = token_set(self.n);
        let mut state = FrenemiesState::new(&self.config);
        for guild in Guild::ALL {
            let g = guild.index();
            let held: u32 = part.holders.iter().map(|h| h.tokens[g] as u32).sum();
            let elsewhere = held + part.redeemed[g] as u32;
            let ok = match part.supply {
                Some(supply) => elsewhere + supply[g] as u32 == set[g] as u32,
                None => elsewhere <= set[g] as u32,
            };
            if !ok {
                return Err(bad(format!(
                    "{guild:?}: {held} held, {} redeemed{}; the game's set has {}",
                    part.redeemed[g],
                    part.supply
                        .map_or(String::new(), |s| format!(", {} in the supply", s[g])),
                    set[g]
                )));
            }
            state.supply[g] = set[g] - elsewhere as u8;
        }
        let mut markers = 0u32;
        for (s, h) in part.holders.iter().enumerate() {
            if (0..5).any(|g| h.fresh[g] > h.tokens[g]) {
                return Err(bad(format!("seat {s}: more fresh tokens than tokens")));
            }
            state.held[s] = h.tokens;
            state.fresh[s] = h.fresh;
            state.markers[s] = h.vp_markers;
            markers += h.vp_markers as u32;
        }
        let mb = part.redeemed[Guild::MasterBuilders.index()] as u32;
        if markers > VP_MARKERS as u32 || 2 * markers > mb {
            return Err(bad(format!(
                "{markers} VP markers taken: the game has {VP_MARKERS}, each for 2 Master \
                 Builders redeemed ({mb} redeemed)"
            )));
        }
        state.markers_left = VP_MARKERS - markers as u8;
        state.redeemed = part.redeemed;
        if self.in_setup() && (state.supply != set || markers > 0) {
            return Err(bad("no favor tokens are earned or used during the set-up"));
        }
        for &[a, b] in &part.connected {
            if a == b || a >= self.n || b >= self.n {
                return Err(bad(format!(
                    "connected pair [{a}, {b}]: two different seats of the game"
                )));
            }
            state.connected |= FrenemiesState::pair_bit(a, b);
        }
        // This turn's limits and the gift in progress.
        let others = SeatSet(part.gift_rejected.0 | part.gift_asked.0);
        if others.iter().any(|s| s >= self.n) {
            return Err(bad("gift answers name a seat the game does not have"));
        }
        if part.traders_used > super::favors::TRADERS_PER_TURN
            || (part.traders_used > 0 && part.token_use != TokenUse::Redeemed)
        {
            return Err(bad(
                "the Traders' favor at most twice a turn, and only as a redemption",
            ));
        }
        let gift_phase = self.phase == Phase::Frenemies(FrenemiesPhase::GiftOffered);
        if gift_phase != part.gift.is_some() {
            return Err(bad(
                "a gift waits for its answer exactly in the phase `gift_offered`",
            ));
        }
        if let Some(gift) = part.gift {
            if gift.from != self.current
                || gift.to >= self.n
                || gift.to == gift.from
                || self.players[gift.from as usize].hand[gift.resource] == 0
                || self.paired.is_some()
            {
                return Err(bad(
                    "a gift goes from the current player, who holds the card, to another seat",
                ));
            }
        }
        if self.phase == Phase::Frenemies(FrenemiesPhase::ReturnToken)
            && part.token_use != TokenUse::Exchanged
        {
            return Err(bad("a token is returned only after an exchange"));
        }
        state.used = part.token_use;
        state.traders_used = part.traders_used;
        state.gift_accepted = part.gift_accepted;
        state.gift_rejected = part.gift_rejected;
        state.gift_asked = part.gift_asked;
        state.gift = part.gift;
        debug_assert!(n <= MAX_SEATS);
        Ok(state)
    }
}
