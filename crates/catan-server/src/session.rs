//! One WebSocket connection: the upgrade (with explicit limits), the join handshake, then
//! one task that reads the client's frames (size and rate limits, decoding) into the room's
//! mailbox, keeps the connection alive, and writes out what the socket could not take of
//! the room's messages at once (the room writes them itself: see [`crate::wire`]).

use crate::room::{JoinRequest, Outbound, RoomMsg};
use crate::wire::{SharedIo, Wire};
use crate::AppState;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use catan_protocol::{close, ClientMsg, ServerMsg, MAX_CLIENT_MESSAGE};
use catan_rules::Viewer;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self, Bytes, Message};
use tokio_tungstenite::WebSocketStream;

/// Frames larger than this are refused by the WebSocket layer itself (the session still
/// answers with a 1009 close); between [`MAX_CLIENT_MESSAGE`] and this, the frame is read
/// and the session answers with a 1009 close after draining.
const HARD_LIMIT: usize = 64 * 1024;

/// A joined client's WebSocket: tokio-tungstenite over the upgraded connection's socket,
/// used directly (not through axum's wrapper) so that the room can write to the same socket.
/// Text messages, the session's own error answers included, go out through the [`Wire`]
/// (one framer, fragments over 1 KiB); tungstenite writes the control frames (pings,
/// pongs, the close) and a refused join's error, so its write buffer stays small.
pub(crate) type Socket = WebSocketStream<SharedIo>;

/// `GET /ws`: checks the upgrade request (as RFC 6455 §4.2.1 asks), the per-address and
/// global connection limits, then answers 101 and runs the session on the upgraded
/// connection.
pub async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    mut req: Request,
) -> Response {
    let headers = req.headers();
    let refusal = if !header_has_token(headers, header::CONNECTION, "upgrade") {
        Some("Connection header did not include 'upgrade'")
    } else if !header_is(headers, header::UPGRADE, "websocket") {
        Some("`Upgrade` header did not include 'websocket'")
    } else if !header_is(headers, header::SEC_WEBSOCKET_VERSION, "13") {
        Some("`Sec-WebSocket-Version` header did not include '13'")
    } else if headers.get(header::SEC_WEBSOCKET_KEY).is_none() {
        Some("`Sec-WebSocket-Key` header missing")
    } else {
        None
    };
    if let Some(message) = refusal {
        return crate::json_error(StatusCode::BAD_REQUEST, message);
    }
    let accept = tungstenite::handshake::derive_accept_key(headers[header::SEC_WEBSOCKET_KEY].as_bytes());
    let Some(on_upgrade) = req.extensions_mut().remove::<hyper::upgrade::OnUpgrade>() else {
        return crate::json_error(
            StatusCode::UPGRADE_REQUIRED,
            "WebSocket request couldn't be upgraded since no upgrade state was present",
        );
    };
    if let Err(wait) = state.limits.upgrade(peer.ip()) {
        return crate::limits::too_many("WebSocket connections from your address", wait);
    }
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return crate::json_error(StatusCode::SERVICE_UNAVAILABLE, "too many connections");
    };
    // A client's messages are small (an action is under 200 bytes): a 1 KiB read buffer
    // (a larger frame grows it) keeps an idle connection smaller than 4 KiB would. Frames
    // go to the socket as they are written (no write buffering: every message is flushed
    // at once anyway).
    let config = WebSocketConfig::default()
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_message_size(Some(HARD_LIMIT))
        .max_frame_size(Some(HARD_LIMIT));
    tokio::spawn(async move {
        let upgraded = match on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(e) => {
                tracing::debug!(%peer, "WebSocket upgrade failed: {e}");
                return;
            }
        };
        let (tcp, read) = match crate::listener::take_socket(upgraded) {
            Ok(taken) => taken,
            Err(_) => {
                tracing::error!(%peer, "an upgraded connection not served by this server's listener");
                return;
            }
        };
        let wire = Wire::new(tcp);
        let io = SharedIo(wire.clone());
        // Bytes the client sent right after its upgrade request (hyper read them with it)
        // are its first frames.
        let socket = if read.is_empty() {
            WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await
        } else {
            WebSocketStream::from_partially_read(io, read, Role::Server, Some(config)).await
        };
        // The handshake boxed: its futures are done once it is, and would otherwise stay
        // part of every connection's task (its memory) for the connection's whole life.
        if let Some(mut session) = Box::pin(join(&state, socket, wire)).await {
            session.run(&state).await;
        }
        drop(permit);
    });
    (
        StatusCode::SWITCHING_PROTOCOLS,
        [
            (header::CONNECTION, HeaderValue::from_static("upgrade")),
            (header::UPGRADE, HeaderValue::from_static("websocket")),
            (
                header::SEC_WEBSOCKET_ACCEPT,
                HeaderValue::try_from(accept).expect("base64 is a valid header value"),
            ),
        ],
    )
        .into_response()
}

