//! The journal of live games: what a restarted server needs to bring every unfinished
//! game back (room, seed, seats with token hashes, every accepted action), written by one
//! task that batches many rooms' records into one transaction.
//!
//! The rooms never wait on the database: they hand records to a bounded queue (a room
//! whose [`JournalHandle::reserve`] finds it full refuses the action, leaving its game
//! unchanged) and learn through a per-game [`Durable`] counter when their actions are
//! committed, so they can hold each update back until then: nothing a client was shown
//! is lost to a crash.

use crate::model::{ActionRecord, FinishedGame};
use crate::store::{save_in, values_rows, Store, StoreError};
use catan_rules::{GameConfig, Seat};
use serde::{Deserialize, Serialize};
use sqlx::pool::PoolConnection;
use sqlx::{Any, Row};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch, Notify};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Rows per multi-row `INSERT` of journaled actions (5 parameters each).
const APPEND_CHUNK: usize = 200;

/// Multi-row `INSERT`s of up to this many actions are prepared once per connection and
/// kept (as is one of [`APPEND_CHUNK`] rows): at a few thousand actions per second most
/// commits carry a handful of actions, and preparing the statement again for each was
/// part of every commit. Larger odd sizes are rare (a backlog) and prepared each time.
const PERSISTENT_ROWS: usize = 16;

/// One seat of a live game as the journal keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveSeat {
    pub name: String,
    pub bot: bool,
    /// SHA-256 of the seat token (see [`hash_token`]); `None` for a bot seat. The token
    /// itself is never stored.
    pub token_hash: Option<String>,
}

/// A live game as written when it starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    /// The room id; the finished game keeps it.
    pub id: String,
    pub code: String,
    /// The room's options as JSON (the server's type; the store keeps it opaque).
    pub options: String,
    pub config: GameConfig,
    pub seed: u64,
    pub rules_version: String,
    pub host: Option<Seat>,
    pub created_at_ms: i64,
    pub started_at_ms: i64,
    /// Indexed by seat.
    pub seats: Vec<LiveSeat>,
}

/// A live game read back from the journal: its start record and every action, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumedGame {
    pub game: LiveGame,
    pub actions: Vec<ActionRecord>,
}

/// Hex SHA-256 of a seat token: what the journal stores, and what a resumed room
/// compares a rejoining player's token against. Seat tokens are long random strings, so
/// an unsalted hash does not let anyone who reads the table act for a seat.
pub fn hash_token(token: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(token.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// How many of a game's actions are committed: the journal raises it after each commit
/// and wakes the room, which then releases the updates it held back.
#[derive(Debug, Default)]
pub struct Durable {
    count: AtomicU64,
    notify: Notify,
}

impl Durable {
    /// A counter starting at `count` (the actions already in the journal).
    pub fn new(count: u64) -> Arc<Durable> {
        Arc::new(Durable {
            count: AtomicU64::new(count),
            notify: Notify::new(),
        })
    }

    /// Actions committed so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Acquire)
    }

    /// Resolves after the next raise (or at once if one happened since the last wait).
    pub async fn changed(&self) {
        self.notify.notified().await
    }

    fn raise(&self, to: u64) {
        self.count.fetch_max(to, Ordering::AcqRel);
        self.notify.notify_one();
    }
}

/// One record for the journal.
#[derive(Debug)]
pub enum JournalOp {
    /// A game started: its room, seed and seats.
    Start(Box<LiveGame>),
    /// An accepted action; `ack` is raised to `record.index + 1` once it is committed.
    Append {
        game_id: Arc<str>,
        record: ActionRecord,
        ack: Arc<Durable>,
    },
    /// The game ended (won, or abandoned): it becomes a `games` row and its journal rows go,
    /// in one transaction.
    End(Box<FinishedGame>),
    /// Answered once everything queued before it is committed (or given up on).
    Flush(oneshot::Sender<()>),
}

/// Timing and bounds of the journal task.
#[derive(Clone, Debug)]
pub struct JournalConfig {
    /// Records queued at most; past it rooms refuse actions until the journal catches up.
    pub queue: usize,
    /// Records per transaction at most.
    pub max_batch: usize,
    /// Wait before retrying a failed commit; doubles up to `max_backoff`.
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
    /// A commit not done within this time is abandoned and retried.
    pub write_timeout: Duration,
    /// On shutdown, how long queued records keep being retried.
    pub shutdown_grace: Duration,
    /// The journal's connection is replaced once it is this old (at its next commit). It
    /// never goes back to the pool, so the pool's own limit on a connection's age (sqlx's
    /// 30 minutes, the default here too) does not reach it; without this, a journal would
    /// keep its first session for the life of the server (through a Postgres failover
    /// behind the same name, say, as long as that session still answered).
    pub connection_lifetime: Duration,
    /// Told how long each successful commit took (the transaction with its sync to disk):
    /// every room holds its updates back for it, so it is the journal's share of what
    /// players wait, and the server exports it (`catan_journal_commit_seconds`).
    pub on_commit: Option<CommitObserver>,
}

/// A callback for [`JournalConfig::on_commit`], called on the journal's task after each
/// successful commit with its duration (keep it short: the next commit waits for it).
#[derive(Clone)]
pub struct CommitObserver(pub Arc<dyn Fn(Duration) + Send + Sync>);

impl std::fmt::Debug for CommitObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CommitObserver")
    }
}

