//! The accept loop (after tokio's mini-redis: a listener, and a task per connection):
//! every accepted socket gets `TCP_NODELAY` and is served by hyper's HTTP/1 with upgrades,
//! the axum app answering its requests; on shutdown the loop stops accepting, tells every
//! HTTP connection to finish the request it is on, and waits for them.
//!
//! Why not `axum::serve`: it serves connections through hyper-util's `auto` builder, which
//! wraps the socket in a private type (to sniff the HTTP version), so an upgraded
//! connection could not be taken back as the `TcpStream` it is. Here the connection's IO
//! is `TokioIo<TcpStream>`, and [`take_socket`] gets the socket back after the WebSocket
//! upgrade: the room then writes each update to the socket with one `send` (see
//! [`crate::wire`]), not through hyper's `Upgraded` and tokio's readiness bookkeeping, and
//! the session reads it without those layers too.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::upgrade::Upgraded;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::Service;

/// A client has this long to send a request's headers, from the connection's start or the
/// end of its previous request (hyper's default, which needs the timer given here).
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `app` on `listener` until `shutdown` completes, then stops accepting, lets every
/// HTTP connection finish its request in progress, and returns once they have. (Upgraded
/// connections are the sessions' own by then: `shutdown` is where they are closed.)
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    serve_with(listener, app, shutdown, HEADER_READ_TIMEOUT).await
}

/// [`serve`] with another time limit for a request's headers (the tests' short one).
async fn serve_with(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    header_timeout: Duration,
) -> io::Result<()> {
    // Connection tasks hold a receiver each: the loop waits for all of them to drop it.
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Updates to viewers who did not act would otherwise wait for the client's delayed
        // ACK (Nagle), tens of milliseconds.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY on an accepted socket");
        }
        tokio::spawn(connection(
            tcp,
            peer,
            app.clone(),
            stop_rx.clone(),
            header_timeout,
        ));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(stop_rx);
    stop_tx.closed().await;
    Ok(())
}

/// An accept that failed. A connection reset or aborted before it was accepted concerns
/// that client only; anything else (out of file descriptors, say) would fail again at once,
/// so the loop waits a second before the next accept, as `axum::serve` does.
async fn accept_failed(e: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(e.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset) {
        return;
    }
    tracing::error!(error = %e, "accept failed; trying again in 1 s");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// One HTTP connection, until it ends, is upgraded, or (told to stop) finishes the request
/// it is on.
async fn connection(
    tcp: TcpStream,
    peer: SocketAddr,
    app: Router,
    mut stop: watch::Receiver<bool>,
    header_timeout: Duration,
) {
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        // What `into_make_service_with_connect_info` adds: the handlers' `ConnectInfo`.
        req.extensions_mut().insert(ConnectInfo(peer));
        let mut app = app.clone();
        async move { Ok::<_, Infallible>(app.call(req).await.unwrap_or_else(|e| match e {})) }
    });
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .serve_connection(TokioIo::new(tcp), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::trace!(%peer, "connection ended: {e}");
                }
                break;
            }
            changed = stop.changed(), if !stopping => {
                // A closed sender means the loop is gone: stop as well.
                let _ = changed;
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// The socket of an upgraded connection, with what hyper read past the upgrade request
/// (the client's first frames, if it sent them without waiting for the 101). Only a
/// connection served by [`serve`] can be taken back; any other is handed back as it is.
///
/// The bytes are copied out (mostly none, which allocates nothing): hyper's are a slice of
/// its read buffer, which would otherwise stay allocated for as long as they are kept
/// (8 KiB per connection, held by a session for its whole life).
pub fn take_socket(upgraded: Upgraded) -> Result<(TcpStream, Vec<u8>), Upgraded> {
    upgraded
        .downcast::<TokioIo<TcpStream>>()
        .map(|parts| (parts.io.into_inner(), parts.read_buf.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::sync::oneshot;

    /// A server of one route that answers with the client's address (its `ConnectInfo`),
    /// with a 300 ms limit on headers; the stop sender and the serve task.
    async fn start() -> (
        SocketAddr,
        oneshot::Sender<()>,
        tokio::task::JoinHandle<io::Result<()>>,
    ) {
        let app = Router::new().route(
            "/peer",
            get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.to_string() }),
        );
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
        };
        let task = tokio::spawn(serve_with(listener, app, shutdown, Duration::from_millis(300)));
        (addr, stop, task)
    }

    /// Reads until the server closes the connection (within 10 s).
    async fn read_to_close(tcp: &mut TcpStream) -> String {
        let mut all = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut all))
            .await
            .expect("the server closes the connection")
            .unwrap();
        String::from_utf8_lossy(&all).into_owned()
    }

    /// Handlers see the client's address, keep-alive connections serve several requests,
    /// and an idle one does not hold the shutdown up: it is closed, and `serve` returns.
    #[tokio::test]
    async fn requests_see_their_peer_and_shutdown_closes_idle_connections() {
        let (addr, stop, task) = start().await;
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        let me = tcp.local_addr().unwrap().to_string();
        for _ in 0..2 {
            tcp.write_all(b"GET /peer HTTP/1.1\r\nHost: x\r\n\r\n")
                .await
                .unwrap();
            let mut buf = vec![0u8; 4096];
            let n = tcp.read(&mut buf).await.unwrap();
            let answer = String::from_utf8_lossy(&buf[..n]);
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            assert!(answer.ends_with(&me), "{answer} (client {me})");
        }
        stop.send(()).unwrap();
        assert_eq!(read_to_close(&mut tcp).await, "");
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("serve returns once its connections have closed")
            .unwrap()
            .unwrap();
        assert!(TcpStream::connect(addr).await.is_err(), "the listener is closed");
    }

    /// A client that starts a request and never finishes its headers is disconnected once
    /// the limit has passed, whatever it sends in the meantime (a slow-headers attack would
    /// otherwise hold a connection, and its memory, for as long as it liked).
    #[tokio::test]
    async fn headers_not_finished_in_time_close_the_connection() {
        let (addr, _stop, _task) = start().await;
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        tcp.write_all(b"GET /peer HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        let started = tokio::time::Instant::now();
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            tcp.write_all(b"X-Slow: 1\r\n").await.unwrap();
        }
        let answer = read_to_close(&mut tcp).await;
        assert!(!answer.contains("200 OK"), "{answer}");
        assert!(
            started.elapsed() >= Duration::from_millis(250),
            "closed after {:?}",
            started.elapsed()
        );
    }
}
