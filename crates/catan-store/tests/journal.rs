//! The journal of live games against real databases (SQLite always, Postgres when
//! `CATAN_TEST_POSTGRES_URL` is set): what goes in comes back out in order, the
//! acknowledgements follow the commits, many rooms' records share transactions, a game's
//! end moves it to the finished games in one step, and seat tokens are never stored.

mod common;

use catan_rules::Game;
use catan_store::{
    hash_token, spawn_journal, ActionRecord, CommitObserver, Durable, JournalConfig, JournalOp, LiveGame,
    LiveSeat, Store,
};
use common::{base_game, helpers_game, record, Played, TestDb};
use sqlx::Row;
use std::sync::Arc;

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

on_both!(journaled_games_come_back_in_order_and_end_as_finished_rows);
on_both!(many_rooms_share_commits);

fn live(id: &str, played: &Played, token: &str) -> LiveGame {
    let game = &played.game;
    LiveGame {
        id: id.to_string(),
        code: format!("CODE{}", id.len()),
        options: format!("{{\"players\":{}}}", game.players()),
        config: *game.config(),
        seed: game.seed(),
        rules_version: catan_rules::RULES_VERSION.to_string(),
        host: Some(0),
        created_at_ms: 1_700_000_000_000,
        started_at_ms: 1_700_000_001_000,
        seats: (0..game.players())
            .map(|s| LiveSeat {
                name: format!("seat {s}"),
                bot: s > 0,
                token_hash: (s == 0).then(|| hash_token(token)),
            })
            .collect(),
    }
}

fn appends(id: &str, played: &Played, upto: usize, ack: &Arc<Durable>) -> Vec<JournalOp> {
    let game_id: Arc<str> = id.into();
    played.log[..upto]
        .iter()
        .enumerate()
        .map(|(i, &(seat, action))| JournalOp::Append {
            game_id: game_id.clone(),
            record: ActionRecord {
                index: i as u32,
                seat,
                action,
                at_ms: 1_700_000_002_000 + i as i64,
            },
            ack: ack.clone(),
        })
        .collect()
}

async fn journaled_games_come_back_in_order_and_end_as_finished_rows(db: TestDb) {
    let store = db.store().await;
    let journal = spawn_journal(store.clone(), JournalConfig::default());
    let handle = journal.handle();
    let token = "a-long-random-seat-token-for-seat-0";
    let (a, b) = (base_game(), helpers_game());
    let (ack_a, ack_b) = (Durable::new(0), Durable::new(0));
    let half_a = a.log.len() / 2;
    handle
        .try_send(JournalOp::Start(Box::new(live("game-a", a, token))))
        .unwrap();
    handle
        .try_send(JournalOp::Start(Box::new(live("game-b", b, token))))
        .unwrap();
    for op in appends("game-a", a, half_a, &ack_a) {
        handle.try_send(op).unwrap();
    }
    for op in appends("game-b", b, b.log.len(), &ack_b) {
        handle.try_send(op).unwrap();
    }
    assert!(handle.flush().await);
    assert_eq!(
        ack_a.count(),
        half_a as u64,
        "acknowledged up to the last committed action"
    );
    assert_eq!(ack_b.count(), b.log.len() as u64);

    // Read back (from a second store on the same database, as a restarted server would).
    let reopened = Store::connect(Some(&db.url)).await.unwrap();
    let games = reopened.live_games().await.unwrap();
    assert_eq!(games.len(), 2);
    let got_a = games.iter().find(|g| g.game.id == "game-a").unwrap();
    assert_eq!(got_a.game, live("game-a", a, token));
    assert_eq!(got_a.actions.len(), half_a);
    // Replaying the journal gives the game as it was after those actions.
    let mut replayed = Game::new(got_a.game.config, got_a.game.seed).unwrap();
    let mut expected = Game::new(*a.game.config(), a.game.seed()).unwrap();
    for (r, &(seat, action)) in got_a.actions.iter().zip(&a.log) {
        assert_eq!((r.seat, r.action), (seat, action));
        replayed.apply(r.seat, r.action).unwrap();
        expected.apply(seat, action).unwrap();
    }
    assert_eq!(
        replayed.view(catan_rules::Viewer::Seat(0)),
        expected.view(catan_rules::Viewer::Seat(0))
    );

    // Seat tokens are stored as hashes only.
    let rows = sqlx::query("SELECT token_hash FROM live_seats")
        .fetch_all(reopened.pool())
        .await
        .unwrap();
    let mut hashes = 0;
    for row in rows {
        let h: Option<String> = row.try_get("token_hash").unwrap();
        if let Some(h) = h {
            assert_eq!(h, hash_token(token));
            assert!(!h.contains(token));
            hashes += 1;
        }
    }
    assert_eq!(hashes, 2);

    // Game b ends: it becomes a finished game and leaves the journal, in one commit.
    let finished = record("game-b", b, 1_700_000_009_000);
    handle
        .try_send(JournalOp::End(Box::new(finished.clone())))
        .unwrap();
    assert!(handle.flush().await);
    let games = reopened.live_games().await.unwrap();
    assert_eq!(
        games.iter().map(|g| g.game.id.as_str()).collect::<Vec<_>>(),
        ["game-a"]
    );
    let replay = reopened.replay("game-b").await.unwrap().expect("stored");
    assert_eq!(replay.actions.len(), b.log.len());
    let left: i64 = sqlx::query("SELECT COUNT(*) AS n FROM live_actions WHERE game_id = 'game-b'")
        .fetch_one(reopened.pool())
        .await
        .unwrap()
        .try_get("n")
        .unwrap();
    assert_eq!(left, 0);

    // The rest of game a, after a retry of records already committed (idempotent).
    for op in appends("game-a", a, a.log.len(), &ack_a) {
        handle.try_send(op).unwrap();
    }
    let stats = journal.shutdown().await;
    assert_eq!(stats.dropped, 0);
    assert_eq!(ack_a.count(), a.log.len() as u64);
    let games = reopened.live_games().await.unwrap();
    assert_eq!(games[0].actions.len(), a.log.len());
    reopened.close().await;
    store.close().await;
    db.drop_db().await;
}

