//! `catan-load`: N rooms of WebSocket players (random legal moves from their views) plus
//! spectators against a running `catan-server`; reports actions/s, the latency from an
//! action to the last viewer's patch (p50/p99), the server's CPU time per action and its
//! resident memory, and this client's own CPU time per action (it shares the machine).
//!
//! Each room is driven by one task holding all its sockets with at most one action in
//! flight, so the latency of an action is exact: until every viewer of the room has
//! received (and applied) its update. Two modes:
//!
//! - closed loop (default): every room acts again as soon as its last action is seen by
//!   all; the figure is throughput, the latency is mostly queueing.
//! - open loop (`--rate N`): N actions/s across all rooms on a fixed schedule (room r acts
//!   at its own offset + k·rooms/N seconds). Latency counts from the *scheduled* time, so
//!   a server that falls behind is charged for it (no coordinated omission). The schedule
//!   is kept by a thread of its own, not by tokio's timers (see [`clock`]), and the
//!   report says how late the client itself sent (`client lateness`).
//!
//! Figures cover the `--seconds` after a `--warmup` (connecting, first snapshots). The
//! server's CPU is read from `/proc/<pid>/stat` (utime + stime, all its threads) at both
//! ends of that window; the pid is `--server-pid`, or else the process named
//! `catan-server`. Its resident memory (`VmRSS` in `/proc/<pid>/status`) at the start of
//! the run and at the end of the window gives the memory per room and per connection
//! (with `--rate 0.001` the rooms stay idle: the idle-room figure). Start the server with
//! generous per-connection rate limits for this (a load client acts far faster than a
//! person):
//!
//!     RATE_PER_SEC=100000 RATE_BURST=100000 catan-server &
//!     catan-load --rooms 200 --spectators 1 --seconds 30      # 1,000 connections
//!     catan-load --rooms 200 --spectators 1 --seconds 30 --rate 2000
//!     catan-load --rooms 2000 --spectators 1 --warmup 60 --seconds 5 --rate 0.001  # idle

/// mimalloc, not glibc's malloc: parsing and patching every viewer's updates allocates
/// many small values on both threads, and glibc's arenas took a fifth of this client's CPU.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use catan_rules::{Action, Requirement, ResourceSet, Rng};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tree::{apply_patch, Node, Op};

mod tree;

#[derive(Parser, Debug)]
#[command(name = "catan-load", about = "Load generator for catan-server")]
struct Args {
    /// Server address (host:port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Concurrent rooms.
    #[arg(long, default_value_t = 200)]
    rooms: usize,
    /// Players per room.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Spectators per room.
    #[arg(long, default_value_t = 1)]
    spectators: usize,
    /// How long to run (seconds); rooms whose game ends start a new one.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Seconds before the measured window (connecting, first snapshots; not counted).
    #[arg(long, default_value_t = 3)]
    warmup: u64,
    /// Open loop: this many actions per second across all rooms, on a fixed schedule.
    /// Without it, closed loop (each room acts again as soon as its action is seen).
    #[arg(long)]
    rate: Option<f64>,
    /// Server process id for the CPU and memory figures (default: the process named
    /// catan-server).
    #[arg(long)]
    server_pid: Option<u32>,
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Sock {
    ws: Ws,
    seat: Option<u8>,
    view: Node,
}

async fn post_room(addr: &str, body: &Value) -> anyhow::Result<String> {
    static CLIENT: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    // No idle keep-alive connections: thousands of rooms created at once would otherwise
    // leave as many idle HTTP connections in the server (about 24 KiB each in hyper's
    // buffers), counted in the per-room memory figure though no room holds them.
    let client = CLIENT.get_or_init(|| {
        reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .build()
            .expect("an HTTP client")
    });
    let resp = client
        .post(format!("http://{addr}/api/rooms"))
        .json(body)
        .send()
        .await?;
    let status = resp.status();
    let v: Value = resp.json().await?;
    if !status.is_success() {
        anyhow::bail!("POST /api/rooms: {status} {v}");
    }
    Ok(v["code"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no code: {v}"))?
        .to_string())
}

/// The parts of a server message the load client uses, decoded in one pass over the
/// text (no `Value` of the whole message).
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    view: Option<Node>,
    #[serde(borrow)]
    patch: Option<Vec<Op<'a>>>,
}

/// The next text message (pings and the like skipped); an error once the socket closes.
async fn next_text(ws: &mut Ws) -> anyhow::Result<Utf8Bytes> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => return Ok(t),
            Some(Ok(Message::Close(f))) => anyhow::bail!("closed: {f:?}"),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.into()),
            None => anyhow::bail!("socket ended"),
        }
    }
}

