//! A network hang in the middle of a write, against real Postgres through a test-owned TCP
//! proxy (never the shared service itself): the proxy forwards until it sees the game's
//! `INSERT`, then stops forwarding in both directions (data and connection ends alike),
//! as a dead network would. The writer abandons the hung write at its timeout and retries;
//! once the proxy forwards again the game is stored exactly once.

mod common;

use catan_store::{spawn_writer, Store, StoreOptions, WriterConfig};
use common::{base_game, record, wait_until, TestDb};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

const LONG: Duration = Duration::from_secs(60);

/// Controls of the proxy: paused or forwarding, and the bytes whose sighting (client to
/// server) pauses it right after forwarding them.
struct Ctl {
    paused: watch::Sender<bool>,
    pause_after: Mutex<Option<Vec<u8>>>,
}

impl Ctl {
    async fn running(&self) {
        let mut rx = self.paused.subscribe();
        let _ = rx.wait_for(|paused| !paused).await;
    }

    fn seen(&self, chunk: &[u8]) {
        let mut trigger = self.pause_after.lock().unwrap();
        if let Some(t) = trigger.as_ref() {
            if chunk.windows(t.len()).any(|w| w == t.as_slice()) {
                *trigger = None;
                self.paused.send_replace(true);
            }
        }
    }
}

/// Copies one direction; while paused, nothing passes, not even the end of the stream.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    ctl: Arc<Ctl>,
    client_side: bool,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = from.read(&mut buf).await.unwrap_or(0);
        ctl.running().await;
        if n == 0 || to.write_all(&buf[..n]).await.is_err() {
            break;
        }
        if client_side {
            ctl.seen(&buf[..n]);
        }
    }
    let _ = to.shutdown().await;
}

async fn proxy(upstream: String, ctl: Arc<Ctl>) -> (u16, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        loop {
            let Ok((client, _)) = listener.accept().await else {
                return;
            };
            let ctl = ctl.clone();
            let upstream = upstream.clone();
            tokio::spawn(async move {
                ctl.running().await;
                let Ok(server) = TcpStream::connect(upstream).await else {
                    return;
                };
                let (cr, cw) = client.into_split();
                let (sr, sw) = server.into_split();
                tokio::spawn(pump(cr, sw, ctl.clone(), true));
                tokio::spawn(pump(sr, cw, ctl, false));
            });
        }
    });
    (port, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_hung_mid_transaction_is_abandoned_and_retried() {
    let ctl = Arc::new(Ctl {
        paused: watch::channel(false).0,
        pause_after: Mutex::new(None),
    });
    let Some(pg) = common::pg_base_url() else {
        return;
    };
    let upstream = common::pg_authority(&pg);
    let (port, proxy_task) = proxy(upstream, ctl.clone()).await;
    let db = TestDb::postgres_via(Some(port)).await.expect("configured above");
    let options = StoreOptions {
        max_connections: 4,
        acquire_timeout: Duration::from_secs(1),
        statement_timeout: Duration::from_secs(2),
    };
    let store = Store::connect_lazy_with(Some(&db.url), options).unwrap();
    store.ensure_ready().await.unwrap();
    let writer = spawn_writer(
        store.clone(),
        WriterConfig {
            initial_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_millis(200),
            write_timeout: Duration::from_secs(1),
            ..WriterConfig::default()
        },
    );
    let handle = writer.handle();

    // The game's INSERT reaches the database, then the network goes dead.
    *ctl.pause_after.lock().unwrap() = Some(b"INSERT INTO games".to_vec());
    let game = record("hung", base_game(), 7);
    let actions = game.actions.len();
    handle.submit(game).unwrap();
    wait_until("the proxy stops mid-write", LONG, || *ctl.paused.borrow()).await;
    // Nothing gets through, so only the writer's own timeout can end an attempt.
    wait_until("the hung write is abandoned and retried", LONG, || {
        handle.stats().failed_attempts >= 2
    })
    .await;
    assert_eq!(handle.stats().saved, 0);

    ctl.paused.send_replace(false);
    assert!(tokio::time::timeout(LONG, handle.flush())
        .await
        .expect("flush in time"));
    let stats = writer.shutdown().await;
    assert_eq!((stats.saved, stats.dropped), (1, 0), "{stats:?}");
    eprintln!(
        "MEASURE: hung write: {} failed attempts before the proxy resumed",
        stats.failed_attempts
    );
    // Stored once, whole.
    assert_eq!(store.count().await.unwrap(), 1);
    let stored = store.replay("hung").await.unwrap().expect("stored");
    assert_eq!(stored.actions.len(), actions);
    store.close().await;
    proxy_task.abort();
    db.drop_db().await;
}
