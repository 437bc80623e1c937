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
//!
//! ## Positions
//!
//! To test a bot or analyse a situation, set a game up in a given [`Position`] (plain
//! serde data: pieces, hands, bank, deck, robber, titles, knights, phase, scenario state)
//! with [`Game::from_position`], and read any game's position back with
//! [`Game::position`]. Impossible positions are refused with a [`PositionError`] that
//! says why. See [`position`] for the details.
//!
//! ```
//! use catan_rules::{Action, Game, GameConfig, Phase, PlacedBuilding, PlacedRoad, PlayerPosition, Position, ResourceSet};
//! // Seat 0 has a settlement on corner 0 with a road to corner 3, and a road's cards.
//! let position = Position {
//!     buildings: vec![PlacedBuilding { corner: 0, seat: 0, city: false }],
//!     roads: vec![PlacedRoad { edge: 0, seat: 0 }],
//!     players: vec![
//!         PlayerPosition { hand: ResourceSet::ROAD, ..PlayerPosition::default() },
//!         PlayerPosition::default(),
//!         PlayerPosition::default(),
//!     ],
//!     phase: Phase::Main,
//!     dice: Some([3, 5]),
//!     turn: 4,
//!     ..Position::default()
//! };
//! let mut game = Game::from_position(GameConfig::with_players(3), &position, 7).unwrap();
//! assert!(game.legal_actions(0).actions.contains(&Action::BuildRoad { edge: 6 }));
//! game.apply(0, Action::BuildRoad { edge: 6 }).unwrap();
//! assert_eq!(game.player(0).road_len, 2);
//! ```

// Seats, corners and edges index several parallel fixed arrays at once; index loops
// read better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod action;
pub mod barbarians;
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
pub mod position;
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
pub use position::{BoardPosition, PlacedBuilding, PlacedRoad, PlayerPosition, Position, PositionError};
pub use resources::{Resource, ResourceSet};
pub use rng::Rng;
pub use scenario::ScenarioState;
pub use view::{redact, SeatParts, View, Viewer};
