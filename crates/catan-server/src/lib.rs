//! The Catan game server.
//!
//! Shape (after tokio's mini-redis): [`serve`] runs the axum app on a listener until a
//! shutdown signal (the accept loop and a task per connection: [`listener`]); each WebSocket is one session task ([`session`]); each room is one
//! actor task ([`room`]) owning its game, seats and viewers; a [`registry::Registry`] maps
//! invite codes to room handles; finished games go to the store's writer task and never
//! block a room.

pub mod codes;
pub mod diff;
pub mod history;
pub mod limits;
pub mod listener;
pub mod metrics;
pub mod observe;
pub mod periodic;
pub mod registry;
pub mod room;
pub mod schema;
pub mod session;
pub mod stats;
pub mod tape;
pub mod turn_timer;
pub mod view_stream;
pub mod web;
pub mod wire;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use catan_protocol::{CreatedRoom, RoomOptions};
use catan_store::{Store, StoreHandle, Writer};
use registry::Registry;
use serde_json::json;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// How the server writes its logs (always to stderr; colours only on a terminal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event.
    #[default]
    Text,
    /// One JSON object per event (for log shippers).
    Json,
}

/// Server configuration: flags, each with an environment variable and a default that runs.
#[derive(Clone, Debug, clap::Parser)]
#[command(
    name = "catan-server",
    version,
    about = "Authoritative Catan game server (HTTP + WebSocket)"
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    // Why not tokio's `TcpListener::bind`: it asks for 128 (mio passes std's value), which
    // 2,000 load-test rooms connecting at once overflowed (3,116 connections dropped in
    // one such run, their clients left to retry a second or more later; in another run one
    // room's request failed). docs/load-history.md has the runs.
    /// Connections the kernel queues before the server accepts them (the listen backlog;
    /// Linux caps it at `net.core.somaxconn`): room for many clients connecting at once,
    /// as after a restart.
    #[arg(long, env = "LISTEN_BACKLOG", default_value_t = 4096)]
    pub listen_backlog: u32,
    /// `postgres://…` or `sqlite://…`; unset: a SQLite file `catan.db` in the working
    /// directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Most WebSocket connections at once; further upgrades get 503.
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Most live rooms at once.
    #[arg(long, env = "MAX_ROOMS", default_value_t = 5_000)]
    pub max_rooms: usize,
    /// Most live rooms created from one client address at once; further creations get 429.
    #[arg(long, env = "MAX_ROOMS_PER_IP", default_value_t = 20)]
    pub max_rooms_per_ip: usize,
    /// A game with no human seat stops, unfinished, once it reaches this turn.
    #[arg(long, env = "BOT_TURN_CAP", default_value_t = 2_000)]
    pub bot_turn_cap: u32,
    /// A room with no connection for this long closes (seconds).
    #[arg(long, env = "ROOM_IDLE_SECS", default_value_t = 900)]
    pub room_idle_secs: u64,
    /// A finished room stays open this long for last looks (seconds).
    #[arg(long, env = "ROOM_FINISHED_SECS", default_value_t = 120)]
    pub room_finished_secs: u64,
    /// Bots wait this long before each move (milliseconds; 0 in tests).
    #[arg(long, env = "BOT_DELAY_MS", default_value_t = 400)]
    pub bot_delay_ms: u64,
    /// Per-connection message rate (messages per second, sustained)…
    #[arg(long, env = "RATE_PER_SEC", default_value_t = 20)]
    pub rate_per_sec: u32,
    /// …and burst. Past it the socket is closed with 1008.
    #[arg(long, env = "RATE_BURST", default_value_t = 60)]
    pub rate_burst: u32,
    /// Messages queued for one client before it counts as too slow and is dropped.
    #[arg(long, env = "OUTBOUND_QUEUE", default_value_t = 512)]
    pub outbound_queue: usize,
    /// Log format on stderr (`RUST_LOG` sets the levels, default `info`).
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Testing only: accept the `seed` room option in rooms with human seats. Without it a
    /// room's creator could predict every roll and card of a game with other people, so
    /// `seed` is accepted only for all-bot rooms.
    #[arg(long, env = "ALLOW_SEED")]
    pub allow_seed: bool,
    /// Testing only: accept turn, reaction and away timers shorter than 5 s (down to 1 ms),
    /// so a test can play a game of idle seats in seconds.
    #[arg(long, env = "ALLOW_SHORT_TIMERS")]
    pub allow_short_timers: bool,
    /// Rooms one client address may create per minute (0: no limit).
    #[arg(long, env = "ROOMS_PER_MINUTE_PER_IP", default_value_t = 30)]
    pub rooms_per_minute_per_ip: u32,
    /// WebSocket upgrades one client address may make per minute (0: no limit).
    #[arg(long, env = "WS_PER_MINUTE_PER_IP", default_value_t = 300)]
    pub ws_per_minute_per_ip: u32,
    /// An origin allowed to call the HTTP API from a browser page served elsewhere
    /// (repeat the flag, or comma-separate, for several). None by default: no CORS headers,
    /// so only pages served by this server (same origin) can use the API.
    #[arg(long = "cors-origin", env = "CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// A frame not written to the client within this time (it stopped reading and its
    /// buffers are full) closes the connection (milliseconds).
    #[arg(long, env = "WRITE_TIMEOUT_MS", default_value_t = 10_000)]
    pub write_timeout_ms: u64,
    /// The server pings every connection this often (milliseconds)…
    #[arg(long, env = "PING_INTERVAL_MS", default_value_t = 10_000)]
    pub ping_interval_ms: u64,
    /// …and closes one it has heard nothing from (no frame, no pong) for this long
    /// (milliseconds), with 4008.
    #[arg(long, env = "PONG_TIMEOUT_MS", default_value_t = 30_000)]
    pub pong_timeout_ms: u64,
    /// Do not journal live games (for measuring the journal's cost): updates go out at
    /// once, and games in progress are lost on a restart.
    #[arg(long, env = "NO_JOURNAL")]
    pub no_journal: bool,
    /// Do not bring back the games in the journal on start (they stay in the journal for
    /// a later start).
    #[arg(long, env = "NO_RESUME")]
    pub no_resume: bool,
}

