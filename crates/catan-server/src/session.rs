//! One WebSocket connection: the upgrade (with explicit limits), the join handshake, then a
//! reader loop (size and rate limits, decoding) feeding the room's mailbox and a writer
//! task draining the connection's bounded outbound queue.

use crate::room::{JoinRequest, Outbound, RoomMsg};
use crate::AppState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::Response;
use catan_protocol::{close, ClientMsg, ServerMsg, MAX_CLIENT_MESSAGE};
use catan_rules::Viewer;
use futures_util::{SinkExt, StreamExt};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// Frames larger than this are cut off by the WebSocket layer itself; between
/// [`MAX_CLIENT_MESSAGE`] and this, the session answers with a clean 1009 close.
const HARD_LIMIT: usize = 64 * 1024;

pub async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(wait) = state.limits.upgrade(peer.ip()) {
        return crate::limits::too_many("WebSocket connections from your address", wait);
    }
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return crate::json_error(StatusCode::SERVICE_UNAVAILABLE, "too many connections");
    };
    ws.read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| async move {
            run(state, socket).await;
            drop(permit);
        })
}

fn text(msg: &ServerMsg) -> Message {
    Message::Text(crate::room::text(msg))
}

/// Why a join was refused: an error message for the client (if any) and the close frame.
struct Refusal {
    error: Option<String>,
    code: u16,
    reason: String,
}

impl Refusal {
    fn new(error: Option<String>, code: u16, reason: &str) -> Option<Refusal> {
        Some(Refusal {
            error,
            code,
            reason: reason.into(),
        })
    }
}

type CloseReason = Arc<Mutex<Option<(u16, String)>>>;
type Joined = (
    String,
    crate::registry::RoomHandle,
    Viewer,
    mpsc::Receiver<Message>,
    CloseReason,
);

/// The join handshake: the first message must be `join`, within 10 seconds; the room
/// decides. `Err(None)`: the client went away (nothing to answer).
async fn handshake(
    state: &AppState,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    conn: u64,
) -> Result<Joined, Option<Refusal>> {
    let first = tokio::time::timeout(Duration::from_secs(10), stream.next()).await;
    let msg = match first {
        Ok(Some(Ok(Message::Text(t)))) if t.len() <= MAX_CLIENT_MESSAGE => decode(&t),
        Ok(Some(Ok(_))) => {
            let e = "the first message must be a join (text, at most 16 KiB)";
            return Err(Refusal::new(
                Some(e.into()),
                close::JOIN_REFUSED,
                "join a room first",
            ));
        }
        _ => return Err(None),
    };
    let (code, join) = match msg {
        Ok(ClientMsg::Join {
            code,
            name,
            token,
            spectate,
        }) => (
            crate::codes::normalize(&code),
            JoinRequest {
                name,
                token,
                spectate,
            },
        ),
        Ok(_) => {
            return Err(Refusal::new(
                Some("join a room first".into()),
                close::JOIN_REFUSED,
                "join a room first",
            ))
        }
        Err(e) => {
            let message = match *e {
                ServerMsg::Error { message, .. } => message,
                _ => "join a room first".into(),
            };
            return Err(Refusal::new(
                Some(message),
                close::JOIN_REFUSED,
                "join a room first",
            ));
        }
    };
    let Some(room) = state.registry.get(&code) else {
        return Err(Refusal::new(
            Some(format!("no room {code}")),
            close::JOIN_REFUSED,
            "no such room",
        ));
    };
    let closed = || Refusal::new(None, close::ROOM_CLOSED, "the room has closed");
    let (tx, rx) = mpsc::channel::<Message>(state.config.outbound_queue);
    let close_reason: CloseReason = Arc::new(Mutex::new(None));
    let out = Outbound {
        tx,
        close: close_reason.clone(),
    };
    let (reply_tx, reply_rx) = oneshot::channel();
    if room
        .tx
        .send(RoomMsg::Join {
            conn,
            join,
            out,
            reply: reply_tx,
        })
        .await
        .is_err()
    {
        return Err(closed());
    }
    match reply_rx.await {
        Ok(Ok(viewer)) => Ok((code, room, viewer, rx, close_reason)),
        Ok(Err((close_code, reason))) => Err(Refusal::new(Some(reason.clone()), close_code, &reason)),
        Err(_) => Err(closed()),
    }
}

