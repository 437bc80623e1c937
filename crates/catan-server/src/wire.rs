//! A connection's socket as its room and its session share it: every text message (the
//! room's welcome, snapshots and updates, the session's error answers) is written here,
//! framed as WebSocket text frames; the session reads the client's frames and writes the
//! control frames (pings, pongs, the close) through tungstenite over the same socket
//! ([`SharedIo`]).
//!
//! Why the room writes itself: through a queue to the connection's task, every update cost
//! a channel send, a wake-up and a poll of that task (a `select!` over the socket, the
//! queue, three timers and the shutdown signal), a write timer, and a copy into
//! tungstenite's buffer, five times per action in a four-player game with one spectator:
//! about as much CPU as the diffs themselves. The socket almost always takes the frame at
//! once; only what it cannot take is kept, in a backlog that the session writes out (within
//! its write timeout) as the socket drains.
//!
//! Order on the wire is the order of the writes: a write that finds a backlog joins its
//! end, whoever makes it. Every write is whole frames, so frames never interleave.

use std::collections::VecDeque;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::{Frame, FrameHeader};
use tokio_tungstenite::tungstenite::{Bytes, Utf8Bytes};

/// The connection's socket, taken back from hyper after the upgrade
/// ([`crate::listener::take_socket`]).
pub(crate) type Io = tokio::net::TcpStream;

/// What the wire writes to: a byte stream that can also be written without a waker.
pub trait Stream: AsyncRead + AsyncWrite + Unpin {
    /// Writes what the stream takes of `bytes` now; `WouldBlock` if it takes none. (The
    /// default polls `poll_write` once with a waker that does nothing.)
    fn write_now(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut cx = Context::from_waker(Waker::noop());
        match Pin::new(self).poll_write(&mut cx, bytes) {
            Poll::Ready(result) => result,
            Poll::Pending => Err(io::ErrorKind::WouldBlock.into()),
        }
    }
}

/// A TCP socket is written with one `send`: tokio set it non-blocking, so a full socket
/// answers `WouldBlock`. Tokio's readiness is neither read nor cleared: the session's
/// writes of a backlog go through tokio, which finds out a readiness it holds is stale by
/// trying, and then waits for the socket to drain. (Through tokio's `poll_write`, the
/// readiness check and its bookkeeping were 2.5 % of the server's CPU under `catan-load`'s
/// closed loop, mostly a cache miss per connection.)
impl Stream for tokio::net::TcpStream {
    fn write_now(&mut self, bytes: &[u8]) -> io::Result<usize> {
        socket2::SockRef::from(&*self).send(bytes)
    }
}

impl Stream for tokio::io::DuplexStream {}

/// Room messages longer than this go out as a fragmented message (RFC 6455 §5.4: a text
/// frame and continuation frames of at most this many bytes, which every client
/// reassembles), so that a snapshot that has to wait in the backlog does not sit there
/// as one large allocation per slow connection. Updates are mostly smaller.
const FRAGMENT: usize = 1024;

/// Bytes not yet written: whole frames in order, the front one perhaps partly written.
struct Chunk {
    bytes: Bytes,
    /// The end of a room message (one of those the queue limit counts).
    message_end: bool,
    /// A frame ends with this chunk (a room message's header chunk does not).
    frame_end: bool,
}

struct Inner<T> {
    io: T,
    backlog: VecDeque<Chunk>,
    /// Room messages in the backlog.
    queued: usize,
    /// Part of the front frame has been written: it must be finished before anything else.
    mid_frame: bool,
    /// The room let go of the connection, with the close code and reason to send, if any.
    released: Option<Option<(u16, String)>>,
    /// The session, waiting for a backlog to write or for the room to let go.
    waker: Option<Waker>,
    /// Bytes taken for the socket in all (written, or put in the backlog), and written.
    accepted: u64,
    written: u64,
    /// Where the session's last write ends (in `accepted` terms): its flush is done once
    /// `written` gets there, whatever the room queued after it.
    flush_target: u64,
}

/// The socket, shared; see the module doc. Generic for the tests (an in-memory pipe).
pub struct Wire<T = Io> {
    inner: Mutex<Inner<T>>,
}

/// Why the room could not send a message.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The backlog already holds as many messages as allowed: the client is not reading.
    Full,
    /// The socket failed (the client is gone).
    Failed,
}

/// What the session is woken for.
#[derive(Debug, PartialEq, Eq)]
pub enum Wake {
    /// Bytes wait in the backlog: write them out.
    Backlog,
    /// The room let go of the connection; the close to send, if it left one.
    Released(Option<(u16, String)>),
}

