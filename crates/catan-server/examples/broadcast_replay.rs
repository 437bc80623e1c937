//! The broadcast bench's work as a plain loop with a fixed count, for instruction counts:
//! replays recorded random games for `ACTIONS` actions, writing 4 players' and 1
//! spectator's update after each (`broadcast`), or only applying the actions (`apply`), so
//! that the difference of the two runs' instruction counts is the broadcast path's cost.
//!
//!     cargo build --release -p catan-server --example broadcast_replay
//!     valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
//!         target/release/examples/broadcast_replay broadcast 2000
//!     valgrind --tool=callgrind --callgrind-out-file=/tmp/cg0.out \
//!         target/release/examples/broadcast_replay apply 2000
//!
//! (instructions per action = (broadcast total − apply total) ÷ actions).

use catan_bots::RandomBot;
use catan_rules::{Action, Game, GameConfig, Seat, Viewer};
use catan_server::view_stream::{Frame, ViewStream};
use std::hint::black_box;

fn record_game(config: GameConfig, seed: u64) -> Vec<(Seat, Action)> {
    let mut game = Game::new(config, seed).unwrap();
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

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "broadcast".into());
    let actions: usize = args
        .next()
        .map_or(2000, |a| a.parse().expect("a count of actions"));
    let broadcast = match mode.as_str() {
        "broadcast" => true,
        "apply" => false,
        _ => panic!("mode: broadcast or apply"),
    };
    let config = GameConfig::default();
    let seeds = [42u64, 43, 44];
    let logs: Vec<_> = seeds.iter().map(|&s| record_game(config, s)).collect();
    let viewers = [0, 1, 2, 3]
        .map(Viewer::Seat)
        .into_iter()
        .chain([Viewer::Spectator]);
    let mut streams: Vec<ViewStream> = viewers.map(ViewStream::new).collect();
    let mut done = 0;
    let mut bytes = 0usize;
    'games: for (g, log) in logs.iter().cycle().enumerate() {
        let mut game = Game::new(config, seeds[g % seeds.len()]).unwrap();
        if broadcast {
            let mut frame = Frame::new(&game, &[]);
            for s in &mut streams {
                bytes += black_box(s.snapshot(&mut frame)).len();
            }
        }
        for &(seat, action) in log {
            if done == actions {
                break 'games;
            }
            let events = game.apply(seat, action).unwrap();
            done += 1;
            if broadcast {
                let mut frame = Frame::new(&game, &events);
                for s in &mut streams {
                    bytes += black_box(s.update(&mut frame)).map_or(0, |m| m.len());
                }
            }
            black_box(&events);
        }
    }
    println!("{mode}: {done} actions, {bytes} bytes written");
}
