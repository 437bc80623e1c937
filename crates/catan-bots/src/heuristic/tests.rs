//! The heuristic bot's key judgements, checked on real positions: those that arise in
//! complete games it plays (each check counting its cases so that it cannot pass
//! vacuously), and positions set up for one judgement with `Game::from_position`.

use super::eval::{corner_pips, leader, missing, Eval};
use super::plan;
use super::seen::Seen;
use super::{robber, HeuristicBot};
use crate::{Bot, BotLevel};
use catan_rules::board::NONE;
use catan_rules::{Action, Event, Game, GameConfig, Phase, Resource, Scenario, Seat};

/// Plays a game with `levels[seat]` at each seat, calling `look` before every action with
/// the position, the acting seat and its action, and `after` with the events.
fn play(
    config: GameConfig,
    seed: u64,
    levels: &[BotLevel],
    mut look: impl FnMut(&Game, Seat, &Action),
    mut after: impl FnMut(&Game, Seat, &Action, &[Event]),
) -> Game {
    let mut game = Game::new(config, seed).unwrap();
    let mut bots: Vec<Bot> = levels
        .iter()
        .enumerate()
        .map(|(s, &l)| Bot::new(l, seed ^ s as u64).with_trades(true))
        .collect();
    let mut events = Vec::new();
    while !game.is_over() && game.turn() < 1000 {
        let seat = game.next_actor().unwrap();
        let a = bots[seat as usize].choose(&game, seat).unwrap();
        look(&game, seat, &a);
        events.clear();
        game.apply_into(seat, a, &mut events).unwrap();
        after(&game, seat, &a, &events);
    }
    game
}

fn pip_sum(seen: &Seen, corner: u8) -> f32 {
    corner_pips(seen, corner, 1.0).iter().sum()
}

/// Land hexes around `corner`.
fn land(seen: &Seen, corner: u8) -> usize {
    seen.topo.corner_hexes[corner as usize]
        .iter()
        .filter(|&&h| h != NONE)
        .count()
}

#[test]
fn set_up_settlements_go_on_the_richest_corners() {
    // The first settlement of each game: its pips against the best corner on the board.
    let mut ratios = Vec::new();
    for seed in 0..60 {
        let game = Game::new(GameConfig::default(), seed).unwrap();
        let seat = game.next_actor().unwrap();
        let seen = Seen::new(&game, seat);
        let best = (0..seen.topo.corner_count() as u8)
            .map(|c| pip_sum(&seen, c))
            .fold(0.0, f32::max);
        let Some(Action::BuildSettlement { corner }) = HeuristicBot::new(seed).choose(&game, seat) else {
            panic!("a set-up settlement");
        };
        ratios.push(pip_sum(&seen, corner) / best);
    }
    ratios.sort_by(|a, b| a.total_cmp(b));
    let median = ratios[ratios.len() / 2];
    assert!(median >= 0.85, "median share of the best corner's pips: {median}");
    assert!(
        ratios[0] >= 0.6,
        "worst first settlement: {} of the best",
        ratios[0]
    );
}

#[test]
fn a_rich_varied_corner_outranks_a_poor_one() {
    // On every board: the three-hex corner with the most pips of three different resources
    // ranks above every three-hex corner with at most half its pips.
    let mut cases = 0;
    for seed in 0..40 {
        let game = Game::new(GameConfig::default(), seed).unwrap();
        let seen = Seen::new(&game, game.next_actor().unwrap());
        let eval = Eval::new(&seen);
        let kinds = |c: u8| corner_pips(&seen, c, 1.0).iter().filter(|&&p| p > 0.0).count();
        let corners: Vec<u8> = (0..seen.topo.corner_count() as u8)
            .filter(|&c| land(&seen, c) == 3)
            .collect();
        let rich = *corners
            .iter()
            .filter(|&&c| kinds(c) == 3)
            .max_by(|&&a, &&b| pip_sum(&seen, a).total_cmp(&pip_sum(&seen, b)))
            .unwrap();
        for &poor in corners
            .iter()
            .filter(|&&c| pip_sum(&seen, c) * 2.0 <= pip_sum(&seen, rich))
        {
            cases += 1;
            assert!(
                super::setup::corner_score(&seen, &eval, rich)
                    > super::setup::corner_score(&seen, &eval, poor),
                "seed {seed}: corner {rich} ({} pips) should outrank {poor} ({} pips)",
                pip_sum(&seen, rich),
                pip_sum(&seen, poor)
            );
        }
    }
    assert!(cases > 20, "{cases} cases");
}

