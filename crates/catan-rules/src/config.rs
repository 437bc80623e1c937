//! Game configuration: everything fixed before the first action.

use crate::board::{Layout, TokenPlacement};
use crate::resources::ResourceSet;
use serde::{Deserialize, Serialize};

pub const MIN_PLAYERS: u8 = 3;
pub const MAX_SEATS: usize = 6;

/// Options of one game. Every field has a default; `GameConfig::default()` is a
/// 4-player base game to 10 points on a spiral board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    /// 3–6 seats (5–6 use the extension's larger island).
    pub players: u8,
    /// Victory point target, reached during the player's own turn.
    pub victory_points: u8,
    /// How number tokens are laid out.
    pub tokens: TokenPlacement,
    /// The island; `None` picks the base island for 3–4 players, the 5–6 island otherwise.
    pub layout: Option<Layout>,
    /// Special Building Phase after every turn; `None` means on for 5–6 players (unless
    /// `five_six_turns` is `paired`).
    pub special_building: Option<bool>,
    /// 5–6 players: the Special Building Phase (the default) or its newer alternative,
    /// Paired Players (`five-six.md`). `None`: as `special_building` says.
    pub five_six_turns: Option<FiveSixTurns>,
    /// A scenario played on top of the base rules.
    pub scenario: Option<Scenario>,
    /// The Helpers: put every helper not in the starting stack into the display.
    pub all_helpers: bool,
}

/// How a 5–6 player game lets the others act between turns (`five-six.md`): the two
/// official rules are alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FiveSixTurns {
    /// After each turn every other player, in seat order, may build and buy.
    SpecialBuilding,
    /// Paired Players: after player 1's turn, player 2 (the third seat to their left)
    /// may build, buy, trade with the bank and play one development card.
    Paired,
}

/// Scenarios that plug into the engine at its hook points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Scenario {
    /// CATAN – The Helpers (`helpers.md`).
    Helpers,
    /// Catan Frenemies (`frenemies.md`): favor tokens and the five guilds.
    Frenemies,
    /// Barbarian Invasion (`barbarians.md`): castle, barbarians, knights, gold; 3–4
    /// players, 12 VP.
    Barbarians,
}

impl Scenario {
    /// The victory point target when none is given (Frenemies plays to 11).
    pub fn default_victory_points(scenario: Option<Scenario>) -> u8 {
        match scenario {
            Some(Scenario::Frenemies) => 11,
            Some(Scenario::Barbarians) => 12,
            _ => 10,
        }
    }
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            players: 4,
            victory_points: 10,
            tokens: TokenPlacement::Spiral,
            layout: None,
            special_building: None,
            five_six_turns: None,
            scenario: None,
            all_helpers: false,
        }
    }
}

/// Why a configuration cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("invalid game configuration: {0}")]
pub struct ConfigError(pub String);

impl GameConfig {
    pub fn with_players(players: u8) -> Self {
        GameConfig {
            players,
            ..Self::default()
        }
    }

    /// `players` seats playing `scenario` to its default target.
    pub fn with_scenario(players: u8, scenario: Option<Scenario>) -> Self {
        GameConfig {
            players,
            scenario,
            victory_points: Scenario::default_victory_points(scenario),
            ..Self::default()
        }
    }

    pub fn layout(&self) -> Layout {
        self.layout.unwrap_or(if self.players <= 4 {
            Layout::Base
        } else {
            Layout::FiveSix
        })
    }

    /// The Special Building Phase is played: as `special_building` says (on for 5–6 by
    /// default), or as `five_six_turns` chooses (Paired Players replaces it).
    pub fn special_building(&self) -> bool {
        match self.five_six_turns {
            Some(FiveSixTurns::SpecialBuilding) => true,
            Some(FiveSixTurns::Paired) => false,
            None => self.special_building.unwrap_or(self.players >= 5),
        }
    }

    /// Paired Players is played (5–6 players, `five_six_turns: "paired"`).
    pub fn paired_players(&self) -> bool {
        self.five_six_turns == Some(FiveSixTurns::Paired)
    }

    /// Resource cards of each kind in the bank at the start.
    pub fn bank(&self) -> ResourceSet {
        match self.layout() {
            Layout::Base => ResourceSet::splat(19),
            Layout::FiveSix => ResourceSet::splat(24),
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let layout = self.layout();
        // Error messages name the island as players know it, never a Rust identifier.
        let (max, island) = match layout {
            Layout::Base => (4, "base (3–4 player)"),
            Layout::FiveSix => (6, "5–6 player"),
        };
        if self.players < MIN_PLAYERS || self.players > max {
            return Err(ConfigError(format!(
                "{} players cannot play on the {island} island (3 to {max})",
                self.players
            )));
        }
        if !(3..=30).contains(&self.victory_points) {
            return Err(ConfigError(format!(
                "victory_points must be between 3 and 30, not {}",
                self.victory_points
            )));
        }
        if self.all_helpers && self.scenario != Some(Scenario::Helpers) {
            return Err(ConfigError("all_helpers needs scenario \"helpers\"".into()));
        }
        match (self.five_six_turns, self.special_building) {
            (Some(FiveSixTurns::Paired), _) if self.players < 5 => {
                return Err(ConfigError(format!(
                    "five_six_turns \"paired\" needs 5 or 6 players, not {}",
                    self.players
                )))
            }
            (Some(FiveSixTurns::Paired), Some(true)) => {
                return Err(ConfigError(
                    "five_six_turns \"paired\" replaces the Special Building Phase: \
                     special_building cannot be true as well"
                        .into(),
                ))
            }
            (Some(FiveSixTurns::SpecialBuilding), Some(false)) => {
                return Err(ConfigError(
                    "five_six_turns \"special_building\" contradicts special_building false".into(),
                ))
            }
            _ => {}
        }
        if self.scenario == Some(Scenario::Barbarians) {
            if layout != Layout::Base {
                return Err(ConfigError(format!(
                    "Barbarian Invasion is for 3 or 4 players on the base island, not {}",
                    self.players
                )));
            }
            if self.tokens != TokenPlacement::Spiral || self.special_building == Some(true) {
                return Err(ConfigError(
                    "Barbarian Invasion lays out its own tokens and has no Special Building Phase".into(),
                ));
            }
        }
        if self.tokens == TokenPlacement::Beginner && layout != Layout::Base {
            return Err(ConfigError(
                "the beginner board exists only for the base island".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod error_text_tests {
    use super::*;

    /// Refusals name the island in words, not by the enum's Rust name.
    #[test]
    fn island_errors_use_players_words() {
        let e = GameConfig {
            players: 5,
            layout: Some(Layout::Base),
            ..GameConfig::default()
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("base (3–4 player) island"), "{e}");
        let e = GameConfig {
            players: 7,
            ..GameConfig::default()
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("5–6 player island") && !e.contains("FiveSix"), "{e}");
    }
}
