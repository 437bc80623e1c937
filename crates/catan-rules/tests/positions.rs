//! Positions through the public API only (`Game::from_position`, `Game::position`), as a
//! bot author would use them: round trips over real games of every variant, hand-written
//! positions, and one refusal for each kind of impossible position.

use catan_bots::RandomBot;
use catan_rules::frenemies::FrenemiesPosition;
use catan_rules::helpers::{HeldPosition, HelpersPosition};
use catan_rules::{
    Action, DevCard, Event, FiveSixTurns, Game, GameConfig, Helper, Layout, PairedPart, Phase,
    PlacedBuilding, PlacedRoad, PlayerPosition, Position, PositionError, Resource, ResourceSet, Scenario,
    Seat, Terrain, Viewer,
};

fn settlement(seat: Seat, corner: u8) -> PlacedBuilding {
    PlacedBuilding {
        corner,
        seat,
        city: false,
    }
}

fn city(seat: Seat, corner: u8) -> PlacedBuilding {
    PlacedBuilding {
        corner,
        seat,
        city: true,
    }
}

fn road(seat: Seat, edge: u8) -> PlacedRoad {
    PlacedRoad { edge, seat }
}

/// The edge joining corners `a` and `b`.
fn edge(a: u8, b: u8) -> u8 {
    let t = Layout::Base.topology();
    (0..t.edge_count() as u8)
        .find(|&e| {
            let c = t.edge_corners[e as usize];
            c == [a, b] || c == [b, a]
        })
        .unwrap_or_else(|| panic!("no edge {a}-{b}"))
}

/// Seat 0: a settlement on corner 0 with a road 0–3; seat 1: a city on corner 20 with a road
/// 20–25. Seat 0's turn 5, after rolling 6.
fn base() -> Position {
    Position {
        buildings: vec![settlement(0, 0), city(1, 20)],
        roads: vec![road(0, edge(0, 3)), road(1, edge(20, 25))],
        phase: Phase::Main,
        current: 0,
        turn: 5,
        dice: Some([2, 4]),
        ..Position::default()
    }
}

fn refused(position: &Position) -> PositionError {
    refused_with(GameConfig::default(), position)
}

fn refused_with(config: GameConfig, position: &Position) -> PositionError {
    match Game::from_position(config, position, 1) {
        Ok(_) => panic!("accepted: {position:?}"),
        Err(e) => {
            // Every refusal reads as a sentence.
            assert!(e.to_string().len() > 15, "{e}");
            e
        }
    }
}

// ----- set up, read back ----------------------------------------------------------------

#[test]
fn a_hand_written_position_reads_back_with_everything_filled_in() {
    let mut p = base();
    p.players = vec![
        PlayerPosition {
            hand: ResourceSet::new(1, 1, 0, 0, 0),
            ..PlayerPosition::default()
        },
        PlayerPosition::default(),
        PlayerPosition::default(),
        PlayerPosition::default(),
    ];
    let g = Game::from_position(GameConfig::default(), &p, 3).unwrap();
    assert_eq!(g.public_victory_points(0), 1);
    assert_eq!(g.public_victory_points(1), 2);
    assert_eq!(g.bank(), ResourceSet::new(18, 18, 19, 19, 19));
    assert_eq!(g.deck_len(), 25);
    assert_eq!((g.phase(), g.current(), g.turn()), (Phase::Main, 0, 5));
    // The board comes from the seed, as Game::new lays it out.
    assert_eq!(g.board(), Game::new(GameConfig::default(), 3).unwrap().board());
    assert_eq!(g.robber(), g.board().robber_start);
    let read = g.position();
    assert_eq!(read.buildings, p.buildings);
    assert_eq!(read.roads, p.roads);
    assert_eq!(read.players[0].hand, p.players[0].hand);
    assert_eq!(read.players[0].knights, Some(0));
    assert!(read.board.is_some() && read.deck.is_some() && read.rng.is_some());
    // Read back, set up again: the same position.
    let again = Game::from_position(GameConfig::default(), &read, 99).unwrap();
    assert_eq!(again.position(), read);
    // And as JSON.
    let json = serde_json::to_string(&read).unwrap();
    assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), read);
}