async fn next_json(ws: &mut Ws) -> anyhow::Result<Value> {
    let t = tokio::time::timeout(READ_TIMEOUT, next_text(ws)).await??;
    Ok(serde_json::from_str(&t)?)
}

impl Sock {
    /// Reads until a snapshot or update arrives (or an error for this socket's action);
    /// returns true for an update/snapshot. No timeout of its own: the caller bounds a
    /// whole round of reads with one timer (one per message was a timer-wheel insert and
    /// removal for each of them).
    async fn until_update(&mut self) -> anyhow::Result<bool> {
        loop {
            let t = next_text(&mut self.ws).await?;
            let m: Incoming = serde_json::from_str(&t)?;
            match m.kind.as_ref() {
                "snapshot" => {
                    self.view = m.view.unwrap_or_default();
                    return Ok(true);
                }
                "update" => {
                    apply_patch(&mut self.view, m.patch.unwrap_or_default())?;
                    return Ok(true);
                }
                "error" => return Ok(false),
                _ => continue,
            }
        }
    }
}

/// This seat's move: a discard when one is required, else a random legal action; `None`
/// when the seat has nothing to do. Reads the view's `legal` in place and decodes only
/// the one action chosen (most seats, most of the time, have nothing to do).
fn choose(view: &Node, seat: u8, rng: &mut Rng) -> Option<Action> {
    use serde::Deserialize;
    let legal = view.get("legal");
    let actions = legal.get("actions").as_array()?;
    let requirements = legal.get("requirements").as_array()?;
    if actions.is_empty() && requirements.is_empty() {
        return None;
    }
    for r in requirements {
        if let Ok(Requirement::Discard { count }) = Requirement::deserialize(r.to_value()) {
            let hand = view.get("players").at(seat as usize).get("hand");
            let mut hand = ResourceSet::deserialize(hand.to_value()).ok()?;
            let mut cards = ResourceSet::EMPTY;
            for _ in 0..count {
                let c = hand.nth_card(rng.below(hand.total()));
                hand[c] -= 1;
                cards[c] += 1;
            }
            return Some(Action::Discard { cards });
        }
    }
    if actions.is_empty() {
        return None;
    }
    Action::deserialize(actions[rng.below(actions.len() as u32) as usize].to_value()).ok()
}

/// How long a room waits for the messages it expects before it fails.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// `{"type": "action", "action": …}`, serialized without building a `Value` first.
#[derive(serde::Serialize)]
struct ActionMessage {
    #[serde(rename = "type")]
    kind: &'static str,
    action: Action,
}

struct Stats {
    /// Only actions completed inside the measured window count.
    measuring: AtomicBool,
    actions: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    latencies_us: Mutex<Vec<u32>>,
    /// Open loop: how late each measured action was sent after its scheduled time: the
    /// client's own delay (its timers, its CPU), or, once the server falls behind, the
    /// wait for the room's previous action to be seen.
    late_us: Mutex<Vec<u32>>,
}

