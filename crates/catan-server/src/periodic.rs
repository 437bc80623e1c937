//! The server's housekeeping tasks (forgetting idle addresses, draining the metrics'
//! histograms) share one shape: do a small job every so often until shutdown.

use std::time::Duration;
use tokio::sync::watch;
use tokio::time::MissedTickBehavior;

/// Runs `job` every `period` (the first time at once) until `stop` changes. A tick missed
/// while the runtime was busy is not made up in a burst: the job catches up on its own.
pub async fn every(period: Duration, mut stop: watch::Receiver<bool>, mut job: impl FnMut()) {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => job(),
            _ = stop.changed() => return,
        }
    }
}
