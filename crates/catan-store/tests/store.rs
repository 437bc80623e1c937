//! The store against real databases: SQLite (a temporary file) always, and Postgres when
//! `CATAN_TEST_POSTGRES_URL` is set (`.ci/run` sets it; then the tests fail if it is
//! unreachable). Every test runs on both, each in a fresh schema or file.

mod common;

use catan_rules::{Game, Viewer};
use catan_store::{
    spawn_writer, GameStatus, PlayerKind, ReplayError, SaveOutcome, Store, StoreError, SubmitError,
    WriterConfig,
};
use common::{base_game, fast_options, helpers_game, record, wait_until, TestDb};
use std::collections::HashSet;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(60);

fn fast_writer() -> WriterConfig {
    WriterConfig {
        initial_backoff: Duration::from_millis(20),
        max_backoff: Duration::from_millis(200),
        shutdown_grace: Duration::from_secs(30),
        ..WriterConfig::default()
    }
}

macro_rules! on_both {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = super::TestDb::postgres().await {
                    super::$name(db).await
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::TestDb::sqlite()).await
            }
        }
    };
}

on_both!(save_get_and_replay_exactly);
on_both!(fifty_games_at_once);
on_both!(reopened_store_lists_saved_games);
on_both!(shutdown_flushes_queued_games);
on_both!(invalid_record_is_refused_not_retried);
on_both!(tampered_log_reports_the_refused_action);
on_both!(games_stored_as_rows_keep_their_log_through_the_migration);

/// A complete game stored, loaded and replayed gives the same game and the same views.
async fn save_get_and_replay_exactly(db: TestDb) {
    let store = db.store().await;
    for (id, played) in [("base", base_game()), ("helpers", helpers_game())] {
        let rec = record(id, played, 1_700_000_000_000);
        assert_eq!(rec.status, GameStatus::Finished);
        assert!(rec.winner.is_some());
        assert_eq!(store.save(&rec).await.unwrap(), SaveOutcome::Inserted);
        // Saving again (a retry after an unknown outcome) changes nothing.
        assert_eq!(store.save(&rec).await.unwrap(), SaveOutcome::AlreadyStored);

        let detail = store.get(id).await.unwrap().expect("stored game");
        assert_eq!(detail.config, rec.config);
        assert_eq!(detail.seed, rec.seed);
        let s = &detail.summary;
        assert_eq!(s.id, id);
        assert_eq!(s.code, rec.code);
        assert_eq!(s.variant, rec.variant());
        assert_eq!(s.player_count, rec.config.players);
        assert_eq!(s.status, GameStatus::Finished);
        assert_eq!(s.winner, rec.winner);
        assert_eq!(s.rules_version, rec.rules_version);
        assert_eq!(
            (s.created_at_ms, s.started_at_ms, s.finished_at_ms),
            (rec.created_at_ms, rec.started_at_ms, rec.finished_at_ms)
        );
        assert_eq!(s.action_count as usize, rec.actions.len());
        assert_eq!(s.players, rec.players);
        assert_eq!(s.players[0].kind, PlayerKind::Human);
        let winner = s.winner.unwrap();
        assert!(s.players[winner as usize].won);
        assert!(s.players[winner as usize].final_vp >= rec.config.victory_points);

        let replay = store.replay(id).await.unwrap().expect("stored game");
        assert_eq!(replay.actions, rec.actions);
        assert_eq!(replay.seed, played.game.seed());
        let replayed = Game::replay(replay.config, replay.seed, &replay.log()).expect("the log replays");
        assert!(replayed == played.game, "replayed game differs from the original");
        assert!(replay.game_at(None).unwrap() == played.game);
        for seat in 0..played.game.players() {
            assert_eq!(
                replayed.view(Viewer::Seat(seat)),
                played.game.view(Viewer::Seat(seat))
            );
        }
        assert_eq!(
            store.view_at(id, None, Viewer::Spectator).await.unwrap().unwrap(),
            played.game.view(Viewer::Spectator)
        );

        // The view after action k.
        let k = played.log.len() / 2;
        let expected = Game::replay(rec.config, rec.seed, &played.log[..k]).unwrap();
        assert_eq!(
            store
                .view_at(id, Some(k), Viewer::Seat(1))
                .await
                .unwrap()
                .unwrap(),
            expected.view(Viewer::Seat(1))
        );
        let start = Game::new(rec.config, rec.seed).unwrap();
        assert_eq!(
            store
                .view_at(id, Some(0), Viewer::Spectator)
                .await
                .unwrap()
                .unwrap(),
            start.view(Viewer::Spectator)
        );
        let len = played.log.len();
        assert!(matches!(
            store.view_at(id, Some(len + 1), Viewer::Spectator).await,
            Err(StoreError::Replay(ReplayError::OutOfRange { at, len: l })) if at == len + 1 && l == len
        ));
    }
    assert!(store.get("nope").await.unwrap().is_none());
    assert!(store.replay("nope").await.unwrap().is_none());
    assert!(store
        .view_at("nope", None, Viewer::Spectator)
        .await
        .unwrap()
        .is_none());
    assert_eq!(store.count().await.unwrap(), 2);
    store.close().await;
    db.drop_db().await;
}

