//! Paired Players (`five-six.md`, "Paired players"; `crate::paired`): each rule of the
//! spec and each decision the engine makes where it is silent.

use super::*;
use crate::action::{Requirement, SeatSet};
use crate::config::FiveSixTurns;
use crate::paired::PairedPart;
use crate::view::Viewer;

fn paired(players: u8) -> GameConfig {
    GameConfig {
        five_six_turns: Some(FiveSixTurns::Paired),
        ..GameConfig::with_players(players)
    }
}

/// A paired game past set-up, empty board, `seat` in the main phase of its turn.
fn paired_turn(players: u8, seat: Seat) -> Game {
    let mut g = blank_with(paired(players), 7);
    turn_of(&mut g, seat);
    g
}

/// `player_1`'s turn has reached player 2's part.
fn part(players: u8, player_1: Seat) -> Game {
    let mut g = paired_turn(players, player_1);
    ok(&mut g, player_1, Action::EndTurn);
    g
}

fn only(seat: Seat) -> SeatSet {
    let mut s = SeatSet::EMPTY;
    s.insert(seat);
    s
}

/// Decision: `five_six_turns: "paired"` needs 5 or 6 players and is an alternative to the
/// Special Building Phase (the default for 5–6 stays the SBP).
#[test]
fn paired_option_needs_five_or_six_players_and_replaces_the_special_building_phase() {
    for n in [3, 4] {
        let e = paired(n).validate().unwrap_err().to_string();
        assert!(e.contains("needs 5 or 6 players"), "{e}");
    }
    for n in [5, 6] {
        let c = paired(n);
        c.validate().unwrap();
        assert!(c.paired_players());
        assert!(!c.special_building());
        assert!(
            GameConfig::with_players(n).special_building(),
            "the SBP stays the default"
        );
        assert!(!GameConfig::with_players(n).paired_players());
        let both = GameConfig {
            special_building: Some(true),
            ..c
        };
        let e = both.validate().unwrap_err().to_string();
        assert!(e.contains("replaces the Special Building Phase"), "{e}");
        GameConfig {
            special_building: Some(false),
            ..c
        }
        .validate()
        .unwrap();
        let sbp = GameConfig {
            five_six_turns: Some(FiveSixTurns::SpecialBuilding),
            ..GameConfig::with_players(n)
        };
        assert!(sbp.special_building() && !sbp.paired_players());
        let e = GameConfig {
            special_building: Some(false),
            ..sbp
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("contradicts"), "{e}");
    }
    let json: GameConfig = serde_json::from_str(r#"{"players":6,"five_six_turns":"paired"}"#).unwrap();
    assert_eq!(json, paired(6));
}

/// Player 2 is the third seat to the left of player 1; player 1's turn ends into player
/// 2's part of the same turn (no Special Building Phase).
#[test]
fn player_2_is_the_third_seat_to_the_left() {
    for n in [5u8, 6] {
        for p1 in 0..n {
            let mut g = paired_turn(n, p1);
            let turn = g.turn;
            let ev = ok(&mut g, p1, Action::EndTurn);
            let p2 = (p1 + 3) % n;
            assert_eq!(g.paired_partner(p1), p2);
            assert_eq!(
                ev,
                vec![
                    Event::TurnEnded { seat: p1 },
                    Event::PairedTurn {
                        seat: p2,
                        partner: p1
                    }
                ]
            );
            assert_eq!((g.phase, g.current, g.turn), (Phase::Main, p2, turn));
            assert_eq!(
                g.paired_part(),
                Some(PairedPart {
                    player_1: p1,
                    player_2: p2
                })
            );
            assert_eq!(g.waiting_on(), only(p2));
            for other in (0..n).filter(|&s| s != p2) {
                assert!(g.legal_actions(other).is_empty());
                let e = assert_refused(&mut g, other, Action::EndTurn);
                assert!(matches!(e, RuleError::NotYourTurn { .. }), "{e:?}");
            }
            check(&g);
        }
    }
}

/// Then play passes one seat to the left (of player 1): every seat is player 1 once and
/// player 2 once a round.
#[test]
fn play_passes_one_seat_to_the_left_of_player_1() {
    for n in [5u8, 6] {
        let mut g = paired_turn(n, 0);
        let mut pairs = Vec::new();
        for _ in 0..n {
            let p1 = g.current;
            let turn = g.turn;
            ok(&mut g, p1, Action::EndTurn);
            let p2 = g.current;
            pairs.push((p1, p2));
            let ev = ok(&mut g, p2, Action::EndTurn);
            assert_eq!(
                ev,
                vec![Event::TurnStarted {
                    seat: (p1 + 1) % n,
                    turn: turn + 1
                }]
            );
            assert_eq!(
                (g.phase, g.current, g.paired_part()),
                (Phase::Roll, (p1 + 1) % n, None)
            );
            main_phase(&mut g);
        }
        let expected: Vec<(Seat, Seat)> = (0..n).map(|s| (s, (s + 3) % n)).collect();
        assert_eq!(pairs, expected, "{n} players");
        let mut seconds: Vec<Seat> = pairs.iter().map(|p| p.1).collect();
        seconds.sort();
        assert_eq!(seconds, (0..n).collect::<Vec<_>>());
    }
}

/// Player 2 may build, buy and trade with the bank in their part.
#[test]
fn player_2_may_build_buy_and_trade_with_the_bank() {
    let mut g = part(5, 0);
    let p2 = 3;
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| edges_at(&g, c).len() == 3)
        .unwrap();
    settle(&mut g, p2, c);
    let e1 = edges_at(&g, c)[0];
    let d = other_end(&g, e1, c);
    let e2 = edges_at(&g, d).into_iter().find(|&e| e != e1).unwrap();
    let x = other_end(&g, e2, d);
    give(&mut g, p2, times(ResourceSet::ROAD, 2));
    give(&mut g, p2, ResourceSet::SETTLEMENT);
    give(&mut g, p2, ResourceSet::CITY);
    give(&mut g, p2, ResourceSet::DEV_CARD);
    give(&mut g, p2, n_of(Wool, 4));
    let legal = g.legal_actions(p2).actions;
    for a in [
        Action::BuildRoad { edge: e1 },
        Action::BuildCity { corner: c },
        Action::BuyDevelopmentCard,
        Action::MaritimeTrade { give: Wool, get: Ore },
        Action::EndTurn,
    ] {
        assert!(legal.contains(&a), "{a:?} not listed");
    }
    ok(&mut g, p2, Action::MaritimeTrade { give: Wool, get: Ore });
    ok(&mut g, p2, Action::BuildRoad { edge: e1 });
    ok(&mut g, p2, Action::BuildRoad { edge: e2 });
    ok(&mut g, p2, Action::BuildSettlement { corner: x });
    ok(&mut g, p2, Action::BuildCity { corner: c });
    ok(&mut g, p2, Action::BuyDevelopmentCard);
    assert_eq!(hand(&g, p2), one(Ore));
    assert_eq!(g.paired_part().map(|p| p.player_2), Some(p2));
    check(&g);
}

