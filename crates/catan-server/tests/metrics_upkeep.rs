//! The metrics recorder keeps every sample a histogram records until something drains it;
//! the server's upkeep task ([`catan_server::metrics::upkeep`]) does, so a server nobody
//! scrapes does not grow with every action. Measured here as the bytes this test process
//! holds through its allocator (a binary of its own: the allocator and the recorder are
//! process-global).

use catan_server::metrics::{broadcast_time, handle, upkeep};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;
use tokio::sync::watch;

/// The system allocator, counting the bytes it holds for the process.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn held() -> isize {
    HELD.load(Ordering::Relaxed)
}

/// As many samples as 50,000 actions record.
const BATCH: usize = 50_000;

fn record_batch() {
    for _ in 0..BATCH {
        broadcast_time(0.000_2);
    }
}

#[tokio::test(start_paused = true)]
async fn histogram_samples_are_drained_without_a_scrape() {
    let _ = handle();
    record_batch();
    // Undrained, a batch's samples stay held: this is what the check below would see.
    let before = held();
    record_batch();
    let batch = held() - before;
    // 16 bytes a sample (a value and a timestamp) in blocks of 64 today; half that is
    // enough to show the samples are kept.
    assert!(
        batch >= (BATCH * 8) as isize,
        "{BATCH} samples held only {batch} bytes: the recorder no longer keeps them?"
    );

    let every = Duration::from_secs(5);
    let (stop_tx, stop_rx) = watch::channel(false);
    let task = tokio::spawn(upkeep(every, stop_rx));
    // The clock is paused: each sleep runs the upkeep's tick due before it ends.
    tokio::time::sleep(every + Duration::from_millis(1)).await;
    let start = held();
    for _ in 0..20 {
        record_batch();
        tokio::time::sleep(every).await;
    }
    let grown = held() - start;
    // Twenty batches undrained would hold twenty times `batch`; drained, freed blocks
    // wait only for the next epochs of the bucket's reclamation.
    assert!(
        grown < 3 * batch,
        "20 batches drained every {every:?} still hold {grown} bytes (one undrained batch: {batch})"
    );

    stop_tx.send(true).unwrap();
    task.await.unwrap();
}