/// 50 games handed to the writer at once are all stored, and 50 saved concurrently
/// straight through the store too; listing pages through all of them, newest first.
async fn fifty_games_at_once(db: TestDb) {
    let store = db.store().await;
    let writer = spawn_writer(store.clone(), fast_writer());
    let handle = writer.handle();
    let played = base_game();
    for i in 0..50 {
        // Pairs share a finish time, to exercise the id tie-break of the paging.
        let rec = record(&format!("w{i:02}"), played, 1_700_000_000_000 + i / 2);
        handle.submit(rec).expect("writer running");
    }
    assert!(tokio::time::timeout(LONG, handle.flush())
        .await
        .expect("flush in time"));
    let stats = handle.stats();
    assert_eq!(
        (stats.submitted, stats.saved, stats.dropped, stats.pending()),
        (50, 50, 0, 0)
    );

    let mut tasks = Vec::new();
    for i in 0..50 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let rec = record(&format!("s{i:02}"), base_game(), 1_600_000_000_000 + i);
            store.save(&rec).await
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap(), SaveOutcome::Inserted);
    }
    assert_eq!(store.count().await.unwrap(), 100);

    let mut seen = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let page = store.list(7, before.as_deref()).await.unwrap();
        assert!(page.games.len() <= 7);
        for g in &page.games {
            assert_eq!(g.players.len(), 4);
            assert_eq!(g.action_count as usize, played.log.len());
        }
        seen.extend(page.games.into_iter().map(|g| (g.finished_at_ms, g.id)));
        match page.next_before {
            Some(next) => before = Some(next),
            None => break,
        }
    }
    assert_eq!(seen.len(), 100);
    assert_eq!(seen.iter().map(|(_, id)| id).collect::<HashSet<_>>().len(), 100);
    assert!(
        seen.windows(2).all(|w| w[0] > w[1]),
        "newest first, id breaks ties"
    );
    assert_eq!(seen[0].1, "w49");
    assert_eq!(seen[99].1, "s00");
    // Paging after an unknown game gives nothing; the page size is capped.
    assert!(store.list(10, Some("unknown")).await.unwrap().games.is_empty());
    assert_eq!(store.list(1000, None).await.unwrap().games.len(), 100);
    assert_eq!(store.list(0, None).await.unwrap().games.len(), 1);

    let stats = writer.shutdown().await;
    assert_eq!(stats.saved, 50);
    store.close().await;
    db.drop_db().await;
}

/// Games saved before the store is closed are listed when it is opened again.
async fn reopened_store_lists_saved_games(db: TestDb) {
    let store = db.store().await;
    for i in 0..3 {
        store
            .save(&record(&format!("r{i}"), base_game(), 1_000 + i))
            .await
            .unwrap();
    }
    store.close().await;
    drop(store);

    let store = db.store().await;
    let page = store.list(10, None).await.unwrap();
    let ids: Vec<_> = page.games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["r2", "r1", "r0"]);
    assert_eq!(page.next_before, None);
    let replay = store.replay("r1").await.unwrap().unwrap();
    assert!(Game::replay(replay.config, replay.seed, &replay.log()).unwrap() == base_game().game);
    store.close().await;
    db.drop_db().await;
}

/// Every SQLite connection of the pool writes ahead and syncs each commit: the journal of
/// live games acknowledges a batch only once it is on disk, with one `fsync` (not the three
/// of SQLite's default rollback journal); and checkpoints the log only every
/// `WAL_AUTOCHECKPOINT_PAGES` pages (each checkpoint stalls a commit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_connections_write_ahead_and_sync_every_commit() {
    let db = TestDb::sqlite();
    let store = db.store().await;
    // More connections than one: the pragmas are set on each, not only the first.
    let mut conns = Vec::new();
    for _ in 0..3 {
        conns.push(store.pool().acquire().await.unwrap());
    }
    for conn in conns.iter_mut() {
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&mut **conn)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&mut **conn)
            .await
            .unwrap();
        assert_eq!(sync, 2, "synchronous = FULL");
        let pages: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
            .fetch_one(&mut **conn)
            .await
            .unwrap();
        assert_eq!(pages, i64::from(catan_store::WAL_AUTOCHECKPOINT_PAGES));
    }
    drop(conns);
    store.save(&record("w0", base_game(), 1_000)).await.unwrap();
    let wal = db.dir().unwrap().join("games.db-wal");
    assert!(wal.exists(), "{} missing", wal.display());
    store.close().await;
    db.drop_db().await;
}