/// Whether the header equals `value`, ignoring ASCII case.
fn header_is(headers: &HeaderMap, name: header::HeaderName, value: &str) -> bool {
    headers
        .get(name)
        .is_some_and(|h| h.as_bytes().eq_ignore_ascii_case(value.as_bytes()))
}

/// Whether the comma-separated header lists `token`, ignoring ASCII case.
fn header_has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|h| {
        h.to_str()
            .is_ok_and(|h| h.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    })
}

/// The session's own text message (an error answer) on the wire, behind whatever the room
/// wrote before it; `false`: the client is gone or not reading (its backlog is full).
fn reply(wire: &Wire, msg: &ServerMsg, limit: usize) -> bool {
    wire.send(&crate::room::text(msg), limit).is_ok()
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

type Joined = (String, crate::registry::RoomHandle, Viewer);

/// The join handshake: the first message must be `join`, within 10 seconds; the room
/// decides. `Err(None)`: the client went away (nothing to answer).
async fn handshake(
    state: &AppState,
    stream: &mut Socket,
    wire: &Arc<Wire>,
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
    let out = Outbound {
        wire: wire.clone(),
        limit: state.config.outbound_queue,
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
        Ok(Ok(viewer)) => Ok((code, room, viewer)),
        Ok(Err((close_code, reason))) => Err(Refusal::new(Some(reason.clone()), close_code, &reason)),
        Err(_) => Err(closed()),
    }
}

fn close_frame(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code: code.into(),
        reason: reason.into(),
    }))
}

/// Decodes one client text message strictly, or says what is wrong with it.
///
/// Action messages are remembered by their text (per thread, up to [`DECODED_ACTIONS`]):
/// players send the same few texts again and again (`end_turn`, `roll_dice`, the same
/// trades), and the strict decoding of an internally tagged message within another one
/// (serde buffers both), then the check that it is written canonically, was a third of
/// a session's CPU per message. Decoding is a function of the text alone, so a text
/// decoded once decodes to the same action again.
pub fn decode(text: &str) -> Result<ClientMsg, Box<ServerMsg>> {
    if let Some(action) = ACTIONS.with(|a| a.borrow().get(text).copied()) {
        return Ok(ClientMsg::Action { action });
    }
    let msg = catan_protocol::decode_client(text).map_err(|e| Box::new(e.to_server_msg()))?;
    if let ClientMsg::Action { action } = msg {
        ACTIONS.with(|a| {
            let mut a = a.borrow_mut();
            if a.len() >= DECODED_ACTIONS {
                a.clear();
            }
            a.insert(text.into(), action);
        });
    }
    Ok(msg)
}

/// How many action texts a thread remembers (then it starts again): every kind of action
/// with every argument seen in a busy hour is a few hundred.
const DECODED_ACTIONS: usize = 1024;

