//! What an operator relies on, over real HTTP and WebSocket: `/metrics`, `/readyz`, request
//! ids, JSON error bodies everywhere, the per-address limits, CORS, the seed rule, and the
//! `room` message when a player's socket closes.

use catan_e2e::*;
use catan_protocol::ServerMsg;
use serde_json::json;

fn sqlite_config(dir: &tempfile::TempDir) -> catan_server::Config {
    catan_server::Config::for_tests(Some(sqlite_url(dir)))
}

/// The value of the first sample of `name` whose labels contain `labels`.
fn sample(metrics: &str, name: &str, labels: &str) -> Option<f64> {
    metrics
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find(|l| l.starts_with(name) && l.contains(labels))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_rooms_connections_actions_and_store_writes() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(sqlite_config(&dir)).await;
    let (code, room_id) = server
        .create_room(json!({"players": 3, "bots": 3, "seed": 4}))
        .await;
    let mut spectator = Client::spectate(&server.ws_url(), &code).await;
    server.wait_room_status(&code, "finished").await;
    server.wait_stored(&room_id).await;
    spectator
        .recv_until(|m| matches!(m, ServerMsg::Room { .. }))
        .await;

    let (status, text) = http_text(server.addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    for name in [
        "catan_rooms",
        "catan_connections",
        "catan_actions_applied_total",
        "catan_action_broadcast_seconds_bucket",
        "catan_store_writes_total",
        "catan_store_queue_length",
    ] {
        assert!(text.contains(name), "/metrics lacks {name}:\n{text}");
    }
    assert!(sample(&text, "catan_actions_applied_total", "kind=\"roll_dice\"").unwrap() >= 1.0);
    assert!(sample(&text, "catan_actions_applied_total", "kind=\"end_turn\"").unwrap() >= 1.0);
    assert!(sample(&text, "catan_rooms", "status=\"finished\"").unwrap() >= 1.0);
    assert!(sample(&text, "catan_connections", "role=\"spectator\"").unwrap() >= 1.0);
    assert!(sample(&text, "catan_store_writes_total", "").unwrap() >= 1.0);
    // The game's start, actions and end went through the journal.
    assert!(sample(&text, "catan_journal_commits_total", "").unwrap() >= 1.0);
    assert!(sample(&text, "catan_journal_records_total", "").unwrap() >= 3.0);
    // Each commit's duration, the journal's share of what players wait.
    assert!(sample(&text, "catan_journal_commit_seconds_count", "").unwrap() >= 1.0);
    assert!(
        text.contains("catan_journal_commit_seconds_bucket{le=\"0.001\"}"),
        "{text}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_request_ids_and_json_errors() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(sqlite_config(&dir)).await;
    let (status, body) = server.http("GET", "/healthz", None).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));
    let (status, body) = server.http("GET", "/readyz", None).await;
    assert_eq!((status, body["store"].as_str()), (200, Some("ok")), "{body}");

    // Every response carries a request id; one the client sent is kept.
    let client = reqwest::Client::new();
    let r = client
        .get(format!("http://{}/healthz", server.addr))
        .send()
        .await
        .unwrap();
    assert!(r.headers().contains_key("x-request-id"));
    let r = client
        .get(format!("http://{}/healthz", server.addr))
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "trace-me-42");

    // The JSON Schema of the wire types, as checked in.
    let (status, schema) = http_text(server.addr, "GET", "/api/schema", None).await;
    assert_eq!(status, 200);
    let checked_in =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol.schema.json")).unwrap();
    assert!(
        schema == checked_in,
        "/api/schema differs from protocol.schema.json"
    );

    // Errors are JSON with an "error" field, whatever went wrong.
    for (method, path, want) in [
        ("GET", "/api/games?limit=abc", 400),
        ("GET", "/api/games/x/replay?at=minus-one", 400),
        ("GET", "/no/such/route", 404),
        ("DELETE", "/api/rooms", 405),
        ("GET", "/api/rooms/ZZZZZZZZ", 404),
    ] {
        let (status, text) = http_text(server.addr, method, path, None).await;
        assert_eq!(status, want, "{method} {path}: {text}");
        let body: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path}: not JSON: {text}"));
        assert!(body["error"].is_string(), "{method} {path}: {body}");
    }
    server.stop().await;
}

