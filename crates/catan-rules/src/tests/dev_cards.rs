//! Development cards: buying, timing, and each card's effect.

use super::*;
use crate::board::Layout;
use crate::view::Viewer;

fn count_deck(g: &Game) -> [u8; 5] {
    let mut n = [0u8; 5];
    for c in &g.deck[..g.deck_len as usize] {
        n[c.index()] += 1;
    }
    n
}

#[test]
fn base_deck_has_25_cards() {
    let g = blank(4);
    assert_eq!(g.deck_len, 25);
    assert_eq!(count_deck(&g), [14, 5, 2, 2, 2]);
}

#[test]
fn card_cannot_be_played_in_the_turn_it_was_bought() {
    let mut g = blank(4);
    main_phase(&mut g);
    stack_deck(&mut g, DevCard::Knight);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    let ev = ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert!(ev.contains(&Event::DevelopmentCardBought {
        seat: 0,
        card: Some(DevCard::Knight)
    }));
    assert_eq!(g.players[0].dev_new[DevCard::Knight.index()], 1);
    let err = assert_refused(&mut g, 0, Action::PlayKnight);
    assert!(matches!(err, RuleError::DevCard { .. }), "{err:?}");
    assert!(!g.legal_actions(0).actions.contains(&Action::PlayKnight));
    ok(&mut g, 0, Action::EndTurn);
    // Not in another player's turn either.
    let err = assert_refused(&mut g, 0, Action::PlayKnight);
    assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
    // In the owner's next turn it may be played.
    g.start_turn(0, &mut Vec::new());
    assert!(g.legal_actions(0).actions.contains(&Action::PlayKnight));
    ok(&mut g, 0, Action::PlayKnight);
    assert_eq!(g.players[0].knights, 1);
    check(&g);
}

#[test]
fn victory_point_card_counts_at_once() {
    let mut g = blank(4);
    main_phase(&mut g);
    stack_deck(&mut g, DevCard::VictoryPoint);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    assert_eq!(g.victory_points(0), 0);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.victory_points(0), 1);
    assert_eq!(g.public_victory_points(0), 0);
    check(&g);
}

#[test]
fn buying_the_winning_victory_point_card_wins_at_once() {
    let mut g = blank(4);
    main_phase(&mut g);
    let all: Vec<u8> = (0..g.topo.corner_count() as u8).collect();
    let cs = pick_corners(&g, &all, 5);
    for &c in &cs[..4] {
        city(&mut g, 0, c);
    }
    settle(&mut g, 0, cs[4]);
    assert_eq!(g.victory_points(0), 9);
    stack_deck(&mut g, DevCard::VictoryPoint);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    let ev = ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.phase, Phase::GameOver { winner: 0 });
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::GameOver { winner: 0, points } if points[0] == 10)));
    check(&g);
}

#[test]
fn one_development_card_per_turn() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::Knight, false);
    give_dev(&mut g, 0, DevCard::Knight, false);
    give_dev(&mut g, 0, DevCard::Monopoly, false);
    give_dev(&mut g, 0, DevCard::YearOfPlenty, false);
    ok(&mut g, 0, Action::PlayKnight);
    let h = empty_hex(&g, true);
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    for a in [
        Action::PlayKnight,
        Action::PlayMonopoly { resource: Ore },
        Action::PlayYearOfPlenty {
            first: Ore,
            second: Ore,
        },
        Action::PlayRoadBuilding,
    ] {
        let err = assert_refused(&mut g, 0, a);
        assert!(matches!(err, RuleError::DevCard { .. }), "{a:?}: {err:?}");
    }
    assert!(!g
        .legal_actions(0)
        .actions
        .iter()
        .any(|a| matches!(a, Action::PlayKnight | Action::PlayMonopoly { .. })));
    // Next turn, another one.
    g.start_turn(0, &mut Vec::new());
    ok(&mut g, 0, Action::PlayMonopoly { resource: Ore });
    assert_refused(&mut g, 0, Action::PlayKnight);
    check(&g);
}