thread_local! {
    static ACTIONS: std::cell::RefCell<std::collections::HashMap<Box<str>, catan_rules::Action>> =
        std::cell::RefCell::default();
}

/// Token bucket: `rate` per second, `burst` at most.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    /// Takes a token at `now`, if there is one.
    fn take(&mut self, now: Instant) -> bool {
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

/// Sends one frame within the connection's write timeout (after the backlog before it): a
/// control frame, or a refused join's error (the one text not sent through the wire);
/// `false`: the client is gone or not reading (its kernel buffer is full), and
/// the connection is to be dropped.
async fn send_timed(socket: &mut Socket, m: Message, timeout: Duration) -> bool {
    matches!(tokio::time::timeout(timeout, socket.send(m)).await, Ok(Ok(())))
}

/// Whether a read error is the WebSocket layer refusing a frame over its size limit.
fn is_too_big(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Capacity(_))
}

/// What woke the session.
enum Wake {
    /// A frame from the client (or its end).
    Frame(Option<Result<Message, tungstenite::Error>>),
    /// The room's messages wait in the backlog, or the room let go of the connection.
    Wire(crate::wire::Wake),
    /// The timer: a ping is due, or the keepalive deadline passed (perhaps a stale one:
    /// `heard` says).
    Timer,
    Shutdown,
}

/// A joined connection: one task that reads the client's frames into the room's mailbox,
/// writes out the backlog of the room's messages (what the socket did not take at once),
/// pings the client every `ping_interval` and gives up on any write not done within
/// `write_timeout`.
///
/// One task, not a reader and a writer: a connection then costs one task and one future
/// (not two), which is most of an idle connection's memory. While the backlog is being
/// written nothing is read; writes are bounded by the write timeout and the room never
/// waits on a connection (it writes what the socket takes, and queues the rest).
///
/// When the room drops the connection (leaving a close code, e.g. 4008 for a slow client)
/// the backlog is discarded and only the close frame is sent: a client that stopped reading
/// is disconnected at once, not after its whole backlog.
struct Session {
    socket: Socket,
    conn: u64,
    code: String,
    viewer: Viewer,
    room: crate::registry::RoomHandle,
    wire: Arc<Wire>,
    write_timeout: Duration,
}

impl Session {
    async fn send(&mut self, m: Message) -> bool {
        send_timed(&mut self.socket, m, self.write_timeout).await
    }

    /// Boxed, like the other ends of a session: it runs once, and would otherwise add to
    /// the size of every connection's task.
    async fn close(&mut self, code: u16, reason: &str) {
        Box::pin(self.send(close_frame(code, reason))).await;
    }