/// `/readyz` says whether the store answers: Postgres behind a proxy the test owns, which
/// it then stops (the shared Postgres service itself is never touched).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_fails_when_the_store_is_unreachable() {
    let Some(pg) = postgres_url() else { return };
    let proxy = Proxy::start(&pg).await;
    let url = proxy.url(&pg);
    let server = TestServer::start(Some(url)).await;
    let (status, _) = server.http("GET", "/readyz", None).await;
    assert_eq!(status, 200);
    proxy.stop();
    let body = server
        .poll("/readyz", "readyz unavailable", |s, _| s == 503)
        .await;
    assert_eq!(body["store"], "unreachable", "{body}");
    let (status, _) = server.http("GET", "/healthz", None).await;
    assert_eq!(status, 200, "liveness does not depend on the store");
    // The server still shuts down (the writer has nothing pending).
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seed_option_is_refused_with_people_at_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = sqlite_config(&dir);
    config.allow_seed = false;
    let server = TestServer::start_with(config).await;
    let (status, body) = server
        .http(
            "POST",
            "/api/rooms",
            Some(&json!({"players": 4, "bots": 3, "seed": 7})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("seed"), "{body}");
    // All bots: nobody to cheat, the seed is fine (replays of a known board).
    let (status, body) = server
        .http(
            "POST",
            "/api/rooms",
            Some(&json!({"players": 3, "bots": 3, "seed": 7})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_address_limits_on_rooms_and_websockets() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = sqlite_config(&dir);
    config.rooms_per_minute_per_ip = 3;
    config.ws_per_minute_per_ip = 2;
    let server = TestServer::start_with(config).await;
    for _ in 0..3 {
        server.create_room(json!({"players": 3})).await;
    }
    let r = reqwest::Client::new()
        .post(format!("http://{}/api/rooms", server.addr))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    assert!(r.headers().contains_key("retry-after"));
    let body: serde_json::Value = r.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("too many"), "{body}");

    let _a = tokio_tungstenite::connect_async(server.ws_url()).await.unwrap();
    let _b = tokio_tungstenite::connect_async(server.ws_url()).await.unwrap();
    match tokio_tungstenite::connect_async(server.ws_url()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status().as_u16(), 429),
        other => panic!("third upgrade within the minute: {:?}", other.map(|_| ())),
    }
    let (_, metrics) = http_text(server.addr, "GET", "/metrics", None).await;
    assert!(metrics.contains("catan_per_ip_limited_total"), "{metrics}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_is_off_unless_an_origin_is_allowed() {
    let client = reqwest::Client::new();
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(sqlite_config(&dir)).await;
    let r = client
        .get(format!("http://{}/api/games", server.addr))
        .header("origin", "http://elsewhere.example")
        .send()
        .await
        .unwrap();
    assert!(!r.headers().contains_key("access-control-allow-origin"));
    server.stop().await;

    let mut config = sqlite_config(&dir);
    config.cors_origins = vec!["http://friends.example".into()];
    let server = TestServer::start_with(config).await;
    let allowed = client
        .get(format!("http://{}/api/games", server.addr))
        .header("origin", "http://friends.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "http://friends.example"
    );
    let other = client
        .get(format!("http://{}/api/games", server.addr))
        .header("origin", "http://elsewhere.example")
        .send()
        .await
        .unwrap();
    assert!(!other.headers().contains_key("access-control-allow-origin"));
    server.stop().await;
}

/// Everyone is told when a player's socket closes (and when it comes back).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_message_when_a_player_disconnects() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(sqlite_config(&dir)).await;
    let (code, _) = server.create_room(json!({"players": 3})).await;
    let url = server.ws_url();
    let mut ann = Client::join(&url, &code, "Ann").await;
    let bo = Client::join(&url, &code, "Bo").await;
    let mut watcher = Client::spectate(&url, &code).await;
    let connected = |m: &ServerMsg, seat: usize, want: bool| match m {
        ServerMsg::Room { room } => room.seats[seat].connected == want,
        _ => false,
    };
    ann.recv_until(|m| connected(m, 1, true)).await;
    drop(bo);
    ann.recv_until(|m| connected(m, 1, false)).await;
    watcher.recv_until(|m| connected(m, 1, false)).await;
    server.stop().await;
}

/// Reads one WebSocket frame from a raw socket: (FIN, opcode, payload). Server frames are
/// never masked.
async fn read_frame(tcp: &mut (impl tokio::io::AsyncRead + Unpin)) -> (bool, u8, Vec<u8>) {
    use tokio::io::AsyncReadExt;
    let mut head = [0u8; 2];
    tcp.read_exact(&mut head).await.unwrap();
    assert_eq!(head[1] & 0x80, 0, "a server frame must not be masked");
    let len = match head[1] & 0x7f {
        126 => {
            let mut b = [0u8; 2];
            tcp.read_exact(&mut b).await.unwrap();
            u16::from_be_bytes(b) as usize
        }
        127 => {
            let mut b = [0u8; 8];
            tcp.read_exact(&mut b).await.unwrap();
            u64::from_be_bytes(b) as usize
        }
        n => n as usize,
    };
    let mut payload = vec![0u8; len];
    tcp.read_exact(&mut payload).await.unwrap();
    (head[0] & 0x80 != 0, head[0] & 0x0f, payload)
}