#[test]
fn the_second_settlement_adds_what_the_first_lacks() {
    // After set-up, heuristic players produce most of the five resources.
    let mut kinds = Vec::new();
    for seed in 0..40 {
        let mut game = Game::new(GameConfig::default(), seed).unwrap();
        let mut bot = HeuristicBot::new(seed);
        while matches!(game.phase(), Phase::SetupSettlement | Phase::SetupRoad { .. }) {
            let seat = game.next_actor().unwrap();
            let a = bot.choose(&game, seat).unwrap();
            game.apply(seat, a).unwrap();
        }
        for s in 0..4 {
            let seen = Seen::new(&game, s);
            kinds.push(
                super::eval::production(&seen, s)
                    .iter()
                    .filter(|&&p| p > 0.0)
                    .count(),
            );
        }
    }
    let mean = kinds.iter().sum::<usize>() as f32 / kinds.len() as f32;
    assert!(mean >= 4.0, "mean resource kinds produced after set-up: {mean}");
    assert!(kinds.iter().all(|&k| k >= 3), "{kinds:?}");
}

#[test]
fn the_robber_goes_against_the_leader_and_spares_the_bot() {
    // Whenever an opponent clearly leads and some legal robber move hurts them without
    // touching the bot's own buildings, the bot's move is one of those; and it puts the
    // robber on its own production only where that blocks opponents more.
    let (mut leader_cases, mut spare_cases) = (0, 0);
    for seed in 0..60 {
        let levels = [BotLevel::Heuristic; 4];
        play(
            GameConfig::default(),
            seed,
            &levels,
            |game, seat, a| {
                let Action::MoveRobber { hex, victim } = *a else {
                    return;
                };
                let seen = Seen::new(game, seat);
                let legal = game.legal_actions(seat);
                // The bot's own production there (a desert costs it nothing).
                let mine = |h: u8| {
                    seen.board().token[h as usize] != 0
                        && seen.topo.hex_corners[h as usize]
                            .iter()
                            .any(|&c| c != NONE && seen.owner(c) == Some(seat))
                };
                let moves = legal.actions.iter().filter_map(|x| match *x {
                    Action::MoveRobber { hex, victim } => Some((hex, victim)),
                    _ => None,
                });
                if moves.clone().any(|(h, _)| !mine(h)) {
                    spare_cases += 1;
                    // On its own production only where it blocks opponents more.
                    if mine(hex) {
                        let (mut own, mut theirs) = (0.0, 0.0);
                        for &c in &seen.topo.hex_corners[hex as usize] {
                            let k = if seen.is_city(c) { 2.0 } else { 1.0 };
                            match seen.owner(c) {
                                Some(o) if o == seat => own += k,
                                Some(_) => theirs += k,
                                None => {}
                            }
                        }
                        assert!(theirs > own, "seed {seed}: seat {seat} robbed its own hex {hex}");
                    }
                }
                let Some(l) = leader(&seen) else { return };
                let touches = |h: u8| {
                    seen.topo.hex_corners[h as usize]
                        .iter()
                        .any(|&c| c != NONE && seen.owner(c) == Some(seat))
                };
                let hits = |h: u8, v: Option<Seat>| {
                    !touches(h)
                        && (v == Some(l)
                            || (seen.board().token[h as usize] != 0
                                && seen.topo.hex_corners[h as usize]
                                    .iter()
                                    .any(|&c| c != NONE && seen.owner(c) == Some(l))
                                && (v.is_none() || seen.cards(l) == 0)))
                };
                if moves.clone().any(|(h, v)| hits(h, v)) {
                    leader_cases += 1;
                    assert!(
                        hits(hex, victim),
                        "seed {seed}: seat {seat} spared the leader {l}"
                    );
                }
            },
            |_, _, _, _| {},
        );
    }
    assert!(
        leader_cases > 30 && spare_cases > 100,
        "{leader_cases} / {spare_cases} cases"
    );
}

