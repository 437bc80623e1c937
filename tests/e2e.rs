//! End-to-end: the real server on an ephemeral port, real WebSocket clients, real stores
//! (SQLite; Postgres too where `CATAN_TEST_POSTGRES_URL` is set).

use catan_e2e::*;
use catan_protocol::{close, ServerMsg};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_clients_and_a_spectator_play_a_complete_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(store_url(&dir))).await;
    let (code, room_id) = server.create_room(json!({"players": 4, "seed": 11})).await;
    let url = server.ws_url();
    let mut players = Vec::new();
    for name in ["Ann", "Bo", "Cy", "Di"] {
        players.push(Client::join(&url, &code, name).await);
    }
    assert_eq!(
        players.iter().map(|c| c.seat.unwrap()).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    let spectator = Client::spectate(&url, &code).await;
    let (status, info) = server.http("GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(info["status"], "lobby");
    assert_eq!(info["spectators"], 1);
    // The host (first to join) starts.
    players[0].send(json!({"type": "start"})).await;

    let mut tasks = Vec::new();
    for (i, c) in players.into_iter().enumerate() {
        tasks.push(tokio::spawn(play_to_end(c, i as u64 + 1, true)));
    }
    let spectator_task = tokio::spawn(play_to_end(spectator, 99, true));
    let mut finals = Vec::new();
    for t in tasks {
        finals.push(t.await.unwrap());
    }
    let (_spec, spec_view) = spectator_task.await.unwrap();
    let winner = spec_view["winner"].as_u64().unwrap();
    for (c, v) in &finals {
        assert_eq!(v["winner"].as_u64(), Some(winner));
        assert!(c.events_seen > 0);
    }

    // Persistence: the finished game is listed, and its replay reproduces the final view.
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["winner"].as_u64(), Some(winner));
    let (_, list) = server.http("GET", "/api/games?limit=100", None).await;
    assert!(list["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == room_id.as_str()));
    let (_, replay) = server
        .http("GET", &format!("/api/games/{room_id}/replay"), None)
        .await;
    let n = replay["actions"].as_array().unwrap().len();
    let (status, at_end) = server
        .http("GET", &format!("/api/games/{room_id}/replay?at={n}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        at_end["view"], spec_view,
        "replayed final view equals the live one"
    );
    let (status, _) = server
        .http("GET", &format!("/api/games/{room_id}/replay?at={}", n + 1), None)
        .await;
    assert_eq!(status, 400);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_with_the_seat_token_and_refuse_a_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let (code, _) = server
        .create_room(json!({"players": 4, "bots": 3, "seed": 5}))
        .await;
    let url = server.ws_url();
    let mut c = Client::join(&url, &code, "Ann").await;
    let token = c.token.clone().unwrap();
    c.send(json!({"type": "start"})).await;
    c.recv_until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;

    // A wrong token is refused with an error and close 4001.
    let mut bad = Client::connect(&url).await;
    bad.send(json!({"type": "join", "code": code, "token": "nope"}))
        .await;
    match bad.recv().await {
        Got::Msg(ServerMsg::Error { request, .. }) => assert_eq!(request, "join"),
        other => panic!("{other:?}"),
    }
    assert_eq!(bad.closed().await, Some(close::JOIN_REFUSED));

    // A second connection with the token takes the seat; the first is closed with 4000.
    let mut c2 = Client::connect(&url).await;
    c2.send(json!({"type": "join", "code": code, "token": token}))
        .await;
    c2.expect_welcome().await;
    assert_eq!(c2.seat, Some(0));
    assert_eq!(c.closed().await, Some(close::REPLACED));
    c2.recv_until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    drop(c2);

    // Resume again after a plain disconnect and play to the end.
    let mut c3 = Client::connect(&url).await;
    c3.send(json!({"type": "join", "code": code, "token": token}))
        .await;
    c3.expect_welcome().await;
    let (_c, view) = play_to_end(c3, 3, false).await;
    assert!(!view["winner"].is_null());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_never_hurts_the_room() {
    let dir = tempfile::tempdir().unwrap();
    // A per-connection limit the flood below (1,000 messages at once) exceeds, and the
    // player's own moves (one per turn of its own) never reach. Random bots: heuristic
    // ones offer this eager test client trades every turn, and each answer it sends from a
    // view that a bot's next move has already outdated comes back refused and is resent,
    // which the limit would count.
    let mut config = catan_server::Config::for_tests(Some(sqlite_url(&dir)));
    config.rate_per_sec = 300;
    config.rate_burst = 600;
    let server = TestServer::start_with(config).await;
    let (code, _) = server
        .create_room(json!({"players": 4, "bots": 3, "seed": 9, "bot_level": "random"}))
        .await;
    let url = server.ws_url();
    let mut player = Client::join(&url, &code, "Ann").await;
    player.send(json!({"type": "start"})).await;
    player
        .recv_until(|m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;

    let mut rogue = Client::spectate(&url, &code).await;
    rogue.send_raw("{not json".into()).await;
    let e = rogue.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(&e, ServerMsg::Error { message, .. } if message.contains("malformed JSON")),
        "{e:?}"
    );
    rogue.send(json!({"type": "teleport"})).await;
    let e = rogue.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(&e, ServerMsg::Error { message, .. } if message.contains("unknown message type")),
        "{e:?}"
    );
    rogue
        .send(json!({"type": "action", "action": {"type": "roll_dice"}}))
        .await;
    let e = rogue.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(&e, ServerMsg::Error { message, .. } if message.contains("spectators cannot act")),
        "{e:?}"
    );
    rogue.send(json!({"type": "chat", "text": "x".repeat(600)})).await;
    let e = rogue.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(&e, ServerMsg::Error { request, .. } if request == "chat"),
        "{e:?}"
    );
    // Oversized frame: closed with 1009.
    rogue
        .send_raw(format!(
            "{{\"type\":\"chat\",\"text\":\"{}\"}}",
            "y".repeat(20_000)
        ))
        .await;
    assert_eq!(rogue.closed().await, Some(close::TOO_BIG));
    // Flood: closed with 1008.
    let mut flood = Client::spectate(&url, &code).await;
    for _ in 0..1000 {
        flood.send_raw(r#"{"type":"ping"}"#.into()).await;
    }
    assert_eq!(flood.closed().await, Some(close::POLICY));
    // Acting for a seat not held: a player's action is for its own seat only, and an
    // illegal action is refused with the rules' reason.
    player
        .send(json!({"type": "action", "action": {"type": "build_city", "corner": 200}}))
        .await;
    let e = player.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(&e, ServerMsg::Error { rule: Some(_), .. }), "{e:?}");

    // The game goes on to its end; then acting is refused.
    let (mut player, _) = play_to_end(player, 4, false).await;
    player
        .send(json!({"type": "action", "action": {"type": "end_turn"}}))
        .await;
    let e = player.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(&e, ServerMsg::Error { message, .. } if message.contains("over")),
        "{e:?}"
    );
    // Unknown rooms are refused.
    let mut lost = Client::connect(&url).await;
    lost.send(json!({"type": "join", "code": "ZZZZZZZZ", "name": "x"}))
        .await;
    assert!(matches!(lost.recv().await, Got::Msg(ServerMsg::Error { .. })));
    assert_eq!(lost.closed().await, Some(close::JOIN_REFUSED));
    let (s, _) = server
        .http("POST", "/api/rooms", Some(&json!({"players": 9})))
        .await;
    assert_eq!(s, 400);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_all_bot_room_plays_to_the_end_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let (code, room_id) = server.create_room(json!({"players": 4, "bots": 4})).await;
    server.wait_room_status(&code, "finished").await;
    server.wait_stored(&room_id).await;
    server.stop().await;
    // A server started again on the same database still lists the game.
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let (_, list) = server.http("GET", "/api/games", None).await;
    assert!(list["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == room_id.as_str()));
    let (s, _) = server.http("GET", "/api/games/nonexistent", None).await;
    assert_eq!(s, 404);
    server.stop().await;
}

/// `bot_level` chooses how bot seats play: heuristic by default (a 4-bot game of the same
/// board ends far sooner than random bots' ~320 turns), random on request; an unknown level
/// is refused naming the ones there are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_level_chooses_how_bot_seats_play() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let mut turns = Vec::new();
    for level in [None, Some("random")] {
        let mut options = json!({"players": 4, "bots": 4, "seed": 17});
        if let Some(l) = level {
            options["bot_level"] = json!(l);
        }
        let (code, room_id) = server.create_room(options).await;
        let info = server.wait_room_status(&code, "finished").await;
        assert_eq!(
            info["options"]["bot_level"],
            level.unwrap_or("heuristic"),
            "{info}"
        );
        assert!(!info["winner"].is_null(), "{info}");
        let record = server.wait_stored(&room_id).await;
        let n = record["action_count"].as_u64().unwrap();
        let (s, end) = server
            .http("GET", &format!("/api/games/{room_id}/replay?at={n}"), None)
            .await;
        assert_eq!(s, 200);
        turns.push(end["view"]["turn"].as_u64().unwrap());
    }
    assert!(
        turns[0] < 150 && turns[0] < turns[1],
        "turns (heuristic, random): {turns:?}"
    );
    let (s, body) = server
        .http(
            "POST",
            "/api/rooms",
            Some(&json!({"players": 4, "bot_level": "clever"})),
        )
        .await;
    assert_eq!(s, 400);
    assert!(body["error"].as_str().unwrap().contains("heuristic"), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_the_helpers_over_websocket() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let (code, room_id) = server
        .create_room(json!({"players": 4, "bots": 3, "scenario": "helpers", "seed": 21}))
        .await;
    let url = server.ws_url();
    let mut c = Client::join(&url, &code, "Ann").await;
    c.send(json!({"type": "start"})).await;
    let (_c, view) = play_to_end(c, 8, false).await;
    assert!(!view["winner"].is_null());
    assert!(view["helpers"]["held"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| !h["helper"].is_null()));
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["config"]["scenario"], "helpers");
    server.stop().await;
}

/// Ann and Bo join room `code` (its other seats are bots) with a spectator, Ann starts, and
/// all three play (or watch) to the end; returns Ann's and the spectator's last views.
async fn two_people_and_a_spectator_play_to_the_end(
    server: &TestServer,
    code: &str,
) -> (serde_json::Value, serde_json::Value) {
    let url = server.ws_url();
    let mut ann = Client::join(&url, code, "Ann").await;
    let bo = Client::join(&url, code, "Bo").await;
    let spectator = Client::spectate(&url, code).await;
    ann.send(json!({"type": "start"})).await;
    let a = tokio::spawn(play_to_end(ann, 3, true));
    let b = tokio::spawn(play_to_end(bo, 4, false));
    let s = tokio::spawn(play_to_end(spectator, 5, false));
    let (_, view) = a.await.unwrap();
    b.await.unwrap();
    let (_, spec_view) = s.await.unwrap();
    (view, spec_view)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_frenemies_over_websocket() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let (code, room_id) = server
        .create_room(json!({"players": 4, "bots": 2, "scenario": "frenemies", "seed": 5}))
        .await;
    let (_, info) = server.http("GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(info["options"]["victory_points"], 11);
    let (view, spec_view) = two_people_and_a_spectator_play_to_the_end(&server, &code).await;
    let winner = view["winner"].as_u64().unwrap() as usize;
    assert!(view["players"][winner]["victory_points"].as_u64().unwrap() >= 11);
    let f = &spec_view["frenemies"];
    assert_eq!(f["holders"].as_array().unwrap().len(), 4);
    let tokens: u64 = f["supply_count"].as_u64().unwrap()
        + f["redeemed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>()
        + f["holders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["token_count"].as_u64().unwrap())
            .sum::<u64>();
    assert_eq!(tokens, 58, "favor tokens conserved in the spectator's view");
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["config"]["scenario"], "frenemies");
    assert_eq!(record["config"]["victory_points"], 11);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_barbarian_invasion_over_websocket() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    // 3 or 4 players only.
    let bad = json!({"players": 5, "scenario": "barbarians"});
    let (s, body) = server.http("POST", "/api/rooms", Some(&bad)).await;
    assert_eq!(s, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("Barbarian Invasion"),
        "{body}"
    );
    let (code, room_id) = server
        .create_room(
            json!({"players": 4, "bots": 2, "bot_level": "random", "scenario": "barbarians", "seed": 6}),
        )
        .await;
    let (_, info) = server.http("GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(info["options"]["victory_points"], 12);
    // Every message each client receives is scanned for leaks on the way (hands, the
    // deck order).
    let (view, spec_view) = two_people_and_a_spectator_play_to_the_end(&server, &code).await;
    let winner = view["winner"].as_u64().unwrap() as usize;
    assert!(view["players"][winner]["victory_points"].as_u64().unwrap() >= 12);
    let b = &spec_view["barbarians"];
    let sum = |v: &serde_json::Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(
        b["supply"].as_u64().unwrap() + sum(&b["barbarians"]) + sum(&b["prisoners"]),
        30,
        "barbarians conserved in the spectator's view"
    );
    assert_eq!(b["gold"].as_array().unwrap().len(), 4, "gold is public");
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["config"]["scenario"], "barbarians");
    assert_eq!(record["config"]["victory_points"], 12);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paired_players_game_over_websocket() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    // Paired Players needs 5 or 6 players and replaces the Special Building Phase.
    for (bad, says) in [
        (
            json!({"players": 4, "five_six_turns": "paired"}),
            "needs 5 or 6 players",
        ),
        (
            json!({"players": 6, "five_six_turns": "paired", "special_building": true}),
            "replaces the Special Building Phase",
        ),
        (
            json!({"players": 6, "five_six_turns": "alternate"}),
            "expected `special_building` or `paired`",
        ),
    ] {
        let (s, body) = server.http("POST", "/api/rooms", Some(&bad)).await;
        assert_eq!(s, 400, "{bad}: {body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
    }
    let (code, room_id) = server
        .create_room(json!({"players": 5, "bots": 4, "five_six_turns": "paired", "seed": 8}))
        .await;
    let (_, info) = server.http("GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(info["options"]["five_six_turns"], "paired");
    let url = server.ws_url();
    let mut c = Client::join(&url, &code, "Ann").await;
    c.send(json!({"type": "start"})).await;
    let (_c, view) = play_to_end(c, 6, false).await;
    assert!(!view["winner"].is_null());
    let record = server.wait_stored(&room_id).await;
    assert_eq!(record["config"]["five_six_turns"], "paired");
    // The stored log replays through the rules with player 2's parts in it.
    let (_, replay) = server
        .http("GET", &format!("/api/games/{room_id}/replay"), None)
        .await;
    let config: catan_rules::GameConfig = serde_json::from_value(replay["config"].clone()).unwrap();
    let seed: u64 = replay["seed"].as_str().unwrap().parse().unwrap();
    let mut game = catan_rules::Game::new(config, seed).unwrap();
    let mut parts = 0;
    for a in replay["actions"].as_array().unwrap() {
        let seat = a["seat"].as_u64().unwrap() as u8;
        let action = serde_json::from_value(a["action"].clone()).unwrap();
        for e in game.apply(seat, action).unwrap() {
            if let catan_rules::Event::PairedTurn { seat, partner } = e {
                assert_eq!(seat, (partner + 3) % 5);
                parts += 1;
            }
        }
    }
    assert!(parts > 0, "no paired part in the game");
    assert_eq!(game.winner(), view["winner"].as_u64().map(|w| w as u8));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_rules_host_bots_and_chat() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(Some(sqlite_url(&dir))).await;
    let (status, health) = server.http("GET", "/healthz", None).await;
    assert_eq!((status, health["status"].as_str()), (200, Some("ok")));
    let (code, _) = server.create_room(json!({})).await;
    assert_eq!(code.len(), 8);
    let url = server.ws_url();
    let mut host = Client::join(&url, &code, "Host").await;
    let mut guest = Client::join(&url, &code, "Guest").await;
    guest.send(json!({"type": "start"})).await;
    let e = guest.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(&e, ServerMsg::Error { message, .. } if message.contains("host")));
    host.send(json!({"type": "start"})).await;
    let e = host.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(&e, ServerMsg::Error { message, .. } if message.contains("every seat")));
    host.send(json!({"type": "chat", "text": "hello"})).await;
    let m = guest.recv_until(|m| matches!(m, ServerMsg::Chat { .. })).await;
    assert!(matches!(m, ServerMsg::Chat { ref from, ref text, .. } if from == "Host" && text == "hello"));
    host.send(json!({"type": "add_bots"})).await;
    host.send(json!({"type": "start"})).await;
    host.recv_until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    // Late joiners may only watch.
    let mut late = Client::connect(&url).await;
    late.send(json!({"type": "join", "code": code, "name": "Late"}))
        .await;
    assert!(matches!(late.recv().await, Got::Msg(ServerMsg::Error { .. })));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_finished_rooms_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = catan_server::Config::for_tests(Some(sqlite_url(&dir)));
    config.room_idle_secs = 1;
    config.room_finished_secs = 1;
    let server = TestServer::start_with(config).await;
    // Idle: nobody ever connects.
    let (idle, _) = server.create_room(json!({"players": 3})).await;
    // Idle after the last connection leaves; its socket is closed by us, not the server.
    let (left, _) = server.create_room(json!({"players": 3})).await;
    let c = Client::join(&server.ws_url(), &left, "Ann").await;
    drop(c);
    server.wait_room_gone(&idle).await;
    server.wait_room_gone(&left).await;
    server.stop().await;
    // Finished: an all-bot game ends, then the room closes after the grace period. (With
    // a long idle time: an unwatched all-bot room also closes when idle.)
    let mut config = catan_server::Config::for_tests(Some(sqlite_url(&dir)));
    config.room_finished_secs = 1;
    let server = TestServer::start_with(config).await;
    let (done, room_id) = server.create_room(json!({"players": 3, "bots": 3})).await;
    server.wait_room_gone(&done).await;
    server.wait_stored(&room_id).await;
    let (_, health) = server.http("GET", "/healthz", None).await;
    assert_eq!(health["rooms"], 0);
    server.stop().await;
}
