//! End-to-end: the lifecycle limits of issue 16 — reachable targets, turn cap, idle all-bot
//! rooms, room limits, keepalive and write timeouts, the close handshake, every frame
//! counted, strict decoding. Real server, real WebSocket, SQLite in a temporary directory.

use catan_e2e::*;
use catan_protocol::{close, ServerMsg};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}/games.db?mode=rwc", dir.path().display())
}

fn config(dir: &tempfile::TempDir) -> catan_server::Config {
    catan_server::Config::for_tests(Some(sqlite_url(dir)))
}

/// A server with the test defaults and one lobby room in it (its invite code).
async fn server_with_a_room(dir: &tempfile::TempDir) -> (TestServer, String) {
    let server = TestServer::start_with(config(dir)).await;
    let (code, _) = server.create_room(json!({})).await;
    (server, code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_targets_and_too_many_rooms_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.max_rooms_per_ip = 2;
    config.bot_delay_ms = 60_000;
    let server = TestServer::start_with(config).await;
    for options in [
        json!({"victory_points": 23}),
        json!({"players": 6, "victory_points": 30}),
        json!({"players": 5, "scenario": "helpers", "victory_points": 25}),
    ] {
        let (s, body) = server.http("POST", "/api/rooms", Some(&options)).await;
        assert_eq!(s, 400, "{options}: {body}");
        assert!(body["error"].as_str().unwrap().contains("out of reach"), "{body}");
    }
    server.create_room(json!({"victory_points": 22})).await;
    server.create_room(json!({})).await;
    // A third live room from the same address is refused; closing one frees a slot.
    let (s, body) = server.http("POST", "/api/rooms", Some(&json!({}))).await;
    assert_eq!(s, 429, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("too many live rooms from your address"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_all_bot_room_nobody_watches_closes_after_the_idle_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.room_idle_secs = 1;
    // Slow bots: the game cannot finish before the idle time is up.
    config.bot_delay_ms = 1_000;
    let server = TestServer::start_with(config).await;
    let (code, _) = server.create_room(json!({"players": 3, "bots": 3})).await;
    server.wait_room_status(&code, "playing").await;
    server.wait_room_gone(&code).await;
    let (_, health) = server.http("GET", "/healthz", None).await;
    assert_eq!(health["rooms"], 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_humans_stops_at_the_turn_cap_and_is_stored_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.bot_turn_cap = 12;
    let server = TestServer::start_with(config).await;
    // 22 points: random bots cannot get there in 12 turns.
    let (code, room_id) = server
        .create_room(json!({"players": 4, "bots": 4, "victory_points": 22, "seed": 5}))
        .await;
    let info = server.wait_room_status(&code, "finished").await;
    assert!(info["winner"].is_null(), "{info}");
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["status"], "abandoned", "{record}");
    assert!(record["winner"].is_null());
    assert!(record["action_count"].as_u64().unwrap() > 0, "{record}");
    // The stored log replays to a game at the capped turn, with nobody at the target.
    let (s, view) = server
        .http(
            "GET",
            &format!("/api/games/{room_id}/replay?at={}", record["action_count"]),
            None,
        )
        .await;
    assert_eq!(s, 200, "{view}");
    assert_eq!(view["view"]["turn"], 12, "{view}");
    server.stop().await;
}

/// Joins `code` as a spectator and then never reads again.
async fn deaf_spectator(url: &str, code: &str) -> Ws {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let join = json!({"type": "join", "code": code, "spectate": true});
    ws.send(Message::text(join.to_string())).await.unwrap();
    ws
}

/// Through the keepalive: deaf clients answer no ping.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_that_never_read_are_disconnected_and_their_sockets_released() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.write_timeout_ms = 1_000;
    config.ping_interval_ms = 500;
    config.pong_timeout_ms = 2_000;
    deaf_spectators_are_released(config, "keepalive").await;
}

/// Without the keepalive (pings far apart): their buffers fill, their queues overflow
/// (4008) and the pending write times out; they are disconnected all the same.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_spectators_dropped_with_4008_are_actually_disconnected() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.write_timeout_ms = 1_000;
    config.ping_interval_ms = 3_600_000;
    config.pong_timeout_ms = 3_600_000;
    deaf_spectators_are_released(config, "queue overflow and write timeout").await;
}

/// 50 spectators that never read, in a room whose bots play fast, and one that reads: the
/// 50 are disconnected (the server's socket count returns to what it was) while the room
/// and the reading spectator carry on.
#[cfg(target_os = "linux")]
async fn deaf_spectators_are_released(mut config: catan_server::Config, by: &str) {
    config.outbound_queue = 1024;
    config.bot_turn_cap = u32::MAX;
    // Fast bots (up to 500 moves a second), yet slow enough for one reading spectator in
    // an unoptimized test build to keep up.
    config.bot_delay_ms = 2;
    let server = TestServer::start_with(config).await;
    let port = server.addr.port();
    // Bots towards a target they will take long to reach.
    let (code, _) = server
        .create_room(json!({"players": 4, "bots": 4, "victory_points": 22, "seed": 3}))
        .await;
    let url = server.ws_url();
    // One spectator that does read, all along.
    let mut reader = Client::spectate(&url, &code).await;
    let (seen_tx, seen) = tokio::sync::watch::channel(0u64);
    let reading = tokio::spawn(async move {
        loop {
            match reader.recv().await {
                Got::Msg(m) => {
                    reader.track(&m);
                    let _ = seen_tx.send(reader.v);
                }
                Got::Closed(code) => return code,
            }
        }
    });
    let baseline = server_sockets(port);
    let mut deaf = Vec::new();
    for _ in 0..50 {
        deaf.push(deaf_spectator(&url, &code).await);
    }
    let started = std::time::Instant::now();
    let peak = server_sockets(port);
    assert!(
        peak >= baseline + 50,
        "baseline {baseline}, with 50 deaf spectators {peak}"
    );
    // All 50 are dropped by the server while they are still connected on our side.
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut last = peak;
    while last > baseline {
        assert!(
            tokio::time::Instant::now() < deadline,
            "still {last} server sockets (baseline {baseline})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        last = server_sockets(port);
    }
    eprintln!(
        "MEASURE ({by}): 50 deaf spectators disconnected in {:?}; server sockets {baseline} -> {peak} -> {last}",
        started.elapsed()
    );
    // The room never stalled: it answers, counts only the reading spectator, and that one
    // keeps getting updates.
    let info = server
        .poll(&format!("/api/rooms/{code}"), "deaf spectators gone", |s, b| {
            s == 200 && b["spectators"] == 1
        })
        .await;
    assert_eq!(info["status"], "playing", "{info}");
    let v = *seen.borrow();
    let mut seen = seen;
    tokio::time::timeout(WAIT, seen.wait_for(|nv| *nv > v + 1))
        .await
        .expect("the reading spectator keeps getting updates")
        .unwrap();
    assert!(!reading.is_finished(), "the reading spectator was dropped");
    drop(deaf);
    server.stop().await;
    reading.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_close_handshake_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let (server, code) = server_with_a_room(&dir).await;
    let mut c = Client::join(&server.ws_url(), &code, "Ann").await;
    c.ws.send(Message::Close(None)).await.unwrap();
    let answer = loop {
        match tokio::time::timeout(WAIT, c.ws.next()).await.expect("in time") {
            Some(Ok(Message::Close(f))) => break Some(f),
            Some(Ok(_)) => continue,
            _ => break None,
        }
    };
    assert!(answer.is_some(), "no close frame came back");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_and_ping_floods_are_closed_with_1008() {
    let dir = tempfile::tempdir().unwrap();
    // The production defaults of the per-connection limit.
    let mut config = config(&dir);
    config.rate_per_sec = 20;
    config.rate_burst = 60;
    let server = TestServer::start_with(config).await;
    let (code, _) = server.create_room(json!({})).await;
    let url = server.ws_url();
    let mut binary = Client::spectate(&url, &code).await;
    // Binary frames are answered with an error, and counted.
    let _ = binary.ws.send(Message::binary(vec![1u8, 2, 3])).await;
    let e = binary.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(&e, ServerMsg::Error { message, .. } if message.contains("binary")),
        "{e:?}"
    );
    for _ in 0..1000 {
        if binary.ws.send(Message::binary(vec![0u8; 8])).await.is_err() {
            break;
        }
    }
    assert_eq!(binary.closed().await, Some(close::POLICY));
    let mut pings = Client::spectate(&url, &code).await;
    for _ in 0..1000 {
        if pings.ws.send(Message::Ping(vec![7u8].into())).await.is_err() {
            break;
        }
    }
    assert_eq!(pings.closed().await, Some(close::POLICY));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_64_kib_is_closed_with_1009() {
    let dir = tempfile::tempdir().unwrap();
    let (server, code) = server_with_a_room(&dir).await;
    let mut c = Client::spectate(&server.ws_url(), &code).await;
    c.send_raw(format!(
        "{{\"type\":\"chat\",\"text\":\"{}\"}}",
        "z".repeat(70 * 1024)
    ))
    .await;
    assert_eq!(c.closed().await, Some(close::TOO_BIG));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_decoding_names_the_problem_and_keeps_the_seat() {
    let dir = tempfile::tempdir().unwrap();
    let (server, code) = server_with_a_room(&dir).await;
    let mut c = Client::join(&server.ws_url(), &code, "Ann").await;
    for (raw, names) in [
        (r#"{"type":"chat","text":"a","text":"b"}"#, "duplicate key `text`"),
        (r#"{"type":1,"edge":3}"#, "\"type\" must be a string"),
        (r#"{"type":"resync","x":1}"#, "unknown field `x`"),
        (
            r#"{"type":"action","action":{"type":"roll_dice","edge":3}}"#,
            "unknown field `action.edge`",
        ),
    ] {
        c.send_raw(raw.into()).await;
        let e = c.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(&e, ServerMsg::Error { message, .. } if message.contains(names)),
            "{raw}: {e:?}"
        );
    }
    // The seat is still open.
    c.send(json!({"type": "ping"})).await;
    c.recv_until(|m| matches!(m, ServerMsg::Pong)).await;
    server.stop().await;
}

/// A game whose people all left (no connection for the room's idle time) is stored as
/// abandoned with its actions, and leaves the journal of live games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_everyone_left_is_stored_abandoned_with_its_actions() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.room_idle_secs = 1;
    let server = TestServer::start_with(config).await;
    let (code, room_id) = server.create_room(json!({"players": 3, "bots": 2})).await;
    let url = server.ws_url();
    let mut ann = Client::join(&url, &code, "Ann").await;
    ann.send(json!({"type": "start"})).await;
    ann.recv_until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    // Ann places her first settlement and road (once the bots before her have placed
    // theirs), then walks away for good.
    let mut rng = catan_rules::Rng::new(3);
    let mut placed = 0;
    while placed < 2 {
        if let Some(action) = ann.choose(&mut rng) {
            ann.send(json!({"type": "action", "action": action})).await;
            placed += 1;
        }
        ann.recv_until(|m| matches!(m, ServerMsg::Update { .. })).await;
    }
    drop(ann);
    server.wait_room_gone(&code).await;
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["status"], "abandoned", "{record}");
    assert!(record["winner"].is_null());
    assert!(record["action_count"].as_u64().unwrap() >= 2, "{record}");
    let store = catan_store::Store::connect(Some(&sqlite_url(&dir)))
        .await
        .unwrap();
    assert!(
        store.live_games().await.unwrap().is_empty(),
        "the game left the journal"
    );
    store.close().await;
    server.stop().await;
}