impl Config {
    /// Defaults for tests: ephemeral port, no bot delay.
    pub fn for_tests(database_url: Option<String>) -> Config {
        Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            listen_backlog: 4096,
            database_url,
            max_connections: 10_000,
            max_rooms: 5_000,
            max_rooms_per_ip: 5_000,
            bot_turn_cap: 2_000,
            room_idle_secs: 900,
            room_finished_secs: 120,
            bot_delay_ms: 0,
            // Test clients act (and resync) as fast as the server answers, and a faster
            // server must not push them over the limit; the flood test's 1,000 messages
            // at once still exceed the burst.
            // Test clients resync after every update of games that bots play with no
            // delay: far above any person's rate. Tests of the limit set their own.
            rate_per_sec: 1_000_000,
            rate_burst: 100_000,
            outbound_queue: 4096,
            log_format: LogFormat::Text,
            allow_seed: true,
            allow_short_timers: true,
            rooms_per_minute_per_ip: 0,
            ws_per_minute_per_ip: 0,
            cors_origins: Vec::new(),
            write_timeout_ms: 10_000,
            ping_interval_ms: 10_000,
            pong_timeout_ms: 30_000,
            no_journal: false,
            // Test servers share one Postgres database: a test that wants games back
            // after a restart says so (and uses a database of its own).
            no_resume: true,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub registry: Registry,
    pub store: Option<StoreHandle>,
    /// The journal of live games (`None` with `--no-journal`).
    pub journal: Option<catan_store::JournalHandle>,
    pub connections: Arc<Semaphore>,
    pub shutdown: watch::Receiver<bool>,
    pub next_conn: Arc<std::sync::atomic::AtomicU64>,
    /// The database behind the writer, for `/readyz`.
    pub db: Option<Store>,
    pub limits: Arc<limits::PerIp>,
}

/// The HTTP routes: health, readiness, metrics, rooms, WebSocket, history; every request
/// gets an `x-request-id` (kept if the client sent one) and an INFO log line with it.
pub fn router(state: AppState, store: Option<Store>) -> Router {
    let cors = cors_layer(&state.config.cors_origins);
    let app = Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics_text))
        .route("/api/rooms", post(create_room))
        .route("/api/rooms/{code}", get(room_info))
        .route("/api/schema", get(json_schema))
        .route("/ws", get(session::upgrade))
        .merge(web::routes())
        .with_state(state);
    let app = match store {
        Some(store) => app.merge(history::routes(store)),
        None => app,
    };
    let app = app
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let app = match cors {
        Some(cors) => app.layer(cors),
        None => app,
    };
    observe::layers(app)
}