impl<T: Stream> Wire<T> {
    pub fn new(io: T) -> Arc<Wire<T>> {
        Arc::new(Wire {
            inner: Mutex::new(Inner {
                io,
                backlog: VecDeque::new(),
                queued: 0,
                mid_frame: false,
                released: None,
                waker: None,
                accepted: 0,
                written: 0,
                flush_target: 0,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner<T>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The room's write of one text message: straight to the socket when nothing waits
    /// before it, else (and whatever the socket does not take) into the backlog, which
    /// then holds at most `limit` messages.
    pub fn send(&self, text: &Utf8Bytes, limit: usize) -> Result<(), Refused> {
        let payload = Bytes::from(text.clone());
        // A short message: its header, formatted at the start of a stack buffer (the direct
        // write below copies the text after it; the backlog, if it has to wait, keeps a
        // copy of the header and the text itself). A long one: its fragments, formatted
        // together.
        let mut buf = [0u8; 14 + FRAGMENT];
        let (head_len, body) = if payload.len() <= FRAGMENT {
            let h = FrameHeader {
                opcode: OpCode::Data(Data::Text),
                ..FrameHeader::default()
            };
            let mut rest = &mut buf[..14];
            h.format(payload.len() as u64, &mut rest)
                .expect("14 bytes hold any header");
            (14 - rest.len(), payload)
        } else {
            let mut all = Vec::with_capacity(payload.len() + payload.len() / FRAGMENT * 4 + 8);
            for frame in fragments(payload) {
                frame.format(&mut all).expect("a Vec takes it");
            }
            (0, Bytes::from(all))
        };
        let chunks = |head: &[u8]| {
            let head = (!head.is_empty()).then(|| Chunk {
                bytes: Bytes::copy_from_slice(head),
                message_end: false,
                frame_end: false,
            });
            let body = Chunk {
                bytes: body.clone(),
                message_end: true,
                frame_end: true,
            };
            head.into_iter().chain([body])
        };
        let mut inner = self.lock();
        if inner.released.is_some() {
            return Err(Refused::Failed);
        }
        let was_empty = inner.backlog.is_empty();
        if was_empty {
            // One buffer, not a `writev` of header and text: on loopback a `send` of
            // one buffer (what `TcpStream::write` makes) took less of the writer's CPU
            // than a `writev` of the same bytes in two slices (a C loop over 1,000
            // sockets written in turn: median 4.3 against 5.3 µs per call), and under
            // `catan-load`'s closed loop the server's CPU per action fell by about 2 %
            // (against the load client's in the same run). Copying a short frame on the
            // stack costs next to nothing.
            let total = head_len + body.len();
            let bytes: &[u8] = if head_len == 0 {
                &body
            } else {
                buf[head_len..total].copy_from_slice(&body);
                &buf[..total]
            };
            // If the socket is full the session takes over the backlog and waits on the
            // socket with its own waker.
            let written = match inner.io.write_now(bytes) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => 0,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => 0,
                Err(_) => return Err(Refused::Failed),
            };
            inner.accepted += total as u64;
            if written == total {
                inner.written += total as u64;
                return Ok(());
            }
            // The rest, from where the socket stopped.
            for chunk in chunks(&buf[..head_len]) {
                inner.push(chunk);
            }
            inner.consume(written);
            inner.queued += 1;
        } else {
            if inner.queued >= limit {
                return Err(Refused::Full);
            }
            for chunk in chunks(&buf[..head_len]) {
                inner.accepted += chunk.bytes.len() as u64;
                inner.push(chunk);
            }
            inner.queued += 1;
        }
        let waker = if was_empty { inner.waker.take() } else { None };
        drop(inner);
        if let Some(w) = waker {
            w.wake();
        }
        Ok(())
    }

    /// The room lets go of the connection (left it, dropped it, or closed): the session
    /// sends `close` (or a normal close) after at most the frame being written, and drops
    /// the rest of the backlog.
    pub fn release(&self, close: Option<(u16, String)>) {
        let mut inner = self.lock();
        if inner.released.is_some() {
            return;
        }
        // Keep the front frame if it is partly written (the close must not cut it), drop
        // the rest: a client that stopped reading is disconnected at once, not after its
        // whole backlog.
        let keep = if inner.mid_frame {
            inner
                .backlog
                .iter()
                .position(|c| c.frame_end)
                .map_or(0, |i| i + 1)
        } else {
            0
        };
        let dropped: usize = inner.backlog.iter().skip(keep).map(|c| c.bytes.len()).sum();
        inner.backlog.truncate(keep);
        inner.accepted -= dropped as u64;
        inner.flush_target = inner.flush_target.min(inner.accepted);
        inner.queued = 0;
        inner.released = Some(close);
        let waker = inner.waker.take();
        drop(inner);
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// For the session: ready when there is a backlog to write or the room let go.
    pub fn poll_wake(&self, cx: &mut Context<'_>) -> Poll<Wake> {
        let mut inner = self.lock();
        if let Some(close) = &mut inner.released {
            return Poll::Ready(Wake::Released(close.take()));
        }
        if !inner.backlog.is_empty() {
            return Poll::Ready(Wake::Backlog);
        }
        match &inner.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => inner.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    /// For the session: writes out what the socket takes of the backlog. Ready once some
    /// bytes went out (or none wait): a client that keeps reading is given the write
    /// timeout for each step, not for a backlog the room may keep adding to.
    pub fn poll_write_some(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.lock().poll_backlog(cx, u64::MAX).map_ok(drop)
    }
}

impl<T: Stream> Inner<T> {
    fn push(&mut self, chunk: Chunk) {
        self.backlog.push_back(chunk);
    }

    /// Drops `n` written bytes from the front of the backlog.
    fn consume(&mut self, mut n: usize) {
        while n > 0 {
            let front = self
                .backlog
                .front_mut()
                .expect("written bytes were in the backlog");
            if n < front.bytes.len() {
                let _ = front.bytes.split_to(n);
                self.written += n as u64;
                self.mid_frame = true;
                return;
            }
            n -= front.bytes.len();
            self.written += front.bytes.len() as u64;
            let done = self.backlog.pop_front().expect("a front chunk");
            if done.message_end {
                self.queued = self.queued.saturating_sub(1);
            }
            // A chunk that ends no frame (a header) leaves its frame partly written.
            self.mid_frame = !done.frame_end;
        }
    }

    /// Writes the backlog until `written` reaches `until` or it is empty (`Ready(true)`),
    /// or the socket is full after taking some (`Ready(false)`; none: `Pending`, the
    /// socket then holds `cx`'s waker).
    fn poll_backlog(&mut self, cx: &mut Context<'_>, until: u64) -> Poll<io::Result<bool>> {
        let mut progressed = false;
        while self.written < until && !self.backlog.is_empty() {
            let mut slices = [IoSlice::new(&[]); 16];
            let mut count = 0;
            for (slot, chunk) in slices.iter_mut().zip(&self.backlog) {
                *slot = IoSlice::new(&chunk.bytes);
                count += 1;
            }
            match Pin::new(&mut self.io).poll_write_vectored(cx, &slices[..count]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    self.consume(n);
                    progressed = true;
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending if progressed => return Poll::Ready(Ok(false)),
                Poll::Pending => return Poll::Pending,
            }
        }
        // A backlog can grow large while a client lags: its memory goes once it is written.
        if self.backlog.is_empty() && self.backlog.capacity() > 16 {
            self.backlog = VecDeque::new();
        }
        Poll::Ready(Ok(true))
    }

    /// Writes the backlog up to the end of the session's last write, then flushes.
    fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.poll_backlog(cx, self.flush_target) {
            Poll::Ready(Ok(true)) => Pin::new(&mut self.io).poll_flush(cx),
            // The socket is full and holds the waker.
            Poll::Ready(Ok(false)) | Poll::Pending => Poll::Pending,
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        }
    }
}

/// A text message as a text frame and continuation frames of at most [`FRAGMENT`] bytes,
/// cut between UTF-8 characters (RFC 6455 allows cutting anywhere; whole characters keep
/// every fragment readable on its own when debugging).
fn fragments(text: Bytes) -> impl Iterator<Item = Frame> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start == text.len() {
            return None;
        }
        let mut end = (start + FRAGMENT).min(text.len());
        // A UTF-8 continuation byte (10xxxxxx) is inside a character.
        while end < text.len() && text[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        let opcode = OpCode::Data(if start == 0 { Data::Text } else { Data::Continue });
        let frame = Frame::message(text.slice(start..end), opcode, end == text.len());
        start = end;
        Some(frame)
    })
}

/// The socket as the session's tungstenite sees it: reads go to the socket; writes join
/// the backlog's end (or go straight out when there is none), and a flush writes the
/// backlog out. A write is always taken whole: tungstenite hands over whole frames, so
/// they stay whole on the wire.
pub struct SharedIo<T = Io>(pub Arc<Wire<T>>);

impl<T: Stream> AsyncRead for SharedIo<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0.lock().io).poll_read(cx, buf)
    }
}