impl Default for JournalConfig {
    fn default() -> Self {
        JournalConfig {
            queue: 100_000,
            max_batch: 4_096,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(5),
            write_timeout: Duration::from_secs(20),
            shutdown_grace: Duration::from_secs(20),
            connection_lifetime: Duration::from_secs(30 * 60),
            on_commit: None,
        }
    }
}

/// Counters of the journal, for `/metrics` and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JournalStats {
    /// Transactions committed.
    pub commits: u64,
    /// Records committed.
    pub records: u64,
    /// Finished (or abandoned) games moved to the games history.
    pub finished: u64,
    /// Commits that failed and were retried.
    pub failed_attempts: u64,
    /// Records given up on (refused by the database, or still failing when the shutdown
    /// grace period ended).
    pub dropped: u64,
}

#[derive(Debug, Default)]
struct Counters {
    commits: AtomicU64,
    records: AtomicU64,
    finished: AtomicU64,
    failed_attempts: AtomicU64,
    dropped: AtomicU64,
}

impl Counters {
    fn snapshot(&self) -> JournalStats {
        JournalStats {
            commits: self.commits.load(Ordering::Relaxed),
            records: self.records.load(Ordering::Relaxed),
            finished: self.finished.load(Ordering::Relaxed),
            failed_attempts: self.failed_attempts.load(Ordering::Relaxed),
            dropped: self.dropped.load(Ordering::Relaxed),
        }
    }
}

/// The journal queue is full (the database is slow or down): the caller must not apply
/// the action it meant to journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game journal is busy; try again in a moment")]
pub struct JournalBusy;

/// A reserved place in the journal queue: apply the action, then [`JournalSlot::send`].
pub struct JournalSlot(mpsc::OwnedPermit<JournalOp>);

impl JournalSlot {
    pub fn send(self, op: JournalOp) {
        self.0.send(op);
    }
}

/// Cheap, cloneable handle to the journal task (one per room).
#[derive(Clone, Debug)]
pub struct JournalHandle {
    tx: mpsc::Sender<JournalOp>,
    counters: Arc<Counters>,
}

impl JournalHandle {
    /// A place in the queue, without waiting: [`JournalBusy`] when the queue is full or
    /// the journal has stopped.
    pub fn reserve(&self) -> Result<JournalSlot, JournalBusy> {
        self.tx
            .clone()
            .try_reserve_owned()
            .map(JournalSlot)
            .map_err(|_| JournalBusy)
    }

    /// Queues a record without waiting (see [`JournalHandle::reserve`]).
    pub fn try_send(&self, op: JournalOp) -> Result<(), JournalBusy> {
        self.tx.try_send(op).map_err(|_| JournalBusy)
    }

    /// Queues a record that must not be lost even when the queue is full (a game's end):
    /// a task waits for room, behind everything already queued.
    pub fn send_later(&self, op: JournalOp) {
        let op = match self.tx.try_send(op) {
            Ok(()) => return,
            Err(mpsc::error::TrySendError::Full(op)) => op,
            Err(mpsc::error::TrySendError::Closed(op)) => {
                tracing::error!(record = ?op, "journal stopped: record NOT written");
                return;
            }
        };
        let tx = self.tx.clone();
        tokio::spawn(async move {
            if let Err(e) = tx.send(op).await {
                tracing::error!(record = ?e.0, "journal stopped: record NOT written");
            }
        });
    }

