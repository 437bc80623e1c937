//! Shared helpers of the store tests: real games played by random bots, and fresh
//! databases (a new Postgres schema or a new SQLite file per test).

#![allow(dead_code)]

use catan_bots::RandomBot;
use catan_rules::{Action, Game, GameConfig, Scenario, Seat};
use catan_store::{ActionRecord, FinishedGame, GameStatus, PlayerKind, PlayerRecord, Store, StoreOptions};
use sqlx::Connection;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The test Postgres: `CATAN_TEST_POSTGRES_URL` when set (`.ci/run` sets it, and there the
/// Postgres tests must run and fail if it is unreachable); unset, the Postgres tests say so
/// and pass without running, so `cargo test` works on a machine with no database server.
pub fn pg_base_url() -> Option<String> {
    match std::env::var("CATAN_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!("CATAN_TEST_POSTGRES_URL is not set: skipping this Postgres test");
            None
        }
    }
}

/// A complete game between random bots, with its action log.
pub struct Played {
    pub game: Game,
    pub log: Vec<(Seat, Action)>,
}

pub fn play(config: GameConfig, seed: u64) -> Played {
    let mut game = Game::new(config, seed).expect("valid config");
    let mut bot = RandomBot::new(seed);
    let mut log = Vec::new();
    while !game.is_over() {
        assert!(game.turn() < 10_000, "random game {seed} does not end");
        let seat = game.next_actor().expect("someone is awaited");
        let action = bot
            .choose(&game, seat)
            .expect("the awaited seat has a legal action");
        game.apply(seat, action).expect("bots play legal actions");
        log.push((seat, action));
    }
    Played { game, log }
}

/// A base 4-player game, played once per test binary.
pub fn base_game() -> &'static Played {
    static GAME: OnceLock<Played> = OnceLock::new();
    GAME.get_or_init(|| play(GameConfig::default(), 0x5eed_cafe_f00d_d00d))
}

/// A 5-player game of The Helpers (seed above 2^63 to check the i64 bit cast).
pub fn helpers_game() -> &'static Played {
    static GAME: OnceLock<Played> = OnceLock::new();
    GAME.get_or_init(|| {
        let config = GameConfig {
            players: 5,
            scenario: Some(Scenario::Helpers),
            ..GameConfig::default()
        };
        play(config, u64::MAX - 12345)
    })
}

pub fn record(id: &str, played: &Played, finished_at_ms: i64) -> FinishedGame {
    let game = &played.game;
    let start = finished_at_ms - 1_000_000;
    let mut record = FinishedGame {
        id: id.to_string(),
        code: format!("C{}", id.len()),
        config: *game.config(),
        seed: game.seed(),
        rules_version: "0.1.0".into(),
        created_at_ms: start - 5_000,
        started_at_ms: Some(start),
        finished_at_ms,
        status: GameStatus::Abandoned,
        winner: None,
        players: (0..game.players())
            .map(|seat| PlayerRecord {
                seat,
                name: format!("player {seat} of {id}"),
                kind: if seat == 0 {
                    PlayerKind::Human
                } else {
                    PlayerKind::Bot
                },
                final_vp: 0,
                won: false,
            })
            .collect(),
        actions: played
            .log
            .iter()
            .enumerate()
            .map(|(i, &(seat, action))| ActionRecord {
                index: i as u32,
                seat,
                action,
                at_ms: start + i as i64,
            })
            .collect(),
    };
    record.set_result_from(game);
    record
}

fn unique(prefix: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

/// Short acquire timeout, for the outage tests (each attempt fails fast).
pub fn fast_options() -> StoreOptions {
    StoreOptions {
        max_connections: 8,
        acquire_timeout: Duration::from_secs(1),
        ..StoreOptions::default()
    }
}

/// A test database: a fresh schema in the test Postgres, or a fresh SQLite file.
pub struct TestDb {
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    PgSchema { admin_url: String, schema: String },
    Dir(PathBuf),
}

impl TestDb {
    /// A new, empty schema in the test Postgres; `None` when no test Postgres is
    /// configured. Panics (the test fails) if it is configured but unreachable.
    pub async fn postgres() -> Option<TestDb> {
        Self::postgres_via(None).await
    }

    /// Like [`TestDb::postgres`], but the returned URL points at `127.0.0.1:port`
    /// instead of the real server (for the outage test's proxy).
    pub async fn postgres_via(port: Option<u16>) -> Option<TestDb> {
        sqlx::any::install_default_drivers();
        let admin_url = pg_base_url()?;
        let schema = unique("catan_store_test");
        let mut conn = sqlx::AnyConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "Postgres is unreachable at {admin_url} ({e}): CATAN_TEST_POSTGRES_URL \
                     names it, so the Postgres tests must run (unset it to skip them)"
                )
            });
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        let mut url = admin_url.clone();
        if let Some(port) = port {
            let (scheme, rest) = url.split_once("://").unwrap();
            let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
            let (authority, tail) = rest.split_at(authority_end);
            let userinfo = authority
                .rsplit_once('@')
                .map(|(u, _)| format!("{u}@"))
                .unwrap_or_default();
            url = format!("{scheme}://{userinfo}127.0.0.1:{port}{tail}");
        }
        let sep = if url.contains('?') { '&' } else { '?' };
        url = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        Some(TestDb {
            url,
            cleanup: Cleanup::PgSchema { admin_url, schema },
        })
    }

    /// A new SQLite file in a new temporary directory.
    pub fn sqlite() -> TestDb {
        let dir = std::env::temp_dir().join(unique("catan-store-test"));
        std::fs::create_dir_all(&dir).unwrap();
        TestDb {
            url: format!("sqlite://{}/games.db", dir.display()),
            cleanup: Cleanup::Dir(dir),
        }
    }

    /// A SQLite URL whose directory does not exist yet; `dir()` tells which to create.
    pub fn sqlite_missing_dir() -> TestDb {
        let root = std::env::temp_dir().join(unique("catan-store-test"));
        TestDb {
            url: format!("sqlite://{}/later/games.db", root.display()),
            cleanup: Cleanup::Dir(root),
        }
    }

    pub fn dir(&self) -> Option<&PathBuf> {
        match &self.cleanup {
            Cleanup::Dir(d) => Some(d),
            Cleanup::PgSchema { .. } => None,
        }
    }

    /// The store (generous acquire timeout: 50 concurrent saves queue for SQLite's
    /// single writer).
    pub async fn store(&self) -> Store {
        let options = StoreOptions {
            max_connections: 8,
            acquire_timeout: Duration::from_secs(60),
            ..StoreOptions::default()
        };
        Store::connect_with(Some(&self.url), options)
            .await
            .unwrap_or_else(|e| panic!("cannot open the store at {}: {e}", self.url))
    }

    /// Removes the schema or the directory (called at the end of a passing test).
    pub async fn drop_db(self) {
        match self.cleanup {
            Cleanup::PgSchema { admin_url, schema } => {
                let mut conn = sqlx::AnyConnection::connect(&admin_url).await.unwrap();
                sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                    .execute(&mut conn)
                    .await
                    .unwrap();
                conn.close().await.unwrap();
            }
            Cleanup::Dir(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
}

/// Polls `cond` every 10 ms for at most `limit`; panics with `what` if it never holds.
pub async fn wait_until(what: &str, limit: Duration, mut cond: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + limit;
    while !cond() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// `host:port` of a postgres URL.
pub fn pg_authority(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    }
}