fn close_frame(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Decodes one client text message, or says what is wrong with it.
pub fn decode(text: &str) -> Result<ClientMsg, Box<ServerMsg>> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Box::new(ServerMsg::Error {
            request: "unknown".into(),
            message: format!("malformed JSON: {e}"),
            rule: None,
        })
    })?;
    let kind = value
        .get("type")
        .and_then(|t| t.as_str())
        .unwrap_or("")
        .to_string();
    serde_json::from_value(value).map_err(|e| {
        let message = if kind.is_empty() {
            "a message needs a \"type\"".to_string()
        } else if !ClientMsg::TYPES.contains(&kind.as_str()) {
            format!("unknown message type {kind:?}")
        } else {
            format!("invalid {kind}: {e}")
        };
        Box::new(ServerMsg::Error {
            request: if kind.is_empty() {
                "unknown".into()
            } else {
                kind.clone()
            },
            message,
            rule: None,
        })
    })
}

/// Token bucket: `rate` per second, `burst` at most.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn run(state: AppState, socket: WebSocket) {
    let conn = state.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();

    let (code, room, viewer, mut rx, close_reason) = match handshake(&state, &mut stream, conn).await {
        Ok(joined) => joined,
        Err(None) => return,
        Err(Some(Refusal { error, code, reason })) => {
            if let Some(message) = error {
                let msg = ServerMsg::Error {
                    request: "join".into(),
                    message,
                    rule: None,
                };
                let _ = sink.send(text(&msg)).await;
            }
            let _ = sink.send(close_frame(code, &reason)).await;
            return;
        }
    };
    tracing::debug!(%code, conn, ?viewer, "session started");

    // Writer: drains the outbound queue; when the room drops its side, sends the close
    // frame the room left (or a normal close).
    let (local_tx, mut local_rx) = mpsc::channel::<Message>(4);
    let writer = tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                m = local_rx.recv() => match m {
                    Some(m @ Message::Close(_)) => {
                        let _ = sink.send(m).await;
                        return;
                    }
                    Some(m) => {
                        if sink.send(m).await.is_err() {
                            return;
                        }
                    }
                    None => return,
                },
                m = rx.recv() => match m {
                    Some(m) => {
                        if sink.send(m).await.is_err() {
                            return;
                        }
                    }
                    None => {
                        let (code, reason) =
                            close_reason.lock().unwrap().clone().unwrap_or((close::NORMAL, String::new()));
                        let _ = sink.send(close_frame(code, &reason)).await;
                        return;
                    }
                },
            }
        }
    });

    let mut bucket = Bucket {
        tokens: state.config.rate_burst as f64,
        rate: state.config.rate_per_sec as f64,
        burst: state.config.rate_burst as f64,
        at: Instant::now(),
    };
    let mut shutdown = state.shutdown.clone();
    loop {
        let frame = tokio::select! {
            f = stream.next() => f,
            _ = shutdown.changed() => break,
        };
        let Some(Ok(frame)) = frame else { break };
        let text_frame = match frame {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let msg = ServerMsg::Error {
                    request: "unknown".into(),
                    message: "binary frames are not supported; send JSON text".into(),
                    rule: None,
                };
                let _ = local_tx.send(text(&msg)).await;
                continue;
            }
            Message::Close(_) => break,
            _ => continue,
        };
        if !bucket.take() {
            tracing::warn!(%code, conn, ?viewer, "rate limit exceeded; closing with 1008");
            crate::metrics::rate_limit_closed();
            let _ = local_tx
                .send(close_frame(close::POLICY, "rate limit exceeded"))
                .await;
            drain(&mut stream).await;
            break;
        }
        if text_frame.len() > MAX_CLIENT_MESSAGE {
            tracing::info!(
                conn,
                bytes = text_frame.len(),
                "message too big; closing with 1009"
            );
            let _ = local_tx
                .send(close_frame(close::TOO_BIG, "message too big (limit 16 KiB)"))
                .await;
            drain(&mut stream).await;
            break;
        }
        match decode(&text_frame) {
            Ok(msg) => {
                if room.tx.send(RoomMsg::Client { conn, msg }).await.is_err() {
                    break;
                }
            }
            Err(err) => {
                if local_tx.send(text(&err)).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(RoomMsg::Leave { conn }).await;
    drop(local_tx);
    let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
}

/// After sending a close frame: read and discard what the client still sends (briefly),
/// so that unread data does not turn the close into a TCP reset.
async fn drain(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}
