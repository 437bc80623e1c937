//! Turn timers and bots that take over away seats, end to end over the real server: a
//! seat that never acts is played by its timers (set-up, whole turns, discards, trade
//! answers, The Helpers' reactions) until the game ends; a player who leaves has the seat
//! played by a bot after the grace time and takes it back by reconnecting.

use catan_e2e::{Client, Got, TestServer};
use catan_protocol::{RoomInfo, ServerMsg};
use catan_rules::{Event, Rng};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// What the game waits on `seat` for, read from the seat's own view.
fn wait_kind(view: &Value, seat: u64) -> Option<&'static str> {
    let waited = view["waiting_on"]
        .as_array()?
        .iter()
        .any(|s| s.as_u64() == Some(seat));
    if !waited || !view["winner"].is_null() {
        return None;
    }
    let legal = &view["legal"];
    let actions: Vec<&str> = legal["actions"]
        .as_array()?
        .iter()
        .filter_map(|a| a["type"].as_str())
        .collect();
    let phase = view["phase"]["phase"].as_str().unwrap_or("");
    Some(
        if legal["requirements"]
            .as_array()?
            .iter()
            .any(|r| r["type"] == "discard")
        {
            "discard"
        } else if actions.contains(&"decline_trade") {
            "trade answer"
        } else if phase == "helper_decision" {
            "helper decision"
        } else if phase.starts_with("setup") {
            "set-up"
        } else if actions.contains(&"roll_dice") || actions.contains(&"end_turn") {
            "turn"
        } else {
            "other"
        },
    )
}

