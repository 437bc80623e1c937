//! The [`Store`]: one sqlx `Any` pool over Postgres or SQLite, and the queries.

use crate::model::{
    ActionRecord, FinishedGame, GameDetail, GamePage, GameStatus, GameSummary, PlayerKind, PlayerRecord,
    Replay, ReplayError,
};
use catan_rules::{GameConfig, View, Viewer};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{MigrateError, Migrator};
use sqlx::{AnyPool, Row};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OnceCell;

static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/postgres");
static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/sqlite");

/// The database used when no URL is given: `catan.db` in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://catan.db?mode=rwc";

/// Largest page [`Store::list`] returns.
pub const MAX_PAGE: u32 = 100;

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] MigrateError),
    #[error("unsupported database URL scheme {0:?}: expected postgres://… or sqlite://…")]
    UnsupportedUrl(String),
    #[error(
        "the SQLite URL {0:?} names no file: write sqlite://PATH (e.g. sqlite://catan.db) or sqlite::memory:"
    )]
    MissingSqlitePath(String),
    #[error("invalid game record: {0}")]
    Invalid(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The operation did not finish in time (a hung connection) and was abandoned.
    #[error("database operation timed out after {0:?}")]
    TimedOut(Duration),
}

impl StoreError {
    /// Whether trying the same write again later may succeed (the database is down,
    /// locked, restarting…), as opposed to a record the database will never accept.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Db(e) => match e {
                sqlx::Error::Database(db) => matches!(db.kind(), sqlx::error::ErrorKind::Other),
                sqlx::Error::Configuration(_)
                | sqlx::Error::ColumnDecode { .. }
                | sqlx::Error::Decode(_)
                | sqlx::Error::Encode(_)
                | sqlx::Error::TypeNotFound { .. }
                | sqlx::Error::ColumnNotFound(_)
                | sqlx::Error::ColumnIndexOutOfBounds { .. } => false,
                _ => true,
            },
            StoreError::Migrate(_) | StoreError::TimedOut(_) => true,
            _ => false,
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Which database a [`Store`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

/// Whether a [`Store::save`] wrote the game or found it already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    Inserted,
    AlreadyStored,
}

/// Pool settings.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    pub max_connections: u32,
    /// How long one operation waits for a connection (and, while the database refuses
    /// connections, keeps trying) before it fails.
    pub acquire_timeout: Duration,
    /// Postgres: the server cancels any statement running longer than this (and ends a
    /// session left idle inside a transaction for as long), so a hung write fails instead
    /// of holding a connection and its locks. SQLite waits at most 5 s on a locked
    /// database (sqlx's `busy_timeout`).
    pub statement_timeout: Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            max_connections: 8,
            acquire_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(10),
        }
    }
}

/// Handle to the games database. Cheap to clone (a pool inside).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    migrated: Arc<OnceCell<()>>,
}

/// How often [`migrate_sqlite`] tries again after a migration failed.
const SQLITE_MIGRATION_ATTEMPTS: u32 = 20;