/// A read-only URL still opens a file in the rollback-journal mode (switching it to WAL
/// would write to it): the pragmas are left out, not failed on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_sqlite_url_opens_a_rollback_journal_file() {
    use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
    use sqlx::ConnectOptions;
    let db = TestDb::sqlite();
    let path = db.dir().unwrap().join("old.db");
    let mut conn = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Delete)
        .connect()
        .await
        .unwrap();
    sqlx::query("CREATE TABLE t (x INTEGER)")
        .execute(&mut conn)
        .await
        .unwrap();
    drop(conn);
    let url = format!("sqlite://{}?mode=ro", path.display());
    let store = Store::connect_lazy_with(Some(&url), fast_options()).unwrap();
    store.ping(Duration::from_secs(5)).await.unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(mode, "delete");
    store.close().await;
    db.drop_db().await;
}

/// Shutting the writer down right after submitting still writes every game.
async fn shutdown_flushes_queued_games(db: TestDb) {
    let store = db.store().await;
    let writer = spawn_writer(store.clone(), fast_writer());
    let handle = writer.handle();
    for i in 0..20 {
        handle
            .submit(record(&format!("q{i}"), base_game(), 5_000 + i))
            .unwrap();
    }
    let stats = tokio::time::timeout(LONG, writer.shutdown())
        .await
        .expect("shutdown in time");
    assert_eq!((stats.submitted, stats.saved, stats.dropped), (20, 20, 0));
    assert_eq!(store.count().await.unwrap(), 20);
    // After shutdown the handle refuses new games and gives them back.
    let back = handle.submit(record("late", base_game(), 9_000)).unwrap_err();
    assert!(matches!(back, SubmitError::Stopped(_)), "{back:?}");
    assert_eq!(back.game().id, "late");
    assert!(!handle.flush().await);
    store.close().await;
    db.drop_db().await;
}

/// A record that can never be written is reported, not retried forever.
async fn invalid_record_is_refused_not_retried(db: TestDb) {
    let store = db.store().await;
    let mut bad = record("bad", base_game(), 1);
    bad.actions[3].index = 7;
    assert!(matches!(store.save(&bad).await, Err(StoreError::Invalid(_))));
    let writer = spawn_writer(store.clone(), fast_writer());
    let handle = writer.handle();
    handle.submit(bad).unwrap();
    handle.submit(record("good", base_game(), 2)).unwrap();
    assert!(tokio::time::timeout(LONG, handle.flush()).await.unwrap());
    let stats = writer.shutdown().await;
    assert_eq!((stats.saved, stats.dropped, stats.failed_attempts), (1, 1, 0));
    assert_eq!(store.count().await.unwrap(), 1);
    store.close().await;
    db.drop_db().await;
}

/// A log that the rules refuse (here: one action dropped) is reported with its index.
async fn tampered_log_reports_the_refused_action(db: TestDb) {
    let store = db.store().await;
    let mut rec = record("tampered", base_game(), 1);
    // Dropping the first settlement makes the following road illegal.
    rec.actions.remove(0);
    for (i, a) in rec.actions.iter_mut().enumerate() {
        a.index = i as u32;
    }
    store.save(&rec).await.unwrap();
    assert!(store
        .view_at("tampered", Some(0), Viewer::Spectator)
        .await
        .unwrap()
        .is_some());
    match store.view_at("tampered", None, Viewer::Spectator).await {
        Err(StoreError::Replay(ReplayError::Rules { index, .. })) => assert!(index < 4, "refused at {index}"),
        other => panic!("expected a replay error, got {other:?}"),
    }
    store.close().await;
    db.drop_db().await;
}

