//! `catan-rules`: the pure rules kernel of the Catan server.
//!
//! No async, no IO, no clock, no global RNG: a [`Game`] is a value, every random draw
//! comes from its own seeded [`Rng`], and seed + action log replays a game bit for bit.
//!
//! ```
//! use catan_rules::{Game, GameConfig, Viewer};
//! let mut game = Game::new(GameConfig::default(), 42).unwrap();
//! let seat = game.next_actor().unwrap();
//! let legal = game.legal_actions(seat);
//! let events = game.apply(seat, legal.actions[0]).unwrap();
//! assert!(!events.is_empty());
//! let _json = serde_json::to_string(&game.view(Viewer::Spectator)).unwrap();
//! ```

// Seats, corners and edges index several parallel fixed arrays at once; index loops
// read better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod action;
pub mod board;
mod build;
pub mod config;
mod dev_cards;
pub mod error;
pub mod event;
pub mod frenemies;
pub mod game;
pub mod helpers;
mod invariants;
mod legal;
mod longest_road;
pub mod paired;
pub mod per_seat;
mod production;
pub mod resources;
pub mod rng;
pub mod scenario;
pub mod titles;
mod trade;
pub mod view;

#[cfg(test)]
mod tests;

/// The rules version recorded with every stored game (replays are exact for the same
/// version).
pub const RULES_VERSION: &str = env!("CARGO_PKG_VERSION");

pub use action::{Action, DevCard, LegalActions, Requirement, Seat, SeatSet};
pub use board::{Board, HarborKind, Layout, Terrain, TokenPlacement, Topology};
pub use config::{ConfigError, FiveSixTurns, GameConfig, Scenario, MAX_SEATS};
pub use error::RuleError;
pub use event::Event;
pub use game::{Game, Phase, Player, ReplayError, Response, TradeOffer};
pub use helpers::{Helper, HelpersAction, HelpersEvent, HelpersPhase, Pending};
pub use paired::PairedPart;
pub use per_seat::PerSeat;
pub use resources::{Resource, ResourceSet};
pub use rng::Rng;
pub use scenario::ScenarioState;
pub use view::{redact, View, Viewer};