#[test]
fn a_minimal_json_position() {
    let p: Position = serde_json::from_str(
        r#"{"phase": {"phase": "main"}, "dice": [3, 4], "turn": 2, "current": 1,
            "buildings": [{"corner": 20, "seat": 1}], "roads": [{"edge": 31, "seat": 1}],
            "players": [{}, {"hand": {"ore": 3, "grain": 2}}, {}],
            "deck": null, "robber": 4}"#,
    )
    .unwrap();
    let mut g = Game::from_position(GameConfig::with_players(3), &p, 5).unwrap();
    assert_eq!(g.robber(), 4);
    g.apply(1, Action::BuildCity { corner: 20 }).unwrap();
    assert_eq!(g.public_victory_points(1), 2);
    // Unknown fields are refused.
    assert!(serde_json::from_str::<Position>(r#"{"colour": "red"}"#).is_err());
}

/// The views of a game and of the game set up from its position are identical for every
/// viewer, and the next `steps` actions (the bot's choices on the original) give the same
/// events and positions.
fn assert_reproduces(game: &Game, steps: usize, bot_seed: u64) {
    let config = *game.config();
    let position = game.position();
    let mut copy = Game::from_position(config, &position, 0xdead).unwrap();
    assert_eq!(copy.position(), position);
    let json = serde_json::to_string(&position).unwrap();
    assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), position);
    let mut viewers = vec![Viewer::Spectator];
    viewers.extend((0..game.players()).map(Viewer::Seat));
    for &v in &viewers {
        assert_eq!(copy.view(v), game.view(v), "view of {v:?}");
    }
    let mut original = game.clone();
    let mut bot = RandomBot::new(bot_seed).with_trades(true);
    for _ in 0..steps {
        if original.is_over() {
            break;
        }
        let seat = original.next_actor().unwrap();
        let action = bot.choose(&original, seat).unwrap();
        let a = original.apply(seat, action).unwrap();
        let b = copy.apply(seat, action).unwrap();
        assert_eq!(a, b, "{action:?}");
    }
    assert_eq!(copy.position(), original.position());
}

fn round_trips(config: GameConfig, seed: u64) {
    let mut game = Game::new(config, seed).unwrap();
    let mut bot = RandomBot::new(seed).with_trades(true);
    let mut n = 0u64;
    while !game.is_over() && game.turn() < 3000 {
        // Every 7th action, and every special moment, is a position to check.
        if n.is_multiple_of(7) || !matches!(game.phase(), Phase::Main | Phase::Roll) {
            assert_reproduces(&game, 12, n);
        }
        let seat = game.next_actor().unwrap();
        let action = bot.choose(&game, seat).unwrap();
        game.apply(seat, action).unwrap();
        n += 1;
    }
    assert_reproduces(&game, 0, 0);
}

#[test]
fn round_trip_base_games() {
    for seed in 0..3 {
        round_trips(GameConfig::default(), seed);
        round_trips(GameConfig::with_players(3), 10 + seed);
    }
}

#[test]
fn round_trip_five_six_games() {
    round_trips(GameConfig::with_players(6), 1);
    round_trips(
        GameConfig {
            five_six_turns: Some(FiveSixTurns::Paired),
            ..GameConfig::with_players(5)
        },
        2,
    );
}

#[test]
fn round_trip_helpers_games() {
    for (players, seed) in [(4, 1), (5, 2), (3, 3)] {
        round_trips(GameConfig::with_scenario(players, Some(Scenario::Helpers)), seed);
    }
}

#[test]
fn round_trip_frenemies_games() {
    for (players, seed) in [(4, 1), (6, 2)] {
        round_trips(
            GameConfig::with_scenario(players, Some(Scenario::Frenemies)),
            seed,
        );
    }
}

#[test]
fn a_set_up_position() {
    // Seat 2 is first: seats 2 and 3 have placed; seat 0 places next.
    let p = Position {
        buildings: vec![settlement(2, 0), settlement(3, 20)],
        roads: vec![road(2, edge(0, 3)), road(3, edge(20, 25))],
        phase: Phase::SetupSettlement,
        first: 2,
        current: 0,
        turn: 0,
        ..Position::default()
    };
    let mut g = Game::from_position(GameConfig::default(), &p, 1).unwrap();
    assert_eq!(g.next_actor(), Some(0));
    let a = g.legal_actions(0).actions[0];
    g.apply(0, a).unwrap();
    assert!(matches!(g.phase(), Phase::SetupRoad { .. }));
    // The wrong seat to place, or a step the pieces do not show, is refused.
    let e = refused(&Position {
        current: 1,
        ..p.clone()
    });
    assert!(e.to_string().contains("seat 0 places"), "{e}");
    let e = refused(&Position {
        buildings: vec![settlement(2, 0)],
        roads: vec![road(2, edge(0, 3))],
        ..p.clone()
    });
    assert!(matches!(e, PositionError::Phase(_)), "{e:?}");
}

