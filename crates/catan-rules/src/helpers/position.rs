//! The Helpers' part of a [`crate::Position`]: who holds which helper and how, the display,
//! the tiles out of the game, the starting stack and a pending decision.

use super::{helpers_in, Helper, HelpersPhase, HelpersState, Pending, NEVER};
use crate::action::DevCard;
use crate::config::MAX_SEATS;
use crate::game::{snake_seat, Game, Phase};
use crate::position::PositionError;
use serde::{Deserialize, Serialize};

/// One seat's helper tile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HeldPosition {
    /// `None` only during the set-up, before the seat takes its helper.
    pub helper: Option<Helper>,
    /// The moon side is up (must be exchanged after its next use).
    pub moon: bool,
    /// Received this turn: not usable until a later turn.
    pub fresh: bool,
    /// The seat used its helper this turn.
    pub used: bool,
}

/// The Helpers' part of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HelpersPosition {
    /// One entry per seat.
    pub held: Vec<HeldPosition>,
    pub display: Vec<Helper>,
    /// `None`: every helper neither held, displayed nor in the stack.
    pub out_of_game: Option<Vec<Helper>>,
    /// The starting stack, bottom first (empty after the set-up).
    pub stack: Vec<Helper>,
    /// A follow-up decision the game waits for (the phase is then `helper_decision`).
    pub pending: Pending,
    /// Diara: the cards the user looks at, with a `diara_keep` decision pending.
    pub looked_at: Vec<DevCard>,
    /// The phase a pending decision returns to.
    pub resume: Option<Phase>,
}

impl Default for HelpersPosition {
    fn default() -> Self {
        HelpersPosition {
            held: Vec::new(),
            display: Vec::new(),
            out_of_game: None,
            stack: Vec::new(),
            pending: Pending::None,
            looked_at: Vec::new(),
            resume: None,
        }
    }
}

fn bad(reason: impl Into<String>) -> PositionError {
    PositionError::Scenario {
        scenario: "helpers",
        reason: reason.into(),
    }
}

impl Game {
    /// The scenario's part of [`Game::position`].
    pub(crate) fn helpers_position(&self, h: &HelpersState) -> HelpersPosition {
        let looked_at = match h.pending {
            Pending::DiaraKeep { cards, count, .. } => cards[..count as usize].to_vec(),
            _ => Vec::new(),
        };
        HelpersPosition {
            held: (0..self.n as usize)
                .map(|s| HeldPosition {
                    helper: h.held[s],
                    moon: h.moon[s],
                    fresh: h.received_turn[s] == self.turn,
                    used: h.used_turn[s] == self.turn,
                })
                .collect(),
            display: helpers_in(h.display).collect(),
            out_of_game: Some(helpers_in(h.out).collect()),
            stack: h.stack[..h.stack_len as usize].to_vec(),
            // Diara's cards travel in `looked_at` (the decision's JSON leaves them out).
            pending: match h.pending {
                Pending::DiaraKeep { seat, count, .. } => Pending::DiaraKeep {
                    seat,
                    cards: super::no_cards(),
                    count,
                },
                p => p,
            },
            looked_at,
            resume: (h.pending != Pending::None).then_some(h.resume),
        }
    }

    /// Validates the scenario's part of a position against the rest of the game (built
    /// from the same position) and builds the scenario state.
    pub(crate) fn helpers_from_position(
        &self,
        part: &HelpersPosition,
    ) -> Result<HelpersState, PositionError> {
        let n = self.n as usize;
        if part.held.len() != n {
            return Err(PositionError::SeatCount {
                what: "helpers.held",
                expected: self.n,
                found: part.held.len(),
            });
        }
        // Every tile in exactly one place.
        let mut seen = 0u16;
        let mut place = |x: Helper, what: &str| -> Result<(), PositionError> {
            if seen & x.bit() != 0 {
                return Err(bad(format!("{x:?} is in two places (again in {what})")));
            }
            seen |= x.bit();
            Ok(())
        };
        for hp in &part.held {
            if let Some(x) = hp.helper {
                place(x, "held")?;
            }
        }
        for &x in &part.stack {
            place(x, "the stack")?;
        }
        let mut display = 0u16;
        for &x in &part.display {
            place(x, "the display")?;
            display |= x.bit();
        }
        let out = match &part.out_of_game {
            Some(list) => {
                let mut out = 0u16;
                for &x in list {
                    place(x, "out_of_game")?;
                    out |= x.bit();
                }
                out
            }
            None => 0xfff & !seen,
        };
        seen |= out;
        if seen != 0xfff {
            let missing: Vec<Helper> = helpers_in(0xfff & !seen).collect();
            return Err(bad(format!("helpers nowhere: {missing:?}")));
        }
        // The set-up deals the starting stack in snake order; afterwards everyone holds one.
        let setup = self.in_setup();
        let took = if setup {
            (self.setup_index as usize).saturating_sub(n)
        } else {
            n
        };
        if part.stack[..] != Helper::ALL[..n - took] {
            return Err(bad(format!(
                "the starting stack holds helpers 1 to {} (bottom first) at this point of the \
                 set-up, not {:?}",
                n - took,
                part.stack
            )));
        }
        for s in 0..n {
            let expected = (n..n + took)
                .find(|&k| snake_seat(self.first, self.n, k as u8) as usize == s)
                .map(|k| Helper::ALL[n - 1 - (k - n)]);
            let hp = part.held[s];
            if setup && hp.helper != expected {
                return Err(bad(format!(
                    "in the set-up seat {s} holds {expected:?} (the stack is dealt in snake \
                     order), not {:?}",
                    hp.helper
                )));
            }
            if !setup && hp.helper.is_none() {
                return Err(bad(format!("seat {s} holds no helper after the set-up")));
            }
            if hp.helper.is_none() && (hp.moon || hp.used) {
                return Err(bad(format!("seat {s} holds no helper to turn or use")));
            }
            if setup && hp.helper.is_some() && (!hp.fresh || hp.used || hp.moon) {
                return Err(bad(format!(
                    "seat {s} received its helper in the set-up: sun side, fresh, unused"
                )));
            }
        }
        let pending = self.helpers_pending_from(part)?;
        let turn = self.turn;
        let mut state = HelpersState {
            held: [None; MAX_SEATS],
            moon: [false; MAX_SEATS],
            received_turn: [0; MAX_SEATS],
            used_turn: [NEVER; MAX_SEATS],
            stack: [Helper::Asla; MAX_SEATS],
            stack_len: part.stack.len() as u8,
            display,
            out,
            pending,
            resume: part.resume.unwrap_or(Phase::Roll),
            knights_removed: (0..n)
                .map(|s| {
                    let p = &self.players[s];
                    p.played[DevCard::Knight.index()] - p.knights
                })
                .sum(),
        };
        state.stack[..part.stack.len()].copy_from_slice(&part.stack);
        for (s, hp) in part.held.iter().enumerate() {
            state.held[s] = hp.helper;
            state.moon[s] = hp.moon;
            state.received_turn[s] = if hp.fresh { turn } else { turn.wrapping_sub(1) };
            state.used_turn[s] = if hp.used { turn } else { NEVER };
        }
        Ok(state)
    }