    /// Waits until everything queued before this call is committed (or given up on);
    /// `false` if the journal has stopped.
    pub async fn flush(&self) -> bool {
        let (ack, done) = oneshot::channel();
        if self.tx.send(JournalOp::Flush(ack)).await.is_err() {
            return false;
        }
        done.await.is_ok()
    }

    pub fn stats(&self) -> JournalStats {
        self.counters.snapshot()
    }
}

/// The running journal task; call [`Journal::shutdown`] before exiting.
#[derive(Debug)]
pub struct Journal {
    handle: JournalHandle,
    shutdown: watch::Sender<bool>,
    join: JoinHandle<()>,
}

/// Starts the journal task on the current tokio runtime.
pub fn spawn_journal(store: Store, config: JournalConfig) -> Journal {
    let (tx, rx) = mpsc::channel(config.queue.max(1));
    let (shutdown, shutdown_rx) = watch::channel(false);
    let counters = Arc::new(Counters::default());
    let task = Task {
        store,
        config,
        rx,
        shutdown_rx,
        deadline: None,
        healthy: true,
        counters: counters.clone(),
        conn: None,
    };
    let join = tokio::spawn(task.run());
    Journal {
        handle: JournalHandle { tx, counters },
        shutdown,
        join,
    }
}

impl Journal {
    pub fn handle(&self) -> JournalHandle {
        self.handle.clone()
    }

    /// Commits every record already queued (retrying for at most the shutdown grace
    /// period), stops, and returns the final counters.
    pub async fn shutdown(self) -> JournalStats {
        let _ = self.shutdown.send(true);
        if let Err(e) = self.join.await {
            tracing::error!(error = %e, "journal task failed");
        }
        self.handle.stats()
    }
}

struct Task {
    store: Store,
    config: JournalConfig,
    rx: mpsc::Receiver<JournalOp>,
    shutdown_rx: watch::Receiver<bool>,
    deadline: Option<Instant>,
    /// Whether the last commit worked: an outage is logged when it starts and when it
    /// ends, not at every retry.
    healthy: bool,
    counters: Arc<Counters>,
    /// The journal's own connection, kept between commits. With SQLite a connection's
    /// page cache is dropped whenever another connection wrote since its last
    /// transaction: taking whichever connection the pool hands out (round robin) meant
    /// reading the journal's pages back from disk for nearly every commit. It is also
    /// one round trip fewer (the pool's liveness ping) per commit. Closed after any
    /// failed write, so a connection broken by a database restart is not reused, and
    /// replaced once older than [`JournalConfig::connection_lifetime`] (with when it was
    /// opened).
    conn: Option<(PoolConnection<Any>, Instant)>,
}

impl Task {
    async fn run(mut self) {
        loop {
            let first = if self.deadline.is_none() {
                tokio::select! {
                    biased;
                    op = self.rx.recv() => match op {
                        Some(op) => op,
                        None => break,
                    },
                    _ = self.shutdown_rx.changed() => {
                        self.begin_shutdown();
                        continue;
                    }
                }
            } else {
                match self.rx.try_recv() {
                    Ok(op) => op,
                    Err(_) => break,
                }
            };
            let mut batch = vec![first];
            while batch.len() < self.config.max_batch {
                match self.rx.try_recv() {
                    Ok(op) => batch.push(op),
                    Err(_) => break,
                }
            }
            self.commit(batch).await;
        }
        let s = self.counters.snapshot();
        tracing::info!(
            commits = s.commits,
            records = s.records,
            dropped = s.dropped,
            "journal stopped"
        );
    }

    fn begin_shutdown(&mut self) {
        if self.deadline.is_none() {
            self.rx.close();
            self.deadline = Some(Instant::now() + self.config.shutdown_grace);
        }
    }

