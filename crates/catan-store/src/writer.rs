//! The writer task: finished games go in through a never-blocking handle and are written
//! in the background, retried with capped exponential back-off while the database is
//! unavailable, and flushed on shutdown.
//!
//! The queue is bounded ([`WriterConfig::queue`]): during a long outage memory does not
//! grow without limit; a game that finds the queue full is refused at once
//! ([`SubmitError::Full`]) and its caller logs it in full. An outage is logged once when it
//! begins and once when it ends (each retry only at debug level), so a database that is
//! down for an hour does not fill the log.

use crate::model::FinishedGame;
use crate::store::{SaveOutcome, Store};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Timing of the writer task.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Wait before the first retry of a failed write; doubles on each failure…
    pub initial_backoff: Duration,
    /// …up to this.
    pub max_backoff: Duration,
    /// On shutdown, how long pending writes keep being retried before the writer gives
    /// up on them (each abandoned game is logged in full, as JSON, at error level).
    pub shutdown_grace: Duration,
    /// A write not finished within this time (a network hang mid-transaction can otherwise
    /// block for the kernel's retransmission timeout, many minutes) is abandoned, its
    /// connection dropped (the database rolls the transaction back), and retried like any
    /// failed write. Saving is idempotent, so a write that did commit is not duplicated.
    pub write_timeout: Duration,
    /// Games waiting to be written at most; more are refused ([`SubmitError::Full`]).
    pub queue: usize,
}

impl Default for WriterConfig {
    fn default() -> Self {
        WriterConfig {
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(30),
            write_timeout: Duration::from_secs(20),
            queue: 4096,
        }
    }
}

/// Counters of a writer, for health endpoints and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Games accepted by [`StoreHandle::submit`].
    pub submitted: u64,
    /// Games written (or found already stored).
    pub saved: u64,
    /// Write attempts that failed and were retried.
    pub failed_attempts: u64,
    /// Games given up on: rejected by the database, or still failing at the end of the
    /// shutdown grace period.
    pub dropped: u64,
    /// Games refused by [`StoreHandle::submit`] because the queue was full.
    pub refused: u64,
    /// Times the database became unavailable (each logged once, as is its recovery).
    pub outages: u64,
}

impl WriterStats {
    /// Games submitted and neither saved nor dropped yet.
    pub fn pending(&self) -> u64 {
        self.submitted.saturating_sub(self.saved + self.dropped)
    }
}

#[derive(Debug, Default)]
struct Counters {
    submitted: AtomicU64,
    saved: AtomicU64,
    failed_attempts: AtomicU64,
    dropped: AtomicU64,
    refused: AtomicU64,
    outages: AtomicU64,
}

impl Counters {
    fn snapshot(&self) -> WriterStats {
        // `saved`/`dropped` before `submitted` so `pending()` never underflows.
        let saved = self.saved.load(Ordering::SeqCst);
        let dropped = self.dropped.load(Ordering::SeqCst);
        let failed_attempts = self.failed_attempts.load(Ordering::SeqCst);
        let submitted = self.submitted.load(Ordering::SeqCst);
        WriterStats {
            submitted,
            saved,
            failed_attempts,
            dropped,
            refused: self.refused.load(Ordering::SeqCst),
            outages: self.outages.load(Ordering::SeqCst),
        }
    }
}

enum Msg {
    Save(Box<FinishedGame>),
    Flush(oneshot::Sender<()>),
}

/// Why [`StoreHandle::submit`] refused a game; the game comes back, for the caller to log.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The queue holds [`WriterConfig::queue`] games already (the database has been
    /// unavailable for a long time, or is slower than games finish).
    #[error("the games writer's queue is full")]
    Full(Box<FinishedGame>),
    /// The writer has shut down.
    #[error("the games writer has stopped")]
    Stopped(Box<FinishedGame>),
}

