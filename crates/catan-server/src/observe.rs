//! Logs and request tracing: every HTTP request gets an `x-request-id` (the client's, if it
//! sent one, else a server counter) that appears in its log line and in the response.

use crate::LogFormat;
use axum::http::{HeaderName, Request};
use axum::Router;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;
use tracing_subscriber::EnvFilter;

/// Logs to stderr in `format`, at the levels of `RUST_LOG` (default `info`); ANSI colours
/// only when stderr is a terminal, so redirected logs stay plain text.
pub fn init_logging(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().with_current_span(true).init(),
    }
}

/// `x-request-id` values: `r1`, `r2`, … per process.
#[derive(Clone, Default)]
struct Counter(Arc<AtomicU64>);

impl MakeRequestId for Counter {
    fn make_request_id<B>(&mut self, _: &Request<B>) -> Option<RequestId> {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        Some(RequestId::new(format!("r{n}").parse().expect("ascii")))
    }
}

/// Wraps the app: request id set first (outermost), then the trace span that carries it,
/// then the id copied onto the response.
pub fn layers(app: Router) -> Router {
    let header = HeaderName::from_static("x-request-id");
    app.layer(PropagateRequestIdLayer::new(header.clone()))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<_>| {
                    let id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!("http", method = %req.method(), path = %req.uri().path(), request_id = %id)
                })
                .on_request(())
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(SetRequestIdLayer::new(header, Counter::default()))
}