    /// Writes one batch in one transaction, retrying while the database is unavailable;
    /// then raises the acknowledgements and answers the flushes.
    async fn commit(&mut self, batch: Vec<JournalOp>) {
        let records = batch
            .iter()
            .filter(|op| !matches!(op, JournalOp::Flush(_)))
            .count() as u64;
        let mut backoff = self.config.initial_backoff;
        let mut dropped = false;
        if records > 0 {
            loop {
                let limit = self.config.write_timeout;
                let deadline = self.deadline;
                let started = Instant::now();
                let write = async {
                    tokio::time::timeout(limit, self.write(&batch))
                        .await
                        .unwrap_or(Err(StoreError::TimedOut(limit)))
                };
                let result = match deadline {
                    None => write.await,
                    Some(d) => tokio::time::timeout_at(d, write)
                        .await
                        .unwrap_or(Err(StoreError::TimedOut(limit))),
                };
                match result {
                    Ok(()) => {
                        if let Some(observe) = &self.config.on_commit {
                            (observe.0)(started.elapsed());
                        }
                        if !self.healthy {
                            self.healthy = true;
                            tracing::info!("journal: the database is reachable again; commits resumed");
                        }
                        self.counters.commits.fetch_add(1, Ordering::Relaxed);
                        self.counters.records.fetch_add(records, Ordering::Relaxed);
                        let ended = batch.iter().filter(|op| matches!(op, JournalOp::End(_))).count();
                        self.counters.finished.fetch_add(ended as u64, Ordering::Relaxed);
                        break;
                    }
                    Err(e) if !e.is_transient() => {
                        // Never expected (the records are built by the server); commit
                        // what can be committed, one record at a time, and say what not.
                        tracing::error!(error = %e, records, "journal: the database refused a batch; writing it record by record");
                        self.one_by_one(&batch).await;
                        break;
                    }
                    Err(e) => {
                        self.counters.failed_attempts.fetch_add(1, Ordering::Relaxed);
                        if self.healthy {
                            self.healthy = false;
                            tracing::warn!(error = %e, "journal: the database is unavailable; holding game updates and retrying");
                        }
                        if let Some(d) = self.deadline {
                            if Instant::now() + backoff >= d {
                                tracing::error!(
                                    records,
                                    "journal: records NOT written: the shutdown grace period ended"
                                );
                                self.counters.dropped.fetch_add(records, Ordering::Relaxed);
                                dropped = true;
                                break;
                            }
                            tokio::time::sleep(backoff).await;
                        } else {
                            tokio::select! {
                                _ = tokio::time::sleep(backoff) => {}
                                _ = self.shutdown_rx.changed() => self.begin_shutdown(),
                            }
                        }
                        backoff = (backoff * 2).min(self.config.max_backoff);
                    }
                }
            }
        }
        // Only now may the rooms show these actions (given up on at shutdown: the rooms
        // are gone, nothing is shown any more).
        // The acknowledgements are raised before the flushes are answered: a flush promises
        // that everything sent before it is committed *and acknowledged* (answering first
        // let a caller read an acknowledgement not yet raised, 1 run in 5 of the journal
        // test on two threads).
        let mut raised: HashMap<*const Durable, (Arc<Durable>, u64)> = HashMap::new();
        let mut flushes = Vec::new();
        for op in batch {
            match op {
                JournalOp::Append { record, ack, .. } if !dropped => {
                    let e = raised
                        .entry(Arc::as_ptr(&ack))
                        .or_insert_with(|| (ack.clone(), 0));
                    e.1 = e.1.max(u64::from(record.index) + 1);
                }
                JournalOp::Flush(done) => flushes.push(done),
                _ => {}
            }
        }
        for (ack, to) in raised.into_values() {
            ack.raise(to);
        }
        for done in flushes {
            let _ = done.send(());
        }
    }

    /// Writes `batch` on the journal's connection (acquired first if need be).
    async fn write(&mut self, batch: &[JournalOp]) -> Result<(), StoreError> {
        self.store.ensure_ready().await?;
        // Out of `self` while in use: if the write is abandoned (its timeout), the
        // connection is dropped with it, not kept in an unknown state.
        let lifetime = self.config.connection_lifetime;
        if let Some((mut old, _)) = self.conn.take_if(|(_, opened)| opened.elapsed() >= lifetime) {
            tracing::debug!("journal: replacing its connection (connection_lifetime reached)");
            old.close_on_drop();
        }
        let (mut conn, opened) = match self.conn.take() {
            Some(kept) => kept,
            None => (self.store.pool().acquire().await?, Instant::now()),
        };
        match write_batch(&mut conn, batch).await {
            Ok(()) => {
                self.conn = Some((conn, opened));
                Ok(())
            }
            Err(e) => {
                conn.close_on_drop();
                Err(e)
            }
        }
    }

