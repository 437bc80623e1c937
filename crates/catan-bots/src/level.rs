//! Bot levels and the one constructor both the server's rooms and `catan-sim` use.

use crate::{HeuristicBot, RandomBot};
use catan_rules::{Action, Game, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How a bot plays. On the wire (room option `bot_level`): `"heuristic"` or `"random"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Values positions and plans its builds, trades and robber moves.
    #[default]
    Heuristic,
    /// Uniform among the legal actions.
    Random,
}

impl BotLevel {
    pub const ALL: [BotLevel; 2] = [BotLevel::Heuristic, BotLevel::Random];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Heuristic => "heuristic",
            BotLevel::Random => "random",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BotLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown bot level {s:?} (heuristic, random)"))
    }
}

/// A bot of some level. One bot may play any number of seats of a game (it keeps what it
/// remembers per seat).
#[derive(Clone, Debug)]
pub enum Bot {
    Heuristic(HeuristicBot),
    Random(RandomBot),
}

impl Bot {
    /// A bot of `level` with its own RNG seeded by `seed` (never the game's).
    pub fn new(level: BotLevel, seed: u64) -> Bot {
        match level {
            BotLevel::Heuristic => Bot::Heuristic(HeuristicBot::new(seed)),
            BotLevel::Random => Bot::Random(RandomBot::new(seed)),
        }
    }

    /// Whether a random bot may propose and counter domestic trades (it always answers
    /// offers; a heuristic bot trades whenever a trade helps it, so this leaves it as is).
    pub fn with_trades(self, trades: bool) -> Bot {
        match self {
            Bot::Random(b) => Bot::Random(b.with_trades(trades)),
            b => b,
        }
    }

    pub fn level(&self) -> BotLevel {
        match self {
            Bot::Heuristic(_) => BotLevel::Heuristic,
            Bot::Random(_) => BotLevel::Random,
        }
    }

    /// Chooses an action for `seat`, or `None` if it has nothing to do now.
    pub fn choose(&mut self, game: &Game, seat: Seat) -> Option<Action> {
        match self {
            Bot::Heuristic(b) => b.choose(game, seat),
            Bot::Random(b) => b.choose(game, seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_print() {
        for l in BotLevel::ALL {
            assert_eq!(l.name().parse::<BotLevel>().unwrap(), l);
            assert_eq!(serde_json::to_string(&l).unwrap(), format!("\"{l}\""));
        }
        assert!("clever".parse::<BotLevel>().is_err());
        assert_eq!(BotLevel::default(), BotLevel::Heuristic);
    }
}