async fn run_room(
    args: Arc<Args>,
    room: usize,
    stats: Arc<Stats>,
    mut stop: watch::Receiver<bool>,
    mut slots: Option<mpsc::UnboundedReceiver<Instant>>,
) -> anyhow::Result<()> {
    let url = format!("ws://{}/ws", args.addr);
    let mut rng = Rng::new(room as u64 + 1);
    let mut game = 0u64;
    while !*stop.borrow() {
        let code = post_room(
            &args.addr,
            &json!({"players": args.players, "seed": room as u64 * 1000 + game}),
        )
        .await?;
        game += 1;
        let mut socks = Vec::new();
        for i in 0..args.players as usize + args.spectators {
            // A 4 KiB read buffer, not tungstenite's 128 KiB default: the buffer is
            // zero-filled before every read, which made `memset` a fifth of this client's
            // CPU (see ws-limit's README); no Nagle delay on the actions it sends.
            let config = WebSocketConfig::default().read_buffer_size(4096);
            let (mut ws, _) = tokio_tungstenite::connect_async_with_config(&url, Some(config), true).await?;
            let join = if i < args.players as usize {
                json!({"type": "join", "code": code, "name": format!("p{i}")})
            } else {
                json!({"type": "join", "code": code, "spectate": true})
            };
            ws.send(Message::text(join.to_string())).await?;
            let welcome = next_json(&mut ws).await?;
            let seat = welcome["seat"].as_u64().map(|s| s as u8);
            socks.push(Sock {
                ws,
                seat,
                view: Node::Null,
            });
        }
        socks[0]
            .ws
            .send(Message::text(json!({"type": "start"}).to_string()))
            .await?;
        tokio::time::timeout(READ_TIMEOUT, async {
            for s in socks.iter_mut() {
                s.until_update().await?;
            }
            anyhow::Ok(())
        })
        .await
        .map_err(|_| anyhow::anyhow!("room {code}: no first view within {READ_TIMEOUT:?}"))??;
        // Slots that passed while this client set up a new game are its own delay, not
        // the server's: they are skipped, and the room acts at its next slot.
        if let Some(rx) = &mut slots {
            while rx.try_recv().is_ok() {}
        }
        loop {
            if *stop.borrow() {
                return Ok(());
            }
            let spectator_view = &socks[socks.len() - 1].view;
            if !spectator_view.get("winner").is_null() {
                stats.games.fetch_add(1, Ordering::Relaxed);
                break;
            }
            // The first awaited seat with something to do acts.
            let mut acted = None;
            for (i, sock) in socks.iter().enumerate().take(args.players as usize) {
                if let Some(a) = choose(&sock.view, sock.seat.unwrap(), &mut rng) {
                    acted = Some((i, a));
                    break;
                }
            }
            let Some((i, action)) = acted else {
                anyhow::bail!("room {code}: nobody can act")
            };
            let t0 = match &mut slots {
                // A slow schedule (`--rate 0.001`: idle rooms) must not keep the run from
                // ending.
                Some(rx) => tokio::select! {
                    at = rx.recv() => match at {
                        Some(at) => at,
                        None => return Ok(()),
                    },
                    _ = stop.changed() => return Ok(()),
                },
                None => Instant::now(),
            };
            let text = serde_json::to_string(&ActionMessage {
                kind: "action",
                action,
            })?;
            let sent = Instant::now();
            socks[i].ws.send(Message::text(text)).await?;
            // Every viewer's update, under one timer for the whole round.
            let seen = tokio::time::timeout(READ_TIMEOUT, async {
                if !socks[i].until_update().await? {
                    return anyhow::Ok(false);
                }
                for (j, s) in socks.iter_mut().enumerate() {
                    if j != i {
                        s.until_update().await?;
                    }
                }
                anyhow::Ok(true)
            })
            .await
            .map_err(|_| anyhow::anyhow!("room {code}: no update within {READ_TIMEOUT:?}"))??;
            if !seen {
                if stats.measuring.load(Ordering::Relaxed) {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                }
                continue;
            }
            if stats.measuring.load(Ordering::Relaxed) {
                let us = t0.elapsed().as_micros().min(u32::MAX as u128) as u32;
                stats.actions.fetch_add(1, Ordering::Relaxed);
                stats.latencies_us.lock().unwrap().push(us);
                if args.rate.is_some() {
                    let late = sent
                        .saturating_duration_since(t0)
                        .as_micros()
                        .min(u32::MAX as u128) as u32;
                    stats.late_us.lock().unwrap().push(late);
                }
            }
        }
        for mut s in socks {
            let _ = s.ws.close(None).await;
        }
    }
    Ok(())
}