    async fn one_by_one(&mut self, batch: &[JournalOp]) {
        for op in batch {
            if matches!(op, JournalOp::Flush(_)) {
                continue;
            }
            match self.write(std::slice::from_ref(op)).await {
                Ok(()) => {
                    self.counters.records.fetch_add(1, Ordering::Relaxed);
                    if matches!(op, JournalOp::End(_)) {
                        self.counters.finished.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    self.counters.dropped.fetch_add(1, Ordering::Relaxed);
                    tracing::error!(error = %e, record = ?op, "journal: record NOT written");
                }
            }
        }
    }
}

/// The whole batch in one transaction, in queue order (a game's start before its actions,
/// its end after them). Every insert is idempotent, so a batch retried after a commit
/// whose answer was lost writes nothing twice.
///
/// The common batch, a few actions and nothing else, is one multi-row `INSERT` without
/// `BEGIN` and `COMMIT` around it: a single statement is atomic by itself (SQLite and
/// Postgres alike run it in its own transaction), and each statement is a round trip to
/// the connection (with SQLite, to its worker thread and back).
async fn write_batch(conn: &mut sqlx::AnyConnection, batch: &[JournalOp]) -> Result<(), StoreError> {
    let appends_only = batch
        .iter()
        .all(|op| matches!(op, JournalOp::Append { .. } | JournalOp::Flush(_)));
    if appends_only {
        let appends: Vec<_> = batch
            .iter()
            .filter_map(|op| match op {
                JournalOp::Append { game_id, record, .. } => Some((game_id, record)),
                _ => None,
            })
            .collect();
        if appends.len() <= APPEND_CHUNK {
            if !appends.is_empty() {
                insert_actions(conn, &appends).await?;
            }
            return Ok(());
        }
    }
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    let mut i = 0;
    while i < batch.len() {
        match &batch[i] {
            JournalOp::Start(game) => {
                insert_start(&mut tx, game).await?;
                i += 1;
            }
            JournalOp::End(game) => {
                save_in(&mut tx, game).await?;
                for table in ["live_actions", "live_seats"] {
                    sqlx::query(&format!("DELETE FROM {table} WHERE game_id = $1"))
                        .bind(&game.id)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query("DELETE FROM live_games WHERE id = $1")
                    .bind(&game.id)
                    .execute(&mut *tx)
                    .await?;
                i += 1;
            }
            JournalOp::Flush(_) => i += 1,
            JournalOp::Append { .. } => {
                // A run of appends: multi-row inserts.
                let mut run = Vec::new();
                while let Some(JournalOp::Append { game_id, record, .. }) = batch.get(i) {
                    run.push((game_id, record));
                    i += 1;
                    if run.len() == APPEND_CHUNK {
                        insert_actions(&mut tx, &run).await?;
                        run.clear();
                    }
                }
                if !run.is_empty() {
                    insert_actions(&mut tx, &run).await?;
                }
            }
        }
    }
    tx.commit().await?;
    Ok(())
}

async fn insert_start(conn: &mut sqlx::AnyConnection, game: &LiveGame) -> Result<(), StoreError> {
    let config = serde_json::to_string(&game.config).map_err(|e| StoreError::Invalid(e.to_string()))?;
    let inserted = sqlx::query(
        "INSERT INTO live_games (id, code, options, config, seed, rules_version, host, created_at, started_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING",
    )
    .bind(&game.id)
    .bind(&game.code)
    .bind(&game.options)
    .bind(config)
    .bind(game.seed as i64)
    .bind(&game.rules_version)
    .bind(game.host.map(i64::from))
    .bind(game.created_at_ms)
    .bind(game.started_at_ms)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 0 || game.seats.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO live_seats (game_id, seat, name, bot, token_hash) VALUES {}",
        values_rows(conn, game.seats.len(), 5)
    );
    let mut q = sqlx::query(&sql).persistent(false);
    for (seat, s) in game.seats.iter().enumerate() {
        q = q
            .bind(&game.id)
            .bind(seat as i64)
            .bind(&s.name)
            .bind(i64::from(s.bot))
            .bind(s.token_hash.clone());
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

async fn insert_actions(
    conn: &mut sqlx::AnyConnection,
    run: &[(&Arc<str>, &ActionRecord)],
) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO live_actions (game_id, idx, seat, action, at_ms) VALUES {} \
         ON CONFLICT (game_id, idx) DO NOTHING",
        values_rows(conn, run.len(), 5)
    );
    let mut q = sqlx::query(&sql).persistent(run.len() <= PERSISTENT_ROWS || run.len() == APPEND_CHUNK);
    for (game_id, r) in run {
        let action = serde_json::to_string(&r.action).map_err(|e| StoreError::Invalid(e.to_string()))?;
        q = q
            .bind(game_id.to_string())
            .bind(i64::from(r.index))
            .bind(i64::from(r.seat))
            .bind(action)
            .bind(r.at_ms);
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

impl Store {
    /// Every game in the journal (started and not ended), with its actions in order.
    pub async fn live_games(&self) -> Result<Vec<ResumedGame>, StoreError> {
        self.ensure_ready().await?;
        let corrupt = |m: String| StoreError::Corrupt(m);
        let mut games: Vec<ResumedGame> = Vec::new();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        let rows = sqlx::query(
            "SELECT id, code, options, config, seed, rules_version, host, created_at, started_at \
             FROM live_games ORDER BY started_at, id",
        )
        .fetch_all(self.pool())
        .await?;
        for row in rows {
            let id: String = row.try_get("id")?;
            let config: String = row.try_get("config")?;
            let config: GameConfig =
                serde_json::from_str(&config).map_err(|e| corrupt(format!("live game {id}: config: {e}")))?;
            let seed: i64 = row.try_get("seed")?;
            let host: Option<i64> = row.try_get("host")?;
            by_id.insert(id.clone(), games.len());
            games.push(ResumedGame {
                game: LiveGame {
                    id,
                    code: row.try_get("code")?,
                    options: row.try_get("options")?,
                    config,
                    seed: seed as u64,
                    rules_version: row.try_get("rules_version")?,
                    host: host.and_then(|h| Seat::try_from(h).ok()),
                    created_at_ms: row.try_get("created_at")?,
                    started_at_ms: row.try_get("started_at")?,
                    seats: Vec::new(),
                },
                actions: Vec::new(),
            });
        }
        let rows =
            sqlx::query("SELECT game_id, seat, name, bot, token_hash FROM live_seats ORDER BY game_id, seat")
                .fetch_all(self.pool())
                .await?;
        for row in rows {
            let id: String = row.try_get("game_id")?;
            let Some(&g) = by_id.get(&id) else { continue };
            let seat: i64 = row.try_get("seat")?;
            let bot: i64 = row.try_get("bot")?;
            let seats = &mut games[g].game.seats;
            if seat != seats.len() as i64 {
                return Err(corrupt(format!(
                    "live game {id}: seat {} is missing",
                    seats.len()
                )));
            }
            seats.push(LiveSeat {
                name: row.try_get("name")?,
                bot: bot != 0,
                token_hash: row.try_get("token_hash")?,
            });
        }
        let rows =
            sqlx::query("SELECT game_id, idx, seat, action, at_ms FROM live_actions ORDER BY game_id, idx")
                .fetch_all(self.pool())
                .await?;
        for row in rows {
            let id: String = row.try_get("game_id")?;
            let Some(&g) = by_id.get(&id) else { continue };
            let idx: i64 = row.try_get("idx")?;
            let actions = &mut games[g].actions;
            if idx != actions.len() as i64 {
                return Err(corrupt(format!(
                    "live game {id}: action {} is missing",
                    actions.len()
                )));
            }
            let json: String = row.try_get("action")?;
            let action = serde_json::from_str(&json)
                .map_err(|e| corrupt(format!("live game {id}: action {idx}: {e}")))?;
            let seat: i64 = row.try_get("seat")?;
            actions.push(ActionRecord {
                index: idx as u32,
                seat: Seat::try_from(seat).map_err(|_| corrupt(format!("live game {id}: seat {seat}")))?,
                action,
                at_ms: row.try_get("at_ms")?,
            });
        }
        Ok(games)
    }

    /// Removes a live game from the journal without storing it (a game that can no longer
    /// be replayed, say after a rules change); `true` if it was there.
    pub async fn drop_live_game(&self, id: &str) -> Result<bool, StoreError> {
        self.ensure_ready().await?;
        let mut tx = self.pool().begin().await?;
        for table in ["live_actions", "live_seats"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE game_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        let n = sqlx::query("DELETE FROM live_games WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_hashes_are_sha256_hex_and_never_the_token() {
        let h = hash_token("abc");
        assert_eq!(
            h,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(hash_token("abd"), h);
        assert!(!h.contains("abc"));
    }
}