#[test]
fn robber_scores_prefer_rich_hexes_of_threatening_opponents() {
    // In real positions: among hexes with one opponent building and none of the bot's,
    // the score grows with the hex's pips.
    let mut cases = 0;
    for seed in 0..30 {
        play(
            GameConfig::default(),
            seed,
            &[BotLevel::Heuristic; 4],
            |game, seat, a| {
                if !matches!(a, Action::MoveRobber { .. }) {
                    return;
                }
                let seen = Seen::new(game, seat);
                let eval = Eval::new(&seen);
                let legal = game.legal_actions(seat);
                let ctx = super::Ctx {
                    seen: &seen,
                    eval: &eval,
                    plan: plan::Plan::NOTHING,
                    legal: &legal,
                    salt: 0,
                };
                let single = |h: u8| -> Option<Seat> {
                    let owners: Vec<Seat> = seen.topo.hex_corners[h as usize]
                        .iter()
                        .filter_map(|&c| seen.owner(c))
                        .collect();
                    (owners.len() == 1 && owners[0] != seat).then(|| owners[0])
                };
                for h1 in 0..seen.topo.hex_count() as u8 {
                    for h2 in 0..seen.topo.hex_count() as u8 {
                        let (Some(o1), Some(o2)) = (single(h1), single(h2)) else {
                            continue;
                        };
                        // Pips the robber would block there (a city's twice).
                        let blocked = |h: u8| {
                            let c = seen.topo.hex_corners[h as usize]
                                .iter()
                                .find(|&&c| seen.owner(c).is_some())
                                .unwrap();
                            super::eval::hex_pips(&seen, h) * if seen.is_city(*c) { 2.0 } else { 1.0 }
                        };
                        if o1 == o2 && blocked(h1) > blocked(h2) {
                            cases += 1;
                            let (v1, v2) = (
                                Some(o1).filter(|&o| seen.cards(o) > 0),
                                Some(o2).filter(|&o| seen.cards(o) > 0),
                            );
                            assert!(robber::score(&ctx, h1, v1) > robber::score(&ctx, h2, v2));
                        }
                    }
                }
            },
            |_, _, _, _| {},
        );
    }
    assert!(cases > 100, "{cases} cases");
}

#[test]
fn trades_bring_the_plan_closer_and_never_help_a_player_about_to_win() {
    // Against random bots that propose and counter: every trade the heuristic bot accepts
    // or confirms lowers what its plan lacks, and none is with a player within two points
    // of the target.
    let mut accepted = 0;
    for seed in 0..80 {
        let levels = [
            BotLevel::Heuristic,
            BotLevel::Random,
            BotLevel::Random,
            BotLevel::Random,
        ];
        play(
            GameConfig::default(),
            seed,
            &levels,
            |game, seat, a| {
                if seat != 0 || !matches!(a, Action::AcceptTrade | Action::ConfirmTrade { .. }) {
                    return;
                }
                let seen = Seen::new(game, seat);
                let eval = Eval::new(&seen);
                let p = plan::choose(&seen, &eval, &mut Vec::new());
                let o = game.offer().unwrap();
                let (other, gave, got) = match *a {
                    Action::AcceptTrade => (game.current(), o.get, o.give),
                    Action::ConfirmTrade { with } => match o.responses[with as usize] {
                        catan_rules::Response::Accepted => (with, o.give, o.get),
                        catan_rules::Response::Countered { give, get, .. } => (with, get, give),
                        _ => unreachable!(),
                    },
                    _ => unreachable!(),
                };
                let hand = seen.hand();
                let mut after = hand;
                after.sub(&gave);
                after.add(&got);
                accepted += 1;
                assert!(
                    missing(after, p.cost).total() < missing(hand, p.cost).total(),
                    "seed {seed}: {gave} for {got} does not help {:?}",
                    p.goal
                );
                assert!(
                    seen.public_vp(other) + 2 < seen.target_vp(),
                    "seed {seed}: traded with {other}"
                );
            },
            |_, _, _, _| {},
        );
    }
    assert!(accepted > 50, "{accepted} trades");
}

#[test]
fn discards_keep_what_the_plan_needs() {
    // Every discard of the bot in real games: no card its plan needs goes while a card it
    // does not need is left.
    let mut cases = 0;
    for seed in 0..60 {
        play(
            GameConfig::default(),
            seed,
            &[BotLevel::Heuristic; 4],
            |game, seat, a| {
                let Action::Discard { cards } = *a else { return };
                let seen = Seen::new(game, seat);
                let eval = Eval::new(&seen);
                let p = plan::choose(&seen, &eval, &mut Vec::new());
                let hand = seen.hand();
                let mut spare = 0;
                let mut needed_gone = 0;
                for r in Resource::ALL {
                    spare += hand[r].saturating_sub(p.cost[r]) as u32;
                    needed_gone += cards[r].saturating_sub(hand[r].saturating_sub(p.cost[r])) as u32;
                }
                cases += 1;
                if needed_gone > 0 {
                    assert!(
                        cards.total() > spare,
                        "seed {seed}: discarded {cards} of {hand} saving for {:?}",
                        p.goal
                    );
                }
            },
            |_, _, _, _| {},
        );
    }
    assert!(cases > 50, "{cases} discards");
}