/// The upgrade is checked before anything else (a plain GET gets a JSON 400), and a
/// message larger than 1 KiB, such as a 4-player game's snapshot, goes out as a text frame
/// and continuation frames of at most 1 KiB that reassemble into the message (the server
/// fragments so that no connection keeps a snapshot-sized write buffer). Spoken in raw
/// frames, so the fragmentation itself is what is checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upgrades_are_checked_and_large_messages_arrive_in_fragments() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(sqlite_config(&dir)).await;

    let (status, body) = http(server.addr, "GET", "/ws", None).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("upgrade"), "{body}");

    let (code, _) = server
        .create_room(json!({"players": 4, "bots": 4, "seed": 11}))
        .await;
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        server.addr
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut reader = tokio::io::BufReader::new(&mut tcp);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).await.unwrap();
    assert!(status_line.starts_with("HTTP/1.1 101"), "{status_line}");
    let mut accept = None;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).await.unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("sec-websocket-accept:") {
            accept = Some(v.trim().to_string());
        }
    }
    // RFC 6455 §1.3's own example key and answer.
    assert_eq!(accept.as_deref(), Some("s3pplmbitxaq9kygzzhzrbk+xoo="));
    assert!(reader.buffer().is_empty(), "no frame before the join");
    drop(reader);

    // The join, masked with the key 0 (the payload then stays as it is).
    let join = json!({"type": "join", "code": code, "spectate": true}).to_string();
    let mut frame = vec![0x81, 0x80 | join.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(join.as_bytes());
    tcp.write_all(&frame).await.unwrap();

    let mut fragmented = 0;
    let mut message = Vec::new();
    let mut in_message = false;
    // The welcome (short, one frame), then the snapshot (fragmented). Bots may finish the
    // game soon after, so only the first fragmented message is awaited.
    while fragmented < 1 {
        let (fin, opcode, payload) =
            tokio::time::timeout(std::time::Duration::from_secs(10), read_frame(&mut tcp))
                .await
                .expect("frames keep coming while the bots play");
        match opcode {
            0x1 => {
                assert!(!in_message, "a new message inside a fragmented one");
                message = payload;
                in_message = !fin;
                if !fin {
                    assert_eq!(message.len(), 1024, "the first fragment is a full 1 KiB");
                }
            }
            0x0 => {
                assert!(in_message, "a continuation frame outside a message");
                assert!(payload.len() <= 1024);
                message.extend_from_slice(&payload);
                if fin {
                    in_message = false;
                    let msg: serde_json::Value =
                        serde_json::from_slice(&message).expect("the fragments reassemble into JSON");
                    assert!(msg["type"].is_string(), "{msg}");
                    assert!(message.len() > 1024);
                    fragmented += 1;
                }
            }
            0x9 | 0xA => {}
            other => panic!(
                "unexpected opcode {other} before a fragmented message: {}",
                String::from_utf8_lossy(&payload)
            ),
        }
        if fin && opcode == 0x1 {
            assert!(message.len() <= 1024, "a message over 1 KiB sent unfragmented");
            serde_json::from_slice::<serde_json::Value>(&message).expect("JSON");
        }
    }
    server.stop().await;
}

/// A client may send its first frames without waiting for the 101 (RFC 6455 §4.1 lets it
/// send once it has the answer, but a client that pipelines is not wrong to expect them
/// read): the join written in the same segment as the upgrade request, which the HTTP
/// parser reads along with the request, is still the session's first message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_sent_with_the_upgrade_request_is_read() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(sqlite_config(&dir)).await;
    let (code, _) = server.create_room(json!({"players": 3})).await;
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut bytes = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        server.addr
    )
    .into_bytes();
    // The join, masked with the key 0 (the payload then stays as it is).
    let join = json!({"type": "join", "code": code, "name": "Early"}).to_string();
    bytes.extend_from_slice(&[0x81, 0x80 | join.len() as u8, 0, 0, 0, 0]);
    bytes.extend_from_slice(join.as_bytes());
    tcp.write_all(&bytes).await.unwrap();

    let mut reader = tokio::io::BufReader::new(&mut tcp);
    let mut line = String::new();
    reader.read_line(&mut line).await.unwrap();
    assert!(line.starts_with("HTTP/1.1 101"), "{line}");
    while line != "\r\n" {
        line.clear();
        reader.read_line(&mut line).await.unwrap();
    }
    let (fin, opcode, payload) =
        tokio::time::timeout(std::time::Duration::from_secs(10), read_frame(&mut reader))
            .await
            .expect("the session answers the join it was sent");
    assert!(fin && opcode == 0x1, "opcode {opcode}");
    let msg: serde_json::Value = serde_json::from_slice(&payload).unwrap();
    assert_eq!(msg["type"], "welcome", "{msg}");
    assert_eq!(msg["seat"], 0, "{msg}");
    server.stop().await;
}