/// CORS for the listed origins, or `None` (no CORS headers at all) when none are listed.
fn cors_layer(origins: &[String]) -> Option<tower_http::cors::CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let list: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| match HeaderValue::from_str(o.trim()) {
            Ok(v) => Some(v),
            Err(_) => {
                tracing::warn!(origin = %o, "ignoring an invalid CORS origin");
                None
            }
        })
        .collect();
    Some(
        tower_http::cors::CorsLayer::new()
            .allow_origin(list)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([axum::http::header::CONTENT_TYPE]),
    )
}

async fn not_found() -> Response {
    json_error(StatusCode::NOT_FOUND, "no such route")
}

async fn method_not_allowed() -> Response {
    json_error(StatusCode::METHOD_NOT_ALLOWED, "method not allowed on this route")
}

/// Liveness: the process answers.
async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    Json(json!({ "status": "ok", "rooms": state.registry.len() }))
}

/// Readiness: the games store answers a query within two seconds (503 otherwise).
async fn readyz(State(state): State<AppState>) -> Response {
    let Some(db) = &state.db else {
        return Json(json!({ "status": "ready", "store": "none" })).into_response();
    };
    match db.ping(Duration::from_secs(2)).await {
        Ok(()) => Json(json!({ "status": "ready", "store": "ok" })).into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check: store unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "store": "unreachable", "error": e })),
            )
                .into_response()
        }
    }
}

/// The JSON Schema of the wire types (generated once per process).
async fn json_schema() -> Response {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let text = TEXT.get_or_init(schema::schema_text).clone();
    (
        [(axum::http::header::CONTENT_TYPE, "application/schema+json")],
        text,
    )
        .into_response()
}

/// Prometheus text format.
async fn metrics_text(State(state): State<AppState>) -> Response {
    if let Some(store) = &state.store {
        let journal = state.journal.as_ref().map(|j| j.stats());
        metrics::store(&store.stats(), journal.as_ref());
    }
    let handle = metrics::handle();
    handle.run_upkeep();
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle.render(),
    )
        .into_response()
}

/// An error answer: `status` with the JSON body `{"error": message}` ([`HttpError`]).
///
/// [`HttpError`]: catan_protocol::HttpError
pub fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = catan_protocol::HttpError {
        error: message.into(),
    };
    (status, Json(body)).into_response()
}

async fn create_room(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: axum::body::Bytes,
) -> Response {
    if let Err(wait) = state.limits.create_room(peer.ip()) {
        return limits::too_many("rooms created from your address", wait);
    }
    let options: RoomOptions = if body.iter().all(|b| b.is_ascii_whitespace()) {
        RoomOptions::default()
    } else {
        match serde_json::from_slice(&body) {
            Ok(o) => o,
            Err(e) => return json_error(StatusCode::BAD_REQUEST, format!("invalid room options: {e}")),
        }
    };
    if let Err(e) = options.validate() {
        return json_error(StatusCode::BAD_REQUEST, e);
    }
    if options.seed.is_some() && options.bots < options.players && !state.config.allow_seed {
        return json_error(
            StatusCode::BAD_REQUEST,
            "the seed option is only accepted for all-bot rooms: with people at the table, \
             whoever chose the seed could predict every roll and card",
        );
    }
    if !state.config.allow_short_timers {
        if let Err(e) = options.check_timer_minimum(catan_protocol::MIN_TIMER_MS) {
            return json_error(StatusCode::BAD_REQUEST, e);
        }
    }
    let options = options.resolved();
    let (code, room_id) = match room::spawn(&state, options.clone(), Some(peer.ip())) {
        Ok(created) => created,
        Err(registry::Full::Rooms) => {
            return json_error(StatusCode::SERVICE_UNAVAILABLE, "too many rooms; try again later")
        }
        Err(registry::Full::Address) => {
            return json_error(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many live rooms from your address (at most {}); try again later",
                    state.config.max_rooms_per_ip
                ),
            )
        }
    };
    (
        StatusCode::CREATED,
        Json(CreatedRoom {
            code,
            room_id,
            options,
            ws_path: "/ws".into(),
        }),
    )
        .into_response()
}