#[test]
fn a_paired_part_position() {
    let config = GameConfig {
        five_six_turns: Some(FiveSixTurns::Paired),
        ..GameConfig::with_players(6)
    };
    let p = Position {
        phase: Phase::Main,
        dice: Some([5, 5]),
        current: 4,
        paired: Some(PairedPart {
            player_1: 1,
            player_2: 4,
        }),
        ..Position::default()
    };
    let mut g = Game::from_position(config, &p, 1).unwrap();
    assert_eq!(g.paired_part(), p.paired);
    let ev = g.apply(4, Action::EndTurn).unwrap();
    assert_eq!(ev, vec![Event::TurnStarted { seat: 2, turn: 2 }]);
    // Player 2 of seat 1 is seat 4, not 5.
    let e = refused_with(
        config,
        &Position {
            current: 5,
            paired: Some(PairedPart {
                player_1: 1,
                player_2: 5,
            }),
            ..p.clone()
        },
    );
    assert!(e.to_string().contains("player 2 is seat 4"), "{e}");
    // Not in a game with the Special Building Phase.
    refused_with(GameConfig::with_players(6), &p);
}

#[test]
fn a_helpers_position_by_hand() {
    let config = GameConfig::with_scenario(4, Some(Scenario::Helpers));
    let held = |h: Helper| HeldPosition {
        helper: Some(h),
        ..HeldPosition::default()
    };
    let part = HelpersPosition {
        held: vec![
            held(Helper::Kaja),
            held(Helper::Yngvi),
            held(Helper::Hilda),
            held(Helper::Hogni),
        ],
        display: vec![Helper::Asla, Helper::Thorolf, Helper::Diara, Helper::Ryan],
        ..HelpersPosition::default()
    };
    let p = Position {
        helpers: Some(part.clone()),
        ..Position::default()
    };
    let mut g = Game::from_position(config, &p, 1).unwrap();
    // Kaja before the roll, on the desert: any resource.
    let kaja = Action::Helpers(catan_rules::HelpersAction::UseKaja {
        resource: Resource::Ore,
    });
    g.apply(0, kaja).unwrap();
    let read = g.position().helpers.unwrap();
    assert!(read.held[0].used);
    assert_eq!(read.out_of_game.unwrap().len(), 4, "the rest is out of the game");
    // A helper in two places; a missing part; a part in a game without the scenario.
    let mut twice = part.clone();
    twice.display[0] = Helper::Kaja;
    let e = refused_with(
        config,
        &Position {
            helpers: Some(twice),
            ..Position::default()
        },
    );
    assert!(e.to_string().contains("two places"), "{e}");
    let e = refused_with(config, &Position::default());
    assert!(e.to_string().contains("needs its part"), "{e}");
    let e = refused(&p);
    assert!(e.to_string().contains("does not play"), "{e}");
}

#[test]
fn a_frenemies_position_by_hand() {
    let config = GameConfig::with_scenario(4, Some(Scenario::Frenemies));
    let mut part = FrenemiesPosition {
        holders: vec![Default::default(); 4],
        ..FrenemiesPosition::default()
    };
    part.holders[0].tokens = [0, 1, 0, 0, 0];
    let p = Position {
        frenemies: Some(part.clone()),
        phase: Phase::Main,
        dice: Some([1, 1]),
        ..Position::default()
    };
    let mut g = Game::from_position(config, &p, 1).unwrap();
    let merchants = Action::Frenemies(catan_rules::frenemies::FrenemiesAction::RedeemMerchants {
        resource: Resource::Wool,
    });
    g.apply(0, merchants).unwrap();
    assert_eq!(g.player(0).hand, ResourceSet::one(Resource::Wool));
    assert_eq!(g.position().frenemies.unwrap().redeemed, [0, 1, 0, 0, 0]);
    // More Traders than the set has.
    part.holders[1].tokens = [9, 0, 0, 0, 0];
    let e = refused_with(
        config,
        &Position {
            frenemies: Some(part),
            ..p.clone()
        },
    );
    assert!(e.to_string().contains("Traders"), "{e}");
}