/// Forty rooms' actions, queued together, go in far fewer commits than records; the
/// observer hears of each commit.
async fn many_rooms_share_commits(db: TestDb) {
    let store = db.store().await;
    let observed = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = observed.clone();
    let config = JournalConfig {
        on_commit: Some(CommitObserver(Arc::new(move |took| {
            seen.lock().unwrap().push(took)
        }))),
        ..JournalConfig::default()
    };
    let journal = spawn_journal(store.clone(), config);
    let handle = journal.handle();
    let played = base_game();
    let acks: Vec<Arc<Durable>> = (0..40).map(|_| Durable::new(0)).collect();
    for (g, ack) in acks.iter().enumerate() {
        let id = format!("room-{g}");
        handle
            .try_send(JournalOp::Start(Box::new(live(&id, played, "t"))))
            .unwrap();
        for op in appends(&id, played, 50, ack) {
            handle.try_send(op).unwrap();
        }
    }
    assert!(handle.flush().await);
    let stats = handle.stats();
    assert_eq!(stats.records, 40 * 51);
    assert!(stats.commits < 40, "{stats:?}: rooms' records share transactions");
    let observed = observed.lock().unwrap().clone();
    assert_eq!(observed.len() as u64, stats.commits, "one observation per commit");
    assert!(observed.iter().all(|d| *d > std::time::Duration::ZERO));
    assert!(acks.iter().all(|a| a.count() == 50));
    let games = store.live_games().await.unwrap();
    assert_eq!(games.len(), 40);
    assert!(games.iter().all(|g| g.actions.len() == 50));
    journal.shutdown().await;
    store.close().await;
    db.drop_db().await;
}

/// The journal keeps one connection from commit to commit. When the database drops it (a
/// restart, an administrator ending the session), the next commit fails, that connection
/// is closed, and the retry goes through a new one: nothing queued is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_dropped_journal_connection_is_replaced() {
    let config = JournalConfig {
        initial_backoff: std::time::Duration::from_millis(20),
        ..JournalConfig::default()
    };
    let Some(mut j) = NamedJournal::start("kept", config).await else {
        return;
    };
    for op in j.ops.by_ref().take(10) {
        j.handle.try_send(op).unwrap();
    }
    assert!(j.handle.flush().await);
    assert_eq!(j.ack.count(), 10);
    assert_eq!(j.handle.stats().failed_attempts, 0);

    let ended: i64 = sqlx::query(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = $1) AS t",
    )
    .bind(&j.app)
    .fetch_one(&mut j.admin)
    .await
    .unwrap()
    .get(0);
    assert!(ended >= 1, "the journal's session was open");

    for op in j.ops.by_ref() {
        j.handle.try_send(op).unwrap();
    }
    let flushed = tokio::time::timeout(std::time::Duration::from_secs(30), j.handle.flush()).await;
    assert_eq!(flushed, Ok(true), "the journal stuck to its dropped connection");
    assert_eq!(j.ack.count(), 20, "the actions after the drop are committed");
    let stats = j.handle.stats();
    assert!(
        stats.failed_attempts >= 1,
        "{stats:?}: the dropped connection failed once"
    );
    assert_eq!(stats.dropped, 0);
    let games = j.store.live_games().await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].actions.len(), 20);
    j.finish().await;
}