impl SubmitError {
    /// The game that was not queued.
    pub fn game(&self) -> &FinishedGame {
        match self {
            SubmitError::Full(g) | SubmitError::Stopped(g) => g,
        }
    }
}

/// Cheap, cloneable handle for submitting finished games (give one to each room).
#[derive(Clone, Debug)]
pub struct StoreHandle {
    tx: mpsc::Sender<Msg>,
    counters: Arc<Counters>,
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Msg::Save(g) => write!(f, "Save({})", g.id),
            Msg::Flush(_) => f.write_str("Flush"),
        }
    }
}

impl StoreHandle {
    /// Queues a finished game for writing. Never blocks and never waits on the
    /// database; fails (giving the game back) when the queue is full or the writer has
    /// shut down.
    pub fn submit(&self, game: FinishedGame) -> Result<(), SubmitError> {
        self.counters.submitted.fetch_add(1, Ordering::SeqCst);
        let (msg, full) = match self.tx.try_send(Msg::Save(Box::new(game))) {
            Ok(()) => return Ok(()),
            Err(mpsc::error::TrySendError::Full(msg)) => (msg, true),
            Err(mpsc::error::TrySendError::Closed(msg)) => (msg, false),
        };
        self.counters.submitted.fetch_sub(1, Ordering::SeqCst);
        let Msg::Save(game) = msg else {
            unreachable!("sent a Save")
        };
        if full {
            self.counters.refused.fetch_add(1, Ordering::SeqCst);
            Err(SubmitError::Full(game))
        } else {
            Err(SubmitError::Stopped(game))
        }
    }

    /// Waits until every game submitted before this call is written (or given up on).
    /// Returns `false` if the writer has already shut down.
    pub async fn flush(&self) -> bool {
        let (ack, done) = oneshot::channel();
        if self.tx.send(Msg::Flush(ack)).await.is_err() {
            return false;
        }
        done.await.is_ok()
    }

    pub fn stats(&self) -> WriterStats {
        self.counters.snapshot()
    }
}

/// The running writer task. Call [`Writer::shutdown`] before exiting.
#[derive(Debug)]
pub struct Writer {
    handle: StoreHandle,
    shutdown: watch::Sender<bool>,
    join: JoinHandle<()>,
}

/// Starts the writer task on the current tokio runtime.
pub fn spawn_writer(store: Store, config: WriterConfig) -> Writer {
    let (tx, rx) = mpsc::channel(config.queue.max(1));
    let (shutdown, shutdown_rx) = watch::channel(false);
    let counters = Arc::new(Counters::default());
    let task = Task {
        store,
        config,
        rx,
        shutdown_rx,
        deadline: None,
        down: false,
        counters: counters.clone(),
    };
    let join = tokio::spawn(task.run());
    Writer {
        handle: StoreHandle { tx, counters },
        shutdown,
        join,
    }
}

impl Writer {
    pub fn handle(&self) -> StoreHandle {
        self.handle.clone()
    }

    pub fn stats(&self) -> WriterStats {
        self.handle.stats()
    }

    /// Stops accepting games, writes every game already queued (retrying for at most
    /// [`WriterConfig::shutdown_grace`]) and returns the final counters.
    pub async fn shutdown(self) -> WriterStats {
        let _ = self.shutdown.send(true);
        if let Err(e) = self.join.await {
            tracing::error!(error = %e, "games writer task failed");
        }
        self.handle.stats()
    }
}

struct Task {
    store: Store,
    config: WriterConfig,
    rx: mpsc::Receiver<Msg>,
    shutdown_rx: watch::Receiver<bool>,
    /// Set once shutting down: retries stop at this instant.
    deadline: Option<Instant>,
    /// The last write failed with a transient error (logged once; cleared, and logged,
    /// by the next success).
    down: bool,
    counters: Arc<Counters>,
}