    /// Runs the session until either side closes. By reference: an async fn taking `self`
    /// by value keeps a second copy of it in its future (rust-lang/rust#62958), and every
    /// connection's task would carry both for its whole life.
    async fn run(&mut self, state: &AppState) {
        let config = &state.config;
        let (code, conn, viewer) = (self.code.clone(), self.conn, self.viewer);
        let ping_interval = Duration::from_millis(config.ping_interval_ms);
        let mut next_ping = Instant::now() + ping_interval;
        let mut bucket = Bucket {
            tokens: config.rate_burst as f64,
            rate: config.rate_per_sec as f64,
            burst: config.rate_burst as f64,
            at: Instant::now(),
        };
        let pong_timeout = Duration::from_millis(config.pong_timeout_ms);
        let mut heard = Instant::now();
        // One timer for the pings and the keepalive, at the earlier of the two, and moved
        // only when it fires: a frame does not touch the timer wheel. (A ping interval and
        // a keepalive of their own were two timers polled on every wake.)
        let timer = tokio::time::sleep_until(next_ping.min(heard + pong_timeout));
        tokio::pin!(timer);
        // Made once: a `changed()` made anew on every wake put the session on the shutdown
        // signal's waiter list (under its lock, shared by every connection) and took it off
        // again, twice per frame.
        let mut shutdown = state.shutdown.clone();
        let shutdown = shutdown.changed();
        tokio::pin!(shutdown);
        loop {
            let wake = tokio::select! {
                f = self.socket.next() => Wake::Frame(f),
                w = std::future::poll_fn(|cx| self.wire.poll_wake(cx)) => Wake::Wire(w),
                _ = &mut timer => Wake::Timer,
                _ = &mut shutdown => Wake::Shutdown,
            };
            let frame = match wake {
                Wake::Wire(crate::wire::Wake::Backlog) => {
                    // One step (what the socket takes) at a time, back through the loop:
                    // the client's frames are read in between, and the write timeout
                    // bounds each step, not a backlog the room keeps adding to.
                    let wire = &self.wire;
                    let step = std::future::poll_fn(|cx| wire.poll_write_some(cx));
                    match tokio::time::timeout(self.write_timeout, step).await {
                        Ok(Ok(())) => continue,
                        _ => break,
                    }
                }
                Wake::Wire(crate::wire::Wake::Released(left)) => {
                    // The room dropped its backlog: the close goes out next.
                    let (code, reason) = left.unwrap_or((close::NORMAL, String::new()));
                    self.close(code, &reason).await;
                    break;
                }
                Wake::Timer => {
                    let now = Instant::now();
                    if now >= heard + pong_timeout {
                        tracing::info!(%code, conn, "no frame or pong within the keepalive time; closing with 4008");
                        self.close(close::TOO_SLOW, "no answer to ping").await;
                        break;
                    }
                    if now >= next_ping {
                        if !self.send(Message::Ping(Bytes::new())).await {
                            break;
                        }
                        // After a slow write, one ping, not a burst of the missed ones.
                        next_ping = Instant::now() + ping_interval;
                    }
                    timer.as_mut().reset(next_ping.min(heard + pong_timeout));
                    continue;
                }
                Wake::Shutdown => {
                    // Server shutdown: the close frame goes out whether or not the room got
                    // to leave a close reason first, so no socket is cut without its 1001.
                    self.close(close::GOING_AWAY, "server shutting down").await;
                    break;
                }
                Wake::Frame(f) => f,
            };
            let frame = match frame {
                Some(Ok(frame)) => frame,
                Some(Err(e)) if is_too_big(&e) => {
                    tracing::info!(%code, conn, "frame over the 64 KiB limit; closing with 1009");
                    self.close(close::TOO_BIG, "message too big (limit 16 KiB)").await;
                    break;
                }
                _ => break,
            };
            heard = Instant::now();
            if let Message::Close(_) = frame {
                // The client closed first: tungstenite has queued the echo of its close
                // frame and refuses new frames; closing the sink flushes it.
                let _ = Box::pin(tokio::time::timeout(
                    self.write_timeout,
                    SinkExt::close(&mut self.socket),
                ))
                .await;
                break;
            }
            // Every frame counts: text, binary, ping and pong alike.
            if !bucket.take(heard) {
                tracing::warn!(%code, conn, ?viewer, "rate limit exceeded; closing with 1008");
                crate::metrics::rate_limit_closed();
                self.close(close::POLICY, "rate limit exceeded").await;
                Box::pin(drain(&mut self.socket)).await;
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
                    if !reply(&self.wire, &msg, config.outbound_queue) {
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
                self.close(close::TOO_BIG, "message too big (limit 16 KiB)").await;
                Box::pin(drain(&mut self.socket)).await;
                break;
            }
            match decode(&text_frame) {
                Ok(msg) => {
                    // Waiting for room in the mailbox is rare: boxed, so that its future
                    // is not part of every connection's task.
                    let sent = match self.room.tx.try_send(RoomMsg::Client { conn, msg }) {
                        Ok(()) => Ok(()),
                        Err(mpsc::error::TrySendError::Full(m)) => {
                            Box::pin(self.room.tx.send(m)).await.map_err(drop)
                        }
                        Err(mpsc::error::TrySendError::Closed(_)) => Err(()),
                    };
                    if sent.is_err() {
                        break;
                    }
                }
                Err(err) => {
                    if !reply(&self.wire, &err, config.outbound_queue) {
                        break;
                    }
                }
            }
        }
        // The room's writes to this socket stop here (they fail, and it drops the
        // connection), before it has even read the leave.
        self.wire.release(None);
        let _ = self.room.tx.send(RoomMsg::Leave { conn }).await;
    }
}

/// The join handshake on a new connection: the session to run, or `None` once a refusal
/// (if any) has been sent.
async fn join(state: &AppState, mut socket: Socket, wire: Arc<Wire>) -> Option<Session> {
    let conn = state.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let write_timeout = Duration::from_millis(state.config.write_timeout_ms);
    let (code, room, viewer) = match handshake(state, &mut socket, &wire, conn).await {
        Ok(joined) => joined,
        Err(None) => return None,
        Err(Some(Refusal { error, code, reason })) => {
            if let Some(message) = error {
                let msg = ServerMsg::Error {
                    request: "join".into(),
                    message,
                    rule: None,
                };
                // Through tungstenite: the room let go of the wire with its refusal.
                let msg = Message::Text(crate::room::text(&msg));
                send_timed(&mut socket, msg, write_timeout).await;
            }
            send_timed(&mut socket, close_frame(code, &reason), write_timeout).await;
            return None;
        }
    };
    tracing::debug!(%code, conn, ?viewer, "session started");
    Some(Session {
        socket,
        conn,
        code,
        viewer,
        room,
        wire,
        write_timeout,
    })
}

/// After sending a close frame: read and discard what the client still sends (briefly),
/// so that unread data does not turn the close into a TCP reset.
async fn drain(stream: &mut Socket) {
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered action text decodes as it did the first time; an error is never
    /// remembered, nor a text that differs by a byte (extra space, another field).
    #[test]
    fn remembered_actions_decode_as_the_first_time() {
        let text = r#"{"type":"action","action":{"type":"build_road","edge":7}}"#;
        let first = decode(text).unwrap();
        assert!(ACTIONS.with(|a| a.borrow().contains_key(text)));
        assert_eq!(decode(text).unwrap(), first);
        assert_eq!(first, catan_protocol::decode_client(text).unwrap());
        let spaced = r#"{"type":"action","action":{"type":"build_road","edge":7} }"#;
        assert_eq!(decode(spaced).unwrap(), first, "the strict path accepts it too");
        for bad in [
            r#"{"type":"action","action":{"type":"build_road","edge":7,"x":1}}"#,
            r#"{"type":"action","action":{"type":"build_road"}}"#,
        ] {
            assert!(decode(bad).is_err(), "{bad}");
            assert!(decode(bad).is_err(), "{bad} again");
            assert!(!ACTIONS.with(|a| a.borrow().contains_key(bad)));
        }
        // Other messages are not remembered.
        decode(r#"{"type":"ping"}"#).unwrap();
        assert!(!ACTIONS.with(|a| a.borrow().contains_key(r#"{"type":"ping"}"#)));
    }

    #[test]
    fn upgrade_headers_are_read_as_rfc_6455_asks() {
        let mut h = HeaderMap::new();
        h.insert(
            header::CONNECTION,
            HeaderValue::from_static("keep-alive, Upgrade"),
        );
        h.insert(header::UPGRADE, HeaderValue::from_static("WebSocket"));
        assert!(header_has_token(&h, header::CONNECTION, "upgrade"));
        assert!(header_is(&h, header::UPGRADE, "websocket"));
        h.insert(header::CONNECTION, HeaderValue::from_static("upgrades"));
        assert!(!header_has_token(&h, header::CONNECTION, "upgrade"));
        assert!(!header_is(&h, header::SEC_WEBSOCKET_VERSION, "13"));
    }
}