// ----- one refusal per kind of impossible position -----------------------------------------

#[test]
fn refuses_an_invalid_configuration() {
    let e = refused_with(GameConfig::with_players(7), &base());
    assert!(matches!(e, PositionError::Config(_)), "{e:?}");
}

#[test]
fn refuses_a_seat_count_that_is_not_the_games() {
    let p = Position {
        players: vec![PlayerPosition::default(); 3],
        ..base()
    };
    let e = refused(&p);
    assert_eq!(
        e,
        PositionError::SeatCount {
            what: "players",
            expected: 4,
            found: 3
        }
    );
}

#[test]
fn refuses_an_absent_seat() {
    let mut p = base();
    p.buildings.push(settlement(4, 40));
    assert!(matches!(refused(&p), PositionError::NoSuchSeat { seat: 4, .. }));
    // A phase that names an absent seat.
    let p = Position {
        phase: Phase::GameOver { winner: 5 },
        ..base()
    };
    let e = refused(&p);
    assert!(matches!(e, PositionError::NoSuchSeat { seat: 5, .. }), "{e:?}");
    assert!(e.to_string().contains("winner"), "{e}");
    let p = Position { current: 4, ..base() };
    assert!(matches!(refused(&p), PositionError::NoSuchSeat { seat: 4, .. }));
}

#[test]
fn refuses_places_off_the_board() {
    let mut p = base();
    p.roads.push(road(0, 200));
    assert_eq!(
        refused(&p),
        PositionError::NoSuchPlace {
            what: "edge",
            id: 200
        }
    );
    let p = Position {
        robber: Some(19),
        ..base()
    };
    assert_eq!(refused(&p), PositionError::NoSuchPlace { what: "hex", id: 19 });
}

#[test]
fn refuses_two_pieces_in_one_place() {
    let mut p = base();
    p.buildings.push(city(2, 0));
    assert_eq!(
        refused(&p),
        PositionError::Occupied {
            what: "corner",
            id: 0
        }
    );
    let mut p = base();
    p.roads.push(road(1, edge(0, 3)));
    assert!(matches!(
        refused(&p),
        PositionError::Occupied { what: "edge", .. }
    ));
}