async fn room_info(State(state): State<AppState>, Path(code): Path<String>) -> Response {
    let code = codes::normalize(&code);
    let Some(handle) = state.registry.get(&code) else {
        return json_error(StatusCode::NOT_FOUND, format!("no room {code}"));
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    if handle.tx.send(room::RoomMsg::Info { reply: tx }).await.is_err() {
        return json_error(StatusCode::NOT_FOUND, format!("room {code} has closed"));
    }
    match rx.await {
        Ok(info) => Json(info).into_response(),
        Err(_) => json_error(StatusCode::NOT_FOUND, format!("room {code} has closed")),
    }
}

/// A listener on `addr` with room for `backlog` connections not yet accepted
/// ([`Config::listen_backlog`]); `SO_REUSEADDR` as tokio's `TcpListener::bind` sets it
/// (not on Windows, where it would let another process take the port), so a restarted
/// server can take its port back while old connections linger in `TIME_WAIT`.
pub fn bind(addr: SocketAddr, backlog: u32) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(not(windows))]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(backlog)
}

/// A server whose store is open: [`Server::open`] connects (and migrates) the store and
/// starts its writer, [`Server::run`] serves a listener until shutdown. The binary prints
/// where to connect between the two, so the line appears only once the server can work.
pub struct Server {
    config: Config,
    store: Store,
    writer: Writer,
    journal: Option<catan_store::Journal>,
}

impl Server {
    pub async fn open(config: Config) -> anyhow::Result<Server> {
        let store = catan_store::Store::connect(config.database_url.as_deref()).await?;
        let writer = catan_store::spawn_writer(store.clone(), Default::default());
        let journal = (!config.no_journal).then(|| {
            let journal_config = catan_store::JournalConfig {
                // Within the compose stop grace period (50 s) with the sessions' 5 s and the games writer's 30 s.
                shutdown_grace: Duration::from_secs(8),
                on_commit: Some(catan_store::CommitObserver(std::sync::Arc::new(
                    metrics::journal_commit_time,
                ))),
                ..Default::default()
            };
            catan_store::spawn_journal(store.clone(), journal_config)
        });
        // Install the metrics recorder before anything records.
        metrics::handle();
        Ok(Server {
            config,
            store,
            writer,
            journal,
        })
    }

    /// Serves `listener` until `shutdown` completes: then rooms are told, sockets closed
    /// with 1001, and pending store writes flushed before returning.
    pub async fn run(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let Server {
            config,
            store,
            writer,
            journal,
        } = self;
        let limits = Arc::new(limits::PerIp::new(
            config.rooms_per_minute_per_ip,
            config.ws_per_minute_per_ip,
        ));
        let (stop_tx, stop_rx) = watch::channel(false);
        let state = AppState {
            connections: Arc::new(Semaphore::new(config.max_connections)),
            config: Arc::new(config),
            registry: Registry::default(),
            store: Some(writer.handle()),
            journal: journal.as_ref().map(|j| j.handle()),
            shutdown: stop_rx.clone(),
            next_conn: Default::default(),
            db: Some(store.clone()),
            limits: limits.clone(),
        };
        tokio::spawn(limits::forget_idle(limits, stop_rx.clone()));
        tokio::spawn(metrics::upkeep(metrics::UPKEEP_EVERY, stop_rx));
        if state.journal.is_some() && !state.config.no_resume {
            resume_games(&state, &store).await?;
        }
        let registry = state.registry.clone();
        let connections = state.connections.clone();
        let max_connections = state.config.max_connections;
        let app = router(state, Some(store.clone()));
        tracing::info!(addr = %listener.local_addr()?, "catan-server listening (WebSocket at /ws)");
        let graceful = async move {
            shutdown.await;
            tracing::info!("shutting down: closing rooms");
            let _ = stop_tx.send(true);
            for room in registry.all() {
                let _ = room.tx.send(room::RoomMsg::Shutdown).await;
            }
            // Every session sends its close frame (1001) and ends, giving its connection
            // permit back: wait for all of them (bounded, within the stop grace period).
            let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
            if tokio::time::timeout(Duration::from_secs(5), connections.acquire_many(all))
                .await
                .is_err()
            {
                tracing::warn!(
                    open = max_connections - connections.available_permits(),
                    "some sessions did not close within 5 s"
                );
            }
        };
        listener::serve(listener, app, graceful).await?;
        if let Some(journal) = journal {
            let stats = journal.shutdown().await;
            tracing::info!(
                records = stats.records,
                dropped = stats.dropped,
                "journal flushed"
            );
        }
        let stats = writer.shutdown().await;
        tracing::info!(saved = stats.saved, dropped = stats.dropped, "store flushed; bye");
        store.close().await;
        Ok(())
    }
}