/// SQLite: the database file's directory does not exist when the game finishes, so
/// every write fails; once it exists, the retried write lands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_down_then_up_write_is_retried() {
    let db = TestDb::sqlite_missing_dir();
    let store = Store::connect_lazy_with(Some(&db.url), fast_options()).unwrap();
    let writer = spawn_writer(store.clone(), fast_writer());
    let handle = writer.handle();
    handle.submit(record("late", base_game(), 42)).unwrap();
    wait_until("failed attempts", LONG, || handle.stats().failed_attempts >= 3).await;
    assert_eq!(handle.stats().saved, 0);
    // One outage, however many retries: logged once when it begins.
    assert_eq!(handle.stats().outages, 1);

    std::fs::create_dir_all(db.dir().unwrap().join("later")).unwrap();
    assert!(tokio::time::timeout(LONG, handle.flush())
        .await
        .expect("flush in time"));
    let stats = writer.shutdown().await;
    assert_eq!((stats.saved, stats.dropped, stats.outages), (1, 0, 1));
    assert!(store.get("late").await.unwrap().is_some());
    store.close().await;
    db.drop_db().await;
}

/// The queue is bounded: while the database is down, a game that finds it full is refused
/// at once and handed back (for the room to log in full); the queued ones land once the
/// database is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_refuses_games_and_gives_them_back() {
    let db = TestDb::sqlite_missing_dir();
    let store = Store::connect_lazy_with(Some(&db.url), fast_options()).unwrap();
    let writer = spawn_writer(
        store.clone(),
        WriterConfig {
            queue: 2,
            ..fast_writer()
        },
    );
    let handle = writer.handle();
    handle.submit(record("first", base_game(), 1)).unwrap();
    // The task holds "first" (retrying), so the queue has room for exactly two more.
    wait_until("a failed attempt", LONG, || handle.stats().failed_attempts >= 1).await;
    handle.submit(record("second", base_game(), 2)).unwrap();
    handle.submit(record("third", base_game(), 3)).unwrap();
    match handle.submit(record("fourth", base_game(), 4)) {
        Err(e @ SubmitError::Full(_)) => {
            assert_eq!(e.game().id, "fourth");
            assert!(e.to_string().contains("queue is full"), "{e}");
        }
        other => panic!("expected a full queue, got {other:?}"),
    }
    let stats = handle.stats();
    assert_eq!((stats.submitted, stats.refused, stats.pending()), (3, 1, 3));

    std::fs::create_dir_all(db.dir().unwrap().join("later")).unwrap();
    assert!(tokio::time::timeout(LONG, handle.flush())
        .await
        .expect("flush in time"));
    let stats = writer.shutdown().await;
    assert_eq!((stats.saved, stats.dropped, stats.refused), (3, 0, 1));
    for id in ["first", "second", "third"] {
        assert!(store.get(id).await.unwrap().is_some(), "{id} stored");
    }
    assert!(store.get("fourth").await.unwrap().is_none());
    store.close().await;
    db.drop_db().await;
}

