//! The per-action broadcast path without sockets: apply one action, then for 4 players and
//! 1 spectator write the update text (the public view diffed once in a `Frame`, each
//! seat's own parts on their own).
//! Actions come from pre-recorded random games, so the bot's choice is not measured; a
//! finished game restarts (a new game and 5 snapshots, about once per thousand actions).
//!
//! `typed_diff` is the server's path: typed views compared part by part, a changed part
//! recorded as tapes and diffed ([`catan_server::view_stream`]); until the views were kept
//! typed (2026-12-01) it diffed serialized JSON texts and was named `typed_text_diff`.
//! `typed_diff_200_rooms` is the same path over 200 rooms at different points of their
//! games, one action each in turn, as under the README's load command: where the cache
//! cannot hold 200 rooms' views, each room's have left it by its next action, which a
//! single room hides.
//!
//! `value_diff` is the previous method (each view built as a `serde_json::Value`,
//! `json_patch::diff`, then the message serialized), kept here as the yardstick.
//!
//!     cargo bench -p catan-server --bench broadcast

use catan_bots::RandomBot;
use catan_protocol::ServerMsg;
use catan_rules::{redact, Action, Game, GameConfig, Seat, Viewer};
use catan_server::view_stream::{Frame, ViewStream};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const SEED: u64 = 42;

fn record_game(seed: u64) -> Vec<(Seat, Action)> {
    let mut game = Game::new(GameConfig::default(), seed).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut log = Vec::new();
    while !game.is_over() {
        let seat = game.next_actor().unwrap();
        let action = bot.choose(&game, seat).unwrap();
        game.apply(seat, action).unwrap();
        log.push((seat, action));
    }
    log
}

fn viewers() -> Vec<Viewer> {
    vec![
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
        Viewer::Seat(3),
        Viewer::Spectator,
    ]
}

/// A replayed game: `step` applies the next recorded action (restarting at the end).
struct Replay {
    log: Vec<(Seat, Action)>,
    game: Game,
    next: usize,
}

impl Replay {
    fn new() -> Self {
        Replay::from_log(record_game(SEED))
    }

    fn from_log(log: Vec<(Seat, Action)>) -> Self {
        Replay {
            log,
            game: Game::new(GameConfig::default(), SEED).unwrap(),
            next: 0,
        }
    }

    /// The events of the next action, or `None` after restarting the game.
    fn step(&mut self) -> Option<Vec<catan_rules::Event>> {
        if self.next == self.log.len() {
            self.game = Game::new(GameConfig::default(), SEED).unwrap();
            self.next = 0;
            return None;
        }
        let (seat, action) = self.log[self.next];
        self.next += 1;
        Some(self.game.apply(seat, action).unwrap())
    }
}

/// The 4 seats' and the spectator's streams, each sent its snapshot of `game`.
fn snapshotted(game: &Game) -> Vec<ViewStream> {
    let mut streams: Vec<ViewStream> = viewers().into_iter().map(ViewStream::new).collect();
    let mut frame = Frame::new(game, &[]);
    for s in &mut streams {
        black_box(s.snapshot(&mut frame));
    }
    streams
}

/// The measured step: the next action, then every viewer's update text (or, after a
/// restart, every viewer's snapshot).
fn act(replay: &mut Replay, streams: &mut [ViewStream]) {
    match replay.step() {
        Some(events) => {
            let mut frame = Frame::new(&replay.game, &events);
            for s in streams {
                black_box(s.update(&mut frame));
            }
        }
        None => {
            let mut frame = Frame::new(&replay.game, &[]);
            for s in streams {
                black_box(s.snapshot(&mut frame));
            }
        }
    }
}

fn typed_diff(c: &mut Criterion) {
    let mut replay = Replay::new();
    let mut streams = snapshotted(&replay.game);
    let mut group = c.benchmark_group("broadcast");
    group.throughput(Throughput::Elements(1));
    group.bench_function("typed_diff", |b| b.iter(|| act(&mut replay, &mut streams)));
    group.finish();
}

fn value_diff(c: &mut Criterion) {
    let mut replay = Replay::new();
    let viewers = viewers();
    let state = |g: &Game, v: Viewer| serde_json::to_value(g.view_state(v)).unwrap();
    let mut last: Vec<serde_json::Value> = viewers.iter().map(|&v| state(&replay.game, v)).collect();
    let mut version = 0;
    let mut group = c.benchmark_group("broadcast");
    group.throughput(Throughput::Elements(1));
    group.bench_function("value_diff", |b| {
        b.iter(|| {
            let events = replay.step();
            version += 1;
            for (i, &viewer) in viewers.iter().enumerate() {
                let view = state(&replay.game, viewer);
                if let Some(events) = &events {
                    let patch = serde_json::to_value(json_patch::diff(&last[i], &view)).unwrap();
                    let events = events.iter().map(|e| redact(e, viewer)).collect();
                    let msg = ServerMsg::Update {
                        v: version,
                        patch,
                        events,
                    };
                    black_box(serde_json::to_string(&msg).unwrap());
                }
                last[i] = view;
            }
        })
    });
    group.finish();
}

/// `typed_diff` over 200 rooms in turn, one action each.
fn typed_diff_rooms(c: &mut Criterion) {
    let log = record_game(SEED);
    let mut rooms: Vec<(Replay, Vec<ViewStream>)> = (0..200)
        .map(|i| {
            let mut replay = Replay::from_log(log.clone());
            // Rooms at different points of the game, as under load.
            for _ in 0..(i * 3) % log.len() {
                replay.step();
            }
            let streams = snapshotted(&replay.game);
            (replay, streams)
        })
        .collect();
    let mut turn = 0;
    let mut group = c.benchmark_group("broadcast");
    group.throughput(Throughput::Elements(1));
    group.bench_function("typed_diff_200_rooms", |b| {
        b.iter(|| {
            turn = (turn + 1) % rooms.len();
            let (replay, streams) = &mut rooms[turn];
            act(replay, streams)
        })
    });
    group.finish();
}

criterion_group!(benches, typed_diff, typed_diff_rooms, value_diff);
criterion_main!(benches);