impl<T: Stream> AsyncWrite for SharedIo<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let mut inner = self.0.lock();
        let mut written = 0;
        if inner.backlog.is_empty() {
            match Pin::new(&mut inner.io).poll_write(cx, buf) {
                Poll::Ready(Ok(n)) => written = n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {}
            }
            if written > 0 && written < buf.len() {
                inner.mid_frame = true;
            }
        }
        inner.written += written as u64;
        inner.accepted += buf.len() as u64;
        inner.flush_target = inner.accepted;
        if written < buf.len() {
            inner.push(Chunk {
                bytes: Bytes::copy_from_slice(&buf[written..]),
                message_end: false,
                frame_end: true,
            });
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.0.lock().poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut inner = self.0.lock();
        match inner.poll_flush(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut inner.io).poll_shutdown(cx),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{SinkExt, StreamExt};
    use tokio::io::DuplexStream;
    use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role};
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::WebSocketStream;

    /// A wire over an in-memory pipe that holds `capacity` bytes (a socket buffer that
    /// fills), the server's tungstenite over it, and the client's end.
    async fn pipe(
        capacity: usize,
    ) -> (
        Arc<Wire<DuplexStream>>,
        WebSocketStream<SharedIo<DuplexStream>>,
        WebSocketStream<DuplexStream>,
    ) {
        let (server, client) = tokio::io::duplex(capacity);
        let wire = Wire::new(server);
        let session = WebSocketStream::from_raw_socket(SharedIo(wire.clone()), Role::Server, None).await;
        let client = WebSocketStream::from_raw_socket(client, Role::Client, None).await;
        (wire, session, client)
    }

    fn msg(i: usize, len: usize) -> Utf8Bytes {
        let head = format!("{{\"n\":{i},\"pad\":\"");
        let pad = "é".repeat(len.saturating_sub(head.len() + 2) / 2);
        Utf8Bytes::from(format!("{head}{pad}\"}}"))
    }

    async fn next_text(client: &mut WebSocketStream<DuplexStream>) -> String {
        match client.next().await {
            Some(Ok(Message::Text(t))) => t.to_string(),
            other => panic!("expected a text message, got {other:?}"),
        }
    }

    /// Writes the backlog out step by step, as the session does, until it is empty.
    async fn write_out(wire: &Wire<DuplexStream>) {
        loop {
            let wake = std::future::poll_fn(|cx| match wire.poll_wake(cx) {
                Poll::Pending => Poll::Ready(None),
                Poll::Ready(w) => Poll::Ready(Some(w)),
            })
            .await;
            match wake {
                None => return,
                Some(Wake::Backlog) => std::future::poll_fn(|cx| wire.poll_write_some(cx)).await.unwrap(),
                Some(other) => panic!("{other:?}"),
            }
        }
    }

    /// With room in the socket, messages go straight out (no backlog, no wake-up) and
    /// arrive whole and in order, short ones and fragmented long ones alike.
    #[tokio::test]
    async fn messages_go_straight_to_the_socket_in_order() {
        let (wire, _session, mut client) = pipe(1 << 20).await;
        let sizes = [10, 300, FRAGMENT, FRAGMENT + 1, 5000, 40];
        for (i, &len) in sizes.iter().enumerate() {
            wire.send(&msg(i, len), 1).unwrap();
        }
        assert!(wire.lock().backlog.is_empty());
        for (i, &len) in sizes.iter().enumerate() {
            let t = next_text(&mut client).await;
            assert_eq!(t, msg(i, len).as_str());
        }
    }

    /// A full socket: what it does not take waits in the backlog (the session is woken to
    /// write it), the backlog holds at most `limit` messages (then the client is too slow),
    /// and once written out every message arrives whole and in order.
    #[tokio::test]
    async fn a_full_socket_leaves_a_bounded_backlog_that_arrives_intact() {
        let (wire, _session, mut client) = pipe(100).await;
        let mut sent = Vec::new();
        let mut refused = None;
        for i in 0..20 {
            match wire.send(&msg(i, 70), 5) {
                Ok(()) => sent.push(i),
                Err(e) => {
                    refused = Some(e);
                    break;
                }
            }
        }
        assert_eq!(refused, Some(Refused::Full));
        // One message written at once, the next partly, then four more behind it: five
        // in the backlog.
        assert_eq!(sent.len(), 6, "{sent:?}");
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            for _ in 0..6 {
                got.push(next_text(&mut client).await);
            }
            got
        });
        write_out(&wire).await;
        let got = reader.await.unwrap();
        let want: Vec<String> = sent.iter().map(|&i| msg(i, 70).to_string()).collect();
        assert_eq!(got, want);
        assert_eq!(wire.lock().queued, 0);
    }

    /// The session's own frames (here a text and a ping) queue behind the room's backlog,
    /// and its flush waits only for its own bytes: frames never interleave.
    #[tokio::test]
    async fn session_frames_follow_the_backlog_whole() {
        let (wire, mut session, mut client) = pipe(64).await;
        for i in 0..3 {
            wire.send(&msg(i, 90), 100).unwrap();
        }
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            while got.len() < 5 {
                match client.next().await {
                    Some(Ok(Message::Text(t))) => got.push(t.to_string()),
                    Some(Ok(Message::Ping(_))) => got.push("ping".into()),
                    other => panic!("{other:?}"),
                }
            }
            got
        });
        session.send(Message::text("from the session")).await.unwrap();
        session.send(Message::Ping(Bytes::new())).await.unwrap();
        let got = reader.await.unwrap();
        let mut want: Vec<String> = (0..3).map(|i| msg(i, 90).to_string()).collect();
        want.push("from the session".into());
        want.push("ping".into());
        assert_eq!(got, want);
    }

    /// Released with a close (the client was too slow): the frame being written is
    /// finished, the rest of the backlog is dropped, and the close frame follows.
    #[tokio::test]
    async fn a_release_finishes_the_frame_being_written_then_closes() {
        let (wire, mut session, mut client) = pipe(50).await;
        for i in 0..4 {
            wire.send(&msg(i, 120), 100).unwrap();
        }
        assert!(wire.lock().mid_frame, "the first message is partly written");
        wire.release(Some((4008, "too slow".into())));
        let wake = std::future::poll_fn(|cx| wire.poll_wake(cx)).await;
        assert_eq!(wake, Wake::Released(Some((4008, "too slow".into()))));
        assert_eq!(wire.send(&msg(9, 10), 100), Err(Refused::Failed));
        let reader = tokio::spawn(async move {
            let first = next_text(&mut client).await;
            let close = match client.next().await {
                Some(Ok(Message::Close(f))) => f,
                other => panic!("expected the close, got {other:?}"),
            };
            (first, close)
        });
        session
            .send(Message::Close(Some(CloseFrame {
                code: 4008.into(),
                reason: "too slow".into(),
            })))
            .await
            .unwrap();
        let (first, close) = reader.await.unwrap();
        assert_eq!(first, msg(0, 120).as_str());
        assert_eq!(u16::from(close.unwrap().code), 4008);
    }

    /// Released with nothing partly written: the whole backlog goes.
    #[tokio::test]
    async fn a_release_between_frames_drops_the_whole_backlog() {
        let (wire, _session, _client) = pipe(64).await;
        // Fills the pipe exactly: two frames of 32 bytes (2 of header, 30 of text).
        wire.send(&msg(0, 30), 100).unwrap();
        wire.send(&msg(1, 30), 100).unwrap();
        wire.send(&msg(2, 30), 100).unwrap();
        assert!(!wire.lock().mid_frame);
        assert_eq!(wire.lock().queued, 1);
        wire.release(None);
        assert!(wire.lock().backlog.is_empty());
        let wake = std::future::poll_fn(|cx| wire.poll_wake(cx)).await;
        assert_eq!(wake, Wake::Released(None));
    }

    /// Fragments are at most [`FRAGMENT`] bytes, cut between characters (each is valid
    /// UTF-8 on its own), a text frame then continuation frames, the last one final, and
    /// they give back the message.
    #[test]
    fn fragments_cut_between_characters_and_reassemble() {
        // 'é' is 2 bytes and '€' 3: with a 1-byte prefix every multiple of 1024 falls
        // inside a character somewhere along the text.
        let text = format!("x{}", "é€a".repeat(700));
        let frames: Vec<Frame> = fragments(Bytes::from(text.clone())).collect();
        assert!(frames.len() >= 4);
        let mut joined = Vec::new();
        for (i, frame) in frames.iter().enumerate() {
            let header = frame.header();
            let want = if i == 0 { Data::Text } else { Data::Continue };
            assert_eq!(header.opcode, OpCode::Data(want));
            assert_eq!(header.is_final, i == frames.len() - 1);
            assert!(frame.payload().len() <= FRAGMENT);
            if !header.is_final {
                assert!(frame.payload().len() > FRAGMENT - 4, "a fragment cut short");
            }
            std::str::from_utf8(frame.payload()).expect("a fragment cut inside a character");
            joined.extend_from_slice(frame.payload());
        }
        assert_eq!(joined, text.as_bytes());
        // Exactly one fragment's worth is one frame.
        let one: Vec<Frame> = fragments(Bytes::from("a".repeat(FRAGMENT))).collect();
        assert_eq!(one.len(), 1);
        assert!(one[0].header().is_final);
    }
}
