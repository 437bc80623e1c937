//! `catan-store`: persistence of finished games for the Catan server.
//!
//! One code path (sqlx's `Any` driver) over two databases: Postgres in production and
//! SQLite as the embedded default, so that `cargo run` works with nothing installed.
//! The schema lives in `migrations/postgres/` and `migrations/sqlite/` at the repository
//! root; both are embedded in the binary and applied at start-up.
//!
//! A game is stored as its configuration, seed, players, result and action log, which
//! is enough to list it, show it and replay it exactly through `catan-rules`.
//!
//! # Use from the server
//!
//! ```no_run
//! # async fn demo(finished: catan_store::FinishedGame) -> Result<(), catan_store::StoreError> {
//! use catan_store::{spawn_writer, Store, WriterConfig};
//!
//! // `DATABASE_URL` (postgres://… or sqlite://…); `None` → ./catan.db, logged.
//! let url = std::env::var("DATABASE_URL").ok();
//! let store = Store::connect(url.as_deref()).await?; // runs the migrations
//! let writer = spawn_writer(store.clone(), WriterConfig::default());
//!
//! // In a room actor, when the game ends: never blocks, never waits on the database.
//! let handle = writer.handle();
//! let _ = handle.submit(finished);
//!
//! // HTTP handlers read through the store directly.
//! let page = store.list(20, None).await?; // GET /api/games?limit=20  → {"games": [...], "next_before": …}
//! if let Some(next) = &page.next_before {
//!     store.list(20, Some(next)).await?; // GET /api/games?limit=20&before={next}
//! }
//! let _detail = store.get("some-id").await?; // GET /api/games/{id}
//! let _replay = store.replay("some-id").await?; // GET /api/games/{id}/replay
//! let _view = store.view_at("some-id", Some(42), catan_rules::Viewer::Spectator).await?; // ?at=42
//!
//! // On shutdown: every queued game is written (retried for up to the grace period).
//! writer.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! # API
//!
//! - [`Store::connect`] / [`Store::connect_with`]: connect and migrate;
//!   [`Store::connect_lazy_with`]: connect and migrate on first use.
//! - [`Store::save`]: one transaction, idempotent on the game id ([`SaveOutcome`]).
//! - [`Store::list`] (newest finished first, keyset-paged by game id),
//!   [`Store::get`], [`Store::replay`], [`Store::view_at`], [`Store::count`].
//! - [`spawn_writer`] → [`Writer`] (owns the task: [`Writer::shutdown`]) and
//!   [`StoreHandle`] (cloneable: [`StoreHandle::submit`], [`StoreHandle::flush`],
//!   [`StoreHandle::stats`]). Failed writes that may succeed later
//!   ([`StoreError::is_transient`]) are retried with exponential back-off capped at
//!   [`WriterConfig::max_backoff`]; an outage is logged once when it begins and once when
//!   it ends. The queue is bounded ([`WriterConfig::queue`], [`SubmitError::Full`]).
//! - The journal of live games: [`spawn_journal`] → [`Journal`] and [`JournalHandle`]
//!   (bounded queue of [`JournalOp`]s, batched into one transaction, acknowledged per game
//!   through [`Durable`]); [`Store::live_games`] reads it back on start-up.
//! - [`Replay::game_at`] / [`Replay::view_at`]: the state after the first `k` actions.
//!
//! Times are unix milliseconds; the `u64` seed is stored bit-cast to `i64`; the
//! configuration and each action are stored as JSON text.

mod journal;
mod model;
mod store;
mod writer;

pub use journal::{
    hash_token, spawn_journal, CommitObserver, Durable, Journal, JournalBusy, JournalConfig, JournalHandle,
    JournalOp, JournalSlot, JournalStats, LiveGame, LiveSeat, ResumedGame,
};

pub use model::{
    variant_name, ActionRecord, FinishedGame, GameDetail, GamePage, GameStatus, GameSummary, PlayerKind,
    PlayerRecord, Replay, ReplayError,
};
pub use store::{
    redact_url, resolve_url, Backend, Result, SaveOutcome, Store, StoreError, StoreOptions,
    DEFAULT_DATABASE_URL, MAX_PAGE, WAL_AUTOCHECKPOINT_PAGES,
};
pub use writer::{spawn_writer, StoreHandle, SubmitError, Writer, WriterConfig, WriterStats};
