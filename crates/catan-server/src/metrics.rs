//! Prometheus metrics (`GET /metrics`), through the `metrics` facade and its Prometheus
//! exporter. Every metric the server records is named here, so the list an operator
//! scrapes is this file; call sites use the small functions below, never a string.
//!
//! The recorder is process-global (the `metrics` facade has one), so several servers in
//! one process (the end-to-end tests) share it; values are totals over the process.

use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::sync::watch;

pub const ROOMS: &str = "catan_rooms";
pub const CONNECTIONS: &str = "catan_connections";
pub const ACTIONS_APPLIED: &str = "catan_actions_applied_total";
pub const ACTIONS_REFUSED: &str = "catan_actions_refused_total";
pub const BROADCAST_SECONDS: &str = "catan_action_broadcast_seconds";
pub const TIMEOUT_MOVES: &str = "catan_timeout_moves_total";
pub const SLOW_CLIENT_DROPS: &str = "catan_slow_client_drops_total";
pub const RATE_LIMIT_CLOSES: &str = "catan_rate_limit_closes_total";
pub const PER_IP_LIMITED: &str = "catan_per_ip_limited_total";
pub const STORE_WRITES: &str = "catan_store_writes_total";
pub const JOURNAL_COMMITS: &str = "catan_journal_commits_total";
pub const JOURNAL_RECORDS: &str = "catan_journal_records_total";
pub const JOURNAL_FAILED: &str = "catan_journal_failed_commits_total";
pub const JOURNAL_DROPPED: &str = "catan_journal_dropped_total";
pub const JOURNAL_COMMIT_SECONDS: &str = "catan_journal_commit_seconds";
pub const STORE_WRITE_FAILURES: &str = "catan_store_write_failures_total";
pub const STORE_DROPPED: &str = "catan_store_dropped_total";
pub const STORE_QUEUE: &str = "catan_store_queue_length";

/// Installs the recorder once per process and returns the handle that renders it.
pub fn handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            // One bucket list for every latency histogram (`…_seconds`): 50 µs to 1 s.
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Suffix("_seconds".into()),
                    &[
                        0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1,
                        0.25, 1.0,
                    ],
                )
                .expect("non-empty buckets")
                .build_recorder();
            let handle = recorder.handle();
            // Another recorder may already be installed (a test harness); ours still
            // renders what is recorded through it, so /metrics keeps working.
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics may be empty");
            }
            describe();
            handle
        })
        .clone()
}

/// How often [`upkeep`] drains the histograms.
pub const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Drains the histograms' samples into their buckets every `every`, until `stop`.
///
/// Why: the recorder keeps every sample a histogram records (its value and a timestamp, 16
/// bytes) until something drains them, and only a scrape of `/metrics` did: a server
/// nobody scraped grew with every action (`catan_action_broadcast_seconds`) and every
/// journal commit, without end (measured under load: about 20 bytes per action, 1.2 GB an
/// hour at 17,000 actions/s, some 170 MB a day at 100/s). The exporter leaves this task to
/// whoever builds its recorder without its own HTTP listener, as [`handle`] does.
pub async fn upkeep(every: Duration, stop: watch::Receiver<bool>) {
    let handle = handle();
    crate::periodic::every(every, stop, || handle.run_upkeep()).await
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        TIMEOUT_MOVES,
        "Moves the server made for seats whose turn or reaction time ran out."
    );
    describe_gauge!(ROOMS, "Live rooms by status (lobby, playing, finished).");
    describe_gauge!(
        CONNECTIONS,
        "Open WebSocket connections by role (player, spectator)."
    );
    describe_counter!(ACTIONS_APPLIED, "Game actions applied, by kind.");
    describe_counter!(ACTIONS_REFUSED, "Game actions refused by the rules, by kind.");
    describe_histogram!(
        BROADCAST_SECONDS,
        Unit::Seconds,
        "From applying an action to the last viewer's update queued on its connection."
    );
    describe_counter!(
        SLOW_CLIENT_DROPS,
        "Clients dropped (4008) because their outbound queue was full."
    );
    describe_counter!(
        RATE_LIMIT_CLOSES,
        "Connections closed (1008) for exceeding the message rate."
    );
    describe_counter!(
        PER_IP_LIMITED,
        "Requests refused (429) by a per-address limit, by what was limited."
    );
    describe_counter!(
        STORE_WRITES,
        "Finished games written to the store (by the writer or the journal)."
    );
    describe_counter!(JOURNAL_COMMITS, "Journal transactions committed.");
    describe_counter!(
        JOURNAL_RECORDS,
        "Journal records (game starts, actions, ends) committed."
    );
    describe_counter!(JOURNAL_FAILED, "Journal commits that failed and were retried.");
    describe_counter!(JOURNAL_DROPPED, "Journal records given up on.");
    describe_histogram!(
        JOURNAL_COMMIT_SECONDS,
        Unit::Seconds,
        "Each journal commit (the transaction and its sync to disk); the updates showing its actions wait for it."
    );
    describe_counter!(
        STORE_WRITE_FAILURES,
        "Failed store write attempts (each is retried)."
    );
    describe_counter!(
        STORE_DROPPED,
        "Finished games not stored (logged in full instead): refused by the database, given up \
         after the shutdown grace period, or refused because the writer's queue was full."
    );
    describe_gauge!(STORE_QUEUE, "Finished games waiting for the store writer.");
}