/// Plays one room whose seat 0 is a person who never acts (connected, reading) against
/// two heuristic bots, with short timers; returns the kinds of waits the idle seat went
/// through and the kinds of its moves seen in the events. Checks on the way that the view
/// carries a deadline whenever the game waits on the idle seat, and that the patched view
/// (deadline included) equals a fresh snapshot.
async fn idle_seat_game(server: &TestServer, seed: u64) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let (code, _) = server
        .create_room(json!({
            "players": 3, "bots": 2, "scenario": "helpers", "seed": seed.to_string(),
            "turn_limit_ms": 40, "reaction_limit_ms": 20, "away_grace_ms": null
        }))
        .await;
    let mut c = Client::join(&server.ws_url(), &code, "Idle").await;
    assert_eq!(c.seat, Some(0));
    c.send(json!({"type": "start"})).await;
    let mut waits = BTreeSet::new();
    let mut moves = BTreeSet::new();
    let mut resyncs = 0u32;
    let mut updates = 0u64;
    while !c.over() {
        let m = match c.recv().await {
            Got::Msg(m) => m,
            Got::Closed(code) => panic!("closed ({code:?}) before the end"),
        };
        match &m {
            ServerMsg::Snapshot { v, view } if resyncs > 0 => {
                resyncs -= 1;
                if *v == c.v {
                    assert_eq!(
                        Some(view),
                        c.view.as_ref(),
                        "patched view differs from a snapshot at v{v}"
                    );
                }
            }
            ServerMsg::Update { events, .. } => {
                for e in events {
                    match e {
                        Event::Discarded { seat: 0, .. } => moves.insert("discarded"),
                        Event::TradeDeclined { seat: 0 } => moves.insert("declined a trade"),
                        Event::TurnEnded { seat: 0 } => moves.insert("ended its turn"),
                        Event::SettlementBuilt { seat: 0, .. } => moves.insert("placed a settlement"),
                        Event::Helpers(_) => moves.insert("a helpers event"),
                        _ => false,
                    };
                }
                updates += 1;
                if updates.is_multiple_of(7) {
                    c.send(json!({"type": "resync"})).await;
                    resyncs += 1;
                }
            }
            ServerMsg::Error { message, .. } => panic!("the idle seat sent nothing, yet: {message}"),
            _ => {}
        }
        c.track(&m);
        let Some(view) = c.view.as_ref() else {
            continue; // room messages before the first snapshot
        };
        if let Some(kind) = wait_kind(view, 0) {
            waits.insert(kind);
            assert!(
                view["deadline_ms"]
                    .as_i64()
                    .is_some_and(|d| d > 1_600_000_000_000),
                "waiting on the idle seat ({kind}) without a deadline: {}",
                view["deadline_ms"]
            );
        }
    }
    assert!(
        c.view.as_ref().unwrap().get("deadline_ms").is_none(),
        "a finished game has no deadline"
    );
    (waits, moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_seat_is_played_by_its_timers_to_the_end() {
    let server = TestServer::start(None).await;
    let want_waits = ["set-up", "turn", "discard", "trade answer", "helper decision"];
    let want_moves = [
        "placed a settlement",
        "ended its turn",
        "discarded",
        "declined a trade",
    ];
    let mut waits = BTreeSet::new();
    let mut moves = BTreeSet::new();
    let mut games = 0;
    // A few games, until the idle seat has been through every kind of wait (a discard
    // needs a 7 while it holds more than 7 cards, which not every game has).
    for seed in 1..=12u64 {
        let (w, m) = idle_seat_game(&server, seed).await;
        waits.extend(w);
        moves.extend(m);
        games += 1;
        if want_waits.iter().all(|k| waits.contains(k)) && want_moves.iter().all(|k| moves.contains(k)) {
            break;
        }
    }
    eprintln!("{games} games; the idle seat waited on for: {waits:?}; its moves: {moves:?}");
    for k in want_waits {
        assert!(
            waits.contains(k),
            "the idle seat never had a {k} to time out (games: {games})"
        );
    }
    for k in want_moves {
        assert!(moves.contains(k), "the idle seat never {k} (games: {games})");
    }
    server.stop().await;
}

/// A view's list of seats under `key` (`away`, `bot_controlled`; absent: none).
fn seats_in(view: &Value, key: &str) -> Vec<u64> {
    match view.get(key) {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .unwrap_or_else(|| panic!("{key} is a list: {v}"))
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect(),
    }
}

/// The watcher's patched view comes to say which seats are away and bot-controlled (the
/// change may come in an update of its own, with no events, or with an action's), and a
/// resync snapshot at the same version equals the patched view.
async fn expect_control(watcher: &mut Client, away: &[u64], bots: &[u64]) {
    let matches = |v: &Value| seats_in(v, "away") == away && seats_in(v, "bot_controlled") == bots;
    if watcher.view.is_none() {
        watcher
            .recv_until(|m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
    }
    while !matches(watcher.view.as_ref().unwrap()) {
        watcher
            .recv_until(|m| matches!(m, ServerMsg::Update { .. }))
            .await;
    }
    watcher.send(json!({"type": "resync"})).await;
    loop {
        let m = match watcher.recv().await {
            Got::Msg(m) => m,
            Got::Closed(c) => panic!("closed ({c:?}) while waiting for a snapshot"),
        };
        if let ServerMsg::Snapshot { v, view } = &m {
            assert_eq!(*v, watcher.v, "the snapshot is at the version last patched to");
            assert_eq!(
                Some(view),
                watcher.view.as_ref(),
                "patched view differs from a snapshot at v{v}"
            );
            break;
        }
        watcher.track(&m);
    }
}

fn seat0(m: &ServerMsg) -> Option<&catan_protocol::SeatInfo> {
    match m {
        ServerMsg::Room {
            room: RoomInfo { seats, .. },
        } => seats.first(),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_away_seat_is_played_by_a_bot_and_handed_back_on_reconnect() {
    // Bots think a little, so the game is still on when Ann comes back.
    let server = TestServer::start_with(catan_server::Config {
        bot_delay_ms: 20,
        ..catan_server::Config::for_tests(None)
    })
    .await;
    // No turn timers: whatever seat 0 does while its player is gone, a bot did.
    let (code, _) = server
        .create_room(json!({
            "players": 3, "bots": 2, "victory_points": 8,
            "turn_limit_ms": null, "reaction_limit_ms": null, "away_grace_ms": 200
        }))
        .await;
    let url = server.ws_url();
    let mut ann = Client::join(&url, &code, "Ann").await;
    let token = ann.token.clone().unwrap();
    let mut watcher = Client::spectate(&url, &code).await;
    ann.send(json!({"type": "start"})).await;
    ann.recv_until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    let s = seat0(
        &watcher
            .recv_until(|m| seat0(m).is_some_and(|s| s.connected))
            .await,
    )
    .cloned();
    assert!(s.is_some_and(|s| !s.away && !s.controlled_by_bot && !s.bot));
    expect_control(&mut watcher, &[], &[1, 2]).await;
    // The set-up waits on seat 0 (a person) or comes to it; then Ann leaves.
    ann.ws.close(None).await.unwrap();
    let m = watcher
        .recv_until(|m| seat0(m).is_some_and(|s| !s.connected))
        .await;
    let s = seat0(&m).unwrap();
    assert!(s.away && !s.controlled_by_bot, "away, not yet taken over: {s:?}");
    expect_control(&mut watcher, &[0], &[1, 2]).await;
    let m = watcher
        .recv_until(|m| seat0(m).is_some_and(|s| s.controlled_by_bot))
        .await;
    assert!(seat0(&m).unwrap().away, "still away while the bot plays");
    expect_control(&mut watcher, &[0], &[0, 1, 2]).await;
    // The bot plays seat 0: the watcher sees it end one of seat 0's turns.
    watcher
        .recv_until(|m| match m {
            ServerMsg::Update { events, .. } => {
                events.iter().any(|e| matches!(e, Event::TurnEnded { seat: 0 }))
            }
            _ => false,
        })
        .await;
    // Ann comes back with her token and has her seat again.
    let mut ann = Client::connect(&url).await;
    ann.send(json!({"type": "join", "code": code, "token": token}))
        .await;
    ann.expect_welcome().await;
    assert_eq!(ann.seat, Some(0));
    let m = watcher
        .recv_until(|m| seat0(m).is_some_and(|s| s.connected && !s.controlled_by_bot))
        .await;
    assert!(!seat0(&m).unwrap().away);
    expect_control(&mut watcher, &[], &[1, 2]).await;
    // From now on every end of seat 0's turn is one Ann asked for.
    let mut rng = Rng::new(5);
    let (mut sent, mut refused, mut ended) = (0u32, 0u32, 0u32);
    let mut waiting = false;
    let mut snapshot = false;
    loop {
        if ann.over() {
            break;
        }
        if snapshot && !waiting {
            if let Some(a) = ann.choose(&mut rng) {
                if a == catan_rules::Action::EndTurn {
                    sent += 1;
                }
                ann.send(json!({"type": "action", "action": a})).await;
                waiting = true;
            }
        }
        let m = match ann.recv().await {
            Got::Msg(m) => m,
            Got::Closed(c) => panic!("Ann closed with {c:?}"),
        };
        match &m {
            ServerMsg::Snapshot { .. } => snapshot = true,
            ServerMsg::Update { events, .. } => {
                waiting = false;
                ended += events
                    .iter()
                    .filter(|e| matches!(e, Event::TurnEnded { seat: 0 }))
                    .count() as u32;
            }
            ServerMsg::Error { message, .. } => {
                waiting = false;
                if message.starts_with("end_turn") {
                    refused += 1;
                }
            }
            _ => {}
        }
        ann.track(&m);
    }
    assert!(ended > 0, "Ann ended some turns herself");
    assert_eq!(
        ended,
        sent - refused,
        "every end of seat 0's turn after the reconnect was Ann's"
    );
    server.stop().await;
}