#[test]
fn frenemies_gifts_go_to_players_far_from_winning_and_markers_are_taken() {
    // In Frenemies the bot gives gifts only to players with no more visible points than its
    // own that are not close to winning, and takes VP markers when it can.
    let mut gifts = 0;
    let mut markers = 0;
    for seed in 0..40 {
        play(
            GameConfig::with_scenario(4, Some(Scenario::Frenemies)),
            seed,
            &[BotLevel::Heuristic; 4],
            |game, seat, a| {
                let seen = Seen::new(game, seat);
                match *a {
                    Action::Frenemies(catan_rules::frenemies::FrenemiesAction::OfferGift { to, .. }) => {
                        gifts += 1;
                        assert!(seen.public_vp(to) + 2 < seen.target_vp());
                    }
                    Action::EndTurn => {
                        // Two usable compasses and a marker left: the bot took it.
                        let legal = game.legal_actions(seat);
                        let redeem =
                            Action::Frenemies(catan_rules::frenemies::FrenemiesAction::RedeemMasterBuilders);
                        assert!(!legal.actions.contains(&redeem), "seed {seed}: left a VP marker");
                    }
                    Action::Frenemies(catan_rules::frenemies::FrenemiesAction::RedeemMasterBuilders) => {
                        markers += 1
                    }
                    _ => {}
                }
            },
            |_, _, _, _| {},
        );
    }
    assert!(gifts > 100 && markers > 20, "{gifts} gifts, {markers} markers");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let run = |bot_seed: u64| {
        let mut log = Vec::new();
        let mut game = Game::new(GameConfig::with_scenario(4, Some(Scenario::Helpers)), 3).unwrap();
        let mut bot = HeuristicBot::new(bot_seed);
        while !game.is_over() {
            let seat = game.next_actor().unwrap();
            let a = bot.choose(&game, seat).unwrap();
            game.apply(seat, a).unwrap();
            log.push((seat, a));
        }
        log
    };
    assert_eq!(run(7), run(7));
}

#[test]
fn only_seen_reads_the_game() {
    // The honesty rule, kept by construction: no heuristic module but `seen.rs` (and the
    // entry point handing the game to it) may touch `Game`.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/heuristic");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if ["seen.rs", "mod.rs", "tests.rs", "barbarians_tests.rs"].contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        checked += 1;
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            assert!(
                !code.contains("Game") && !code.contains("game."),
                "{name}:{}: heuristic modules read the game only through Seen: {line}",
                i + 1
            );
        }
    }
    assert!(checked >= 10, "{checked} modules checked");
    // And `mod.rs` only hands the game to `Seen::new`.
    let text = std::fs::read_to_string(format!("{dir}/mod.rs")).unwrap();
    let uses: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("game") && !l.trim_start().starts_with("//"))
        .collect();
    assert!(
        uses.iter()
            .all(|l| l.contains("Seen::with_features(game, seat,") || l.contains("game: &Game")),
        "{uses:?}"
    );
}