/// Views carry what the event stream told before (and a reconnecting client lost): whether
/// the current player has played a card this turn, and every seat's played cards by kind.
#[test]
fn views_show_this_turns_card_and_cards_played_by_kind() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::Knight, false);
    give_dev(&mut g, 0, DevCard::Monopoly, false);
    let views = |g: &Game| [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)].map(|v| g.view(v));
    for v in views(&g) {
        assert!(!v.development_card_played);
        assert_eq!(v.players[0].played_development_cards.knight, 0);
    }
    ok(&mut g, 0, Action::PlayKnight);
    let h = empty_hex(&g, true);
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    for v in views(&g) {
        assert!(v.development_card_played, "{:?}", v.viewer);
        assert_eq!(v.players[0].played_development_cards.knight, 1);
        assert_eq!(v.players[0].knights_played, 1);
        assert_eq!(v.players[1].played_development_cards.knight, 0);
    }
    // A new turn clears the flag; the counts stay.
    g.start_turn(0, &mut Vec::new());
    main_phase(&mut g);
    assert!(!g.view(Viewer::Spectator).development_card_played);
    ok(&mut g, 0, Action::PlayMonopoly { resource: Ore });
    let v = g.view(Viewer::Seat(2));
    assert!(v.development_card_played);
    let played = v.players[0].played_development_cards;
    assert_eq!((played.knight, played.monopoly, played.victory_point), (1, 1, 0));
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["development_card_played"], true);
    assert_eq!(json["players"][0]["played_development_cards"]["monopoly"], 1);
    check(&g);
}

#[test]
fn knight_before_the_roll_returns_to_the_roll() {
    let mut g = blank(4);
    give_dev(&mut g, 0, DevCard::Knight, false);
    assert_eq!(g.phase, Phase::Roll);
    let ev = ok(&mut g, 0, Action::PlayKnight);
    assert!(ev.contains(&Event::DevelopmentCardPlayed {
        seat: 0,
        card: DevCard::Knight
    }));
    assert_eq!(g.phase, Phase::MoveRobber);
    assert_refused(&mut g, 0, Action::RollDice);
    let h = empty_hex(&g, true);
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    assert_eq!(g.phase, Phase::Roll);
    assert!(!g.rolled);
    assert_refused(&mut g, 0, Action::EndTurn);
    force_roll(&mut g, 2);
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.players[0].knights, 1);
    check(&g);
}

#[test]
fn knight_moves_the_robber_without_discards() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::Knight, false);
    let h = empty_hex(&g, true);
    let at = g.topo.hex_corners[h as usize][0];
    settle(&mut g, 1, at);
    give(&mut g, 1, n_of(Grain, 9));
    let ev = ok(&mut g, 0, Action::PlayKnight);
    assert!(!ev.iter().any(|e| matches!(e, Event::MustDiscard { .. })));
    assert_eq!(g.phase, Phase::MoveRobber);
    assert_refused(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    ok(
        &mut g,
        0,
        Action::MoveRobber {
            hex: h,
            victim: Some(1),
        },
    );
    assert_eq!(hand(&g, 0), one(Grain));
    assert_eq!(hand(&g, 1), n_of(Grain, 8));
    assert_eq!(g.phase, Phase::Main);
    check(&g);
}

/// Seat 0 after the roll with a settlement on an inland corner and a Road Building card.
fn road_building_start() -> (Game, u8) {
    let mut g = blank(4);
    main_phase(&mut g);
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| edges_at(&g, c).len() == 3)
        .unwrap();
    settle(&mut g, 0, c);
    give_dev(&mut g, 0, DevCard::RoadBuilding, false);
    (g, c)
}