/// The open loop's schedule: slot `j` is at `start + j / rate` and belongs to room
/// `j mod rooms` (so room r acts at `start + r / rate + k · rooms / rate`), and this
/// thread hands each room its slot's time when it comes; the room acts then, or as soon
/// as its last action is seen, and counts the latency from that time.
///
/// Why a thread and not tokio's timers: those have a resolution of 1 ms and fire on the
/// next tick after the deadline, so every action went out up to a millisecond late, and
/// that lateness, the client's alone, was counted against the server (measured: sends
/// p50 0.94 ms and p99 2.07 ms after their slots, in a latency of p50 1.5 ms; with this
/// thread 0.14 and about 2 ms, a tail that seems to be the machine's stalls). It also
/// sent the actions in bunches, the slots of each millisecond together, where people act
/// at any moment: one at a time costs the server more CPU per action (about 20 % more
/// here), since it wakes for each. This thread sleeps with `nanosleep` (Linux's default
/// timer slack is 50 µs) and wakes once per slot, or every 100 ms when slots are further
/// apart, to see the run's stop signal (the rooms' own).
fn clock(rate: f64, start: Instant, rooms: Vec<mpsc::UnboundedSender<Instant>>, stop: watch::Receiver<bool>) {
    if rooms.is_empty() {
        return;
    }
    for j in 0u64.. {
        let at = start + Duration::from_secs_f64(j as f64 / rate);
        loop {
            if *stop.borrow() {
                return;
            }
            let now = Instant::now();
            if now >= at {
                break;
            }
            // In steps, so that a slow schedule (idle rooms) still stops with the run.
            std::thread::sleep((at - now).min(Duration::from_millis(100)));
        }
        // A room that has ended (its task failed) takes no more slots.
        let _ = rooms[(j % rooms.len() as u64) as usize].send(at);
    }
}

/// `p50 … ms  p99 … ms  max … ms` of sorted microseconds (not empty).
fn percentiles(sorted_us: &[u32]) -> String {
    let pct = |p: f64| sorted_us[((sorted_us.len() - 1) as f64 * p) as usize] as f64 / 1000.0;
    format!(
        "p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        pct(0.5),
        pct(0.99),
        pct(1.0)
    )
}

/// `pid`, or else the process named `catan-server`.
fn server_pid(pid: Option<u32>) -> Option<u32> {
    pid.or_else(|| {
        std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
            (comm.trim() == "catan-server").then_some(pid)
        })
    })
}

/// A process's CPU over the measured run: seconds, cores busy and, when there were actions,
/// µs per action. An idle run (`--rate 0.001`, to weigh idle rooms) has nothing to divide
/// by, but its CPU seconds still say what idle rooms cost.
fn cpu_line(secs: f64, elapsed: f64, actions: u64) -> String {
    let per_action = if actions > 0 {
        format!("{:.1} µs per action", secs * 1e6 / actions as f64)
    } else {
        "no actions to divide it by".to_string()
    };
    format!("{secs:.2} s ({:.2} cores busy), {per_action}", secs / elapsed)
}

/// CPU seconds the process has used (user + system, all threads), from `/proc/<pid>/stat`.
fn cpu_secs(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name (which may contain spaces): state is
    // field 3, utime 14 and stime 15 (1-based), in clock ticks.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux architecture we run on.
    Some(ticks as f64 / 100.0)
}

fn server_memory(pid: Option<u32>) -> Option<(u32, String, String)> {
    let pid = server_pid(pid)?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let get = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .map(|l| l[k.len()..].trim().to_string())
    };
    Some((pid, get("VmRSS:")?, get("VmHWM:")?))
}