/// …but not trade with other players (no offers; nothing to answer).
#[test]
fn player_2_may_not_trade_with_other_players() {
    let mut g = part(6, 2);
    let p2 = 5;
    give(&mut g, p2, rs(1, 1, 1, 1, 1));
    give(&mut g, 0, rs(1, 1, 1, 1, 1));
    let offer = Action::OfferTrade {
        give: one(Brick),
        get: one(Ore),
        to: SeatSet::EMPTY,
        give_gold: 0,
        get_gold: 0,
    };
    let e = assert_refused(&mut g, p2, offer);
    assert!(e.to_string().contains("only with the bank"), "{e}");
    let legal = g.legal_actions(p2);
    assert!(legal.requirements.is_empty(), "{:?}", legal.requirements);
    assert!(!legal
        .actions
        .iter()
        .any(|a| matches!(a, Action::ConfirmTrade { .. } | Action::CancelTrade)));
    assert_refused(&mut g, 0, Action::AcceptTrade);
    // Player 1, in their own part, trades as usual.
    let mut g = paired_turn(6, 2);
    give(&mut g, 2, one(Brick));
    ok(
        &mut g,
        2,
        Action::OfferTrade {
            give: one(Brick),
            get: one(Ore),
            to: SeatSet::EMPTY,
            give_gold: 0,
            get_gold: 0,
        },
    );
    // An offer still open when player 1 ends the turn is withdrawn.
    ok(&mut g, 2, Action::EndTurn);
    assert!(g.offer.is_none());
    assert_refused(&mut g, 0, Action::AcceptTrade);
}

/// There is no roll in the part (only player 1 rolls): no roll, no discards, and no card
/// "before the roll".
#[test]
fn only_player_1_rolls() {
    let mut g = part(5, 1);
    let p2 = 4;
    assert_eq!(g.dice, Some([1, 2]), "the dice stay as player 1 rolled them");
    let e = assert_refused(&mut g, p2, Action::RollDice);
    assert!(matches!(e, RuleError::WrongPhase { .. }), "{e:?}");
    assert!(!g.legal_actions(p2).actions.contains(&Action::RollDice));
}