#[test]
fn road_building_builds_two_free_roads() {
    let (mut g, c) = road_building_start();
    let bank = g.bank;
    ok(&mut g, 0, Action::PlayRoadBuilding);
    assert_eq!(g.phase, Phase::RoadBuilding { left: 2 });
    assert_refused(&mut g, 0, Action::EndTurn);
    assert_refused(&mut g, 0, Action::BuyDevelopmentCard);
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    // Each road by the normal placement rule: e2 is not connected yet.
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: e2 });
    assert!(matches!(err, RuleError::IllegalPlacement { .. }), "{err:?}");
    ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    assert_eq!(g.phase, Phase::RoadBuilding { left: 1 });
    ok(&mut g, 0, Action::BuildRoad { edge: e2 });
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.bank, bank, "the roads were free");
    assert!(hand(&g, 0).is_empty());
    assert_eq!(g.players[0].roads_left, 13);
    check(&g);
}

#[test]
fn road_building_before_the_roll_returns_to_the_roll() {
    let (mut g, c) = road_building_start();
    g.phase = Phase::Roll;
    g.rolled = false;
    ok(&mut g, 0, Action::PlayRoadBuilding);
    let e1 = edges_at(&g, c)[0];
    let e2 = edges_at(&g, c)[1];
    ok(&mut g, 0, Action::BuildRoad { edge: e1 });
    ok(&mut g, 0, Action::BuildRoad { edge: e2 });
    assert_eq!(g.phase, Phase::Roll);
}

#[test]
fn road_building_with_one_road_left_builds_one() {
    let mut g = blank(4);
    main_phase(&mut g);
    let path = coast_path(&g, 0, 16);
    let at = path_corners(&g, &path)[0];
    settle(&mut g, 0, at);
    roads(&mut g, 0, &path[..14]);
    give_dev(&mut g, 0, DevCard::RoadBuilding, false);
    ok(&mut g, 0, Action::PlayRoadBuilding);
    assert_eq!(g.phase, Phase::RoadBuilding { left: 1 });
    ok(&mut g, 0, Action::BuildRoad { edge: path[14] });
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.players[0].roads_left, 0);
    check(&g);
}

#[test]
fn road_building_with_no_road_left_builds_none() {
    let mut g = blank(4);
    main_phase(&mut g);
    let path = coast_path(&g, 0, 16);
    let at = path_corners(&g, &path)[0];
    settle(&mut g, 0, at);
    roads(&mut g, 0, &path[..15]);
    give_dev(&mut g, 0, DevCard::RoadBuilding, false);
    ok(&mut g, 0, Action::PlayRoadBuilding);
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.players[0].dev[DevCard::RoadBuilding.index()], 0);
    check(&g);
}

#[test]
fn road_building_stops_when_no_legal_spot_is_left() {
    let mut g = blank(4);
    main_phase(&mut g);
    // A coastal corner with two edges: one blocked by seat 1, the other leads to a corner
    // whose further edges are all seat 1's.
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| edges_at(&g, c).len() == 2)
        .unwrap();
    let [ea, eb] = [edges_at(&g, c)[0], edges_at(&g, c)[1]];
    road(&mut g, 1, eb);
    let d = other_end(&g, ea, c);
    for e in edges_at(&g, d).into_iter().filter(|&e| e != ea) {
        road(&mut g, 1, e);
    }
    settle(&mut g, 0, c);
    give_dev(&mut g, 0, DevCard::RoadBuilding, false);
    ok(&mut g, 0, Action::PlayRoadBuilding);
    assert_eq!(g.phase, Phase::RoadBuilding { left: 2 });
    ok(&mut g, 0, Action::BuildRoad { edge: ea });
    assert_eq!(g.phase, Phase::Main, "no legal spot for a second road");
    assert_eq!(g.players[0].roads_left, 14);
    check(&g);
}