/// The journal's kept connection is replaced once older than `connection_lifetime` (it
/// never goes back to the pool, whose own age limit therefore does not reach it): the
/// next commit after that goes through a new session, and the old one is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_journal_connection_is_replaced_when_old() {
    let lifetime = std::time::Duration::from_millis(300);
    let config = JournalConfig {
        connection_lifetime: lifetime,
        ..JournalConfig::default()
    };
    let Some(mut j) = NamedJournal::start("aged", config).await else {
        return;
    };
    // Two commits within the lifetime share one session.
    for op in j.ops.by_ref().take(5) {
        j.handle.try_send(op).unwrap();
    }
    assert!(j.handle.flush().await);
    let first = journal_sessions(&mut j.admin, &j.app).await;
    assert_eq!(first.len(), 1, "one journal session: {first:?}");
    for op in j.ops.by_ref().take(5) {
        j.handle.try_send(op).unwrap();
    }
    assert!(j.handle.flush().await);
    assert_eq!(
        journal_sessions(&mut j.admin, &j.app).await,
        first,
        "kept within its lifetime"
    );

    // Past it, the next commit opens a new one and the old one is closed.
    tokio::time::sleep(lifetime * 2).await;
    for op in j.ops.by_ref() {
        j.handle.try_send(op).unwrap();
    }
    assert!(j.handle.flush().await);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let now = loop {
        let now = journal_sessions(&mut j.admin, &j.app).await;
        if !now.contains(&first[0]) || std::time::Instant::now() > deadline {
            break now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(now.len(), 1, "one journal session: {now:?}");
    assert_ne!(now, first, "a new session after the lifetime");
    assert_eq!(j.ack.count(), 20);
    let stats = j.handle.stats();
    assert_eq!(
        stats.failed_attempts, 0,
        "{stats:?}: a planned replacement, not a failure"
    );
    j.finish().await;
}

/// The sessions named `app` whose last statement was the journal's insert.
async fn journal_sessions(admin: &mut sqlx::AnyConnection, app: &str) -> Vec<i32> {
    sqlx::query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 \
         AND query LIKE 'INSERT INTO live_actions%'",
    )
    .bind(app)
    .fetch_all(admin)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get::<i32, _>(0))
    .collect()
}

/// A journal on Postgres whose sessions carry a name of their own (to find or end
/// exactly them, through `admin`, a session of the test's own: other tests share the
/// database), with game `id` started and its first 20 actions ready to send.
struct NamedJournal {
    db: TestDb,
    admin: sqlx::AnyConnection,
    store: Store,
    journal: catan_store::Journal,
    handle: catan_store::JournalHandle,
    ack: Arc<Durable>,
    ops: std::vec::IntoIter<JournalOp>,
    app: String,
}

impl NamedJournal {
    async fn start(id: &str, config: JournalConfig) -> Option<NamedJournal> {
        let mut db = TestDb::postgres().await?;
        let app = format!("catan_journal_{id}_{}", std::process::id());
        db.url.push_str(&format!("&application_name={app}"));
        let store = db.store().await;
        let journal = spawn_journal(store.clone(), config);
        let handle = journal.handle();
        let played = base_game();
        let ack = Durable::new(0);
        handle
            .try_send(JournalOp::Start(Box::new(live(id, played, "t"))))
            .unwrap();
        let ops = appends(id, played, 20, &ack).into_iter();
        let admin = <sqlx::AnyConnection as sqlx::Connection>::connect(&common::pg_base_url()?)
            .await
            .unwrap();
        Some(NamedJournal {
            db,
            admin,
            store,
            journal,
            handle,
            ack,
            ops,
            app,
        })
    }

    async fn finish(self) {
        <sqlx::AnyConnection as sqlx::Connection>::close(self.admin)
            .await
            .unwrap();
        self.journal.shutdown().await;
        self.store.close().await;
        self.db.drop_db().await;
    }
}