/// The server's resident memory in KiB (`VmRSS`).
fn server_rss_kib(pid: Option<u32>) -> Option<u64> {
    let (_, rss, _) = server_memory(pid)?;
    rss.strip_suffix(" kB")?.trim().parse().ok()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Arc::new(Args::parse());
    if let Some(rate) = args.rate {
        anyhow::ensure!(
            rate.is_finite() && rate > 0.0,
            "--rate must be a positive number of actions per second, not {rate}"
        );
    }
    let stats = Arc::new(Stats {
        measuring: AtomicBool::new(false),
        actions: AtomicU64::new(0),
        games: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        latencies_us: Mutex::new(Vec::new()),
        late_us: Mutex::new(Vec::new()),
    });
    let (stop_tx, stop) = watch::channel(false);
    // The server's memory before any room of this run: the base of the per-room figure.
    let rss_before = server_rss_kib(args.server_pid);
    let mut tasks = Vec::new();
    let mut senders = Vec::new();
    for room in 0..args.rooms {
        let slots = args.rate.map(|_| {
            let (tx, rx) = mpsc::unbounded_channel();
            senders.push(tx);
            rx
        });
        tasks.push(tokio::spawn(run_room(
            args.clone(),
            room,
            stats.clone(),
            stop.clone(),
            slots,
        )));
    }
    let schedule = args.rate.map(|rate| {
        let stop = stop.clone();
        let start = Instant::now();
        std::thread::Builder::new()
            .name("schedule".into())
            .spawn(move || clock(rate, start, senders, stop))
            .expect("a thread for the schedule")
    });
    tokio::time::sleep(Duration::from_secs(args.warmup)).await;
    let pid = server_pid(args.server_pid);
    let cpu0 = pid.and_then(cpu_secs);
    let own0 = cpu_secs(std::process::id());
    let started = Instant::now();
    stats.measuring.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    stats.measuring.store(false, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    let cpu1 = pid.and_then(cpu_secs);
    let own1 = cpu_secs(std::process::id());
    let actions = stats.actions.load(Ordering::Relaxed);
    let (_, rss_during, _) = server_memory(args.server_pid).unwrap_or((0, "?".into(), "?".into()));
    let rss_end = server_rss_kib(args.server_pid);
    stop_tx.send_replace(true);
    if let Some(schedule) = schedule {
        if schedule.join().is_err() {
            eprintln!("the schedule thread failed: the open loop's figures are not to be trusted");
        }
    }
    let mut failed = 0;
    // One deadline for all rooms (a room may wait up to 30 s for a message).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(35);
    for t in tasks {
        match tokio::time::timeout_at(deadline, t).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => {
                failed += 1;
                eprintln!("room failed: {e:#}");
            }
            _ => failed += 1,
        }
    }
    let mut lat = stats.latencies_us.lock().unwrap().clone();
    lat.sort_unstable();
    let mem = server_memory(args.server_pid);
    let connections = args.rooms * (args.players as usize + args.spectators);
    let mode = match args.rate {
        Some(r) => format!("open loop at {r} actions/s"),
        None => "closed loop".to_string(),
    };
    println!(
        "rooms: {}  connections: {connections}  {mode}  seconds: {elapsed:.1} (after {} s warm-up)  failed rooms: {failed}",
        args.rooms, args.warmup
    );
    println!(
        "actions: {actions}  refused: {}  games finished: {}",
        stats.errors.load(Ordering::Relaxed),
        stats.games.load(Ordering::Relaxed)
    );
    if lat.is_empty() {
        println!("latency action -> last viewer's patch: no actions measured");
    } else {
        println!("latency action -> last viewer's patch: {}", percentiles(&lat));
    }
    let mut late = stats.late_us.lock().unwrap().clone();
    if !late.is_empty() {
        late.sort_unstable();
        println!(
            "client lateness, send after scheduled time (in the latency above): {}",
            percentiles(&late)
        );
    }
    match (cpu0, cpu1) {
        (Some(a), Some(b)) => println!("server CPU: {}", cpu_line(b - a, elapsed, actions)),
        _ => println!("server CPU: not found (pass --server-pid)"),
    }
    // This client shares the machine with the server: what it spends bounds the
    // closed-loop rate as much as the server does.
    if let (Some(a), Some(b)) = (own0, own1) {
        println!("load client CPU: {}", cpu_line(b - a, elapsed, actions));
    }
    match mem {
        Some((pid, rss, hwm)) => {
            println!("server pid {pid}: RSS under load {rss_during}, now {rss}, peak {hwm}")
        }
        None => println!("server memory: not found (pass --server-pid)"),
    }
    // With `--rate 0.001` the rooms are idle (set up, started, no action): this is the
    // memory of an idle room with its connections and game.
    if let (Some(before), Some(end)) = (rss_before, rss_end) {
        let above = end.saturating_sub(before) as f64;
        println!(
            "server RSS above the run's start: {:.1} MiB, {:.1} KiB per room, {:.1} KiB per connection",
            above / 1024.0,
            above / args.rooms.max(1) as f64,
            above / connections.max(1) as f64
        );
    }
    println!("actions/s: {:.0}", actions as f64 / elapsed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{clock, cpu_line, percentiles};
    use std::time::{Duration, Instant};
    use tokio::sync::{mpsc, watch};

    /// Slot j goes to room j mod rooms, stamped with its time on the schedule (not when it
    /// was sent), and never before that time.
    #[test]
    fn the_clock_hands_each_room_its_slots_in_turn() {
        let (txs, mut rxs): (Vec<_>, Vec<_>) = (0..3).map(|_| mpsc::unbounded_channel()).unzip();
        let (stop_tx, stop) = watch::channel(false);
        let start = Instant::now();
        let thread = std::thread::spawn(move || clock(1000.0, start, txs, stop));
        for k in 0..4u32 {
            for (r, rx) in rxs.iter_mut().enumerate() {
                let at = rx.blocking_recv().expect("a slot");
                let j = 3 * k + r as u32;
                assert_eq!(at, start + Duration::from_secs_f64(j as f64 / 1000.0), "slot {j}");
                assert!(Instant::now() >= at, "slot {j} handed out early");
            }
        }
        stop_tx.send_replace(true);
        thread.join().unwrap();
    }

    /// With idle rooms (`--rate 0.001`) the next slot is 1,000 s away: the thread still
    /// ends soon after the run does (it sleeps in steps of 100 ms), not then.
    #[test]
    fn the_clock_stops_with_the_run_between_far_slots() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop) = watch::channel(false);
        let start = Instant::now();
        std::thread::spawn(move || {
            clock(0.001, start, vec![tx], stop);
            let _ = done_tx.send(());
        });
        assert_eq!(rx.blocking_recv(), Some(start));
        stop_tx.send_replace(true);
        done_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the clock thread ends within seconds of the stop");
        assert!(rx.try_recv().is_err(), "no slot after the first, 1,000 s later");
    }

    #[test]
    fn percentiles_read_sorted_microseconds_in_milliseconds() {
        let us: Vec<u32> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(percentiles(&us), "p50 50.00 ms  p99 99.00 ms  max 100.00 ms");
        assert_eq!(percentiles(&[1500]), "p50 1.50 ms  p99 1.50 ms  max 1.50 ms");
    }

    /// The CPU lines are read by people and scripts (`µs per action`): a run with actions
    /// keeps that wording; an idle one still reports its seconds.
    #[test]
    fn cpu_line_divides_by_actions_only_when_there_are_some() {
        assert_eq!(
            cpu_line(15.57, 15.0, 220_827),
            "15.57 s (1.04 cores busy), 70.5 µs per action"
        );
        assert_eq!(
            cpu_line(0.004, 5.0, 0),
            "0.00 s (0.00 cores busy), no actions to divide it by"
        );
    }
}