/// Runs the SQLite migrations, trying again when one fails: another process (a server
/// started at the same moment on the same file) may be applying the same migration, and
/// SQLite has no lock that sqlx's migrator could take for the whole run (it takes one on
/// Postgres). Both read the list of applied migrations, both run the next one, and the
/// second fails once the first commits ("table games already exists", or a duplicate
/// version in sqlx's own table for a migration that could run twice). Each migration
/// runs in a transaction, so the failed one left nothing behind, and the next attempt
/// finds it applied and goes on; a migration that fails for any other reason fails every
/// attempt, and the last error is returned.
async fn migrate_sqlite(pool: &AnyPool) -> Result<(), MigrateError> {
    let mut attempt: u32 = 1;
    loop {
        match SQLITE_MIGRATIONS.run(pool).await {
            Err(e @ (MigrateError::ExecuteMigration(..) | MigrateError::Execute(_)))
                if attempt < SQLITE_MIGRATION_ATTEMPTS =>
            {
                tracing::info!(attempt, "{e}; another process may be applying it: trying again");
                tokio::time::sleep(Duration::from_millis(20 * u64::from(attempt.min(10)))).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// The URL to use: `url` if given and not empty, else [`DEFAULT_DATABASE_URL`]. A
/// `sqlite:` URL without a `mode=` gets `mode=rwc` so a missing file is created.
pub fn resolve_url(url: Option<&str>) -> String {
    let url = match url.map(str::trim).filter(|u| !u.is_empty()) {
        Some(u) => u,
        None => return DEFAULT_DATABASE_URL.to_string(),
    };
    if url.starts_with("sqlite:") && !url.contains(":memory:") && !url.contains("mode=") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}mode=rwc")
    } else {
        url.to_string()
    }
}

/// `url` with any password replaced by `***`, for logs.
pub fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match (authority.rfind('@'), authority.find(':')) {
        (Some(at), Some(colon)) if colon < at => format!(
            "{}{}:***{}",
            &url[..scheme_end + 3],
            &authority[..colon],
            &url[scheme_end + 3 + at..]
        ),
        _ => url.to_string(),
    }
}

/// A Postgres URL with session settings (sent as startup `options`, which sqlx reads from
/// `options[name]=value` parameters) unless the URL sets them already:
/// - `statement_timeout` and `idle_in_transaction_session_timeout`: no statement, and no
///   transaction abandoned mid-way by a hung client, outlives `timeout`;
/// - TCP keepalive on the server's side of the connection (probe after 30 s idle, every
///   10 s, give up after 3), so the database notices a vanished client and releases its
///   locks. (sqlx has no client-side keepalive setting; the writer's own timeout covers
///   the client side.)
pub fn with_session_limits(url: &str, timeout: Duration) -> String {
    let ms = timeout.as_millis().to_string();
    let settings = [
        ("statement_timeout", ms.as_str()),
        ("idle_in_transaction_session_timeout", ms.as_str()),
        ("tcp_keepalives_idle", "30"),
        ("tcp_keepalives_interval", "10"),
        ("tcp_keepalives_count", "3"),
    ];
    let mut out = url.to_string();
    for (name, value) in settings {
        if url.contains(name) {
            continue;
        }
        let sep = if out.contains('?') { '&' } else { '?' };
        out.push_str(&format!("{sep}options[{name}]={value}"));
    }
    out
}

fn backend_of(url: &str) -> Result<Backend> {
    let scheme = url.split(':').next().unwrap_or("");
    match scheme {
        "postgres" | "postgresql" => Ok(Backend::Postgres),
        "sqlite" => {
            // `sqlite://` (or `sqlite:`) with no path would open a nameless database that
            // vanishes with the process: refuse it rather than lose every game.
            let rest = url["sqlite:".len()..].trim_start_matches("//");
            let path = rest.split('?').next().unwrap_or("");
            if path.is_empty() {
                return Err(StoreError::MissingSqlitePath(url.to_string()));
            }
            Ok(Backend::Sqlite)
        }
        other => Err(StoreError::UnsupportedUrl(other.to_string())),
    }
}

fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

fn small<T: TryFrom<i64>>(v: i64, what: &str) -> Result<T> {
    T::try_from(v).map_err(|_| corrupt(format!("{what} out of range: {v}")))
}

/// The `VALUES` list of a multi-row `INSERT`: `rows` groups of `per_row` parameters. On
/// SQLite the parameters are anonymous (`?`): SQLite finds a numbered parameter's name by a
/// linear search (`sqlite3_bind_parameter_name`, called by sqlx for every parameter), so
/// 1,000 `$N` parameters cost half a million steps per statement, which was 7 % of the
/// server's CPU when storing finished games under load. Postgres needs `$N`.
pub(crate) fn values_rows(conn: &sqlx::AnyConnection, rows: usize, per_row: usize) -> String {
    let anonymous = conn.backend_name().eq_ignore_ascii_case("sqlite");
    values_rows_for(anonymous, rows, per_row)
}

fn values_rows_for(anonymous: bool, rows: usize, per_row: usize) -> String {
    let mut out = String::with_capacity(rows * per_row * 5);
    for r in 0..rows {
        if r > 0 {
            out.push_str(", ");
        }
        push_group(&mut out, r * per_row + 1, per_row, anonymous);
    }
    out
}

/// `$first, $first+1, …` (`count` of them) in parentheses.
pub(crate) fn placeholders(first: usize, count: usize) -> String {
    let mut out = String::new();
    push_group(&mut out, first, count, false);
    out
}

/// Appends `count` parameters in parentheses: `$first, $first+1, …`, or `?` each.
fn push_group(out: &mut String, first: usize, count: usize, anonymous: bool) {
    use std::fmt::Write;
    out.push('(');
    for i in first..first + count {
        if i > first {
            out.push_str(", ");
        }
        if anonymous {
            out.push('?');
        } else {
            let _ = write!(out, "${i}");
        }
    }
    out.push(')');
}

const SUMMARY_COLUMNS: &str = "id, code, variant, player_count, status, winner, rules_version, created_at, \
                               started_at, finished_at, action_count";

/// Pages the write-ahead log grows to before the commit that passes it checkpoints it
/// (copies its pages back into the database file and syncs that), about 40 MiB.
///
/// Why not SQLite's default of 1,000: the checkpoint runs inside that commit, and every
/// room waiting for the journal's acknowledgement waits for it too. Its cost depends on
/// the distinct pages it copies, which at a steady load is about the journal's working
/// set (the tail of `live_actions` and one index page per live game) however long the
/// log is; so ten times fewer checkpoints stall the rooms about ten times less often.
/// With 1,000 pages, at 2,000 actions/s across 200 journaled games, that was a few
/// checkpoints a second and showed in the p99 from an action to the last viewer's
/// update: 4.42–4.85 ms over seven runs, against 3.75–4.79 ms (median 4.14) with this
/// setting, runs alternated. What it costs: a log file of up to about 40 MiB beside the
/// database (reused, not shrunk), and a longer log for a restarted server to read.
pub const WAL_AUTOCHECKPOINT_PAGES: u32 = 10_000;

/// Every SQLite connection writes ahead (`journal_mode = WAL`) and syncs each commit
/// (`synchronous = FULL`).
///
/// SQLite's default rollback journal syncs the journal file, the database and the
/// directory on every commit (sqlx sets neither pragma): three `fsync`s before the live
/// games' journal may acknowledge a batch, while every room holds its updates back for
/// that acknowledgement. With WAL a commit appends to one file and syncs it once; readers
/// (the finished-games list, replays) no longer wait on the writer. `FULL`, not WAL's
/// usual `NORMAL`, so that a commit stays durable through a power loss, not only through
/// a crash of the server: what a player was shown is on disk. The setting is per
/// connection; WAL is kept in the file (`catan.db-wal` and `catan.db-shm` beside it).
///
/// Each connection also checkpoints the log only once it holds
/// [`WAL_AUTOCHECKPOINT_PAGES`] pages, not SQLite's default 1,000.
///
/// A file SQLite cannot put in WAL mode (it answers with the mode it kept, e.g. on a
/// file system without shared memory) still works, with a warning. A read-only URL
/// (`mode=ro`) gets none of these pragmas: switching the mode writes to the file.
async fn sqlite_pragmas(conn: &mut sqlx::AnyConnection) -> std::result::Result<(), sqlx::Error> {
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode = WAL")
        .fetch_one(&mut *conn)
        .await?;
    // An in-memory database answers "memory": nothing to keep on disk anyway.
    if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
        tracing::warn!(
            journal_mode = %mode,
            "SQLite kept its {mode} journal instead of write-ahead logging: commits stay durable, \
             but each costs several fsyncs"
        );
    }
    sqlx::query("PRAGMA synchronous = FULL")
        .execute(&mut *conn)
        .await?;
    sqlx::query(&format!("PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}"))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Whether a SQLite URL opens its file read-only.
fn sqlite_read_only(url: &str) -> bool {
    url.split_once('?').is_some_and(|(_, query)| {
        query
            .split('&')
            .any(|p| p == "mode=ro" || p == "immutable=true" || p == "immutable=1")
    })
}

impl Store {
    /// Connects to `url` (`postgres://…` or `sqlite://…`; `None` or empty: a SQLite file
    /// `catan.db` in the working directory, which is logged) and runs the migrations.
    pub async fn connect(url: Option<&str>) -> Result<Store> {
        Store::connect_with(url, StoreOptions::default()).await
    }

    pub async fn connect_with(url: Option<&str>, options: StoreOptions) -> Result<Store> {
        if url.map(str::trim).filter(|u| !u.is_empty()).is_none() {
            let cwd = std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|_| ".".into());
            tracing::info!(
                "DATABASE_URL is not set: storing games in the SQLite file {cwd}/catan.db \
                 (set DATABASE_URL=postgres://… to use Postgres)"
            );
        }
        let store = Store::connect_lazy_with(url, options)?;
        store.ensure_ready().await?;
        Ok(store)
    }

    /// Like [`Store::connect_with`] but touches nothing yet: the first operation opens
    /// a connection and runs the migrations. Fails only on a malformed URL.
    pub fn connect_lazy_with(url: Option<&str>, options: StoreOptions) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let url = resolve_url(url);
        let backend = backend_of(&url)?;
        let url = match backend {
            Backend::Postgres => with_session_limits(&url, options.statement_timeout),
            Backend::Sqlite => url,
        };
        let mut pool = AnyPoolOptions::new()
            .max_connections(options.max_connections)
            .acquire_timeout(options.acquire_timeout);
        if backend == Backend::Sqlite && !sqlite_read_only(&url) {
            pool = pool.after_connect(|conn, _| Box::pin(sqlite_pragmas(conn)));
        }
        let pool = pool.connect_lazy(&url)?;
        tracing::info!(database = %redact_url(&url), ?backend, "games store configured");
        Ok(Store {
            pool,
            backend,
            migrated: Arc::new(OnceCell::new()),
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The pool, for health checks and the like.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Runs the migrations once (on the first call that reaches the database).
    pub async fn ensure_ready(&self) -> Result<()> {
        self.migrated
            .get_or_try_init(|| async {
                match self.backend {
                    Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await?,
                    Backend::Sqlite => migrate_sqlite(&self.pool).await?,
                }
                tracing::debug!(backend = ?self.backend, "games store migrations applied");
                Ok::<(), StoreError>(())
            })
            .await?;
        Ok(())
    }

    /// Whether the database answers a trivial query within `limit` (for `/readyz`).
    pub async fn ping(&self, limit: Duration) -> Result<(), String> {
        let query = sqlx::query("SELECT 1").execute(&self.pool);
        match tokio::time::timeout(limit, query).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} ms", limit.as_millis())),
        }
    }

    /// Closes the pool (waits for connections in use to come back).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Writes a finished game, its players and its action log in one transaction.
    /// Idempotent on `game.id`: saving a game already stored changes nothing.
    pub async fn save(&self, game: &FinishedGame) -> Result<SaveOutcome> {
        game.validate().map_err(StoreError::Invalid)?;
        self.ensure_ready().await?;
        let mut tx = self.pool.begin().await?;
        let outcome = save_in(&mut tx, game).await?;
        match outcome {
            SaveOutcome::Inserted => tx.commit().await?,
            SaveOutcome::AlreadyStored => tx.rollback().await?,
        }
        Ok(outcome)
    }

    /// Finished games, newest first: at most `limit` (1 to [`MAX_PAGE`]) of them,
    /// older than the game `before` (an id from a previous page's `next_before`). An
    /// unknown `before` gives an empty page.
    pub async fn list(&self, limit: u32, before: Option<&str>) -> Result<GamePage> {
        self.ensure_ready().await?;
        let limit = limit.clamp(1, MAX_PAGE);
        let rows = match before {
            None => {
                let sql = format!(
                    "SELECT {SUMMARY_COLUMNS} FROM games ORDER BY finished_at DESC, id DESC LIMIT $1"
                );
                sqlx::query(&sql)
                    .bind(i64::from(limit) + 1)
                    .fetch_all(&self.pool)
                    .await?
            }
            Some(before) => {
                let cursor: Option<i64> = sqlx::query("SELECT finished_at FROM games WHERE id = $1")
                    .bind(before)
                    .fetch_optional(&self.pool)
                    .await?
                    .map(|row| row.try_get("finished_at"))
                    .transpose()?;
                let Some(finished_at) = cursor else {
                    return Ok(GamePage::default());
                };
                let sql = format!(
                    "SELECT {SUMMARY_COLUMNS} FROM games WHERE finished_at < $1 OR (finished_at = $2 AND id < $3) \
                     ORDER BY finished_at DESC, id DESC LIMIT $4"
                );
                sqlx::query(&sql)
                    .bind(finished_at)
                    .bind(finished_at)
                    .bind(before)
                    .bind(i64::from(limit) + 1)
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        let mut games = rows.iter().map(summary_from_row).collect::<Result<Vec<_>>>()?;
        let more = games.len() > limit as usize;
        games.truncate(limit as usize);
        self.attach_players(&mut games).await?;
        let next_before = if more {
            games.last().map(|g| g.id.clone())
        } else {
            None
        };
        Ok(GamePage { games, next_before })
    }

    async fn attach_players(&self, games: &mut [GameSummary]) -> Result<()> {
        if games.is_empty() {
            return Ok(());
        }
        let sql = format!(
            "SELECT game_id, seat, name, kind, final_vp, won FROM game_players WHERE game_id IN {} \
             ORDER BY game_id, seat",
            placeholders(1, games.len())
        );
        let mut q = sqlx::query(&sql).persistent(false);
        for g in games.iter() {
            q = q.bind(&g.id);
        }
        let mut by_game: HashMap<String, Vec<PlayerRecord>> = HashMap::new();
        for row in q.fetch_all(&self.pool).await? {
            let id: String = row.try_get("game_id")?;
            by_game.entry(id).or_default().push(player_from_row(&row)?);
        }
        for g in games.iter_mut() {
            g.players = by_game.remove(&g.id).unwrap_or_default();
        }
        Ok(())
    }

    /// One stored game with its players and result.
    pub async fn get(&self, id: &str) -> Result<Option<GameDetail>> {
        self.ensure_ready().await?;
        let sql = format!("SELECT {SUMMARY_COLUMNS}, config, seed FROM games WHERE id = $1");
        let Some(row) = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await? else {
            return Ok(None);
        };
        let mut summary = summary_from_row(&row)?;
        let config = config_from_row(&row)?;
        let seed: i64 = row.try_get("seed")?;
        self.attach_players(std::slice::from_mut(&mut summary)).await?;
        Ok(Some(GameDetail {
            summary,
            config,
            seed: seed as u64,
        }))
    }

    /// Configuration, seed and action log of a stored game.
    pub async fn replay(&self, id: &str) -> Result<Option<Replay>> {
        self.ensure_ready().await?;
        let Some(row) =
            sqlx::query("SELECT config, seed, rules_version, action_count, actions FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
        else {
            return Ok(None);
        };
        let config = config_from_row(&row)?;
        let seed: i64 = row.try_get("seed")?;
        let rules_version: String = row.try_get("rules_version")?;
        let action_count: i64 = row.try_get("action_count")?;
        // The log is the records as `ActionRecord` serializes them (`games.actions`).
        let log: String = row.try_get("actions")?;
        let actions: Vec<ActionRecord> =
            serde_json::from_str(&log).map_err(|e| corrupt(format!("game {id}: action log: {e}")))?;
        if let Some((i, _)) = actions.iter().enumerate().find(|(i, a)| a.index as usize != *i) {
            return Err(corrupt(format!("game {id}: action {i} is missing")));
        }
        if actions.len() as i64 != action_count {
            return Err(corrupt(format!(
                "game {id}: {action_count} actions recorded, {} stored",
                actions.len()
            )));
        }
        Ok(Some(Replay {
            id: id.to_string(),
            config,
            seed: seed as u64,
            rules_version,
            actions,
        }))
    }

    /// What `viewer` saw of a stored game after its first `at` actions (`None`: at the
    /// end), computed by replaying the log through the rules.
    pub async fn view_at(&self, id: &str, at: Option<usize>, viewer: Viewer) -> Result<Option<View>> {
        match self.replay(id).await? {
            None => Ok(None),
            Some(replay) => Ok(Some(replay.view_at(at, viewer)?)),
        }
    }

    /// Number of stored games.
    pub async fn count(&self) -> Result<u64> {
        self.ensure_ready().await?;
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games")
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = row.try_get("n")?;
        small(n, "count")
    }
}

/// Writes a finished game, its players and its action log inside `conn`'s transaction
/// (the caller commits); `AlreadyStored` (nothing written) when its id is already there.
pub(crate) async fn save_in(conn: &mut sqlx::AnyConnection, game: &FinishedGame) -> Result<SaveOutcome> {
    game.validate().map_err(StoreError::Invalid)?;
    let config = serde_json::to_string(&game.config).map_err(|e| StoreError::Invalid(e.to_string()))?;
    let actions = serde_json::to_string(&game.actions).map_err(|e| StoreError::Invalid(e.to_string()))?;
    let inserted = sqlx::query(
        "INSERT INTO games (id, code, variant, config, player_count, seed, rules_version, status, winner, \
             action_count, created_at, started_at, finished_at, actions) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING",
    )
    .bind(&game.id)
    .bind(&game.code)
    .bind(game.variant())
    .bind(config)
    .bind(i64::from(game.config.players))
    .bind(game.seed as i64)
    .bind(&game.rules_version)
    .bind(game.status.as_str())
    .bind(game.winner.map(i64::from))
    .bind(game.actions.len() as i64)
    .bind(game.created_at_ms)
    .bind(game.started_at_ms)
    .bind(game.finished_at_ms)
    .bind(actions)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Ok(SaveOutcome::AlreadyStored);
    }

    if !game.players.is_empty() {
        let sql = format!(
            "INSERT INTO game_players (game_id, seat, name, kind, final_vp, won) VALUES {}",
            values_rows(conn, game.players.len(), 6)
        );
        let mut q = sqlx::query(&sql).persistent(false);
        for p in &game.players {
            q = q
                .bind(&game.id)
                .bind(i64::from(p.seat))
                .bind(&p.name)
                .bind(p.kind.as_str())
                .bind(i64::from(p.final_vp))
                .bind(i64::from(p.won));
        }
        q.execute(&mut *conn).await?;
    }

    Ok(SaveOutcome::Inserted)
}

fn config_from_row(row: &AnyRow) -> Result<GameConfig> {
    let json: String = row.try_get("config")?;
    serde_json::from_str(&json).map_err(|e| corrupt(format!("game config: {e}")))
}

fn summary_from_row(row: &AnyRow) -> Result<GameSummary> {
    let status: String = row.try_get("status")?;
    let winner: Option<i64> = row.try_get("winner")?;
    Ok(GameSummary {
        id: row.try_get("id")?,
        code: row.try_get("code")?,
        variant: row.try_get("variant")?,
        player_count: small(row.try_get("player_count")?, "player count")?,
        status: GameStatus::parse(&status).ok_or_else(|| corrupt(format!("status {status:?}")))?,
        winner: winner.map(|w| small(w, "winner")).transpose()?,
        rules_version: row.try_get("rules_version")?,
        created_at_ms: row.try_get("created_at")?,
        started_at_ms: row.try_get("started_at")?,
        finished_at_ms: row.try_get("finished_at")?,
        action_count: small(row.try_get("action_count")?, "action count")?,
        players: Vec::new(),
    })
}

fn player_from_row(row: &AnyRow) -> Result<PlayerRecord> {
    let kind: String = row.try_get("kind")?;
    let won: i64 = row.try_get("won")?;
    Ok(PlayerRecord {
        seat: small(row.try_get("seat")?, "seat")?,
        name: row.try_get("name")?,
        kind: PlayerKind::parse(&kind).ok_or_else(|| corrupt(format!("player kind {kind:?}")))?,
        final_vp: small(row.try_get("final_vp")?, "victory points")?,
        won: won != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored log (`games.actions`) is the records as `ActionRecord` serializes them,
    /// the shape the migration writes from the old rows.
    #[test]
    fn the_action_log_column_is_an_array_of_records() {
        use catan_rules::Action;
        let records = vec![
            ActionRecord {
                index: 0,
                seat: 2,
                action: Action::RollDice,
                at_ms: 1_700_000_000_000,
            },
            ActionRecord {
                index: 1,
                seat: 2,
                action: Action::EndTurn,
                at_ms: 1_700_000_000_042,
            },
        ];
        let text = serde_json::to_string(&records).unwrap();
        assert_eq!(
            text,
            r#"[{"index":0,"seat":2,"action":{"type":"roll_dice"},"at_ms":1700000000000},{"index":1,"seat":2,"action":{"type":"end_turn"},"at_ms":1700000000042}]"#
        );
        assert_eq!(serde_json::from_str::<Vec<ActionRecord>>(&text).unwrap(), records);
    }

    #[test]
    fn urls() {
        assert_eq!(resolve_url(None), DEFAULT_DATABASE_URL);
        assert_eq!(resolve_url(Some("  ")), DEFAULT_DATABASE_URL);
        assert_eq!(resolve_url(Some("sqlite://x.db")), "sqlite://x.db?mode=rwc");
        assert_eq!(
            resolve_url(Some("sqlite://x.db?mode=ro")),
            "sqlite://x.db?mode=ro"
        );
        assert_eq!(resolve_url(Some("postgres://h/db")), "postgres://h/db");
        assert_eq!(backend_of("postgresql://h/db").unwrap(), Backend::Postgres);
        assert!(matches!(backend_of("mysql://h/db"), Err(StoreError::UnsupportedUrl(s)) if s == "mysql"));
        assert_eq!(
            redact_url("postgres://u:secret@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(
            redact_url("sqlite://catan.db?mode=rwc"),
            "sqlite://catan.db?mode=rwc"
        );
    }

    #[test]
    fn read_only_sqlite_urls_are_told_apart() {
        assert!(sqlite_read_only("sqlite://x.db?mode=ro"));
        assert!(sqlite_read_only("sqlite://x.db?cache=shared&mode=ro"));
        assert!(sqlite_read_only("sqlite://x.db?immutable=true"));
        assert!(!sqlite_read_only("sqlite://x.db?mode=rwc"));
        assert!(!sqlite_read_only("sqlite://x.db"));
        assert!(!sqlite_read_only("sqlite://mode=ro.db"));
    }

    #[test]
    fn a_sqlite_url_without_a_path_is_refused() {
        for url in ["sqlite://", "sqlite:", "sqlite://?mode=rwc", "sqlite:?mode=rwc"] {
            let err = Store::connect_lazy_with(Some(url), StoreOptions::default()).unwrap_err();
            assert!(matches!(err, StoreError::MissingSqlitePath(_)), "{url}: {err}");
            assert!(err.to_string().contains("names no file"), "{err}");
        }
        assert_eq!(backend_of("sqlite://games.db?mode=rwc").unwrap(), Backend::Sqlite);
        assert_eq!(backend_of("sqlite::memory:").unwrap(), Backend::Sqlite);
    }

    #[test]
    fn placeholder_lists() {
        assert_eq!(placeholders(1, 3), "($1, $2, $3)");
        assert_eq!(placeholders(7, 2), "($7, $8)");
        assert_eq!(values_rows_for(false, 2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(values_rows_for(true, 2, 2), "(?, ?), (?, ?)");
    }

    /// A database made before the journal's actions were clustered by key (20261128000001)
    /// keeps its live games through the upgrade: the rows are copied into the new table,
    /// which has no rowid, and the journal reads them back in order.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn live_actions_survive_the_move_to_a_table_without_rowid() {
        use catan_rules::Action;
        const CLUSTERED: i64 = 20261128000001;
        let dir = std::env::temp_dir().join(format!("catan-store-upgrade-{}", std::process::id()));
        // A run that failed leaves its database behind; this one starts from none.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}/games.db?mode=rwc", dir.display());
        sqlx::any::install_default_drivers();

        let before = Migrator {
            migrations: SQLITE_MIGRATIONS
                .migrations
                .iter()
                .filter(|m| m.version < CLUSTERED)
                .cloned()
                .collect(),
            ignore_missing: false,
            locking: true,
            no_tx: false,
        };
        assert!(before.migrations.len() < SQLITE_MIGRATIONS.migrations.len());
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        before.run(&pool).await.unwrap();
        for (id, code) in [("g1", "AAAA"), ("g2", "BBBB")] {
            sqlx::query(
                "INSERT INTO live_games (id, code, options, config, seed, rules_version, host, created_at, started_at) \
                 VALUES ($1, $2, '{}', $3, 7, $4, 0, 1, 2)",
            )
            .bind(id)
            .bind(code)
            .bind(serde_json::to_string(&GameConfig::default()).unwrap())
            .bind(catan_rules::RULES_VERSION)
            .execute(&pool)
            .await
            .unwrap();
        }
        // The two games' actions interleaved, as the journal appends them.
        let roll = serde_json::to_string(&Action::RollDice).unwrap();
        let card = serde_json::to_string(&Action::BuyDevelopmentCard).unwrap();
        for (id, idx, action) in [
            ("g1", 0, &roll),
            ("g2", 0, &card),
            ("g1", 1, &card),
            ("g2", 1, &roll),
            ("g1", 2, &roll),
        ] {
            sqlx::query(
                "INSERT INTO live_actions (game_id, idx, seat, action, at_ms) VALUES ($1, $2, 0, $3, $4)",
            )
            .bind(id)
            .bind(idx)
            .bind(action)
            .bind(1000 + idx)
            .execute(&pool)
            .await
            .unwrap();
        }
        pool.close().await;

        let store = Store::connect(Some(&url)).await.unwrap();
        let games = store.live_games().await.unwrap();
        type Log = Vec<(u32, Action, i64)>;
        let logs: Vec<(String, Log)> = games
            .iter()
            .map(|g| {
                let log = g.actions.iter().map(|a| (a.index, a.action, a.at_ms)).collect();
                (g.game.id.clone(), log)
            })
            .collect();
        assert_eq!(
            logs,
            vec![
                (
                    "g1".to_string(),
                    vec![
                        (0, Action::RollDice, 1000),
                        (1, Action::BuyDevelopmentCard, 1001),
                        (2, Action::RollDice, 1002)
                    ]
                ),
                (
                    "g2".to_string(),
                    vec![(0, Action::BuyDevelopmentCard, 1000), (1, Action::RollDice, 1001)]
                ),
            ]
        );
        let no_rowid = sqlx::query("SELECT rowid FROM live_actions")
            .fetch_all(store.pool())
            .await;
        assert!(no_rowid.is_err(), "live_actions still has a rowid");
        let broken = sqlx::query("PRAGMA foreign_key_check")
            .fetch_all(store.pool())
            .await
            .unwrap();
        assert!(broken.is_empty(), "{} rows break a foreign key", broken.len());
        // The key still refuses a second row at the same place, and the games' rows still
        // go with their game.
        let dup = sqlx::query(
            "INSERT INTO live_actions (game_id, idx, seat, action, at_ms) VALUES ('g1', 1, 0, $1, 0)",
        )
        .bind(&roll)
        .execute(store.pool())
        .await;
        assert!(dup.is_err(), "a second action at g1's index 1 was accepted");
        assert!(store.drop_live_game("g1").await.unwrap());
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM live_actions")
            .fetch_one(store.pool())
            .await
            .unwrap();
        assert_eq!(left, 2);
        store.pool().close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn postgres_urls_get_the_session_limits_unless_they_set_them() {
        let url = with_session_limits("postgres://u@h/db", Duration::from_millis(2500));
        assert!(
            url.starts_with("postgres://u@h/db?options[statement_timeout]=2500&"),
            "{url}"
        );
        assert!(url.contains("options[idle_in_transaction_session_timeout]=2500"));
        assert!(url.contains("options[tcp_keepalives_idle]=30"));
        let url = with_session_limits(
            "postgres://h/db?options[statement_timeout]=9",
            Duration::from_secs(1),
        );
        assert_eq!(url.matches("statement_timeout").count(), 1, "{url}");
    }
}
