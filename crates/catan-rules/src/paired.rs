//! Paired Players, the 5–6 extension's newer alternative to the Special Building Phase
//! (`five-six.md`, "Paired players"; room option `five_six_turns: "paired"`).
//!
//! Player 2 is the third seat to the left of player 1 (the seat three places on in turn
//! order). Player 1 takes a normal turn. When they end it, player 2's part of the same
//! turn begins: player 2 becomes the current player, in the trade-and-build phase, and may
//! build, buy, trade with the bank and play one development card (a Knight moves the
//! robber as usual; there is no roll in the part), and use a helper; they may not trade
//! with other players (no offers; no Frenemies gifts). When player 2 ends the part, play
//! passes one seat to the left of player 1.
//!
//! The decisions the spec leaves open (each pinned by a test in `tests/paired.rs` and
//! listed in `docs/rules.md`):
//! - The part belongs to player 1's turn: same turn number, same dice. For the limits
//!   "once per turn" it is player 2's own turn: one development card in the part (whatever
//!   player 1 played), a helper once, favor tokens redeemed or exchanged afresh. It does
//!   not use up player 2's card, helper or favors of their own next turn.
//! - "Not in the turn it was bought / received" counts the turn: a card bought in the part
//!   is not playable in it; a helper or favor token received earlier in the same turn
//!   (say, a helper exchanged after Hilda on player 1's roll) is not usable in the part.
//! - Player 2 wins the moment they have the target during the part, including at its start
//!   with points gained during player 1's part. Player 1 cannot win during player 2's part
//!   (points they gain then count at the start of their next turn or part).
//! - `five_six_turns: "paired"` needs 5 or 6 players and replaces the Special Building
//!   Phase (`special_building: true` with it is refused).

use crate::action::Seat;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use serde::{Deserialize, Serialize};

/// Player 2's part of a paired turn, as views show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PairedPart {
    /// Whose turn it is (they took the normal part of it).
    pub player_1: Seat,
    /// Who acts now (the view's `current`).
    pub player_2: Seat,
}

impl Game {
    /// Player 2 of `seat`'s turn under Paired Players: the third seat to its left.
    pub fn paired_partner(&self, seat: Seat) -> Seat {
        (seat + 3) % self.n
    }

    /// Player 2's part of a paired turn, while it runs.
    pub fn paired_part(&self) -> Option<PairedPart> {
        self.paired.map(|player_1| PairedPart {
            player_1,
            player_2: self.current,
        })
    }

    /// Player 1 has ended their part: player 2's part of the same turn begins. Player 2
    /// becomes the current player in the trade-and-build phase, with the dice as rolled and
    /// their own one development card to play.
    pub(crate) fn start_paired_part(&mut self, player_1: Seat, out: &mut Vec<Event>) {
        let player_2 = self.paired_partner(player_1);
        self.paired = Some(player_1);
        self.current = player_2;
        self.dev_played = false;
        self.offer = None;
        out.push(Event::PairedTurn {
            seat: player_2,
            partner: player_1,
        });
        self.hook_paired_part_started(player_2, out);
    }

    /// Dealings with other players (trade offers, gifts) are not part of player 2's part.
    pub(crate) fn refuse_in_paired_part(&self, action: &'static str) -> Result<(), RuleError> {
        if self.paired.is_some() {
            return Err(RuleError::phase(action, PAIRED_NO_DEALINGS));
        }
        Ok(())
    }
}

/// Why player 2 may not trade with the others during their part.
pub(crate) const PAIRED_NO_DEALINGS: &str =
    "player 2 of a paired turn may trade only with the bank, not with other players";