/// A set-up position on the fixed beginner board for the robber: the bot (seat 0) moves
/// the robber after a 7; seat 2 has a settlement on the richest hex, seat 1 one on a poor
/// hex — plus, when `leader`, three cities far away that make it the clear leader.
/// Returns the game, the rich hex and the poor hex.
fn robber_position(leader: bool) -> (Game, u8, u8) {
    use catan_rules::{PlacedBuilding, PlacedRoad, PlayerPosition, Position, ResourceSet, TokenPlacement};
    let config = GameConfig {
        tokens: TokenPlacement::Beginner,
        ..GameConfig::default()
    };
    let blank = Game::new(config, 1).unwrap();
    let topo = blank.topology();
    let token = |h: u8| blank.board().token[h as usize];
    let hexes = 0..topo.hex_count() as u8;
    let rich = hexes.clone().find(|&h| token(h) == 8).unwrap();
    let touches = |c: u8, h: u8| topo.corner_hexes[c as usize].contains(&h);
    let poor = hexes
        .clone()
        .find(|&h| matches!(token(h), 2 | 12 | 3 | 11) && !topo.hex_neighbors[rich as usize].contains(&h))
        .unwrap();
    let mut taken = 0u128;
    let mut buildings = Vec::new();
    let mut roads: Vec<PlacedRoad> = Vec::new();
    let mut place = |seat: u8, city: bool, ok: &dyn Fn(u8) -> bool| {
        let c = (0..topo.corner_count() as u8)
            .find(|&c| {
                taken & (1 << c) == 0
                    && topo.corner_corners[c as usize]
                        .iter()
                        .all(|&n| n == NONE || taken & (1 << n) == 0)
                    && ok(c)
            })
            .unwrap();
        taken |= 1 << c;
        buildings.push(PlacedBuilding {
            corner: c,
            seat,
            city,
        });
        let e = *topo.corner_edges[c as usize]
            .iter()
            .find(|&&e| e != NONE && roads.iter().all(|r| r.edge != e))
            .unwrap();
        roads.push(PlacedRoad { edge: e, seat });
    };
    let away = |c: u8| !touches(c, rich) && !touches(c, poor);
    place(2, false, &|c| touches(c, rich) && !touches(c, poor));
    place(1, false, &|c| touches(c, poor) && !touches(c, rich));
    place(0, false, &away);
    if leader {
        for _ in 0..3 {
            place(1, true, &away);
        }
    }
    let hand = PlayerPosition {
        hand: ResourceSet::new(1, 1, 1, 1, 0),
        ..PlayerPosition::default()
    };
    let position = Position {
        buildings,
        roads,
        players: vec![PlayerPosition::default(), hand, hand, PlayerPosition::default()],
        phase: Phase::MoveRobber,
        current: 0,
        turn: 12,
        dice: Some([3, 4]),
        ..Position::default()
    };
    (Game::from_position(config, &position, 1).unwrap(), rich, poor)
}

#[test]
fn the_robber_chooses_the_leader_over_a_richer_hex() {
    // Without a leader the robber goes to the richer hex (an 8) and robs its owner...
    let (game, rich, _) = robber_position(false);
    let a = HeuristicBot::new(1).choose(&game, 0).unwrap();
    assert_eq!(
        a,
        Action::MoveRobber {
            hex: rich,
            victim: Some(2)
        }
    );
    // ...but with seat 1 clearly ahead it goes to the leader's poor hex and robs the leader.
    let (game, _, poor) = robber_position(true);
    assert!(game.public_victory_points(1) >= game.public_victory_points(2) + 2);
    let a = HeuristicBot::new(1).choose(&game, 0).unwrap();
    let Action::MoveRobber { hex, victim } = a else {
        panic!("{a:?}")
    };
    assert_eq!(victim, Some(1), "{a:?}");
    assert!(
        game.topology().hex_corners[hex as usize]
            .iter()
            .any(|&c| game.corner_owner(c) == Some(1)),
        "{a:?} (the leader's hex {poor} or one of its cities' hexes)"
    );
}

/// The bot (seat 1), building towards a settlement and short of brick, with a spare wool;
/// seat 0 offers `give` for `get`.
fn offer_position(give: catan_rules::ResourceSet, get: catan_rules::ResourceSet) -> Game {
    offer_position_in(GameConfig::default(), give, get, None)
}