#[test]
fn year_of_plenty_takes_only_what_the_bank_holds() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::YearOfPlenty, false);
    drain_bank(&mut g, Ore, 1, 2);
    drain_bank(&mut g, Brick, 0, 2);
    drain_bank(&mut g, Lumber, 0, 2);
    // Neither card of the pair in the bank: the card cannot be played.
    let err = assert_refused(
        &mut g,
        0,
        Action::PlayYearOfPlenty {
            first: Brick,
            second: Lumber,
        },
    );
    assert_eq!(err, RuleError::BankEmpty { resource: Brick });
    let legal = g.legal_actions(0).actions;
    assert!(!legal.contains(&Action::PlayYearOfPlenty {
        first: Brick,
        second: Lumber
    }));
    for (first, second) in [(Grain, Ore), (Ore, Ore), (Brick, Ore)] {
        assert!(legal.contains(&Action::PlayYearOfPlenty { first, second }));
    }
    let mut same = g.clone();
    ok(
        &mut g,
        0,
        Action::PlayYearOfPlenty {
            first: Ore,
            second: Grain,
        },
    );
    assert_eq!(hand(&g, 0), rs(0, 0, 0, 1, 1));
    assert_eq!(g.bank[Ore], 0);
    // The same resource twice is allowed.
    ok(
        &mut same,
        0,
        Action::PlayYearOfPlenty {
            first: Wool,
            second: Wool,
        },
    );
    assert_eq!(hand(&same, 0), n_of(Wool, 2));
    check(&g);
    check(&same);
}

/// base.md, Decision: when the bank cannot supply the pair a player wants, they may take a
/// single card instead; the card is then played.
#[test]
fn year_of_plenty_takes_a_single_card_when_the_bank_cannot_supply_the_pair() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::YearOfPlenty, false);
    drain_bank(&mut g, Ore, 1, 2);
    drain_bank(&mut g, Brick, 0, 2);
    for (first, second) in [(Ore, Ore), (Brick, Ore), (Ore, Brick)] {
        let mut h = g.clone();
        let ev = ok(&mut h, 0, Action::PlayYearOfPlenty { first, second });
        assert_eq!(hand(&h, 0), one(Ore), "{first:?}+{second:?}");
        assert!(ev.contains(&Event::YearOfPlenty {
            seat: 0,
            cards: one(Ore)
        }));
        // The card is played: gone from the hand, counted, and the turn's one card.
        assert!(ev.contains(&Event::DevelopmentCardPlayed {
            seat: 0,
            card: DevCard::YearOfPlenty
        }));
        assert_eq!(h.players[0].dev[DevCard::YearOfPlenty.index()], 0);
        assert_eq!(h.players[0].played[DevCard::YearOfPlenty.index()], 1);
        assert!(h.dev_played);
        check(&h);
    }
}

/// base.md, Decision: with one card left in the whole bank, that card.
#[test]
fn year_of_plenty_with_one_card_left_in_the_bank_takes_that_card() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::YearOfPlenty, false);
    for r in [Brick, Lumber, Wool, Ore] {
        drain_bank(&mut g, r, 0, 2);
    }
    drain_bank(&mut g, Grain, 1, 3);
    assert_eq!(g.bank.total(), 1);
    let legal: Vec<Action> = g
        .legal_actions(0)
        .actions
        .into_iter()
        .filter(|a| matches!(a, Action::PlayYearOfPlenty { .. }))
        .collect();
    // Every listed pair names the grain, and each takes that one card.
    assert_eq!(legal.len(), 5);
    for a in legal {
        let mut h = g.clone();
        ok(&mut h, 0, a);
        assert_eq!(hand(&h, 0), one(Grain), "{a:?}");
        assert!(h.bank.is_empty());
        check(&h);
    }
    // The bank empty: nothing to take, the card stays in hand.
    drain_bank(&mut g, Grain, 0, 3);
    let err = assert_refused(
        &mut g,
        0,
        Action::PlayYearOfPlenty {
            first: Grain,
            second: Grain,
        },
    );
    assert_eq!(err, RuleError::BankEmpty { resource: Grain });
    assert!(!g
        .legal_actions(0)
        .actions
        .iter()
        .any(|a| matches!(a, Action::PlayYearOfPlenty { .. })));
}

