//! The records the store writes and reads.

use catan_rules::{Action, Game, GameConfig, RuleError, Scenario, Seat, View, Viewer};
use serde::{Deserialize, Serialize};

/// How a stored game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Someone reached the victory point target.
    Finished,
    /// The room closed before anyone won.
    Abandoned,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
        }
    }

    pub fn parse(s: &str) -> Option<GameStatus> {
        match s {
            "finished" => Some(GameStatus::Finished),
            "abandoned" => Some(GameStatus::Abandoned),
            _ => None,
        }
    }
}

/// Who sat in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Human,
    Bot,
}

impl PlayerKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Bot => "bot",
        }
    }

    pub fn parse(s: &str) -> Option<PlayerKind> {
        match s {
            "human" => Some(PlayerKind::Human),
            "bot" => Some(PlayerKind::Bot),
            _ => None,
        }
    }
}

/// One seat of a stored game and how it ended for that seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayerRecord {
    pub seat: Seat,
    pub name: String,
    pub kind: PlayerKind,
    /// Victory points at the end, hidden ones included.
    pub final_vp: u8,
    pub won: bool,
}

/// One entry of the action log: the `index`-th action applied, by `seat`, at `at_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ActionRecord {
    pub index: u32,
    pub seat: Seat,
    pub action: Action,
    /// Unix time in milliseconds.
    pub at_ms: i64,
}

/// A game handed to the store when it ends: everything needed to list it, show its
/// result and replay it exactly (`config` + `seed` + `actions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FinishedGame {
    /// Unique id chosen by the server (a UUID, say). Saving is idempotent on it.
    pub id: String,
    /// The room's invite code.
    pub code: String,
    pub config: GameConfig,
    #[serde(with = "catan_rules::rng::seed_string")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub seed: u64,
    /// Version of the rules that produced the log; a replay needs the same rules.
    pub rules_version: String,
    /// Unix milliseconds.
    pub created_at_ms: i64,
    pub started_at_ms: Option<i64>,
    pub finished_at_ms: i64,
    pub status: GameStatus,
    pub winner: Option<Seat>,
    pub players: Vec<PlayerRecord>,
    /// The applied actions, in order, indexed from 0.
    pub actions: Vec<ActionRecord>,
}

impl FinishedGame {
    /// Fills `status`, `winner` and each player's `final_vp` and `won` from the final
    /// state of the game.
    pub fn set_result_from(&mut self, game: &Game) {
        self.winner = game.winner();
        self.status = if game.is_over() {
            GameStatus::Finished
        } else {
            GameStatus::Abandoned
        };
        for p in &mut self.players {
            if p.seat < game.players() {
                p.final_vp = game.victory_points(p.seat);
                p.won = self.winner == Some(p.seat);
            }
        }
    }

    /// The `(seat, action)` log as [`Game::replay`] takes it.
    pub fn log(&self) -> Vec<(Seat, Action)> {
        self.actions.iter().map(|a| (a.seat, a.action)).collect()
    }

    /// Short name of the variant for listings: `base`, `5-6`, with `+helpers` etc.
    pub fn variant(&self) -> String {
        variant_name(&self.config)
    }

    /// Checks the record is self-consistent before it is written.
    pub fn validate(&self) -> Result<(), String> {
        if self.id.is_empty() {
            return Err("empty game id".into());
        }
        let n = self.config.players;
        for (i, a) in self.actions.iter().enumerate() {
            if a.index as usize != i {
                return Err(format!("action {i} has index {}", a.index));
            }
            if a.seat >= n {
                return Err(format!("action {i} by seat {} of a {n}-player game", a.seat));
            }
        }
        let mut seen = 0u32;
        for p in &self.players {
            if p.seat >= n {
                return Err(format!("player seat {} in a {n}-player game", p.seat));
            }
            if seen & (1 << p.seat) != 0 {
                return Err(format!("seat {} listed twice", p.seat));
            }
            seen |= 1 << p.seat;
        }
        if let Some(w) = self.winner {
            if w >= n {
                return Err(format!("winner seat {w} in a {n}-player game"));
            }
        }
        Ok(())
    }
}

/// Short name of a configuration's variant: `base`, `5-6`, `base+helpers`, ….
pub fn variant_name(config: &GameConfig) -> String {
    let base = match config.layout() {
        catan_rules::Layout::Base => "base",
        catan_rules::Layout::FiveSix => "5-6",
    };
    match config.scenario {
        None => base.to_string(),
        Some(Scenario::Helpers) => format!("{base}+helpers"),
        Some(Scenario::Frenemies) => format!("{base}+frenemies"),
        Some(Scenario::Barbarians) => format!("{base}+barbarians"),
    }
}

/// A stored game as listed: its result, without the configuration or the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameSummary {
    pub id: String,
    pub code: String,
    pub variant: String,
    pub player_count: u8,
    pub status: GameStatus,
    pub winner: Option<Seat>,
    pub rules_version: String,
    pub created_at_ms: i64,
    pub started_at_ms: Option<i64>,
    pub finished_at_ms: i64,
    pub action_count: u32,
    /// Ordered by seat.
    pub players: Vec<PlayerRecord>,
}

/// One page of [`Store::list`](crate::Store::list); serializes as
/// `{"games": [...], "next_before": "id" | null}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GamePage {
    /// Newest finished first.
    pub games: Vec<GameSummary>,
    /// Pass as `before` to get the next (older) page; `None` on the last page.
    pub next_before: Option<String>,
}

/// A stored game with its configuration (`GET /api/games/{id}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameDetail {
    #[serde(flatten)]
    pub summary: GameSummary,
    pub config: GameConfig,
    #[serde(with = "catan_rules::rng::seed_string")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub seed: u64,
}

/// What a replay needs (`GET /api/games/{id}/replay`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Replay {
    pub id: String,
    pub config: GameConfig,
    #[serde(with = "catan_rules::rng::seed_string")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub seed: u64,
    pub rules_version: String,
    pub actions: Vec<ActionRecord>,
}

/// Why a stored game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the game has {len} actions; cannot show it after action {at}")]
    OutOfRange { at: usize, len: usize },
    #[error("the stored log does not replay: action {index} was refused: {error}")]
    Rules { index: usize, error: RuleError },
    #[error("the stored configuration is invalid: {0}")]
    Config(catan_rules::ConfigError),
}

impl Replay {
    /// The `(seat, action)` log as [`Game::replay`] takes it.
    pub fn log(&self) -> Vec<(Seat, Action)> {
        self.actions.iter().map(|a| (a.seat, a.action)).collect()
    }

    /// The game after the first `at` actions (`None`: all of them). `at = 0` is the game
    /// before any action.
    pub fn game_at(&self, at: Option<usize>) -> Result<Game, ReplayError> {
        let len = self.actions.len();
        let at = at.unwrap_or(len);
        if at > len {
            return Err(ReplayError::OutOfRange { at, len });
        }
        let log = self.log();
        Game::replay(self.config, self.seed, &log[..at]).map_err(|e| match e {
            catan_rules::ReplayError::Refused { index, error } => ReplayError::Rules { index, error },
            catan_rules::ReplayError::Config(e) => ReplayError::Config(e),
        })
    }

    /// What `viewer` saw after the first `at` actions (`None`: the final state).
    pub fn view_at(&self, at: Option<usize>, viewer: Viewer) -> Result<View, ReplayError> {
        Ok(self.game_at(at)?.view(viewer))
    }
}