/// [`offer_position`] in `config`; with `gold`, Barbarian Invasion's `(the bot's gold,
/// gold offered to it, gold asked of it)`.
fn offer_position_in(
    config: GameConfig,
    give: catan_rules::ResourceSet,
    get: catan_rules::ResourceSet,
    gold: Option<(u16, u16, u16)>,
) -> Game {
    use catan_rules::{
        PerSeat, PlacedBuilding, PlacedRoad, PlayerPosition, Position, ResourceSet, Response, SeatSet,
        TradeOffer,
    };
    let blank = Game::new(config, 5).unwrap();
    let topo = blank.topology();
    // Seat 1: a settlement on three hexes, one of them hills (so brick comes in time), no
    // harbor; two roads lead to a free corner.
    let hills = |c: u8| {
        topo.corner_hexes[c as usize]
            .iter()
            .any(|&h| h != NONE && blank.board().terrain[h as usize] == catan_rules::Terrain::Hills)
    };
    let c0 = (0..topo.corner_count() as u8)
        .find(|&c| {
            hills(c) && blank.board().harbor_at(c).is_none() && !topo.corner_hexes[c as usize].contains(&NONE)
        })
        .unwrap();
    let e0 = topo.corner_edges[c0 as usize]
        .iter()
        .copied()
        .find(|&e| e != NONE)
        .unwrap();
    let [a, b] = topo.edge_corners[e0 as usize];
    let c1 = if a == c0 { b } else { a };
    let e1 = topo.corner_edges[c1 as usize]
        .iter()
        .copied()
        .find(|&e| e != NONE && e != e0)
        .unwrap();
    let far = (20..topo.corner_count() as u8)
        .find(|&c| !topo.corner_corners[c as usize].contains(&c0))
        .unwrap();
    let e_far = topo.corner_edges[far as usize]
        .iter()
        .copied()
        .find(|&e| e != NONE)
        .unwrap();
    let mut responses = PerSeat::filled(4, Response::Declined);
    responses[1] = Response::Pending;
    let mut to = SeatSet::EMPTY;
    to.insert(1);
    let position = Position {
        buildings: vec![
            PlacedBuilding {
                corner: c0,
                seat: 1,
                city: false,
            },
            PlacedBuilding {
                corner: far,
                seat: 0,
                city: false,
            },
        ],
        roads: vec![
            PlacedRoad { edge: e0, seat: 1 },
            PlacedRoad { edge: e1, seat: 1 },
            PlacedRoad { edge: e_far, seat: 0 },
        ],
        players: vec![
            PlayerPosition {
                hand: ResourceSet::new(2, 0, 0, 2, 1),
                ..PlayerPosition::default()
            },
            PlayerPosition {
                hand: ResourceSet::new(0, 2, 2, 1, 0),
                ..PlayerPosition::default()
            },
            PlayerPosition::default(),
            PlayerPosition::default(),
        ],
        phase: Phase::Main,
        current: 0,
        turn: 9,
        dice: Some([2, 4]),
        offer: Some(TradeOffer {
            give,
            get,
            to,
            responses,
            give_gold: gold.map_or(0, |g| g.1),
            get_gold: gold.map_or(0, |g| g.2),
        }),
        barbarians: gold.map(|(bot, offered, _)| catan_rules::barbarians::BarbariansPosition {
            gold: vec![offered, bot, 0, 0],
            ..Default::default()
        }),
        ..Position::default()
    };
    Game::from_position(config, &position, 5).unwrap()
}

/// Barbarian Invasion: gold in an offer is weighed as the cards it buys. The same brick
/// for a spare wool that the bot takes is refused when it also asks for the bot's 4 gold
/// (two cards the plan lacks), and taken when it brings gold.
#[test]
fn gold_asked_in_an_offer_counts_as_the_cards_it_buys() {
    use catan_rules::{ResourceSet, Scenario};
    let config = GameConfig {
        scenario: Some(Scenario::Barbarians),
        victory_points: 12,
        ..GameConfig::default()
    };
    let brick = ResourceSet::new(1, 0, 0, 0, 0);
    let wool = ResourceSet::new(0, 0, 1, 0, 0);
    let choose = |g| HeuristicBot::new(1).choose(&offer_position_in(config, brick, wool, Some(g)), 1);
    assert_eq!(choose((4, 0, 0)), Some(Action::AcceptTrade), "no gold involved");
    assert_ne!(
        choose((4, 0, 4)),
        Some(Action::AcceptTrade),
        "4 gold asked as well"
    );
    assert_eq!(
        choose((4, 2, 0)),
        Some(Action::AcceptTrade),
        "2 gold offered as well"
    );
}

#[test]
fn offers_are_accepted_when_they_help_and_declined_when_they_cost_the_plan() {
    use catan_rules::ResourceSet;
    let brick = ResourceSet::new(1, 0, 0, 0, 0);
    let wool = ResourceSet::new(0, 0, 1, 0, 0);
    let grain = ResourceSet::new(0, 0, 0, 1, 0);
    let game = offer_position(brick, wool);
    let seen = Seen::new(&game, 1);
    let p = plan::choose(&seen, &Eval::new(&seen), &mut Vec::new());
    assert!(
        matches!(p.goal, plan::Goal::Settlement { .. } | plan::Goal::Expand { .. }),
        "{p:?}"
    );
    assert!(
        p.cost[Resource::Brick] > 0 && p.cost[Resource::Wool] == 1,
        "{p:?}"
    );
    // A brick (what the plan lacks) for the second wool (spare): yes.
    assert_eq!(HeuristicBot::new(1).choose(&game, 1), Some(Action::AcceptTrade));
    // A brick for the grain the settlement needs: no better off; not accepted.
    let game = offer_position(brick, grain);
    assert_ne!(HeuristicBot::new(1).choose(&game, 1), Some(Action::AcceptTrade));
}