/// A room's status changed (`from` None: created; `to` None: removed).
pub fn room_status(from: Option<&'static str>, to: Option<&'static str>) {
    if let Some(from) = from {
        gauge!(ROOMS, "status" => from).decrement(1.0);
    }
    if let Some(to) = to {
        gauge!(ROOMS, "status" => to).increment(1.0);
    }
}

/// A connection joined (`+1`) or left (`-1`) a room as `role` (`player` or `spectator`).
pub fn connection(role: &'static str, delta: f64) {
    gauge!(CONNECTIONS, "role" => role).increment(delta);
}

/// An action applied, counted by kind through a handle kept per thread.
///
/// Why kept: `counter!` with a label looks the series up in the recorder's registry
/// (hashing its name and labels, under a lock shared by every thread) on each call, and
/// this one and [`broadcast_time`] run on every action: under the load command the two
/// lookups were about 1 % of the server's CPU. A handle is the series itself; the
/// recorder is installed ([`handle`]) before the first one is made, so none is a no-op
/// handle from before it.
pub fn action_applied(kind: &'static str) {
    thread_local! {
        static APPLIED: std::cell::RefCell<std::collections::HashMap<&'static str, metrics::Counter>> =
            std::cell::RefCell::default();
    }
    APPLIED.with(|applied| {
        let mut applied = applied.borrow_mut();
        let counter = applied.entry(kind).or_insert_with(|| {
            handle();
            counter!(ACTIONS_APPLIED, "kind" => kind)
        });
        counter.increment(1);
    });
}

pub fn action_refused(kind: &'static str) {
    counter!(ACTIONS_REFUSED, "kind" => kind).increment(1);
}

/// How long an action's apply and broadcast took (a handle kept per thread, as in
/// [`action_applied`]).
pub fn broadcast_time(seconds: f64) {
    thread_local! {
        static BROADCAST: metrics::Histogram = {
            handle();
            histogram!(BROADCAST_SECONDS)
        };
    }
    BROADCAST.with(|h| h.record(seconds));
}

/// A journal commit's duration (the journal's [`catan_store::JournalConfig::on_commit`]).
pub fn journal_commit_time(took: std::time::Duration) {
    histogram!(JOURNAL_COMMIT_SECONDS).record(took.as_secs_f64());
}

/// A move the server made for a seat whose turn or reaction time ran out.
pub fn timeout_move() {
    counter!(TIMEOUT_MOVES).increment(1);
}

pub fn slow_client_dropped() {
    counter!(SLOW_CLIENT_DROPS).increment(1);
}

pub fn rate_limit_closed() {
    counter!(RATE_LIMIT_CLOSES).increment(1);
}

pub fn per_ip_limited(what: &'static str) {
    counter!(PER_IP_LIMITED, "limit" => what).increment(1);
}

/// Copies the store writer's totals (kept by the writer itself) and the journal's into the
/// exporter. With the journal on, a finished game reaches the games history through the
/// journal's transaction, so it counts among the store's writes too.
pub fn store(stats: &catan_store::WriterStats, journal: Option<&catan_store::JournalStats>) {
    let finished = journal.map_or(0, |j| j.finished);
    counter!(STORE_WRITES).absolute(stats.saved + finished);
    if let Some(j) = journal {
        counter!(JOURNAL_COMMITS).absolute(j.commits);
        counter!(JOURNAL_RECORDS).absolute(j.records);
        counter!(JOURNAL_FAILED).absolute(j.failed_attempts);
        counter!(JOURNAL_DROPPED).absolute(j.dropped);
    }
    counter!(STORE_WRITE_FAILURES).absolute(stats.failed_attempts);
    counter!(STORE_DROPPED).absolute(stats.dropped + stats.refused);
    gauge!(STORE_QUEUE).set(stats.pending() as f64);
}