#[test]
fn refuses_more_pieces_than_a_player_owns() {
    let mut p = base();
    p.buildings = [2u8, 7, 9, 11, 13, 22]
        .iter()
        .map(|&c| settlement(2, c))
        .collect();
    let e = refused(&p);
    assert!(
        matches!(
            e,
            PositionError::TooManyPieces {
                seat: 2,
                piece: "settlements",
                count: 6,
                max: 5
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "seat 2 has 6 settlements on the board; a player has only 5"
    );
}

/// Five settlements and four cities (a player's whole supply of buildings) are a position;
/// the supplies read back empty.
#[test]
fn a_players_whole_supply_of_buildings() {
    let t = Layout::Base.topology();
    let mut p = base();
    p.buildings.clear();
    p.roads.clear();
    let mut used_edges = Vec::new();
    for c in 0..t.corner_count() as u8 {
        if p.buildings.len() == 9 {
            break;
        }
        let apart = p
            .buildings
            .iter()
            .all(|b| b.corner != c && !t.corner_corners[c as usize].contains(&b.corner));
        let free_edge = t.corner_edges[c as usize]
            .iter()
            .copied()
            .find(|&e| e != 255 && !used_edges.contains(&e));
        if let (true, Some(e)) = (apart, free_edge) {
            // The five settlements first, then the cities (a city after five settlements
            // takes none from the supply).
            p.buildings.push(PlacedBuilding {
                corner: c,
                seat: 0,
                city: p.buildings.len() >= 5,
            });
            p.roads.push(road(0, e));
            used_edges.push(e);
        }
    }
    // Seat 0 has 13 points: it must not be their turn (they would have won).
    p.current = 1;
    let g = Game::from_position(GameConfig::default(), &p, 1).unwrap();
    let seat = g.player(0);
    assert_eq!((seat.settlements_left, seat.cities_left), (0, 0));
    assert_eq!(g.public_victory_points(0), 13);
}

#[test]
fn refuses_buildings_breaking_the_distance_rule() {
    let mut p = base();
    p.buildings.push(settlement(2, 3));
    assert_eq!(refused(&p), PositionError::DistanceRule { corner: 0, other: 3 });
}

#[test]
fn refuses_a_road_not_connected() {
    let mut p = base();
    p.roads.push(road(0, edge(50, 53)));
    let e = refused(&p);
    assert_eq!(
        e,
        PositionError::RoadNotConnected {
            seat: 0,
            edge: edge(50, 53)
        }
    );
    // A road beyond a corner an opponent built on since is still connected.
    let mut p = base();
    p.roads.push(road(0, edge(3, 7)));
    p.roads.push(road(0, edge(7, 12)));
    p.buildings.push(settlement(2, 7));
    p.roads.push(road(2, edge(7, 11)));
    Game::from_position(GameConfig::default(), &p, 1).unwrap();
}

#[test]
fn refuses_a_building_no_road_reaches() {
    let mut p = base();
    p.buildings.push(settlement(0, 40));
    assert_eq!(
        refused(&p),
        PositionError::BuildingWithoutRoad { seat: 0, corner: 40 }
    );
}

#[test]
fn refuses_resources_beyond_the_banks_totals() {
    let mut p = base();
    p.players = vec![PlayerPosition::default(); 4];
    p.players[1].hand = ResourceSet::new(0, 0, 0, 0, 12);
    p.players[2].hand = ResourceSet::new(0, 0, 0, 0, 8);
    let e = refused(&p);
    assert_eq!(
        e,
        PositionError::Resources {
            resource: Resource::Ore,
            hands: 20,
            bank: 0,
            total: 19
        }
    );
    // A bank given must hold exactly what the hands do not.
    p.players[2].hand = ResourceSet::EMPTY;
    p.bank = Some(ResourceSet::splat(19));
    assert!(matches!(
        refused(&p),
        PositionError::Resources {
            resource: Resource::Ore,
            ..
        }
    ));
}

#[test]
fn refuses_development_cards_that_do_not_add_up() {
    let mut p = base();
    p.players = vec![PlayerPosition::default(); 4];
    p.players[0].development_cards.knight = 10;
    p.players[1].development_cards.knight = 5;
    let e = refused(&p);
    assert!(matches!(e, PositionError::DevCards(_)), "{e:?}");
    assert!(e.to_string().contains("15 Knight"), "{e}");
    // A deck given must complete the cards elsewhere.
    let mut p = base();
    p.deck = Some(vec![DevCard::Knight; 3]);
    assert!(matches!(refused(&p), PositionError::DevCards(_)));
}

#[test]
fn refuses_a_player_whose_cards_contradict_each_other() {
    let mut p = base();
    p.players = vec![PlayerPosition::default(); 4];
    p.players[1].new_development_cards.monopoly = 1;
    let e = refused(&p);
    assert!(matches!(e, PositionError::Player { seat: 1, .. }), "{e:?}");
    p.players[1].new_development_cards.monopoly = 0;
    p.players[1].played_development_cards.knight = 3;
    p.players[1].knights = Some(2);
    let e = refused(&p);
    assert!(e.to_string().contains("only The Helpers' Gregor"), "{e}");
}

#[test]
fn refuses_titles_held_against_the_rule() {
    let mut p = base();
    p.longest_road = Some(1);
    let e = refused(&p);
    assert!(
        matches!(
            e,
            PositionError::Title {
                title: "Longest Road",
                ..
            }
        ),
        "{e:?}"
    );
    // Three knights alone and nobody holding Largest Army.
    let mut p = base();
    p.players = vec![PlayerPosition::default(); 4];
    p.players[2].played_development_cards.knight = 3;
    let e = refused(&p);
    assert!(
        matches!(
            e,
            PositionError::Title {
                title: "Largest Army",
                ..
            }
        ),
        "{e:?}"
    );
    p.largest_army = Some(2);
    Game::from_position(GameConfig::default(), &p, 1).unwrap();
}

#[test]
fn refuses_a_phase_that_does_not_fit() {
    for (p, says) in [
        (Position { dice: None, ..base() }, "after the roll"),
        (
            Position {
                phase: Phase::Roll,
                ..base()
            },
            "past the roll",
        ),
        (
            Position {
                phase: Phase::Discard,
                ..base()
            },
            "rolled 7",
        ),
        (
            Position {
                phase: Phase::SpecialBuild { seat: 2 },
                ..base()
            },
            "Special Building Phase",
        ),
        (
            Position {
                phase: Phase::GameOver { winner: 1 },
                ..base()
            },
            "the target is 10",
        ),
        (Position { turn: 0, ..base() }, "count from 1"),
    ] {
        let e = refused(&p);
        assert!(matches!(e, PositionError::Phase(_)), "{e:?}");
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn refuses_a_board_without_the_islands_components() {
    let g = Game::new(GameConfig::default(), 1).unwrap();
    let mut board = g.position().board.unwrap();
    let desert = board.terrain.iter().position(|&t| t == Terrain::Desert).unwrap();
    board.terrain[desert] = Terrain::Forest;
    let e = refused(&Position {
        board: Some(board),
        ..base()
    });
    assert!(matches!(e, PositionError::Board(_)), "{e:?}");
}

#[test]
fn refuses_an_offer_that_could_not_be_open() {
    let g = Game::new(GameConfig::default(), 1).unwrap();
    let mut p = base();
    p.players = vec![PlayerPosition::default(); 4];
    p.players[0].hand = ResourceSet::new(1, 0, 0, 0, 0);
    let mut live = Game::from_position(*g.config(), &p, 1).unwrap();
    live.apply(
        0,
        Action::OfferTrade {
            give: ResourceSet::new(1, 0, 0, 0, 0),
            get: ResourceSet::new(0, 0, 0, 0, 1),
            give_gold: 0,
            get_gold: 0,
            to: Default::default(),
        },
    )
    .unwrap();
    let open = live.position();
    Game::from_position(*g.config(), &open, 1).unwrap();
    // The same offer in the roll phase.
    let e = refused(&Position {
        phase: Phase::Roll,
        dice: None,
        ..open.clone()
    });
    assert!(matches!(e, PositionError::Offer(_)), "{e:?}");
}

#[test]
fn refuses_a_player_already_at_the_target_in_their_turn() {
    let mut p = base();
    p.players = vec![PlayerPosition::default(); 4];
    p.players[0].development_cards.victory_point = 5;
    p.buildings = vec![city(0, 0), city(0, 20), city(0, 40), settlement(0, 11)];
    p.roads = vec![
        road(0, edge(0, 3)),
        road(0, edge(20, 25)),
        road(0, edge(40, 44)),
        road(0, edge(11, 16)),
    ];
    let e = refused(&p);
    assert_eq!(e, PositionError::AlreadyWon { seat: 0, points: 12 });
    // Outside their turn it is a position (they win at the start of their turn).
    Game::from_position(GameConfig::default(), &Position { current: 1, ..p }, 1).unwrap();
}

#[test]
fn refuses_a_scenario_part_that_does_not_fit() {
    // Covered in detail by the Helpers and Frenemies tests above; here, the part for a
    // scenario the game does not play.
    let p = Position {
        frenemies: Some(FrenemiesPosition::default()),
        ..base()
    };
    let e = refused(&p);
    assert!(
        matches!(
            e,
            PositionError::Scenario {
                scenario: "frenemies",
                ..
            }
        ),
        "{e:?}"
    );
}

// ----- arbitrary input never panics ------------------------------------------------------

mod arbitrary {
    use super::*;
    use catan_rules::{Rng, SeatSet};
    use proptest::prelude::*;

    const CONFIGS: [fn() -> GameConfig; 5] = [
        GameConfig::default,
        || GameConfig::with_players(6),
        || GameConfig {
            five_six_turns: Some(FiveSixTurns::Paired),
            ..GameConfig::with_players(5)
        },
        || GameConfig::with_scenario(4, Some(Scenario::Helpers)),
        || GameConfig::with_scenario(3, Some(Scenario::Frenemies)),
    ];

    /// One random change to a position: a value moved in or past its range.
    fn mutate(p: &mut Position, rng: &mut Rng) {
        let mut r = |max: u32| rng.below(max + 1) as u8;
        let n = p.players.len().max(1) as u32;
        match r(17) {
            0 if !p.buildings.is_empty() => {
                let i = r(p.buildings.len() as u32 - 1) as usize;
                p.buildings[i].corner = r(60);
            }
            1 => p.buildings.push(PlacedBuilding {
                corner: r(60),
                seat: r(n),
                city: r(1) == 1,
            }),
            2 if !p.roads.is_empty() => {
                let i = r(p.roads.len() as u32 - 1) as usize;
                p.roads.remove(i);
            }
            3 => p.roads.push(PlacedRoad {
                edge: r(80),
                seat: r(n),
            }),
            4 if !p.players.is_empty() => {
                let s = r(n - 1) as usize;
                p.players[s].hand = ResourceSet::new(r(5), r(5), r(20), r(5), r(5));
                p.bank = None;
            }
            5 if !p.players.is_empty() => {
                let s = r(n - 1) as usize;
                let d = &mut p.players[s];
                match r(4) {
                    0 => d.development_cards.knight = r(15),
                    1 => d.new_development_cards.monopoly = r(2),
                    2 => d.played_development_cards.knight = r(5),
                    3 => d.knights = Some(r(5)),
                    _ => d.discard_pending = r(4),
                }
                p.deck = None;
            }
            6 => {
                p.phase = match r(9) {
                    0 => Phase::SetupSettlement,
                    1 => Phase::SetupRoad { corner: r(130) },
                    2 => Phase::Roll,
                    3 => Phase::Discard,
                    4 => Phase::MoveRobber,
                    5 => Phase::RoadBuilding { left: r(3) },
                    6 => Phase::SpecialBuild { seat: r(7) },
                    7 => Phase::GameOver { winner: r(7) },
                    _ => Phase::Main,
                }
            }
            7 => p.current = r(n),
            8 => p.dice = [None, Some([r(7), r(7)])][r(1) as usize],
            9 => p.turn = [0, 1, 3, u32::MAX][r(3) as usize],
            10 => p.longest_road = [None, Some(r(n))][r(1) as usize],
            11 => p.largest_army = [None, Some(r(n))][r(1) as usize],
            12 => p.development_card_played = !p.development_card_played,
            13 => {
                p.paired = (r(1) == 0).then(|| PairedPart {
                    player_1: r(n),
                    player_2: r(n),
                })
            }
            14 => p.robber = Some(r(32)),
            15 => {
                if let Some(h) = p.helpers.as_mut() {
                    match r(3) {
                        0 => h.display.clear(),
                        1 => {
                            let i = r(h.held.len() as u32 - 1) as usize;
                            h.held[i].moon = true;
                            h.held[i].used = r(1) == 1;
                        }
                        2 => h.out_of_game = None,
                        _ => h.stack.push(Helper::Carla),
                    }
                }
            }
            16 => {
                if let Some(f) = p.frenemies.as_mut() {
                    match r(3) {
                        0 => f.holders[0].tokens[r(4) as usize] = r(20),
                        1 => f.connected.push([r(n), r(n)]),
                        2 => f.gift_rejected = SeatSet(r(63)),
                        _ => f.supply = None,
                    }
                }
            }
            _ => {
                if let Some(o) = p.offer.as_mut() {
                    o.to = SeatSet(r(63));
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]
        /// `from_position` on a real game's position with a few random changes accepts or
        /// refuses, never panics; what it accepts reads back as itself and plays on.
        #[test]
        fn from_position_never_panics(seed in any::<u64>(), variant in 0usize..5, steps in 0u32..600) {
            let config = CONFIGS[variant]();
            let mut game = Game::new(config, seed).unwrap();
            let mut bot = RandomBot::new(seed).with_trades(true);
            for _ in 0..steps {
                if game.is_over() {
                    break;
                }
                let seat = game.next_actor().unwrap();
                let a = bot.choose(&game, seat).unwrap();
                game.apply(seat, a).unwrap();
            }
            let mut rng = Rng::new(seed);
            for _ in 0..8 {
                let mut p = game.position();
                for _ in 0..=rng.below(2) {
                    mutate(&mut p, &mut rng);
                }
                if let Ok(g) = Game::from_position(config, &p, seed) {
                    let read = g.position();
                    let mut again = Game::from_position(config, &read, seed).unwrap();
                    prop_assert_eq!(again.position(), read);
                    if let Some(seat) = again.next_actor() {
                        if let Some(a) = bot.choose(&again, seat) {
                            again.apply(seat, a).unwrap();
                        }
                    }
                }
            }
        }
    }
}