/// Brings back every game of the journal (see [`room::resume`]) and logs how many in how
/// long. A game that cannot be replayed is logged and left in the journal.
async fn resume_games(state: &AppState, store: &Store) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let games = store.live_games().await?;
    let read_ms = started.elapsed().as_millis() as u64;
    let (mut resumed, mut actions, mut failed) = (0usize, 0usize, 0usize);
    for game in games {
        let (id, code) = (game.game.id.clone(), game.game.code.clone());
        match room::resume(state, game) {
            Ok(n) => {
                resumed += 1;
                actions += n;
            }
            Err(e) => {
                failed += 1;
                tracing::error!(game = %id, %code, error = %e, "cannot resume a journaled game; left in the journal");
            }
        }
    }
    tracing::info!(
        games = resumed,
        actions,
        failed,
        read_ms,
        total_ms = started.elapsed().as_millis() as u64,
        "resumed {resumed} live games from the journal in {} ms",
        started.elapsed().as_millis()
    );
    Ok(())
}

/// Opens the store and serves `listener` until `shutdown` completes (see [`Server`]).
pub async fn serve(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    Server::open(config).await?.run(listener, shutdown).await
}

/// Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connections made one after another to `listener`, none accepted, until one does not
    /// complete within 300 ms or `max` are open. Linux queues at most `backlog + 1`
    /// connections for a listener that does not accept; it drops the next one's SYN (the
    /// client retries a second later).
    async fn connections_queued(listener: &TcpListener, max: usize) -> usize {
        let addr = listener.local_addr().unwrap();
        let mut open = Vec::new();
        while open.len() < max {
            let connect = tokio::net::TcpStream::connect(addr);
            match tokio::time::timeout(Duration::from_millis(300), connect).await {
                Ok(Ok(stream)) => open.push(stream),
                _ => break,
            }
        }
        open.len()
    }

    /// [`bind`] gives the listener the backlog asked for: a small one fills, a larger one
    /// holds every connection of the same burst. (Linux's queue; other systems size it
    /// their own way.)
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_listen_backlog_is_the_one_asked_for() {
        let any = "127.0.0.1:0".parse().unwrap();
        let small = bind(any, 4).unwrap();
        let queued = connections_queued(&small, 40).await;
        assert!((4..=6).contains(&queued), "backlog 4 queued {queued}");
        let large = bind(any, 64).unwrap();
        assert_eq!(connections_queued(&large, 40).await, 40);
    }

    /// The default backlog is 4,096, not the 128 that tokio's `TcpListener::bind` asks
    /// for (read from the flag's definition, so that no environment variable of the test
    /// run can change it).
    #[test]
    fn the_default_backlog_is_4096() {
        use clap::CommandFactory;
        let command = Config::command();
        let arg = command
            .get_arguments()
            .find(|a| a.get_id() == "listen_backlog")
            .expect("the --listen-backlog flag");
        assert_eq!(arg.get_default_values(), ["4096"]);
        assert_eq!(Config::for_tests(None).listen_backlog, 4096);
    }
}