#[test]
fn monopoly_takes_all_of_one_resource_from_every_other_player() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 0, DevCard::Monopoly, false);
    give(&mut g, 0, rs(0, 0, 1, 0, 0));
    give(&mut g, 1, rs(1, 0, 3, 0, 1));
    give(&mut g, 2, rs(0, 0, 2, 0, 0));
    give(&mut g, 3, rs(0, 4, 0, 0, 0));
    let ev = ok(&mut g, 0, Action::PlayMonopoly { resource: Wool });
    // One entry per seat of this 4-player game.
    let taken = ev.iter().find_map(|e| match e {
        Event::Monopoly {
            seat: 0,
            resource: Wool,
            taken,
        } => Some(*taken),
        _ => None,
    });
    assert_eq!(taken.expect("a monopoly event"), [0, 3, 2, 0]);
    assert_eq!(hand(&g, 0), n_of(Wool, 6));
    assert_eq!(hand(&g, 1), rs(1, 0, 0, 0, 1));
    assert_eq!(hand(&g, 2), ResourceSet::EMPTY);
    assert_eq!(hand(&g, 3), n_of(Lumber, 4));
    check(&g);
}

#[test]
fn cards_not_held_or_out_of_turn_are_refused() {
    let mut g = blank(4);
    main_phase(&mut g);
    give_dev(&mut g, 1, DevCard::Knight, false);
    let err = assert_refused(&mut g, 0, Action::PlayKnight);
    assert!(matches!(err, RuleError::DevCard { .. }), "{err:?}");
    let err = assert_refused(&mut g, 1, Action::PlayKnight);
    assert!(matches!(err, RuleError::NotYourTurn { .. }), "{err:?}");
    // A VP card is never played.
    give_dev(&mut g, 0, DevCard::VictoryPoint, false);
    assert!(!g.legal_actions(0).actions.iter().any(|a| matches!(
        a,
        Action::PlayKnight
            | Action::PlayRoadBuilding
            | Action::PlayMonopoly { .. }
            | Action::PlayYearOfPlenty { .. }
    )));
}

/// Gives every deck card but `leave` to `sink`.
fn drain_deck(g: &mut Game, sink: Seat, leave: u8) {
    while g.deck_len > leave {
        let c = g.deck[g.deck_len as usize - 1];
        give_dev(g, sink, c, false);
    }
}

#[test]
fn the_26th_card_cannot_be_bought() {
    let mut g = blank(4);
    main_phase(&mut g);
    drain_deck(&mut g, 3, 1);
    give(&mut g, 0, times(ResourceSet::DEV_CARD, 2));
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.deck_len, 0);
    let err = assert_refused(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(err, RuleError::DeckEmpty);
    assert!(!g.legal_actions(0).actions.contains(&Action::BuyDevelopmentCard));
    let total: u32 = (0..4).map(|s| g.players[s].dev_total()).sum();
    assert_eq!(total, 25);
    check(&g);
}

#[test]
fn five_six_deck_has_34_cards_and_no_35th() {
    let mut g = blank(5);
    assert_eq!(g.board.layout, Layout::FiveSix);
    assert_eq!(g.deck_len, 34);
    assert_eq!(count_deck(&g), [20, 5, 3, 3, 3]);
    main_phase(&mut g);
    drain_deck(&mut g, 4, 1);
    give(&mut g, 0, times(ResourceSet::DEV_CARD, 2));
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    let err = assert_refused(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(err, RuleError::DeckEmpty);
    let total: u32 = (0..5).map(|s| g.players[s].dev_total()).sum();
    assert_eq!(total, 34);
    check(&g);
}
