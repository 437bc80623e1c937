//! The Catan game server.
//!
//! Shape (after tokio's mini-redis): [`serve`] runs the axum app on a listener until a
//! shutdown signal; each WebSocket is one session task ([`session`]); each room is one
//! actor task ([`room`]) owning its game, seats and viewers; a [`registry::Registry`] maps
//! invite codes to room handles; finished games go to the store's writer task and never
//! block a room.

pub mod codes;
pub mod diff;
pub mod history;
pub mod registry;
pub mod room;
pub mod session;
pub mod view_stream;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::{Json, Router};
use catan_protocol::{CreatedRoom, RoomOptions};
use catan_store::{Store, StoreHandle};
use registry::Registry;
use serde_json::json;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// Server configuration: flags, each with an environment variable and a default that runs.
#[derive(Clone, Debug, clap::Parser)]
#[command(
    name = "catan-server",
    about = "Authoritative Catan game server (HTTP + WebSocket)"
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
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
}

impl Config {
    /// Defaults for tests: ephemeral port, no bot delay.
    pub fn for_tests(database_url: Option<String>) -> Config {
        Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            database_url,
            max_connections: 10_000,
            max_rooms: 5_000,
            room_idle_secs: 900,
            room_finished_secs: 120,
            bot_delay_ms: 0,
            // Test clients act (and resync) as fast as the server answers, and a faster
            // server must not push them over the limit; the flood test's 1,000 messages
            // at once still exceed the burst.
            rate_per_sec: 1000,
            rate_burst: 500,
            outbound_queue: 4096,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub registry: Registry,
    pub store: Option<StoreHandle>,
    pub connections: Arc<Semaphore>,
    pub shutdown: watch::Receiver<bool>,
    pub next_conn: Arc<std::sync::atomic::AtomicU64>,
}

/// The HTTP routes: health, rooms, WebSocket, history.
pub fn router(state: AppState, store: Option<Store>) -> Router {
    let app = Router::new()
        .route("/healthz", get(healthz))
        .route("/api/rooms", post(create_room))
        .route("/api/rooms/{code}", get(room_info))
        .route("/ws", get(session::upgrade))
        .with_state(state);
    match store {
        Some(store) => app.merge(history::routes(store)),
        None => app,
    }
}

async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    Json(json!({ "status": "ok", "rooms": state.registry.len() }))
}

pub(crate) fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

async fn create_room(State(state): State<AppState>, body: axum::body::Bytes) -> Response {
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
    if state.registry.len() >= state.config.max_rooms {
        return json_error(StatusCode::SERVICE_UNAVAILABLE, "too many rooms; try again later");
    }
    let (code, room_id) = room::spawn(&state, options.clone());
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

/// Runs the server on `listener` until `shutdown` completes: then rooms are told, sockets
/// closed with 1001, and pending store writes flushed before returning.
pub async fn serve(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let store = catan_store::Store::connect(config.database_url.as_deref()).await?;
    let writer = catan_store::spawn_writer(store.clone(), Default::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    let state = AppState {
        connections: Arc::new(Semaphore::new(config.max_connections)),
        config: Arc::new(config),
        registry: Registry::default(),
        store: Some(writer.handle()),
        shutdown: stop_rx,
        next_conn: Default::default(),
    };
    let registry = state.registry.clone();
    let app = router(state, Some(store.clone()));
    tracing::info!(addr = %listener.local_addr()?, "catan-server listening (WebSocket at /ws)");
    let graceful = async move {
        shutdown.await;
        tracing::info!("shutting down: closing rooms");
        let _ = stop_tx.send(true);
        for room in registry.all() {
            let _ = room.tx.send(room::RoomMsg::Shutdown).await;
        }
        // Give sessions a moment to send their close frames.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // Every accepted socket gets TCP_NODELAY: updates to viewers who did not act would
    // otherwise wait for the client's delayed ACK (Nagle), tens of milliseconds.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY on an accepted socket");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(graceful)
        .await?;
    let stats = writer.shutdown().await;
    tracing::info!(saved = stats.saved, dropped = stats.dropped, "store flushed; bye");
    store.close().await;
    Ok(())
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