impl Task {
    async fn run(mut self) {
        loop {
            if self.deadline.is_none() {
                tokio::select! {
                    biased;
                    msg = self.rx.recv() => match msg {
                        Some(msg) => self.handle(msg).await,
                        None => break,
                    },
                    _ = self.shutdown_rx.changed() => self.begin_shutdown(),
                }
            } else {
                match self.rx.try_recv() {
                    Ok(msg) => self.handle(msg).await,
                    Err(_) => break,
                }
            }
        }
        let stats = self.counters.snapshot();
        tracing::info!(
            saved = stats.saved,
            dropped = stats.dropped,
            "games writer stopped"
        );
    }

    /// Called when the [`Writer`] asks to stop (or is dropped): no new games, and a
    /// deadline for the ones queued.
    fn begin_shutdown(&mut self) {
        if self.deadline.is_none() {
            self.rx.close();
            self.deadline = Some(Instant::now() + self.config.shutdown_grace);
            tracing::info!(
                pending = self.counters.snapshot().pending(),
                "games writer flushing before shutdown"
            );
        }
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Save(game) => self.write(&game).await,
            Msg::Flush(ack) => {
                let _ = ack.send(());
            }
        }
    }

    async fn write(&mut self, game: &FinishedGame) {
        let mut backoff = self.config.initial_backoff;
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let limit = self.config.write_timeout;
            let save = async {
                tokio::time::timeout(limit, self.store.save(game))
                    .await
                    .unwrap_or(Err(crate::StoreError::TimedOut(limit)))
            };
            let result = match self.deadline {
                None => save.await,
                Some(deadline) => match tokio::time::timeout_at(deadline, save).await {
                    Ok(result) => result,
                    Err(_) => return self.give_up(game, "the shutdown grace period ended"),
                },
            };
            match result {
                Ok(outcome) => {
                    self.counters.saved.fetch_add(1, Ordering::SeqCst);
                    if std::mem::take(&mut self.down) {
                        tracing::info!(
                            failed_attempts = self.counters.failed_attempts.load(Ordering::SeqCst),
                            "games writer: the database is reachable again; writes resumed"
                        );
                    }
                    if outcome == SaveOutcome::AlreadyStored {
                        tracing::info!(game = %game.id, "finished game was already stored");
                    } else if attempt > 1 {
                        tracing::info!(game = %game.id, attempt, "finished game stored after retrying");
                    } else {
                        tracing::debug!(game = %game.id, code = %game.code, "finished game stored");
                    }
                    return;
                }
                Err(e) if !e.is_transient() => {
                    return self.give_up(game, &format!("the database refused it: {e}"));
                }
                Err(e) => {
                    self.counters.failed_attempts.fetch_add(1, Ordering::SeqCst);
                    if self.down {
                        tracing::debug!(
                            game = %game.id,
                            attempt,
                            retry_in_ms = backoff.as_millis() as u64,
                            error = %e,
                            "saving a finished game failed again; will retry"
                        );
                    } else {
                        self.down = true;
                        self.counters.outages.fetch_add(1, Ordering::SeqCst);
                        tracing::warn!(
                            game = %game.id,
                            error = %e,
                            "games writer: the database is unavailable; finished games are queued and retried"
                        );
                    }
                    match self.deadline {
                        Some(deadline) => {
                            if Instant::now() + backoff >= deadline {
                                return self.give_up(game, "the shutdown grace period ended");
                            }
                            tokio::time::sleep(backoff).await;
                        }
                        None => {
                            tokio::select! {
                                _ = tokio::time::sleep(backoff) => {}
                                _ = self.shutdown_rx.changed() => self.begin_shutdown(),
                            }
                        }
                    }
                    backoff = (backoff * 2).min(self.config.max_backoff);
                }
            }
        }
    }

    fn give_up(&self, game: &FinishedGame, why: &str) {
        self.counters.dropped.fetch_add(1, Ordering::SeqCst);
        let record = serde_json::to_string(game).unwrap_or_default();
        tracing::error!(game = %game.id, code = %game.code, %record, "finished game NOT stored: {why}");
    }
}