    /// The pending decision: its seats, its helper and what it waits on agree with the rest.
    fn helpers_pending_from(&self, part: &HelpersPosition) -> Result<Pending, PositionError> {
        let decision = self.phase == Phase::Helpers(HelpersPhase::Decision);
        let pending = part.pending;
        // A use that wins the game (Gregor's city) leaves its decision pending at the end.
        let over = matches!(self.phase, Phase::GameOver { .. });
        let waits = pending != Pending::None;
        if (!over && decision != waits) || waits != part.resume.is_some() {
            return Err(bad(
                "a pending decision, its `resume` phase and the phase `helper_decision` go together",
            ));
        }
        if !part.looked_at.is_empty() && !matches!(pending, Pending::DiaraKeep { .. }) {
            return Err(bad("cards are looked at only while Diara's keep is pending"));
        }
        let Some(seat) = pending.seat() else {
            return Ok(pending);
        };
        self.position_seat(seat, || "the pending helper decision".into())?;
        if !matches!(
            part.resume,
            Some(Phase::Roll | Phase::Main | Phase::Discard | Phase::MoveRobber)
        ) {
            return Err(bad(
                "a helper decision returns to the roll, main, discard or robber phase",
            ));
        }
        let hp = part.held[seat as usize];
        let holds = |x: Helper| hp.helper == Some(x);
        let own = seat == self.current;
        let ok = match pending {
            Pending::None => true,
            Pending::FlipOrExchange { .. } => hp.used && hp.helper.is_some(),
            Pending::AslaReturn { to, next, count, .. } => {
                own && hp.used
                    && holds(Helper::Asla)
                    && (1..=2).contains(&count)
                    && next < count
                    && to[..count as usize].iter().all(|&t| t < self.n && t != seat)
            }
            Pending::DiaraKeep { count, .. } => {
                own && hp.used
                    && holds(Helper::Diara)
                    && (1..=3).contains(&count)
                    && part.looked_at.len() == count as usize
            }
            Pending::RyanTake { target, .. } => {
                own && hp.used
                    && holds(Helper::Ryan)
                    && target < self.n
                    && target != seat
                    && self.players[target as usize].hand.total() > 0
            }
            Pending::HildaOffer { .. } => holds(Helper::Hilda) && !hp.used,
            Pending::ThorolfTake { .. } => holds(Helper::Thorolf) && hp.used,
        };
        if !ok {
            return Err(bad(format!(
                "the pending decision {pending:?} does not fit seat {seat}'s helper, its use this \
                 turn or whose turn it is"
            )));
        }
        Ok(match pending {
            Pending::DiaraKeep { seat, count, .. } => {
                let mut cards = [DevCard::Knight; 3];
                cards[..count as usize].copy_from_slice(&part.looked_at);
                Pending::DiaraKeep { seat, cards, count }
            }
            p => p,
        })
    }

    /// Development cards by kind outside the deck, the hands and the played pile: those
    /// Diara is looking at.
    pub(crate) fn helpers_cards_aside(&self, h: &HelpersState) -> [u8; 5] {
        let mut aside = [0u8; 5];
        if let Pending::DiaraKeep { cards, count, .. } = h.pending {
            for c in &cards[..count as usize] {
                aside[c.index()] += 1;
            }
        }
        aside
    }
}
