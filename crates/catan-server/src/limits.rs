//! Per-address limits on the two things a client can ask for cheaply and the server pays
//! for dearly: creating rooms and opening WebSockets (governor's keyed GCRA limiters).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

pub struct PerIp {
    rooms: Option<DefaultKeyedRateLimiter<IpAddr>>,
    upgrades: Option<DefaultKeyedRateLimiter<IpAddr>>,
}

fn per_minute(n: u32) -> Option<DefaultKeyedRateLimiter<IpAddr>> {
    NonZeroU32::new(n).map(|n| RateLimiter::keyed(Quota::per_minute(n)))
}

fn check(limiter: &Option<DefaultKeyedRateLimiter<IpAddr>>, ip: IpAddr) -> Result<(), Duration> {
    match limiter {
        None => Ok(()),
        Some(l) => l
            .check_key(&ip)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now())),
    }
}

impl PerIp {
    /// `rooms` room creations and `upgrades` WebSocket upgrades per minute and address,
    /// each allowed as a burst too; 0 turns a limit off.
    pub fn new(rooms: u32, upgrades: u32) -> PerIp {
        PerIp {
            rooms: per_minute(rooms),
            upgrades: per_minute(upgrades),
        }
    }

    /// `Err(wait)`: the address created too many rooms; it may try again after `wait`.
    pub fn create_room(&self, ip: IpAddr) -> Result<(), Duration> {
        check(&self.rooms, ip).inspect_err(|_| crate::metrics::per_ip_limited("rooms"))
    }

    pub fn upgrade(&self, ip: IpAddr) -> Result<(), Duration> {
        check(&self.upgrades, ip).inspect_err(|_| crate::metrics::per_ip_limited("websocket"))
    }

    fn forget_idle(&self) {
        for l in [&self.rooms, &self.upgrades].into_iter().flatten() {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// A 429 with a JSON body and `retry-after`.
pub fn too_many(what: &str, wait: Duration) -> Response {
    let secs = wait.as_secs().max(1);
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(axum::http::header::RETRY_AFTER, secs.to_string())],
        Json(catan_protocol::HttpError {
            error: format!("too many {what}; try again in {secs} s"),
        }),
    )
        .into_response()
}

/// Drops the state of addresses whose limits have fully recovered, once a minute, so the
/// tables do not grow with every address ever seen.
pub async fn forget_idle(limits: Arc<PerIp>, stop: tokio::sync::watch::Receiver<bool>) {
    crate::periodic::every(Duration::from_secs(60), stop, || limits.forget_idle()).await
}