/// Postgres: the store points at a port where nothing listens when the game finishes;
/// once a proxy to the real server listens there, the retried write lands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_down_then_up_write_is_retried() {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let Some(db) = TestDb::postgres_via(Some(port)).await else {
        return;
    };
    let store = Store::connect_lazy_with(Some(&db.url), fast_options()).unwrap();
    let writer = spawn_writer(store.clone(), fast_writer());
    let handle = writer.handle();
    handle.submit(record("late", base_game(), 42)).unwrap();
    wait_until("failed attempts", LONG, || handle.stats().failed_attempts >= 2).await;
    assert_eq!(handle.stats().saved, 0);

    // The database "comes back": forward the port to the real server.
    let upstream = common::pg_authority(&common::pg_base_url().unwrap());
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    let proxy = tokio::spawn(async move {
        loop {
            let (mut client, _) = listener.accept().await.unwrap();
            let upstream = upstream.clone();
            tokio::spawn(async move {
                if let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    assert!(tokio::time::timeout(LONG, handle.flush())
        .await
        .expect("flush in time"));
    let stats = writer.shutdown().await;
    assert_eq!((stats.saved, stats.dropped), (1, 0));
    assert!(store.get("late").await.unwrap().is_some());
    store.close().await;
    proxy.abort();
    db.drop_db().await;
}

/// Shutdown while the database stays down does not hang: after the grace period the
/// game is given up (and logged in full).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_with_database_down_ends_after_the_grace_period() {
    let db = TestDb::sqlite_missing_dir();
    let store = Store::connect_lazy_with(Some(&db.url), fast_options()).unwrap();
    let config = WriterConfig {
        shutdown_grace: Duration::from_millis(300),
        ..fast_writer()
    };
    let writer = spawn_writer(store.clone(), config);
    writer.handle().submit(record("lost", base_game(), 1)).unwrap();
    wait_until("a failed attempt", LONG, || writer.stats().failed_attempts >= 1).await;
    let stats = tokio::time::timeout(LONG, writer.shutdown())
        .await
        .expect("shutdown ends");
    assert_eq!((stats.saved, stats.dropped, stats.pending()), (0, 1, 0));
    db.drop_db().await;
}

/// The migration that moved the action log into one column of `games`: games stored
/// before it, a row per action in `game_actions` (one with no actions at all), replay
/// after it with the same log, in order, with their seats and times.
async fn games_stored_as_rows_keep_their_log_through_the_migration(db: TestDb) {
    use sqlx::Connection;
    const LOG_COLUMN: i64 = 20261207000001;
    sqlx::any::install_default_drivers();
    let url = catan_store::resolve_url(Some(&db.url));
    let dir = if url.starts_with("postgres") {
        "postgres"
    } else {
        "sqlite"
    };
    // The migrations before it, applied from a copy of their files.
    let older = std::env::temp_dir().join(format!("catan-older-migrations-{}-{dir}", std::process::id()));
    std::fs::create_dir_all(&older).unwrap();
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../migrations")
        .join(dir);
    for entry in std::fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let version: i64 = name.split('_').next().unwrap().parse().unwrap();
        if version < LOG_COLUMN {
            std::fs::copy(&path, older.join(&name)).unwrap();
        }
    }
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    let migrator = sqlx::migrate::Migrator::new(older.as_path()).await.unwrap();
    assert!(migrator.iter().all(|m| m.version < LOG_COLUMN) && migrator.iter().count() >= 2);
    migrator.run(&mut conn).await.unwrap();
    let _ = std::fs::remove_dir_all(&older);

    // Two games as the old code wrote them: one with its log in rows, one with none.
    let full = record("old-full", base_game(), 1_700_000_000_000);
    let mut empty = record("old-empty", base_game(), 1_700_000_000_001);
    empty.actions.clear();
    for g in [&full, &empty] {
        sqlx::query(
            "INSERT INTO games (id, code, variant, config, player_count, seed, rules_version, status, \
             winner, action_count, created_at, started_at, finished_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&g.id)
        .bind(&g.code)
        .bind(g.variant())
        .bind(serde_json::to_string(&g.config).unwrap())
        .bind(i64::from(g.config.players))
        .bind(g.seed as i64)
        .bind(&g.rules_version)
        .bind(g.status.as_str())
        .bind(g.winner.map(i64::from))
        .bind(g.actions.len() as i64)
        .bind(g.created_at_ms)
        .bind(g.started_at_ms)
        .bind(g.finished_at_ms)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    // Written in reverse order: the migration orders the log by index, not by row.
    for a in full.actions.iter().rev() {
        sqlx::query(
            "INSERT INTO game_actions (game_id, idx, seat, action, at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&full.id)
        .bind(i64::from(a.index))
        .bind(i64::from(a.seat))
        .bind(serde_json::to_string(&a.action).unwrap())
        .bind(a.at_ms)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    conn.close().await.unwrap();

    // The store applies the rest (the log column) when it opens.
    let store = db.store().await;
    let replay = store
        .replay("old-full")
        .await
        .unwrap()
        .expect("the migrated game");
    assert_eq!(replay.actions, full.actions);
    assert_eq!(replay.seed, full.seed);
    let end = store
        .view_at("old-full", None, Viewer::Spectator)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(end, base_game().game.view(Viewer::Spectator));
    assert_eq!(store.replay("old-empty").await.unwrap().unwrap().actions, vec![]);
    // And the old table is gone: nothing writes or reads it any more.
    assert!(sqlx::query("SELECT COUNT(*) FROM game_actions")
        .fetch_one(store.pool())
        .await
        .is_err());
    store.close().await;
    db.drop_db().await;
}

/// Two servers started at once on one new SQLite file (a restart that overlaps the old
/// process, two test servers on the default file) both open it: the one that finds a
/// migration applied under it by the other waits and goes on, instead of failing to start
/// with "table games already exists". (Before, 4 of these 10 rounds failed.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_opening_one_new_sqlite_file_at_once_both_migrate_it() {
    for round in 0..10 {
        let db = TestDb::sqlite();
        let (a, b) = tokio::join!(Store::connect(Some(&db.url)), Store::connect(Some(&db.url)));
        let (a, b) = (
            a.unwrap_or_else(|e| panic!("round {round}: first store: {e}")),
            b.unwrap_or_else(|e| panic!("round {round}: second store: {e}")),
        );
        a.save(&record("raced", base_game(), 1)).await.unwrap();
        assert_eq!(b.count().await.unwrap(), 1);
        a.close().await;
        b.close().await;
        db.drop_db().await;
    }
}