/// Decision: the part is player 2's own turn for the one-card limit: one card, whatever
/// player 1 played; a Knight moves the robber and the part goes on.
#[test]
fn player_2_plays_one_development_card_whatever_player_1_played() {
    let mut g = paired_turn(5, 0);
    give_dev(&mut g, 0, DevCard::Knight, false);
    give_dev(&mut g, 3, DevCard::Knight, false);
    give_dev(&mut g, 3, DevCard::Monopoly, false);
    ok(&mut g, 0, Action::PlayKnight);
    let h = empty_hex(&g, true);
    ok(&mut g, 0, Action::MoveRobber { hex: h, victim: None });
    assert!(g.dev_played);
    ok(&mut g, 0, Action::EndTurn);
    assert!(!g.dev_played);
    assert!(!g.view(Viewer::Spectator).development_card_played);
    assert!(g.legal_actions(3).actions.contains(&Action::PlayKnight));
    // A Knight in the part: the robber moves, then the part goes on.
    ok(&mut g, 3, Action::PlayKnight);
    assert_eq!((g.phase, g.current), (Phase::MoveRobber, 3));
    assert_eq!(g.waiting_on(), only(3));
    let h2 = empty_hex(&g, true);
    ok(
        &mut g,
        3,
        Action::MoveRobber {
            hex: h2,
            victim: None,
        },
    );
    assert_eq!((g.phase, g.current, g.robber), (Phase::Main, 3, h2));
    assert_eq!(g.players[3].knights, 1);
    // One card only in the part.
    let e = assert_refused(&mut g, 3, Action::PlayMonopoly { resource: Ore });
    assert!(matches!(e, RuleError::DevCard { .. }), "{e:?}");
    assert!(g.view(Viewer::Spectator).development_card_played);
    check(&g);
}

/// Road Building in the part: two free roads, then back to the part.
#[test]
fn road_building_in_the_part_returns_to_the_part() {
    let mut g = part(6, 0);
    let c = (0..g.topo.corner_count() as u8)
        .find(|&c| edges_at(&g, c).len() == 3)
        .unwrap();
    settle(&mut g, 3, c);
    give_dev(&mut g, 3, DevCard::RoadBuilding, false);
    ok(&mut g, 3, Action::PlayRoadBuilding);
    assert_eq!(g.phase, Phase::RoadBuilding { left: 2 });
    let e1 = edges_at(&g, c)[0];
    let e2 = edges_at(&g, c)[1];
    ok(&mut g, 3, Action::BuildRoad { edge: e1 });
    ok(&mut g, 3, Action::BuildRoad { edge: e2 });
    assert_eq!((g.phase, g.current, g.paired), (Phase::Main, 3, Some(0)));
    check(&g);
}

/// Decision: a card bought in the part counts as bought this turn (not playable in the
/// part) and is playable from player 2's next turn; the part's card does not use up their
/// own turn's.
#[test]
fn cards_bought_in_the_part_wait_and_the_parts_card_is_not_the_next_turns() {
    let mut g = part(5, 0);
    give(&mut g, 3, times(ResourceSet::DEV_CARD, 1));
    stack_deck(&mut g, DevCard::Knight);
    ok(&mut g, 3, Action::BuyDevelopmentCard);
    let e = assert_refused(&mut g, 3, Action::PlayKnight);
    assert!(e.to_string().contains("turn it was bought"), "{e}");
    give_dev(&mut g, 3, DevCard::Monopoly, false);
    ok(&mut g, 3, Action::PlayMonopoly { resource: Wool });
    // On to player 3's own turn (turns of 1 and 2 pass first).
    ok(&mut g, 3, Action::EndTurn);
    while g.current != 3 || g.paired.is_some() {
        main_phase(&mut g);
        let s = g.current;
        ok(&mut g, s, Action::EndTurn);
    }
    assert_eq!(g.phase, Phase::Roll);
    assert!(!g.dev_played);
    ok(&mut g, 3, Action::PlayKnight);
    check(&g);
}

/// Decision: player 2 wins the moment they have the target during the part…
#[test]
fn player_2_may_win_during_the_part() {
    let mut g = part(5, 0);
    let corners = spare_corners(&g, 5);
    for &c in &corners[..4] {
        city(&mut g, 3, c);
    }
    settle(&mut g, 3, corners[4]);
    assert_eq!(g.victory_points(3), 9);
    // A Victory Point card bought in the part counts at once.
    give(&mut g, 3, ResourceSet::DEV_CARD);
    stack_deck(&mut g, DevCard::VictoryPoint);
    let ev = ok(&mut g, 3, Action::BuyDevelopmentCard);
    assert!(
        matches!(ev.last(), Some(Event::GameOver { winner: 3, .. })),
        "{ev:?}"
    );
    assert_eq!(g.winner(), Some(3));
    check(&g);
}

