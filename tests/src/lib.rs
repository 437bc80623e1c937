//! The end-to-end harness: a real server on an ephemeral port, an HTTP client, and a
//! WebSocket client that keeps its view up to date from snapshots and patches.

pub mod browser;

use catan_protocol::ServerMsg;
use catan_rules::{Action, Requirement, ResourceSet, Rng};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;

pub const WAIT: Duration = Duration::from_secs(60);

pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    pub async fn start(database_url: Option<String>) -> TestServer {
        TestServer::start_with(catan_server::Config::for_tests(database_url)).await
    }

    pub async fn start_with(config: catan_server::Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(catan_server::serve(config, listener, async move {
            let _ = rx.await;
        }));
        TestServer {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Graceful shutdown; waits until the server has flushed and returned.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let r = tokio::time::timeout(WAIT, self.task.take().unwrap())
            .await
            .expect("server stops");
        r.unwrap().unwrap();
    }

    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    pub async fn http(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        http(self.addr, method, path, body).await
    }

    pub async fn create_room(&self, options: Value) -> (String, String) {
        let (status, body) = self.http("POST", "/api/rooms", Some(&options)).await;
        assert_eq!(status, 201, "{body}");
        (
            body["code"].as_str().unwrap().to_string(),
            body["room_id"].as_str().unwrap().to_string(),
        )
    }

    /// GETs `path` until `done(status, body)` holds (bounded by [`WAIT`]); returns the body.
    pub async fn poll(&self, path: &str, what: &str, done: impl Fn(u16, &Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let (s, body) = self.http("GET", path, None).await;
            if done(s, &body) {
                return body;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{what} never happened: {s} {body}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the room reports `status`.
    pub async fn wait_room_status(&self, code: &str, status: &str) -> Value {
        let path = format!("/api/rooms/{code}");
        self.poll(&path, &format!("room {code} {status}"), |s, b| {
            s == 200 && b["status"] == status
        })
        .await
    }

    /// Waits until `GET /api/rooms/{code}` answers 404 (the room was removed).
    pub async fn wait_room_gone(&self, code: &str) {
        self.poll(
            &format!("/api/rooms/{code}"),
            &format!("room {code} removed"),
            |s, _| s == 404,
        )
        .await;
    }

    /// Waits until the finished game `id` is stored; returns its record.
    pub async fn wait_stored(&self, id: &str) -> Value {
        self.poll(
            &format!("/api/games/{id}"),
            &format!("game {id} stored"),
            |s, _| s == 200,
        )
        .await
    }
}

/// One HTTP request through a real HTTP client; returns the status and the JSON body
/// (`Value::Null` when the body is not JSON).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let (status, text) = http_text(addr, method, path, body).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Like [`http`], but returns the body as text (for `/metrics` and error bodies).
pub async fn http_text(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    // A client per request, not one shared: each `#[tokio::test]` has its own runtime, and
    // a client's pooled connections belong to the runtime that opened them; once that test
    // ends, another test's request through them fails with "error sending request" (the
    // dispatch task is gone; seanmonstar/reqwest#1148). Seen once in about 100 runs.
    let client = reqwest::Client::new();
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("an HTTP method");
    let mut req = client.request(method, format!("http://{addr}{path}"));
    if let Some(body) = body {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let resp = req
        .send()
        .await
        .unwrap_or_else(|e| panic!("HTTP {path}: {e} ({e:?})"));
    let status = resp.status().as_u16();
    (status, resp.text().await.unwrap_or_default())
}

/// The Postgres URL for the end-to-end tests that need Postgres: `Some` when
/// `CATAN_TEST_POSTGRES_URL` is set (`.ci/run` sets it; the tests must then run and fail if
/// it is unreachable), `None` otherwise (they print why and pass without running).
pub fn postgres_url() -> Option<String> {
    match std::env::var("CATAN_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!("CATAN_TEST_POSTGRES_URL is not set: skipping the Postgres part of this test");
            None
        }
    }
}

/// A SQLite store in a temporary directory.
pub fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}/games.db?mode=rwc", dir.path().display())
}

/// Postgres when `CATAN_TEST_POSTGRES_URL` is set, else SQLite in `dir`.
pub fn store_url(dir: &tempfile::TempDir) -> String {
    postgres_url().unwrap_or_else(|| sqlite_url(dir))
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// What a client saw: a message, or the close code.
#[derive(Debug)]
pub enum Got {
    Msg(ServerMsg),
    Closed(Option<u16>),
}

pub struct Client {
    pub ws: Ws,
    pub seat: Option<u8>,
    pub token: Option<String>,
    pub view: Option<Value>,
    pub v: u64,
    pub events_seen: usize,
}

impl Client {
    pub async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client {
            ws,
            seat: None,
            token: None,
            view: None,
            v: 0,
            events_seen: 0,
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    pub async fn send_raw(&mut self, text: String) {
        let _ = self.ws.send(Message::text(text)).await;
    }

    pub async fn recv(&mut self) -> Got {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("server answers in time");
            match m {
                Some(Ok(Message::Text(t))) => {
                    let msg: ServerMsg =
                        serde_json::from_str(&t).unwrap_or_else(|e| panic!("bad server JSON {e}: {t}"));
                    return Got::Msg(msg);
                }
                Some(Ok(Message::Close(f))) => return Got::Closed(f.map(|f| u16::from(f.code))),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Got::Closed(None),
            }
        }
    }

    /// Receives until a message matches `f` (panics on close).
    pub async fn recv_until(&mut self, mut f: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            match self.recv().await {
                Got::Msg(m) => {
                    self.track(&m);
                    if f(&m) {
                        return m;
                    }
                }
                Got::Closed(c) => panic!("closed ({c:?}) while waiting"),
            }
        }
    }

    /// Waits for the close frame, skipping messages; returns its code.
    pub async fn closed(&mut self) -> Option<u16> {
        loop {
            if let Got::Closed(c) = self.recv().await {
                return c;
            }
        }
    }

    pub async fn join(url: &str, code: &str, name: &str) -> Client {
        let mut c = Client::connect(url).await;
        c.send(json!({"type": "join", "code": code, "name": name})).await;
        c.expect_welcome().await;
        c
    }

    pub async fn spectate(url: &str, code: &str) -> Client {
        let mut c = Client::connect(url).await;
        c.send(json!({"type": "join", "code": code, "spectate": true}))
            .await;
        c.expect_welcome().await;
        c
    }

    pub async fn expect_welcome(&mut self) {
        match self.recv().await {
            Got::Msg(ServerMsg::Welcome { seat, token, .. }) => {
                self.seat = seat;
                self.token = token;
            }
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    /// Applies a snapshot or an update to the kept view, checking version contiguity.
    pub fn track(&mut self, m: &ServerMsg) {
        match m {
            ServerMsg::Snapshot { v, view } => {
                self.v = *v;
                self.view = Some(view.clone());
            }
            ServerMsg::Update { v, patch, events } => {
                assert_eq!(*v, self.v + 1, "versions are contiguous per viewer");
                let p: json_patch::Patch = serde_json::from_value(patch.clone()).unwrap();
                json_patch::patch(self.view.as_mut().expect("snapshot first"), &p).expect("patch applies");
                self.v = *v;
                self.events_seen += events.len();
            }
            _ => {}
        }
    }

    pub fn over(&self) -> bool {
        self.view.as_ref().is_some_and(|v| !v["winner"].is_null())
    }

    /// A random choice among the legal actions in the view (discards filled in), if any.
    pub fn choose(&self, rng: &mut Rng) -> Option<Action> {
        let view = self.view.as_ref()?;
        let legal: catan_rules::LegalActions = serde_json::from_value(view["legal"].clone()).unwrap();
        let discard = legal.requirements.iter().find_map(|r| match r {
            Requirement::Discard { count } => Some(*count),
            _ => None,
        });
        if let Some(count) = discard {
            let seat = self.seat? as usize;
            let mut hand: ResourceSet =
                serde_json::from_value(view["players"][seat]["hand"].clone()).unwrap();
            let mut cards = ResourceSet::EMPTY;
            for _ in 0..count {
                let r = hand.nth_card(rng.below(hand.total()));
                hand[r] -= 1;
                cards[r] += 1;
            }
            return Some(Action::Discard { cards });
        }
        if legal.actions.is_empty() {
            return None;
        }
        Some(legal.actions[rng.below(legal.actions.len() as u32) as usize])
    }
}

/// Checks a message a viewer received for facts it must not see.
pub fn assert_no_leak(seat: Option<u8>, msg: &ServerMsg, view: Option<&Value>) {
    if let Some(view) = view {
        for p in view["players"].as_array().unwrap() {
            let s = p["seat"].as_u64().unwrap() as u8;
            if Some(s) != seat {
                assert!(p["hand"].is_null(), "seat {seat:?} sees seat {s}'s hand: {p}");
                assert!(
                    p["development_cards"].is_null(),
                    "seat {seat:?} sees seat {s}'s cards"
                );
                assert!(p["new_development_cards"].is_null());
                if view["winner"].is_null() {
                    assert!(
                        p["victory_points"].is_null(),
                        "hidden VP of seat {s} shown to {seat:?}"
                    );
                }
            }
        }
        assert!(view.get("deck").is_none());
        // Barbarian Invasion: everything public but the deck order (only its size).
        if let Some(b) = view.get("barbarians") {
            assert!(
                b.get("deck").is_none(),
                "the barbarian deck order reaches {seat:?}"
            );
        }
        // Frenemies: a player's token guilds only in their own view.
        if let Some(holders) = view["frenemies"]["holders"].as_array() {
            for h in holders {
                let s = h["seat"].as_u64().unwrap() as u8;
                if Some(s) != seat {
                    assert!(h["tokens"].is_null(), "seat {seat:?} sees seat {s}'s tokens: {h}");
                    assert!(h["fresh_tokens"].is_null());
                }
            }
        }
    }
    if let ServerMsg::Update { events, .. } = msg {
        for e in events {
            match e {
                catan_rules::Event::Stole {
                    thief,
                    victim,
                    resource,
                } => {
                    let involved = seat == Some(*thief) || seat == Some(*victim);
                    assert_eq!(resource.is_some(), involved, "stolen card type reaches {seat:?}");
                }
                catan_rules::Event::DevelopmentCardBought { seat: buyer, card } => {
                    // Barbarian Invasion's cards are public (`card_drawn`): `card` stays
                    // null for everyone there.
                    assert!(
                        card.is_none() || seat == Some(*buyer),
                        "bought card reaches {seat:?}"
                    );
                }
                catan_rules::Event::Frenemies(catan_rules::frenemies::FrenemiesEvent::TokensDrawn {
                    seat: drawer,
                    guilds,
                    ..
                }) => {
                    assert_eq!(
                        guilds.is_some(),
                        seat == Some(*drawer),
                        "drawn guilds reach {seat:?}"
                    );
                }
                catan_rules::Event::Frenemies(catan_rules::frenemies::FrenemiesEvent::TokenReturned {
                    seat: returner,
                    guild,
                }) => {
                    assert_eq!(
                        guild.is_some(),
                        seat == Some(*returner),
                        "returned guild reaches {seat:?}"
                    );
                }
                _ => {}
            }
        }
    }
}

/// Plays a client to the end of the game: acts when it has legal actions, checks after
/// every update that its patched view equals a fresh snapshot, scans for leaks. Returns
/// the final view.
pub async fn play_to_end(mut c: Client, seed: u64, check_snapshots: bool) -> (Client, Value) {
    let mut rng = Rng::new(seed);
    let mut resyncs = 0u32;
    let mut waiting = false;
    loop {
        if c.over() {
            let v = c.view.clone().unwrap();
            return (c, v);
        }
        if !waiting && c.seat.is_some() {
            if let Some(a) = c.choose(&mut rng) {
                c.send(json!({"type": "action", "action": a})).await;
                waiting = true;
            }
        }
        let m = match c.recv().await {
            Got::Msg(m) => m,
            Got::Closed(code) => panic!("seat {:?} closed with {code:?} before the end", c.seat),
        };
        match &m {
            ServerMsg::Snapshot { v, view } if resyncs > 0 => {
                resyncs -= 1;
                if *v == c.v {
                    assert_eq!(
                        Some(view),
                        c.view.as_ref(),
                        "patched view differs from a fresh snapshot at v{v}"
                    );
                }
                c.track(&m);
            }
            ServerMsg::Error { request, .. } if request == "action" => waiting = false,
            ServerMsg::Update { .. } => {
                c.track(&m);
                waiting = false;
                if check_snapshots {
                    c.send(json!({"type": "resync"})).await;
                    resyncs += 1;
                }
            }
            _ => c.track(&m),
        }
        assert_no_leak(c.seat, &m, c.view.as_ref());
    }
}

/// A TCP proxy owned by a test, in front of the shared Postgres: stopping it cuts every
/// connection through it and refuses new ones, which looks like a database outage to the
/// server without touching the real service.
pub struct Proxy {
    pub port: u16,
    tasks: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Proxy {
    /// Listens on an ephemeral port and forwards to the host and port of `pg_url`.
    pub async fn start(pg_url: &str) -> Proxy {
        let upstream = authority(pg_url);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let tasks = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let inner = tasks.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let upstream = upstream.clone();
                let conn = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                inner.lock().unwrap().push(conn);
            }
        });
        tasks.lock().unwrap().push(accept);
        Proxy { port, tasks }
    }

    /// `pg_url` pointed at the proxy.
    pub fn url(&self, pg_url: &str) -> String {
        let (scheme, rest) = pg_url.split_once("://").unwrap();
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (auth, tail) = rest.split_at(end);
        let user = auth
            .rsplit_once('@')
            .map(|(u, _)| format!("{u}@"))
            .unwrap_or_default();
        format!("{scheme}://{user}127.0.0.1:{}{tail}", self.port)
    }

    /// Stops listening and cuts every connection.
    pub fn stop(&self) {
        for t in self.tasks.lock().unwrap().drain(..) {
            t.abort();
        }
    }
}

/// `host:port` of a database URL (port 5432 when not given).
fn authority(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let auth = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let host = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    }
}

/// Open sockets of this process whose local port is `port`: the server's side of its
/// connections (the test's clients, in the same process, have other local ports).
/// Matched through socket inodes: `/proc/self/fd` links against `/proc/net/tcp{,6}`.
#[cfg(target_os = "linux")]
pub fn server_sockets(port: u16) -> usize {
    use std::collections::HashSet;
    let mut on_port = HashSet::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(state), Some(inode)) = (cols.get(1), cols.get(3), cols.get(9)) else {
                continue;
            };
            // 0A: LISTEN, the listener itself is not a connection.
            let local_port = local
                .rsplit(':')
                .next()
                .and_then(|p| u16::from_str_radix(p, 16).ok());
            if local_port == Some(port) && *state != "0A" {
                on_port.insert(inode.to_string());
            }
        }
    }
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| {
            let l = l.to_string_lossy().into_owned();
            Some(l.strip_prefix("socket:[")?.strip_suffix(']')?.to_string())
        })
        .filter(|inode| on_port.contains(inode))
        .count()
}
