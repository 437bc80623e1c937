//! Games survive the server: the real `catan-server` binary is killed (SIGKILL) or stopped
//! (SIGTERM) in the middle of several games and started again on the same store (SQLite,
//! and Postgres when `CATAN_TEST_POSTGRES_URL` is set, in a schema of its own). Every game
//! comes back under its invite code at exactly the last action its clients received; every
//! player rejoins with its seat token and its patched view equals the new snapshot; the
//! games play to the end and are stored. On SIGTERM every socket gets a 1001
//! close frame. The journal holds seat tokens only as hashes.

use catan_rules::{Action, LegalActions, Requirement, ResourceSet, Rng};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Row;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const BIN: &str = env!("CARGO_BIN_EXE_catan-server");
const WAIT: Duration = Duration::from_secs(60);
/// Human actions per room before the server goes down.
const BEFORE: usize = 40;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The server binary, with its stderr collected (for the "resumed" line).
struct Server {
    child: Child,
    addr: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(db_url: &str) -> Server {
        Server::start_with(db_url, &[])
    }

    /// [`Server::start`] with more command-line arguments.
    fn start_with(db_url: &str, args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["--listen", "127.0.0.1:0", "--database-url", db_url])
            .args(args)
            .env("BOT_DELAY_MS", "0")
            .env("RATE_PER_SEC", "1000000")
            .env("RATE_BURST", "100000")
            .env("ROOMS_PER_MINUTE_PER_IP", "0")
            .env("WS_PER_MINUTE_PER_IP", "0")
            .env(
                "RUST_LOG",
                std::env::var("CATAN_TEST_SERVER_LOG").unwrap_or_else(|_| "info".into()),
            )
            // The test reads one table at a time: the others' sockets must not be closed
            // for not answering pings meanwhile.
            .env("PONG_TIMEOUT_MS", "3600000")
            .env_remove("NO_JOURNAL")
            .env_remove("NO_RESUME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server binary starts");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().unwrap();
        let lines = log.clone();
        std::thread::spawn(move || {
            let echo = std::env::var_os("CATAN_TEST_SERVER_LOG").is_some();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if echo {
                    eprintln!("server: {line}");
                }
                lines.lock().unwrap().push(line);
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .split("ws://")
            .nth(1)
            .and_then(|r| r.split("/ws").next())
            .unwrap_or_else(|| panic!("no connect line: {line:?} {:?}", log.lock().unwrap()))
            .to_string();
        Server { child, addr, log }
    }

    fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([sig, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Waits for the process to exit; returns its exit code.
    fn wait(&mut self) -> Option<i32> {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code();
            }
            assert!(std::time::Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn logged(&self, part: &str) -> Option<String> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .find(|l| l.contains(part))
            .cloned()
    }

    async fn create_room(&self, options: Value) -> (String, String) {
        let resp = reqwest::Client::new()
            .post(format!("http://{}/api/rooms", self.addr))
            .json(&options)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 201);
        let body: Value = resp.json().await.unwrap();
        (
            body["code"].as_str().unwrap().to_string(),
            body["room_id"].as_str().unwrap().to_string(),
        )
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let resp = reqwest::get(format!("http://{}{path}", self.addr)).await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if std::thread::panicking() {
            for line in self.log.lock().unwrap().iter() {
                eprintln!("server: {line}");
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

enum Got {
    Msg(Value),
    Closed(Option<u16>),
}

/// One seat's connection, keeping its view up to date from snapshots and patches.
struct Player {
    ws: Ws,
    seat: u8,
    token: String,
    view: Value,
    v: u64,
}

async fn recv(ws: &mut Ws) -> Got {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let m = tokio::time::timeout_at(deadline, ws.next())
            .await
            .expect("the server answers in time");
        match m {
            Some(Ok(Message::Text(t))) => return Got::Msg(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(f))) => return Got::Closed(f.map(|f| u16::from(f.code))),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Got::Closed(None),
        }
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// Joins (`join` is the join message's fields); returns the socket and the welcome.
async fn join(addr: &str, join: Value) -> (Ws, Value) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .unwrap();
    let mut msg = json!({"type": "join"});
    msg.as_object_mut()
        .unwrap()
        .extend(join.as_object().unwrap().clone());
    send(&mut ws, msg).await;
    match recv(&mut ws).await {
        Got::Msg(m) if m["type"] == "welcome" => (ws, m),
        Got::Msg(m) => panic!("expected a welcome, got {m}"),
        Got::Closed(c) => panic!("closed ({c:?}) instead of a welcome"),
    }
}

impl Player {
    /// Next game message (room, chat and pong are skipped); tracks snapshots and updates.
    async fn next(&mut self) -> Value {
        loop {
            let m = match recv(&mut self.ws).await {
                Got::Msg(m) => m,
                Got::Closed(c) => panic!("seat {} closed ({c:?})", self.seat),
            };
            match m["type"].as_str().unwrap() {
                "snapshot" => {
                    self.v = m["v"].as_u64().unwrap();
                    self.view = m["view"].clone();
                }
                "update" => {
                    assert_eq!(m["v"].as_u64().unwrap(), self.v + 1, "versions are contiguous");
                    let patch: json_patch::Patch = serde_json::from_value(m["patch"].clone()).unwrap();
                    json_patch::patch(&mut self.view, &patch).unwrap();
                    self.v += 1;
                }
                "error" => {}
                _ => continue,
            }
            return m;
        }
    }

    /// A random legal action (discards chosen from the hand), if the seat has one.
    fn choose(&self, rng: &mut Rng) -> Option<Action> {
        let legal: LegalActions = serde_json::from_value(self.view["legal"].clone()).unwrap();
        let discard = legal.requirements.iter().find_map(|r| match r {
            Requirement::Discard { count } => Some(*count),
            _ => None,
        });
        if let Some(count) = discard {
            let mut hand: ResourceSet =
                serde_json::from_value(self.view["players"][self.seat as usize]["hand"].clone()).unwrap();
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

/// A room's human players, driven one action at a time by the test.
struct Table {
    code: String,
    room_id: String,
    players: Vec<Player>,
    rng: Rng,
}

impl Table {
    fn over(&self) -> bool {
        !self.players[0].view["winner"].is_null()
    }

    /// Nothing more happens until a person acts: the game is over or waits on people only.
    /// (Only for tables of people: a bot that waits for others' answers stays in
    /// `waiting_on`, so with bots the views cannot tell a quiet room.)
    fn quiet(&self) -> bool {
        let view = &self.players[0].view;
        let humans: Vec<u64> = self.players.iter().map(|p| u64::from(p.seat)).collect();
        self.over()
            || view["waiting_on"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| humans.contains(&s.as_u64().unwrap()))
    }

    /// Reads every player's messages until the room is quiet and every player has every
    /// update (all seats' versions advance together).
    async fn settle(&mut self, at_least: u64) {
        while self.players[0].v < at_least || !self.quiet() {
            self.players[0].next().await;
        }
        let v = self.players[0].v;
        for p in &mut self.players[1..] {
            while p.v < v {
                p.next().await;
            }
        }
    }

    /// One human action (from the first player with a legal one); `false` if none has.
    async fn step(&mut self) -> bool {
        let Some((i, action)) = self
            .players
            .iter()
            .enumerate()
            .find_map(|(i, p)| p.choose(&mut self.rng).map(|a| (i, a)))
        else {
            return false;
        };
        let p = &mut self.players[i];
        send(&mut p.ws, json!({"type": "action", "action": action})).await;
        // Skipping updates with no events: a seat's control state (`away`) changing, as
        // players rejoin after the restart.
        let m = loop {
            let m = p.next().await;
            if m["type"] != "update" || m["events"].as_array().is_some_and(|e| !e.is_empty()) {
                break m;
            }
        };
        let target = p.v;
        if m["type"] == "error" {
            panic!("seat {} action {action:?} refused: {m}", p.seat);
        }
        self.settle(target).await;
        true
    }

    async fn play(&mut self, steps: usize) {
        for _ in 0..steps {
            if self.over() {
                return;
            }
            assert!(self.step().await, "a quiet, unfinished game waits on someone");
        }
    }
}

/// A room of `players` seats, the last `bots` of them bots, with the test's people seated
/// and the game started and settled.
async fn open_table(server: &Server, players: u8, bots: u8, seed: u64) -> Table {
    // No timers: the test drives one table at a time, and the others must stay put.
    let (code, room_id) = server
        .create_room(json!({
            "players": players, "bots": bots, "victory_points": 5,
            "turn_limit_ms": null, "reaction_limit_ms": null, "away_grace_ms": null
        }))
        .await;
    let mut seated = Vec::new();
    for i in 0..players - bots {
        let (ws, welcome) = join(&server.addr, json!({"code": code, "name": format!("P{i}")})).await;
        seated.push(Player {
            ws,
            seat: welcome["seat"].as_u64().unwrap() as u8,
            token: welcome["token"].as_str().unwrap().to_string(),
            view: Value::Null,
            v: 0,
        });
    }
    send(&mut seated[0].ws, json!({"type": "start"})).await;
    for p in &mut seated {
        while p.next().await["type"] != "snapshot" {}
    }
    let mut table = Table {
        code,
        room_id,
        players: seated,
        rng: Rng::new(seed),
    };
    table.settle(0).await;
    table
}

/// The test's database: a fresh SQLite file, or a fresh schema in the test Postgres.
struct Db {
    url: String,
    admin: Option<(String, String)>,
    _dir: tempfile::TempDir,
}

impl Db {
    fn sqlite() -> Db {
        let dir = tempfile::tempdir().unwrap();
        Db {
            url: format!("sqlite://{}/games.db", dir.path().display()),
            admin: None,
            _dir: dir,
        }
    }

    async fn postgres() -> Option<Db> {
        let admin = match std::env::var("CATAN_TEST_POSTGRES_URL") {
            Ok(u) if !u.is_empty() => u,
            _ => {
                eprintln!("CATAN_TEST_POSTGRES_URL is not set: skipping this Postgres test");
                return None;
            }
        };
        let schema = format!(
            "catan_restart_{}_{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos()
        );
        let store = catan_store::Store::connect(Some(&admin)).await.unwrap();
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(store.pool())
            .await
            .unwrap();
        store.close().await;
        let sep = if admin.contains('?') { '&' } else { '?' };
        Some(Db {
            url: format!("{admin}{sep}options=-c%20search_path%3D{schema}"),
            admin: Some((admin, schema)),
            _dir: tempfile::tempdir().unwrap(),
        })
    }

    async fn store(&self) -> catan_store::Store {
        catan_store::Store::connect(Some(&self.url)).await.unwrap()
    }

    async fn drop_db(self) {
        if let Some((admin, schema)) = &self.admin {
            let store = catan_store::Store::connect(Some(admin)).await.unwrap();
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(store.pool())
                .await
                .unwrap();
            store.close().await;
        }
    }
}

/// No table of the store holds a seat token in clear.
async fn assert_no_token_stored(db: &Db, tokens: &[String]) {
    let store = db.store().await;
    for table in [
        "live_games",
        "live_seats",
        "live_actions",
        "games",
        "game_players",
    ] {
        let rows = sqlx::query(&format!("SELECT * FROM {table}"))
            .fetch_all(store.pool())
            .await
            .unwrap();
        for row in rows {
            for i in 0..row.len() {
                let text: Option<String> = row.try_get(i).ok().flatten();
                if let Some(text) = text {
                    for t in tokens {
                        assert!(
                            !text.contains(t.as_str()),
                            "a seat token in clear in {table}: {text}"
                        );
                    }
                }
            }
        }
    }
    let hashes = sqlx::query("SELECT COUNT(*) AS n FROM live_seats WHERE token_hash IS NOT NULL")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let n: i64 = hashes.try_get("n").unwrap();
    assert_eq!(n as usize, tokens.len(), "every person's seat has its token hash");
    store.close().await;
}

async fn survives(db: Db, signal: &str) {
    let mut server = Server::start(&db.url);
    // Tables of people only, so the test knows when every update has arrived (see
    // `Table::quiet`): four players, and three.
    let mut tables = vec![
        open_table(&server, 4, 0, 1).await,
        open_table(&server, 3, 0, 2).await,
    ];
    for t in &mut tables {
        t.play(BEFORE).await;
        assert!(
            !t.over(),
            "the game must still be running when the server goes down"
        );
    }
    let tokens: Vec<String> = tables
        .iter()
        .flat_map(|t| t.players.iter().map(|p| p.token.clone()))
        .collect();

    server.signal(signal);
    if signal == "-TERM" {
        for t in &mut tables {
            for p in &mut t.players {
                let code = loop {
                    match recv(&mut p.ws).await {
                        Got::Closed(c) => break c,
                        // Players leaving as the server goes down may be told (an update
                        // with no events: `away`), but no action happens.
                        Got::Msg(m) => assert!(
                            m["type"] != "snapshot"
                                && (m["type"] != "update"
                                    || m["events"].as_array().is_some_and(|e| e.is_empty())),
                            "nothing happens in a quiet room: {m}"
                        ),
                    }
                };
                assert_eq!(code, Some(1001), "seat {} of {} closed with 1001", p.seat, t.code);
            }
        }
        assert_eq!(server.wait(), Some(0), "a clean exit after SIGTERM");
    } else {
        server.wait();
    }
    assert_no_token_stored(&db, &tokens).await;

    let server = Server::start(&db.url);
    for t in &mut tables {
        let (status, info) = server.get(&format!("/api/rooms/{}", t.code)).await;
        assert_eq!(status, 200, "room {} is back under its code", t.code);
        assert_eq!(info["status"], "playing");
        assert_eq!(info["room_id"], t.room_id.as_str());
        for p in &mut t.players {
            let (ws, welcome) = join(&server.addr, json!({"code": t.code, "token": p.token})).await;
            assert_eq!(welcome["seat"].as_u64(), Some(u64::from(p.seat)));
            assert_eq!(welcome["token"].as_str(), Some(p.token.as_str()));
            p.ws = ws;
            let mut before = std::mem::take(&mut p.view);
            while p.next().await["type"] != "snapshot" {}
            // The game is; who is connected is not: after a restart every person counts as
            // away until they rejoin (the server's `away`/`bot_controlled` view fields).
            let mut after = p.view.clone();
            for view in [&mut before, &mut after] {
                if let Some(map) = view.as_object_mut() {
                    map.remove("away");
                    map.remove("bot_controlled");
                }
            }
            assert_eq!(
                after, before,
                "seat {} of {}: the resumed game is exactly where its clients left it",
                p.seat, t.code
            );
        }
        // The server resumed before serving: its log says how many games, in how long.
        let line = server
            .logged("resumed 2 live games from the journal in ")
            .unwrap_or_else(|| panic!("no resume line: {:?}", server.log.lock().unwrap()));
        assert!(line.contains(" ms"), "{line}");
        // Play to the end after the restart.
        t.play(100_000).await;
        assert!(t.over(), "the game of {} finished", t.code);
    }
    for t in &tables {
        let mut stored = None;
        for _ in 0..600 {
            let (status, body) = server.get(&format!("/api/games/{}", t.room_id)).await;
            if status == 200 {
                stored = Some(body);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let stored = stored.unwrap_or_else(|| panic!("game {} stored", t.room_id));
        assert_eq!(stored["status"], "finished");
    }
    let store = db.store().await;
    assert!(
        store.live_games().await.unwrap().is_empty(),
        "finished games leave the journal"
    );
    store.close().await;
    drop(server);
    db.drop_db().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_games_sqlite() {
    survives(Db::sqlite(), "-KILL").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_games_postgres() {
    if let Some(db) = Db::postgres().await {
        survives(db, "-KILL").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_mid_games_sqlite() {
    survives(Db::sqlite(), "-TERM").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_mid_games_postgres() {
    if let Some(db) = Db::postgres().await {
        survives(db, "-TERM").await;
    }
}

/// Waits until the game `room_id` is stored; returns its record.
async fn stored(server: &Server, room_id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (status, body) = server.get(&format!("/api/games/{room_id}")).await;
        if status == 200 {
            return body;
        }
        assert!(tokio::time::Instant::now() < deadline, "game {room_id} stored");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Games with bot seats and short timers carry on after a SIGKILL: in one room the person
/// comes back and stays idle (the timers play the seat to the end); in the other nobody
/// comes back (the timers, then after the grace time a bot, play the seat). Both finish
/// and are stored; the timers' moves, journaled like any other, replay.
async fn timers_and_bots_survive(db: Db) {
    let args = ["--allow-short-timers"];
    let mut server = Server::start_with(&db.url, &args);
    let mut rooms = Vec::new();
    for grace in [Value::Null, json!(300)] {
        let (code, room_id) = server
            .create_room(json!({
                "players": 3, "bots": 2, "victory_points": 8,
                "turn_limit_ms": 60, "reaction_limit_ms": 30, "away_grace_ms": grace
            }))
            .await;
        let (mut ws, welcome) = join(&server.addr, json!({"code": code, "name": "Idle"})).await;
        send(&mut ws, json!({"type": "start"})).await;
        let mut p = Player {
            ws,
            seat: welcome["seat"].as_u64().unwrap() as u8,
            token: welcome["token"].as_str().unwrap().to_string(),
            view: Value::Null,
            v: 0,
        };
        // The timer ends one of the idle seat's turns before the server goes down.
        loop {
            let m = p.next().await;
            let events = m["events"].as_array().cloned().unwrap_or_default();
            if events.iter().any(|e| e["type"] == "turn_ended" && e["seat"] == 0) {
                break;
            }
        }
        assert!(p.view["winner"].is_null());
        rooms.push((code, room_id, p));
    }
    server.signal("-KILL");
    server.wait();

    let server = Server::start_with(&db.url, &args);
    for (code, room_id, _) in &rooms {
        let (status, info) = server.get(&format!("/api/rooms/{code}")).await;
        assert_eq!(status, 200, "room {code} is back");
        assert_eq!(info["status"], "playing", "{info}");
        assert_eq!(info["room_id"], room_id.as_str());
        assert_eq!(info["seats"][0]["away"], true, "nobody has come back yet: {info}");
    }
    // The first room's person comes back, idle: the timers play the seat to the end.
    let (code, room_id, p) = &mut rooms[0];
    let (ws, welcome) = join(&server.addr, json!({"code": code, "token": p.token})).await;
    assert_eq!(welcome["seat"], 0);
    p.ws = ws;
    while p.next().await["type"] != "snapshot" {}
    assert!(
        !p.view["winner"].is_null() || p.view["deadline_ms"].is_i64(),
        "a resumed game under way has a deadline: {}",
        p.view["deadline_ms"]
    );
    while p.view["winner"].is_null() {
        p.next().await;
    }
    let record = stored(&server, room_id).await;
    assert_eq!(record["status"], "finished", "{record}");
    // The second room's person never comes back: a bot takes the seat over.
    let (code, room_id, _) = &rooms[1];
    let record = stored(&server, room_id).await;
    assert_eq!(record["status"], "finished", "{record}");
    let line = server.logged("a bot plays the seat");
    assert!(
        line.is_some_and(|l| l.contains(code.as_str())),
        "the takeover is logged"
    );
    drop(server);
    db.drop_db().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timers_and_bots_survive_sigkill_sqlite() {
    timers_and_bots_survive(Db::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timers_and_bots_survive_sigkill_postgres() {
    if let Some(db) = Db::postgres().await {
        timers_and_bots_survive(db).await;
    }
}