/// …including at its start, with points gained during player 1's part; player 1 does
/// not win during player 2's part.
#[test]
fn player_2_wins_at_the_start_of_the_part_and_player_1_not_in_it() {
    let mut g = paired_turn(6, 1);
    let corners = spare_corners(&g, 5);
    for &c in &corners[..4] {
        city(&mut g, 4, c);
    }
    settle(&mut g, 4, corners[4]);
    vp_cards(&mut g, 4, 1);
    assert_eq!(g.victory_points(4), 10);
    // Not player 4's turn: nobody wins while player 1 acts.
    give(&mut g, 1, n_of(Brick, 4));
    ok(
        &mut g,
        1,
        Action::MaritimeTrade {
            give: Brick,
            get: Ore,
        },
    );
    assert!(!g.is_over());
    let ev = ok(&mut g, 1, Action::EndTurn);
    assert!(ev.contains(&Event::PairedTurn { seat: 4, partner: 1 }), "{ev:?}");
    assert_eq!(g.winner(), Some(4));

    // Player 1 at the target during player 2's part: the game goes on.
    let mut g = part(6, 1);
    let corners = spare_corners(&g, 5);
    for &c in &corners[..4] {
        city(&mut g, 1, c);
    }
    settle(&mut g, 1, corners[4]);
    vp_cards(&mut g, 1, 1);
    give(&mut g, 4, n_of(Wool, 4));
    ok(&mut g, 4, Action::MaritimeTrade { give: Wool, get: Ore });
    assert!(!g.is_over());
    ok(&mut g, 4, Action::EndTurn);
    assert!(!g.is_over());
    assert_eq!(g.current, 2);
}

/// With paired turns there is no Special Building Phase, for 5 and 6 players.
#[test]
fn no_special_building_phase_with_paired_turns() {
    for n in [5, 6] {
        let mut g = paired_turn(n, 0);
        let ev = ok(&mut g, 0, Action::EndTurn);
        assert!(!ev.iter().any(|e| matches!(e, Event::SpecialBuildTurn { .. })));
        let ev = ok(&mut g, 3, Action::EndTurn);
        assert!(!ev.iter().any(|e| matches!(e, Event::SpecialBuildTurn { .. })));
        assert_eq!((g.phase, g.current), (Phase::Roll, 1));
    }
}

/// Views name both players of the part; `current` is player 2.
#[test]
fn views_show_the_paired_part() {
    let mut g = paired_turn(5, 2);
    assert_eq!(g.view(Viewer::Spectator).paired, None);
    ok(&mut g, 2, Action::EndTurn);
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(2)] {
        let v = g.view(viewer);
        assert_eq!(
            v.paired,
            Some(PairedPart {
                player_1: 2,
                player_2: 0
            })
        );
        assert_eq!(v.current, 0);
        assert_eq!(v.phase, Phase::Main);
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["paired"], serde_json::json!({"player_1": 2, "player_2": 0}));
    }
    assert!(!g.view(Viewer::Seat(0)).legal.actions.is_empty());
    assert!(g.view(Viewer::Seat(2)).legal.is_empty());
}

/// A whole paired game plays to a winner with every invariant holding and replays exactly.
#[test]
fn a_paired_game_plays_out_and_replays() {
    for (n, seed) in [(5, 11), (6, 12)] {
        let config = paired(n);
        let mut g = Game::new(config, seed).unwrap();
        let mut rng = Rng::new(seed);
        let mut log = Vec::new();
        let mut parts = 0;
        while !g.is_over() {
            assert!(g.turn < 3000);
            let seat = g.next_actor().unwrap();
            let legal = g.legal_actions(seat);
            let a = if legal.actions.is_empty() {
                let Some(Requirement::Discard { count }) = legal.requirements.first().copied() else {
                    panic!("{:?}", legal)
                };
                let mut cards = ResourceSet::EMPTY;
                let mut h = g.players[seat as usize].hand;
                for _ in 0..count {
                    let r = h.nth_card(rng.below(h.total()));
                    h[r] -= 1;
                    cards[r] += 1;
                }
                Action::Discard { cards }
            } else {
                legal.actions[rng.below(legal.actions.len() as u32) as usize]
            };
            let ev = ok(&mut g, seat, a);
            parts += ev
                .iter()
                .filter(|e| matches!(e, Event::PairedTurn { .. }))
                .count();
            log.push((seat, a));
            check(&g);
        }
        assert!(parts > 10, "{parts} paired parts");
        assert_eq!(Game::replay(config, seed, &log).unwrap(), g);
    }
}
