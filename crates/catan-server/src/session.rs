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
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// Frames larger than this are refused by the WebSocket layer itself (the session still
/// answers with a 1009 close); between [`MAX_CLIENT_MESSAGE`] and this, the frame is read
/// and the session answers with a 1009 close after draining.
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
    // A client's messages are small (an action is under 200 bytes): a 1 KiB read buffer
    // (tungstenite allocates it up front and zero-fills it before each read; a larger frame
    // grows it) keeps an idle connection smaller than 4 KiB would.
    ws.read_buffer_size(1024)
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

/// Decodes one client text message strictly, or says what is wrong with it.
pub fn decode(text: &str) -> Result<ClientMsg, Box<ServerMsg>> {
    catan_protocol::decode_client(text).map_err(|e| Box::new(e.to_server_msg()))
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

/// Sends one frame within the connection's write timeout; `false`: the client is gone or
/// not reading (its kernel buffer is full), and the connection is to be dropped.
async fn send_timed(sink: &mut SplitSink<WebSocket, Message>, m: Message, timeout: Duration) -> bool {
    matches!(tokio::time::timeout(timeout, sink.send(m)).await, Ok(Ok(())))
}

/// Whether a read error is the WebSocket layer refusing a frame over its size limit.
fn is_too_big(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if let Some(tokio_tungstenite::tungstenite::Error::Capacity(_)) =
            err.downcast_ref::<tokio_tungstenite::tungstenite::Error>()
        {
            return true;
        }
        source = err.source();
    }
    false
}

/// The writer half of a session: drains the outbound queue, pings the client every
/// `ping_interval`, and gives up on any frame not written within `write_timeout`. When the
/// room drops the connection (leaving a close code, e.g. 4008 for a slow client) the
/// backlog is discarded and only the close frame is sent: a client that stopped reading is
/// disconnected at once, not after its whole queue.
struct Writer {
    sink: SplitSink<WebSocket, Message>,
    local_rx: mpsc::Receiver<Message>,
    rx: mpsc::Receiver<Message>,
    close_reason: CloseReason,
    write_timeout: Duration,
    ping_interval: Duration,
}

impl Writer {
    async fn run(mut self) {
        let mut ping = tokio::time::interval_at(Instant::now() + self.ping_interval, self.ping_interval);
        // After a slow write, one ping, not a burst of the missed ones.
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let left = self.close_reason.lock().unwrap().clone();
            if let Some((code, reason)) = left {
                self.send(close_frame(code, &reason)).await;
                return;
            }
            let m = tokio::select! {
                biased;
                m = self.local_rx.recv() => match m {
                    // The client closed first: tungstenite has queued the echo of its
                    // close frame and refuses new frames; closing the sink flushes it.
                    Some(Message::Close(None)) => {
                        let _ = tokio::time::timeout(self.write_timeout, self.sink.close()).await;
                        return;
                    }
                    Some(m @ Message::Close(_)) => {
                        self.send(m).await;
                        return;
                    }
                    Some(m) => m,
                    None => return,
                },
                m = self.rx.recv() => match m {
                    Some(m) => m,
                    None => {
                        let (code, reason) =
                            self.close_reason.lock().unwrap().clone().unwrap_or((close::NORMAL, String::new()));
                        self.send(close_frame(code, &reason)).await;
                        return;
                    }
                },
                _ = ping.tick() => Message::Ping(Default::default()),
            };
            if !self.send(m).await {
                return;
            }
        }
    }

    async fn send(&mut self, m: Message) -> bool {
        send_timed(&mut self.sink, m, self.write_timeout).await
    }
}

async fn run(state: AppState, socket: WebSocket) {
    let conn = state.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let config = &state.config;
    let write_timeout = Duration::from_millis(config.write_timeout_ms);

    let (code, room, viewer, rx, close_reason) = match handshake(&state, &mut stream, conn).await {
        Ok(joined) => joined,
        Err(None) => return,
        Err(Some(Refusal { error, code, reason })) => {
            if let Some(message) = error {
                let msg = ServerMsg::Error {
                    request: "join".into(),
                    message,
                    rule: None,
                };
                send_timed(&mut sink, text(&msg), write_timeout).await;
            }
            send_timed(&mut sink, close_frame(code, &reason), write_timeout).await;
            return;
        }
    };
    tracing::debug!(%code, conn, ?viewer, "session started");

    let (local_tx, local_rx) = mpsc::channel::<Message>(4);
    let mut writer = tokio::spawn(
        Writer {
            sink,
            local_rx,
            rx,
            close_reason,
            write_timeout,
            ping_interval: Duration::from_millis(config.ping_interval_ms),
        }
        .run(),
    );

    let mut bucket = Bucket {
        tokens: config.rate_burst as f64,
        rate: config.rate_per_sec as f64,
        burst: config.rate_burst as f64,
        at: Instant::now(),
    };
    let pong_timeout = Duration::from_millis(config.pong_timeout_ms);
    let mut heard = Instant::now();
    let mut shutdown = state.shutdown.clone();
    let mut writer_done = false;
    loop {
        let frame = tokio::select! {
            f = stream.next() => f,
            _ = shutdown.changed() => {
                // Server shutdown: the close frame goes out through this session's own
                // writer, whether or not the room got to leave a close reason first (the
                // room's queue may be dropped before the writer reads it), and the writer
                // is awaited below, so no socket is cut without its 1001.
                let _ = local_tx
                    .send(close_frame(close::GOING_AWAY, "server shutting down"))
                    .await;
                break;
            }
            _ = &mut writer => {
                // The writer gave up (write timeout, client gone, or the room's close).
                writer_done = true;
                break;
            }
            _ = tokio::time::sleep_until(heard + pong_timeout) => {
                tracing::info!(%code, conn, "no frame or pong within the keepalive time; closing with 4008");
                let _ = local_tx.send(close_frame(close::TOO_SLOW, "no answer to ping")).await;
                break;
            }
        };
        let frame = match frame {
            Some(Ok(frame)) => frame,
            Some(Err(e)) if is_too_big(&e) => {
                tracing::info!(%code, conn, "frame over the 64 KiB limit; closing with 1009");
                let _ = local_tx
                    .send(close_frame(close::TOO_BIG, "message too big (limit 16 KiB)"))
                    .await;
                break;
            }
            _ => break,
        };
        heard = Instant::now();
        if let Message::Close(_) = frame {
            // Answer the close handshake (the writer flushes tungstenite's echo).
            let _ = local_tx.send(Message::Close(None)).await;
            break;
        }
        // Every frame counts: text, binary, ping and pong alike.
        if !bucket.take() {
            tracing::warn!(%code, conn, ?viewer, "rate limit exceeded; closing with 1008");
            crate::metrics::rate_limit_closed();
            let _ = local_tx
                .send(close_frame(close::POLICY, "rate limit exceeded"))
                .await;
            drain(&mut stream).await;
            break;
        }
        let text_frame = match frame {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let msg = ServerMsg::Error {
                    request: "unknown".into(),
                    message: "binary frames are not supported; send JSON text".into(),
                    rule: None,
                };
                if local_tx.send(text(&msg)).await.is_err() {
                    break;
                }
                continue;
            }
            _ => continue,
        };
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
    if !writer_done {
        // Bounded: every write of the writer has the write timeout.
        let _ = tokio::time::timeout(write_timeout + Duration::from_secs(1), writer).await;
    }
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
