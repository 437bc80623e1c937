//! Unit tests for Barbarian Invasion: each rule and Decision of barbarians.md, and the
//! edge cases issue 10 names.

use super::{
    castle_of, BarbariansAction as BA, BarbariansEvent as BE, BarbariansPhase as BP, Card, BARBARIANS,
    COASTAL_TOKENS, DECK, KNIGHTS,
};
use crate::action::{Action, Seat};
use crate::board::{red_adjacent, HarborKind, Terrain};
use crate::config::{GameConfig, Scenario};
use crate::event::Event;
use crate::game::{bit, bits, Game, Phase};
use crate::resources::ResourceSet;
use crate::rng::Rng;
use crate::tests::{
    assert_refused, blank_with, check, city, clear_hand, give, hexes_at, main_phase, n_of, ok, one, road,
    settle, Brick, Grain, Lumber, Ore, Wool,
};
use crate::view::Viewer;

fn config(players: u8) -> GameConfig {
    GameConfig::with_scenario(players, Some(Scenario::Barbarians))
}

/// A game past set-up with no pieces on the board, seat 0 in its main phase.
fn blank(seed: u64) -> Game {
    let mut g = blank_with(config(4), seed);
    main_phase(&mut g);
    g
}

fn ba(a: BA) -> Action {
    Action::Barbarians(a)
}

fn barb_events(ev: &[Event]) -> Vec<BE> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Barbarians(b) => Some(b.clone()),
            _ => None,
        })
        .collect()
}

/// Sets the barbarians on `hex` to `count`, taking from or returning to the supply.
fn set_barbarians(g: &mut Game, hex: u8, count: u8) {
    let b = g.bs_mut();
    let have = b.barbarians[hex as usize];
    b.supply = b.supply + have - count;
    b.barbarians[hex as usize] = count;
    g.barbarians_recompute_harbors();
    check(g);
}

/// Puts a knight of `seat` on `edge` from its supply.
fn knight(g: &mut Game, seat: Seat, edge: u8) {
    let b = g.bs_mut();
    assert_eq!(b.all_knights() & bit(edge), 0, "edge {edge} holds a knight");
    b.knights[seat as usize] |= bit(edge);
    b.knights_left[seat as usize] -= 1;
}

/// The next card bought will be `card`.
fn stack(g: &mut Game, card: Card) {
    stack_at(g, card, 0);
}

/// The card bought after `depth` others will be `card` (stack the deepest first).
fn stack_at(g: &mut Game, card: Card, depth: usize) {
    let b = g.bs_mut();
    let at = b.deck_len as usize - 1 - depth;
    let i = b.deck[..=at]
        .iter()
        .rposition(|&c| c == card)
        .expect("card in deck");
    b.deck.swap(i, at);
}

fn coastal(g: &Game) -> [u8; 10] {
    g.bs().coastal
}

/// A corner whose land hexes are all coastal (so it can be conquered), with `filter`.
fn coastal_corner(g: &Game, filter: impl Fn(&Game, u8) -> bool) -> u8 {
    let c = coastal(g);
    (0..g.topo.corner_count() as u8)
        .find(|&k| hexes_at(g, k).iter().all(|h| c.contains(h)) && filter(g, k))
        .expect("such a corner")
}

/// Finds an RNG state for which `f` (run on a clone) returns true, and applies it.
fn with_rng(g: &mut Game, f: impl Fn(&mut Game) -> bool) {
    for k in 0..20_000u64 {
        let mut c = g.clone();
        c.rng = Rng::new(k);
        if f(&mut c) {
            g.rng = Rng::new(k);
            return;
        }
    }
    panic!("no RNG state found");
}

// ----- the board ------------------------------------------------------------------------

#[test]
fn board_has_fixed_coastal_tokens_castle_and_desert_opposite_and_no_adjacent_reds() {
    for seed in 0..30 {
        let g = Game::new(config(4), seed).unwrap();
        let (castle, desert, coast) = castle_of(&g.board).expect("a castle board");
        let topo = g.topo;
        let ring = &topo.rings[0];
        let pos = |h: u8| ring.iter().position(|&x| x == h).unwrap();
        // Castle and desert: opposite corner hexes of the outer ring.
        assert!(topo.spiral_starts.contains(&castle) && topo.spiral_starts.contains(&desert));
        assert_eq!((pos(castle) + 6) % 12, pos(desert));
        // Coastal tokens fixed clockwise from the castle (the Decision's list).
        let tokens: Vec<u8> = coast.iter().map(|&h| g.board.token[h as usize]).collect();
        assert_eq!(tokens, COASTAL_TOKENS);
        assert_eq!(tokens, [4, 10, 6, 3, 9, 11, 5, 8, 2, 12]);
        for (i, &h) in coast.iter().enumerate() {
            let k = if i < 5 { i + 1 } else { i + 2 };
            assert_eq!(pos(h), (pos(castle) + k) % 12, "coastal position {k}");
        }
        // Terrain counts: coastal and inner.
        let count = |hexes: &[u8], t: Terrain| {
            hexes
                .iter()
                .filter(|&&h| g.board.terrain[h as usize] == t)
                .count()
        };
        let inner: Vec<u8> = (0..19u8).filter(|h| !ring.contains(h)).collect();
        assert_eq!(
            [
                Terrain::Forest,
                Terrain::Hills,
                Terrain::Pasture,
                Terrain::Mountains,
                Terrain::Fields
            ]
            .map(|t| count(&coast, t)),
            [2, 2, 3, 1, 2]
        );
        assert_eq!(
            [
                Terrain::Forest,
                Terrain::Pasture,
                Terrain::Hills,
                Terrain::Mountains,
                Terrain::Fields
            ]
            .map(|t| count(&inner, t)),
            [1, 1, 1, 2, 2]
        );
        let mut inner_tokens: Vec<u8> = inner.iter().map(|&h| g.board.token[h as usize]).collect();
        inner_tokens.sort();
        assert_eq!(inner_tokens, [4, 5, 6, 8, 9, 10, 11]);
        assert!(!red_adjacent(topo, &g.board.token));
        assert_eq!(g.board.token[castle as usize], 0);
        assert_eq!(g.board.token[desert as usize], 0);
        assert_eq!(
            g.board.harbors[..9]
                .iter()
                .filter(|&&k| k == HarborKind::Generic)
                .count(),
            4
        );
        // The two opening barbarians.
        let b = g.bs();
        assert_eq!(b.barbarians[b.coastal_hex(&g.board, 2) as usize], 1);
        assert_eq!(b.barbarians[b.coastal_hex(&g.board, 12) as usize], 1);
        assert_eq!(b.on_board(), 2);
        assert_eq!(b.supply, BARBARIANS - 2);
        check(&g);
    }
}

#[test]
fn config_plays_to_12_with_3_or_4_players_only() {
    assert_eq!(config(4).victory_points, 12);
    assert!(config(3).validate().is_ok());
    assert!(config(5).validate().is_err());
    let mut c = config(4);
    c.special_building = Some(true);
    assert!(c.validate().is_err());
}

// ----- set-up ----------------------------------------------------------------------------

#[test]
fn setup_second_building_is_a_city_yielding_one_per_hex_and_no_barbarians_land() {
    let mut g = Game::new(config(3), 11).unwrap();
    let mut round = 0;
    while matches!(g.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
        let seat = g.setup_seat();
        let second = g.setup_index >= g.n;
        let a = g.legal_actions(seat).actions[0];
        let ev = ok(&mut g, seat, a);
        if let Action::BuildSettlement { corner } = a {
            round += 1;
            assert_eq!(g.is_city(corner), second, "second building is a city");
            if second {
                let producing = hexes_at(&g, corner)
                    .iter()
                    .filter(|&&h| g.board.terrain[h as usize].resource().is_some())
                    .count() as u32;
                let got = ev.iter().find_map(|e| match e {
                    Event::StartingResources { cards, .. } => Some(cards.total()),
                    _ => None,
                });
                assert_eq!(got.unwrap_or(0), producing);
            }
        }
        assert!(
            barb_events(&ev).is_empty(),
            "Decision: no barbarians land during set-up"
        );
    }
    assert_eq!(round, 6);
    assert_eq!(g.bs().supply, BARBARIANS - 2);
    for s in 0..3 {
        assert_eq!(g.public_victory_points(s), 3);
    }
    check(&g);
}

// ----- landings --------------------------------------------------------------------------

#[test]
fn a_settlement_lands_three_barbarians_on_three_different_numbers() {
    let mut g = blank(3);
    let c = coastal_corner(&g, |_, _| true);
    let e = g.topo.corner_edges[c as usize][0];
    road(&mut g, 0, e);
    give(&mut g, 0, ResourceSet::SETTLEMENT);
    let ev = ok(&mut g, 0, Action::BuildSettlement { corner: c });
    let landings: Vec<(u8, bool)> = barb_events(&ev)
        .into_iter()
        .filter_map(|e| match e {
            BE::BarbarianLanding { number, landed, .. } => Some((number, landed)),
            _ => None,
        })
        .collect();
    assert_eq!(landings.len(), 3);
    let mut numbers: Vec<u8> = landings.iter().map(|l| l.0).collect();
    numbers.dedup();
    assert_eq!(numbers.len(), 3);
    assert!(numbers.iter().all(|&n| n != 7 && (2..=12).contains(&n)));
    let landed = landings.iter().filter(|l| l.1).count() as u8;
    assert_eq!(g.bs().supply, BARBARIANS - 2 - landed);
    check(&g);
}

#[test]
fn a_landing_on_a_hex_with_three_places_nothing_and_is_not_rerolled() {
    let mut g = blank(4);
    // Eight coastal hexes full: most rolls name one of them.
    for &h in &coastal(&g)[..8] {
        set_barbarians(&mut g, h, 3);
    }
    let supply = g.bs().supply;
    let before = g.bs().barbarians;
    let mut ev = Vec::new();
    g.barbarians_land(&mut ev);
    let landings: Vec<(u8, u8, bool)> = barb_events(&ev)
        .into_iter()
        .filter_map(|e| match e {
            BE::BarbarianLanding { number, hex, landed } => Some((number, hex, landed)),
            _ => None,
        })
        .collect();
    assert_eq!(landings.len(), 3, "exactly three numbers, no re-roll");
    let mut placed = 0;
    for (_, hex, landed) in landings {
        assert_eq!(landed, before[hex as usize] < 3);
        placed += landed as u8;
    }
    assert_eq!(g.bs().supply, supply - placed);
    check(&g);
}

#[test]
fn no_barbarian_lands_once_the_supply_is_empty() {
    let mut g = blank(5);
    let c = coastal(&g);
    // 30 barbarians: 2 on each coastal hex (20) and 10 prisoners.
    for &h in &c {
        set_barbarians(&mut g, h, 2);
    }
    let b = g.bs_mut();
    b.prisoners[1] = b.supply;
    b.supply = 0;
    check(&g);
    let mut ev = Vec::new();
    g.barbarians_land(&mut ev);
    assert!(barb_events(&ev)
        .iter()
        .all(|e| !matches!(e, BE::BarbarianLanding { landed: true, .. })));
    assert!(c.iter().all(|&h| g.bs().barbarians[h as usize] == 2));
    check(&g);
}

// ----- conquest ----------------------------------------------------------------------------

#[test]
fn a_conquered_hex_produces_nothing_and_forbids_settlements_and_roads() {
    let mut g = blank(6);
    let hex = coastal(&g)[0];
    let number = g.board.token[hex as usize];
    // A corner of the hex touching no other hex with the same number.
    let corner = g.topo.hex_corners[hex as usize]
        .iter()
        .copied()
        .find(|&c| {
            hexes_at(&g, c)
                .iter()
                .all(|&h| h == hex || g.board.token[h as usize] != number)
        })
        .unwrap();
    settle(&mut g, 1, corner);
    set_barbarians(&mut g, hex, 3);
    assert!(g.bs().is_conquered(hex));
    let owed_before = g.players[1].hand;
    let mut ev = Vec::new();
    g.produce(number, &mut ev);
    assert_eq!(g.players[1].hand, owed_before, "a conquered hex produces nothing");
    set_barbarians(&mut g, hex, 2);
    g.produce(number, &mut ev);
    assert_eq!(
        g.players[1].hand.total(),
        owed_before.total() + 1,
        "freed, it produces again"
    );
    // Settlements and roads.
    set_barbarians(&mut g, hex, 3);
    let other = g.topo.hex_corners[hex as usize]
        .iter()
        .copied()
        .find(|&c| g.blocked & bit(c) == 0)
        .unwrap();
    let e = g.topo.corner_edges[other as usize]
        .iter()
        .copied()
        .find(|&e| e != crate::board::NONE && !g.topo.hex_edges[hex as usize].contains(&e))
        .unwrap();
    road(&mut g, 0, e);
    give(&mut g, 0, ResourceSet::SETTLEMENT);
    let err = assert_refused(&mut g, 0, Action::BuildSettlement { corner: other });
    assert!(err.to_string().contains("conquered"), "{err}");
    assert!(!g
        .legal_actions(0)
        .actions
        .contains(&Action::BuildSettlement { corner: other }));
    let path = g.topo.corner_edges[other as usize]
        .iter()
        .copied()
        .find(|&p| p != crate::board::NONE && g.topo.hex_edges[hex as usize].contains(&p))
        .unwrap();
    give(&mut g, 0, ResourceSet::ROAD);
    let err = assert_refused(&mut g, 0, Action::BuildRoad { edge: path });
    assert!(err.to_string().contains("conquered"), "{err}");
    assert!(!g
        .legal_actions(0)
        .actions
        .contains(&Action::BuildRoad { edge: path }));
}

#[test]
fn a_conquered_settlement_scores_nothing_loses_its_harbor_and_cannot_upgrade_until_freed() {
    let mut g = blank(7);
    // A harbor corner whose land hexes are all coastal.
    let corner = coastal_corner(&g, |g, c| g.board.harbor_at(c) == Some(HarborKind::Generic));
    let hexes = hexes_at(&g, corner);
    settle(&mut g, 0, corner);
    assert_eq!(g.public_victory_points(0), 1);
    assert_eq!(g.maritime_rate(0, Brick), 3);
    for &h in &hexes {
        set_barbarians(&mut g, h, 3);
    }
    assert!(g.building_conquered(corner));
    assert_eq!(g.public_victory_points(0), 0, "a conquered settlement scores 0");
    assert_eq!(g.maritime_rate(0, Brick), 4, "its harbor cannot be used");
    assert_eq!(g.gold_rate(0), 4);
    give(&mut g, 0, ResourceSet::CITY);
    let err = assert_refused(&mut g, 0, Action::BuildCity { corner });
    assert!(err.to_string().contains("conquered"), "{err}");
    assert!(!g.legal_actions(0).actions.contains(&Action::BuildCity { corner }));
    let v = g.view(Viewer::Spectator).barbarians.unwrap();
    assert_eq!(v.conquered_buildings, vec![corner]);
    // Freeing one of its hexes restores everything.
    set_barbarians(&mut g, hexes[0], 0);
    assert!(!g.building_conquered(corner));
    assert_eq!(g.public_victory_points(0), 1);
    assert_eq!(g.maritime_rate(0, Brick), 3);
    ok(&mut g, 0, Action::BuildCity { corner });
    check(&g);
}

#[test]
fn a_building_next_to_the_castle_or_desert_is_never_conquered() {
    let mut g = blank(8);
    for special in [g.bs().castle, g.bs().desert] {
        let corner = g.topo.hex_corners[special as usize]
            .iter()
            .copied()
            .find(|&c| g.blocked & bit(c) == 0 && hexes_at(&g, c).iter().any(|h| coastal(&g).contains(h)))
            .unwrap();
        settle(&mut g, 0, corner);
        for h in hexes_at(&g, corner) {
            if coastal(&g).contains(&h) {
                set_barbarians(&mut g, h, 3);
            }
        }
        assert!(!g.building_conquered(corner));
    }
    assert_eq!(g.public_victory_points(0), 2);
}

// ----- the deck --------------------------------------------------------------------------

#[test]
fn the_deck_has_26_cards_of_four_kinds() {
    let g = Game::new(config(4), 1).unwrap();
    let b = g.bs();
    assert_eq!(b.deck_len as usize, DECK);
    for (k, &n) in Card::COUNTS.iter().enumerate() {
        assert_eq!(b.deck.iter().filter(|&&c| c == Card::ALL[k]).count(), n as usize);
    }
    assert_eq!(Card::COUNTS, [14, 4, 4, 4]);
    assert_eq!(g.view(Viewer::Seat(0)).deck_size, 26);
}

#[test]
fn knighthood_places_a_knight_on_a_free_castle_path() {
    let mut g = blank(9);
    stack(&mut g, Card::Knighthood);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.phase, Phase::Barbarians(BP::PlaceKnight { castle: true }));
    let castle = g.castle_edges();
    let outside = (0..g.topo.edge_count() as u8)
        .find(|&e| castle & bit(e) == 0)
        .unwrap();
    assert_refused(&mut g, 0, ba(BA::PlaceKnight { edge: outside }));
    let legal = g.legal_actions(0).actions;
    assert_eq!(legal.len(), 6);
    let e = bits(castle).next().unwrap();
    ok(&mut g, 0, ba(BA::PlaceKnight { edge: e }));
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.bs().knights_left[0], KNIGHTS - 1);
    assert_eq!(g.bs().discards[Card::Knighthood.index()], 1);
    check(&g);
    // Any number of cards per turn.
    stack(&mut g, Card::BlackKnight);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.phase, Phase::Barbarians(BP::PlaceKnight { castle: false }));
    assert_refused(&mut g, 0, ba(BA::PlaceKnight { edge: e }));
    ok(&mut g, 0, ba(BA::PlaceKnight { edge: outside }));
    check(&g);
}

#[test]
fn knighthood_with_every_castle_path_taken_has_no_effect() {
    let mut g = blank(10);
    for (i, e) in bits(g.castle_edges()).enumerate() {
        knight(&mut g, (i % 3) as Seat + 1, e);
    }
    stack(&mut g, Card::Knighthood);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    let ev = ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert!(barb_events(&ev).contains(&BE::CardWithoutEffect {
        seat: 0,
        card: Card::Knighthood
    }));
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.bs().knights_left[0], KNIGHTS);
    check(&g);
}

#[test]
fn treason_gives_two_gold_and_moves_two_barbarians_with_its_refusals() {
    let mut g = blank(11);
    let c = coastal(&g);
    // Opening: barbarians on "2" and "12" (positions 10 and 11 of the ring).
    let (two, twelve) = (c[8], c[9]);
    set_barbarians(&mut g, c[0], 3);
    stack(&mut g, Card::Treason);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.bs().gold[0], 2);
    assert_eq!(g.phase, Phase::Barbarians(BP::Treason));
    // Same hex twice; a conquered destination; a source as destination.
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(two), Some(two)],
            to: [Some(c[1]), Some(c[2])],
        }),
    );
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(two), Some(twelve)],
            to: [Some(c[1]), Some(c[1])],
        }),
    );
    // c[0] is conquered: a destination must be unconquered.
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(two), Some(twelve)],
            to: [Some(c[0]), Some(c[2])],
        }),
    );
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(two), Some(twelve)],
            to: [Some(two), Some(c[2])],
        }),
    );
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(c[3]), Some(twelve)],
            to: [Some(c[1]), Some(c[2])],
        }),
    );
    // One choice, one form: the hexes of each pair in battle order (the legal list's).
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(twelve), Some(c[0])],
            to: [Some(c[1]), Some(c[2])],
        }),
    );
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(c[0]), Some(twelve)],
            to: [Some(c[2]), Some(c[1])],
        }),
    );
    // Moving from the conquered hex frees it.
    let ev = ok(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(c[0]), Some(twelve)],
            to: [Some(c[1]), Some(c[2])],
        }),
    );
    assert!(barb_events(&ev).contains(&BE::HexFreed { hex: c[0] }));
    assert_eq!(g.bs().barbarians[c[0] as usize], 2);
    assert_eq!(g.bs().barbarians[c[1] as usize], 1);
    assert_eq!(g.phase, Phase::Main);
    check(&g);
}

#[test]
fn treason_takes_missing_barbarians_from_the_supply() {
    let mut g = blank(12);
    let c = coastal(&g);
    set_barbarians(&mut g, c[8], 0);
    set_barbarians(&mut g, c[9], 0);
    stack(&mut g, Card::Treason);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_refused(
        &mut g,
        0,
        ba(BA::Treason {
            from: [Some(c[1]), None],
            to: [Some(c[1]), Some(c[2])],
        }),
    );
    let supply = g.bs().supply;
    ok(
        &mut g,
        0,
        ba(BA::Treason {
            from: [None, None],
            to: [Some(c[1]), Some(c[2])],
        }),
    );
    assert_eq!(g.bs().supply, supply - 2);
    check(&g);
}

#[test]
fn intrigue_takes_a_prisoner_or_passes_to_the_next_card() {
    let mut g = blank(13);
    let c = coastal(&g);
    stack(&mut g, Card::Intrigue);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    assert_eq!(g.phase, Phase::Barbarians(BP::Intrigue));
    assert_refused(&mut g, 0, ba(BA::Intrigue { hex: c[0] }));
    ok(&mut g, 0, ba(BA::Intrigue { hex: c[8] }));
    assert_eq!(g.bs().prisoners[0], 1);
    check(&g);
    // No barbarian on the coast: the card is discarded and the next one carried out.
    set_barbarians(&mut g, c[9], 0);
    stack_at(&mut g, Card::Knighthood, 1);
    stack(&mut g, Card::Intrigue);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    let ev = ok(&mut g, 0, Action::BuyDevelopmentCard);
    let drawn: Vec<Card> = barb_events(&ev)
        .into_iter()
        .filter_map(|e| match e {
            BE::CardDrawn { card, .. } => Some(card),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, [Card::Intrigue, Card::Knighthood]);
    assert_eq!(g.phase, Phase::Barbarians(BP::PlaceKnight { castle: true }));
    check(&g);
}

#[test]
fn the_discard_pile_is_shuffled_into_a_new_deck() {
    let mut g = blank(14);
    // Every castle path taken: Knighthoods pass without a choice.
    for (i, e) in bits(g.castle_edges()).enumerate() {
        knight(&mut g, (i % 3) as Seat + 1, e);
    }
    let mut reshuffled = false;
    for _ in 0..30 {
        if g.phase != Phase::Main {
            let a = g.legal_actions(0).actions[0];
            ok(&mut g, 0, a);
        }
        give(&mut g, 0, ResourceSet::DEV_CARD);
        let ev = ok(&mut g, 0, Action::BuyDevelopmentCard);
        reshuffled |= barb_events(&ev)
            .iter()
            .any(|e| matches!(e, BE::DeckReshuffled { .. }));
        check(&g);
    }
    assert!(reshuffled);
}

// ----- knights ---------------------------------------------------------------------------

/// An edge at distance exactly `d` from `from` (and its distance-`d` neighbours).
fn edge_at_distance(g: &Game, from: u8, d: u8) -> u8 {
    let ring = g.edges_within(from, d) & !g.edges_within(from, d - 1);
    bits(ring & !g.castle_edges()).next().unwrap()
}

#[test]
fn knights_move_three_paths_or_five_for_a_grain_and_never_end_on_a_knight_or_the_castle() {
    let mut g = blank(15);
    let castle = g.castle_edges();
    let from = (0..g.topo.edge_count() as u8)
        .find(|&e| g.edges_within(e, 5) & castle == 0)
        .unwrap();
    knight(&mut g, 0, from);
    let three = edge_at_distance(&g, from, 3);
    let four = edge_at_distance(&g, from, 4);
    assert_refused(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from,
            to: four,
            grain: false,
        }),
    );
    assert_refused(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from,
            to: four,
            grain: true,
        }),
    ); // no grain
    knight(&mut g, 1, three);
    assert_refused(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from,
            to: three,
            grain: false,
        }),
    );
    let legal = g.legal_actions(0).actions;
    assert!(!legal.contains(&ba(BA::MoveKnight {
        from,
        to: three,
        grain: false
    })));
    give(&mut g, 0, one(Grain));
    assert!(g.legal_actions(0).actions.contains(&ba(BA::MoveKnight {
        from,
        to: four,
        grain: true
    })));
    let two = edge_at_distance(&g, from, 2);
    assert_refused(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from,
            to: two,
            grain: true,
        }),
    );
    ok(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from,
            to: four,
            grain: true,
        }),
    );
    assert_eq!(g.players[0].hand[Grain], 0);
    assert_eq!(g.phase, Phase::Barbarians(BP::MoveKnights));
    // Once moved, a knight does not move again; building and trading are over.
    let back = edge_at_distance(&g, four, 1);
    assert_refused(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from: four,
            to: back,
            grain: false,
        }),
    );
    give(&mut g, 0, ResourceSet::DEV_CARD);
    assert_refused(&mut g, 0, Action::BuyDevelopmentCard);
    give(&mut g, 0, n_of(Ore, 4));
    assert_refused(&mut g, 0, ba(BA::TradeForGold { give: Ore }));
    check(&g);
}

#[test]
fn a_knight_cannot_end_on_a_castle_path_and_a_fresh_castle_knight_must_leave() {
    let mut g = blank(16);
    stack(&mut g, Card::Knighthood);
    give(&mut g, 0, ResourceSet::DEV_CARD);
    ok(&mut g, 0, Action::BuyDevelopmentCard);
    let castle = g.castle_edges();
    let mut edges = bits(castle);
    let (e, other) = (edges.next().unwrap(), edges.next().unwrap());
    ok(&mut g, 0, ba(BA::PlaceKnight { edge: e }));
    assert_refused(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from: e,
            to: other,
            grain: false,
        }),
    );
    let err = assert_refused(&mut g, 0, Action::EndTurn);
    assert!(err.to_string().contains("castle"), "{err}");
    assert!(!g.legal_actions(0).actions.contains(&Action::EndTurn));
    let out = bits(g.knight_destinations(e, 3)).next().unwrap();
    ok(
        &mut g,
        0,
        ba(BA::MoveKnight {
            from: e,
            to: out,
            grain: false,
        }),
    );
    ok(&mut g, 0, Action::EndTurn);
    check(&g);
}

// ----- battle ----------------------------------------------------------------------------

fn end_turn_events(g: &mut Game) -> Vec<BE> {
    barb_events(&ok(g, 0, Action::EndTurn))
}

#[test]
fn a_won_hex_gives_prisoners_is_freed_and_loses_knights_by_the_die() {
    let mut g = blank(17);
    let hex = coastal(&g)[2];
    set_barbarians(&mut g, hex, 3);
    let edges = g.topo.hex_edges[hex as usize];
    for &e in &edges[..4] {
        knight(&mut g, 0, e);
    }
    let ev = end_turn_events(&mut g);
    assert!(ev.contains(&BE::Battle {
        hex,
        knights: 4,
        barbarians: 3,
        won: true
    }));
    assert!(ev.contains(&BE::HexFreed { hex }));
    assert_eq!(g.bs().prisoners[0], 3);
    assert_eq!(g.bs().barbarians[hex as usize], 0);
    let lost = ev.iter().filter(|e| matches!(e, BE::KnightLost { .. })).count() as u16;
    let face = ev.iter().find_map(|e| match e {
        BE::KnightLossDie { face, edges, .. } => Some((*face, *edges)),
        _ => None,
    });
    let (face, pair) = face.unwrap();
    let p = (face as usize - 1) % 3;
    assert_eq!(pair, [edges[p], edges[p + 3]]);
    assert_eq!(
        lost as usize,
        pair.iter().filter(|e| edges[..4].contains(e)).count()
    );
    assert_eq!(g.bs().gold[0], 3 * lost);
    assert_eq!(g.bs().knights_left[0], KNIGHTS - 4 + lost as u8);
    assert_eq!(g.public_victory_points(0), 1, "1 VP per 2 prisoners");
    check(&g);
}

#[test]
fn knights_must_outnumber_the_barbarians() {
    let mut g = blank(18);
    let hex = coastal(&g)[2];
    set_barbarians(&mut g, hex, 2);
    let edges = g.topo.hex_edges[hex as usize];
    knight(&mut g, 0, edges[0]);
    knight(&mut g, 1, edges[1]);
    let ev = end_turn_events(&mut g);
    assert!(ev.contains(&BE::Battle {
        hex,
        knights: 2,
        barbarians: 2,
        won: false
    }));
    assert_eq!(g.bs().barbarians[hex as usize], 2);
}

#[test]
fn a_knight_counted_on_two_hexes_is_lost_at_the_first() {
    let mut g = blank(19);
    let c = coastal(&g);
    // Two neighbouring coastal hexes in battle order and their shared path.
    let (a, b, shared) = (0..9)
        .find_map(|i| {
            let (a, b) = (c[i], c[i + 1]);
            let ea = g.topo.hex_edges[a as usize];
            ea.iter()
                .copied()
                .find(|e| g.topo.hex_edges[b as usize].contains(e))
                .map(|e| (a, b, e))
        })
        .unwrap();
    set_barbarians(&mut g, a, 1);
    set_barbarians(&mut g, b, 1);
    knight(&mut g, 0, shared);
    let ea = g.topo.hex_edges[a as usize];
    let extra_a = ea
        .iter()
        .copied()
        .find(|&e| e != shared && !g.topo.edge_hexes[e as usize].contains(&b))
        .unwrap();
    knight(&mut g, 1, extra_a);
    let eb = g.topo.hex_edges[b as usize];
    let extra_b = eb
        .iter()
        .copied()
        .find(|&e| e != shared && !ea.contains(&e))
        .unwrap();
    knight(&mut g, 2, extra_b);
    // A die that takes the shared knight at the first hex.
    with_rng(&mut g, |c| {
        let ev = barb_events(&c.apply(0, Action::EndTurn).unwrap());
        let first_die = ev.iter().find_map(|e| match e {
            BE::KnightLossDie { hex, edges, .. } => Some((*hex, *edges)),
            _ => None,
        });
        first_die.is_some_and(|(hex, edges)| hex == a && edges.contains(&shared))
    });
    let ev = end_turn_events(&mut g);
    assert!(ev.contains(&BE::Battle {
        hex: a,
        knights: 2,
        barbarians: 1,
        won: true
    }));
    assert!(ev.contains(&BE::Battle {
        hex: b,
        knights: 1,
        barbarians: 1,
        won: false
    }));
    assert_eq!(g.bs().barbarians[b as usize], 1);
    check(&g);
}

#[test]
fn fewer_prisoners_than_involved_players_are_rolled_off_and_losers_get_gold() {
    let mut g = blank(20);
    let hex = coastal(&g)[4];
    set_barbarians(&mut g, hex, 1);
    let edges = g.topo.hex_edges[hex as usize];
    knight(&mut g, 1, edges[0]);
    knight(&mut g, 2, edges[2]);
    let ev = end_turn_events(&mut g);
    assert!(ev.iter().any(|e| matches!(e, BE::RollOff { .. })));
    let b = g.bs();
    assert_eq!(b.prisoners[1] + b.prisoners[2], 1);
    let loser = if b.prisoners[1] == 0 { 1 } else { 2 };
    let roll_off_gold = ev
        .iter()
        .take_while(|e| !matches!(e, BE::KnightLossDie { .. }))
        .filter(|e| matches!(e, BE::GoldGained { seat, amount: 3 } if *seat == loser))
        .count();
    assert_eq!(roll_off_gold, 1);
    check(&g);
}

#[test]
fn a_leftover_prisoner_goes_to_the_most_knights_and_a_tie_is_rolled_off() {
    // Most knights: seat 0 with 3 against seat 1 with 1.
    let mut g = blank(21);
    let hex = coastal(&g)[4];
    set_barbarians(&mut g, hex, 3);
    let edges = g.topo.hex_edges[hex as usize];
    for &e in &edges[..3] {
        knight(&mut g, 0, e);
    }
    knight(&mut g, 1, edges[3]);
    let ev = end_turn_events(&mut g);
    assert!(!ev.iter().any(|e| matches!(e, BE::RollOff { .. })));
    assert_eq!([g.bs().prisoners[0], g.bs().prisoners[1]], [2, 1]);
    // A tie (2 and 2): rolled off, the loser gets 3 gold.
    let mut g = blank(22);
    let hex = coastal(&g)[4];
    set_barbarians(&mut g, hex, 3);
    let edges = g.topo.hex_edges[hex as usize];
    knight(&mut g, 0, edges[0]);
    knight(&mut g, 0, edges[1]);
    knight(&mut g, 1, edges[2]);
    knight(&mut g, 1, edges[3]);
    let ev = end_turn_events(&mut g);
    assert!(ev.iter().any(|e| matches!(e, BE::RollOff { .. })));
    let p = [g.bs().prisoners[0], g.bs().prisoners[1]];
    assert!(p == [2, 1] || p == [1, 2], "{p:?}");
    let loser = if p[0] == 1 { 0 } else { 1 };
    let roll_off_gold = ev
        .iter()
        .take_while(|e| !matches!(e, BE::KnightLossDie { .. }))
        .filter(|e| matches!(e, BE::GoldGained { seat, amount: 3 } if *seat == loser))
        .count();
    assert_eq!(roll_off_gold, 1);
    check(&g);
}

// ----- the 7 and gold ----------------------------------------------------------------------

#[test]
fn a_seven_discards_without_counting_gold_then_the_roller_steals() {
    let mut g = blank(23);
    g.phase = Phase::Roll;
    g.rolled = false;
    give(&mut g, 1, n_of(Wool, 7));
    g.bs_mut().gold[1] = 20;
    give(&mut g, 2, n_of(Ore, 8));
    let ev = crate::tests::force_roll(&mut g, 7);
    assert!(ev
        .iter()
        .all(|e| !matches!(e, Event::MustDiscard { seat: 1, .. })));
    assert_eq!(g.discard_pending(2), 4);
    assert_eq!(g.phase, Phase::Discard);
    ok(&mut g, 2, Action::Discard { cards: n_of(Ore, 4) });
    assert_eq!(g.phase, Phase::Barbarians(BP::Steal));
    assert_eq!(g.bs().gold[1], 20, "gold is never discarded or stolen");
    assert_refused(&mut g, 0, ba(BA::StealFrom { victim: 3 }));
    assert_refused(&mut g, 0, Action::MoveRobber { hex: 0, victim: None });
    ok(&mut g, 0, ba(BA::StealFrom { victim: 1 }));
    assert_eq!(g.players[0].hand, one(Wool));
    assert_eq!(g.phase, Phase::Main);
    check(&g);
}

#[test]
fn gold_buys_twice_a_turn_and_trades_four_or_three_to_one() {
    let mut g = blank(24);
    g.bs_mut().gold[0] = 6;
    ok(&mut g, 0, ba(BA::BuyWithGold { resource: Ore }));
    ok(&mut g, 0, ba(BA::BuyWithGold { resource: Brick }));
    let err = assert_refused(&mut g, 0, ba(BA::BuyWithGold { resource: Ore }));
    assert!(err.to_string().contains("twice"), "{err}");
    assert!(!g
        .legal_actions(0)
        .actions
        .iter()
        .any(|a| matches!(a, Action::Barbarians(BA::BuyWithGold { .. }))));
    assert_eq!(g.bs().gold[0], 2);
    // Maritime for gold: 4:1 without a harbor.
    clear_hand(&mut g, 0);
    give(&mut g, 0, n_of(Lumber, 4));
    ok(&mut g, 0, ba(BA::TradeForGold { give: Lumber }));
    assert_eq!(g.bs().gold[0], 3);
    // A 2:1 harbor does not help; a generic one makes it 3:1.
    let two_one = (0..g.topo.corner_count() as u8)
        .find(|&c| {
            matches!(g.board.harbor_at(c), Some(k) if k != HarborKind::Generic) && g.blocked & bit(c) == 0
        })
        .unwrap();
    settle(&mut g, 0, two_one);
    assert_eq!(g.gold_rate(0), 4);
    let generic = (0..g.topo.corner_count() as u8)
        .find(|&c| g.board.harbor_at(c) == Some(HarborKind::Generic) && g.blocked & bit(c) == 0)
        .unwrap();
    settle(&mut g, 0, generic);
    assert_eq!(g.gold_rate(0), 3);
    give(&mut g, 0, n_of(Wool, 3));
    ok(&mut g, 0, ba(BA::TradeForGold { give: Wool }));
    assert_eq!(g.bs().gold[0], 4);
    check(&g);
    // The limit resets with the next turn.
    ok(&mut g, 0, Action::EndTurn);
    assert_eq!(g.bs().gold_buys, 0);
}

// ----- gold in domestic trades ------------------------------------------------------------

fn gold_offer(give: ResourceSet, get: ResourceSet, give_gold: u16, get_gold: u16) -> Action {
    Action::OfferTrade {
        give,
        get,
        give_gold,
        get_gold,
        to: Default::default(),
    }
}

fn gold_counter(give: ResourceSet, get: ResourceSet, give_gold: u16, get_gold: u16) -> Action {
    Action::CounterOffer {
        give,
        get,
        give_gold,
        get_gold,
    }
}

#[test]
fn gold_may_be_given_for_cards_in_a_domestic_trade() {
    let mut g = blank(31);
    g.bs_mut().gold[0] = 5;
    give(&mut g, 1, one(Ore));
    // Seat 0 holds no card: gold alone is something to give, and the legal actions say so.
    let legal = g.legal_actions(0);
    assert!(legal
        .requirements
        .contains(&crate::action::Requirement::OfferTrade));
    assert!(legal
        .requirements
        .contains(&crate::action::Requirement::TradeGold { gold: 5 }));
    let ev = ok(&mut g, 0, gold_offer(ResourceSet::EMPTY, one(Ore), 2, 0));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::TradeOffered {
            give_gold: 2,
            get_gold: 0,
            ..
        }
    )));
    // The view shows the gold on offer.
    let v = g.view(Viewer::Seat(2));
    assert_eq!(v.offer.map(|o| o.give_gold), Some(2));
    assert!(g.legal_actions(1).actions.contains(&Action::AcceptTrade));
    ok(&mut g, 1, Action::AcceptTrade);
    let ev = ok(&mut g, 0, Action::ConfirmTrade { with: 1 });
    assert!(ev.contains(&Event::TradeCompleted {
        seat: 0,
        with: 1,
        gave: ResourceSet::EMPTY,
        got: one(Ore),
        gave_gold: 2,
        got_gold: 0,
    }));
    assert_eq!(g.bs().gold[..2], [3, 2]);
    assert_eq!(g.players[0].hand, one(Ore));
    assert!(g.players[1].hand.is_empty());
    check(&g);
}

#[test]
fn gold_may_be_asked_for_and_a_counter_may_carry_gold() {
    let mut g = blank(32);
    give(&mut g, 0, one(Wool));
    g.bs_mut().gold[1] = 1;
    g.bs_mut().gold[2] = 4;
    ok(&mut g, 0, gold_offer(one(Wool), ResourceSet::EMPTY, 0, 3));
    // Seat 1 holds 1 gold: it may not accept, nor is accepting listed.
    assert!(!g.legal_actions(1).actions.contains(&Action::AcceptTrade));
    let err = assert_refused(&mut g, 1, Action::AcceptTrade);
    assert!(err.to_string().contains("gold asked for"), "{err}");
    // A counter with gold the counterer does not hold is refused; one it holds stands.
    let err = assert_refused(&mut g, 1, gold_counter(ResourceSet::EMPTY, one(Wool), 2, 0));
    assert!(err.to_string().contains("gold you offer"), "{err}");
    let ev = ok(&mut g, 2, gold_counter(ResourceSet::EMPTY, one(Wool), 2, 0));
    assert!(ev.contains(&Event::TradeCountered {
        seat: 2,
        give: ResourceSet::EMPTY,
        get: one(Wool),
        give_gold: 2,
        get_gold: 0,
    }));
    assert!(g
        .legal_actions(0)
        .actions
        .contains(&Action::ConfirmTrade { with: 2 }));
    let ev = ok(&mut g, 0, Action::ConfirmTrade { with: 2 });
    assert!(ev.contains(&Event::TradeCompleted {
        seat: 0,
        with: 2,
        gave: one(Wool),
        got: ResourceSet::EMPTY,
        gave_gold: 0,
        got_gold: 2,
    }));
    assert_eq!(g.bs().gold[..3], [2, 1, 2]);
    assert_eq!(g.players[2].hand, one(Wool));
    check(&g);
}

#[test]
fn gold_trades_are_refused_when_the_terms_or_the_purses_do_not_allow_them() {
    let mut g = blank(33);
    give(&mut g, 0, one(Wool));
    g.bs_mut().gold[0] = 2;
    give(&mut g, 1, one(Ore));
    // Gold on both sides, more gold than held, nothing on one side.
    let err = assert_refused(&mut g, 0, gold_offer(one(Wool), one(Ore), 1, 1));
    assert!(err.to_string().contains("both sides"), "{err}");
    let err = assert_refused(&mut g, 0, gold_offer(ResourceSet::EMPTY, one(Ore), 3, 0));
    assert!(err.to_string().contains("gold you offer"), "{err}");
    let err = assert_refused(
        &mut g,
        0,
        gold_offer(ResourceSet::EMPTY, ResourceSet::EMPTY, 2, 0),
    );
    assert!(err.to_string().contains("no gifts"), "{err}");
    let err = assert_refused(&mut g, 0, gold_offer(ResourceSet::EMPTY, one(Ore), 0, 2));
    assert!(err.to_string().contains("no gifts"), "{err}");
    // The offerer spends the gold before confirming: the confirmation is refused.
    ok(&mut g, 0, gold_offer(ResourceSet::EMPTY, one(Ore), 2, 0));
    ok(&mut g, 1, Action::AcceptTrade);
    ok(&mut g, 0, ba(BA::BuyWithGold { resource: Brick }));
    assert!(!g
        .legal_actions(0)
        .actions
        .contains(&Action::ConfirmTrade { with: 1 }));
    let err = assert_refused(&mut g, 0, Action::ConfirmTrade { with: 1 });
    assert!(err.to_string().contains("no longer hold"), "{err}");
    check(&g);
}

#[test]
fn gold_in_trades_has_an_optional_wire_form() {
    // Offers without gold keep their old form both ways; gold appears only when non-zero.
    let old = r#"{"type":"offer_trade","give":{"wool":1},"get":{"ore":1}}"#;
    let a: Action = serde_json::from_str(old).unwrap();
    assert!(matches!(
        a,
        Action::OfferTrade {
            give_gold: 0,
            get_gold: 0,
            ..
        }
    ));
    assert!(!serde_json::to_string(&a).unwrap().contains("gold"));
    let with = r#"{"type":"counter_offer","give":{},"get":{"ore":1},"give_gold":2}"#;
    let a: Action = serde_json::from_str(with).unwrap();
    assert_eq!(a, gold_counter(ResourceSet::EMPTY, one(Ore), 2, 0));
    assert!(serde_json::to_string(&a).unwrap().contains(r#""give_gold":2"#));
    let e = Event::TradeCompleted {
        seat: 0,
        with: 1,
        gave: ResourceSet::EMPTY,
        got: one(Ore),
        gave_gold: 2,
        got_gold: 0,
    };
    let j = serde_json::to_string(&e).unwrap();
    assert!(j.contains(r#""gave_gold":2"#) && !j.contains("got_gold"), "{j}");
    assert_eq!(serde_json::from_str::<Event>(&j).unwrap(), e);
}

// ----- points, views ---------------------------------------------------------------------

#[test]
fn prisoners_score_one_point_per_two_and_twelve_wins() {
    let mut g = blank(25);
    let c = coastal(&g);
    set_barbarians(&mut g, c[8], 0);
    set_barbarians(&mut g, c[9], 0);
    let b = g.bs_mut();
    b.supply -= 7;
    b.prisoners[0] = 7;
    assert_eq!(g.public_victory_points(0), 3, "7 prisoners: 3 VP");
    // 8 points from cities and 1 from a settlement, with 3 from prisoners.
    let spots = crate::tests::spare_corners(&g, 5);
    for &s in &spots[..4] {
        city(&mut g, 0, s);
    }
    settle(&mut g, 0, spots[4]);
    check(&g);
    assert_eq!(g.victory_points(0), 12);
    g.bs_mut().gold[0] = 2;
    ok(&mut g, 0, ba(BA::BuyWithGold { resource: Grain }));
    assert_eq!(g.winner(), Some(0));
    check(&g);
}

#[test]
fn everything_is_public_but_hands_and_the_deck_order() {
    let mut g = blank(26);
    give(&mut g, 1, ResourceSet::new(1, 2, 0, 0, 3));
    knight(&mut g, 1, 5);
    g.bs_mut().gold[1] = 7;
    for viewer in [Viewer::Seat(0), Viewer::Spectator, Viewer::Seat(1)] {
        let v = g.view(viewer);
        let b = v.barbarians.as_ref().unwrap();
        assert_eq!(b.gold[1], 7);
        assert_eq!(b.knights.len(), 1);
        assert_eq!(b.deck_size, 26);
        assert_eq!(v.deck_size, 26);
        assert_eq!(b.barbarians.iter().map(|&x| x as u32).sum::<u32>(), 2);
        assert_eq!(v.players[1].hand.is_some(), viewer == Viewer::Seat(1));
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("\"deck\""), "the deck order never travels");
    }
}

// ----- random games ------------------------------------------------------------------------

/// Plays a game with uniformly random legal actions (discards: the first cards of the
/// hand); every listed action must be accepted and every invariant hold. Returns the
/// number of actions.
fn random_game(players: u8, seed: u64) -> (Game, u32) {
    let mut g = Game::new(config(players), seed).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut actions = 0;
    while !g.is_over() && actions < 200_000 {
        let seat = g.next_actor().expect("someone to act");
        let legal = g.legal_actions(seat);
        let a = if legal.actions.is_empty() {
            match legal.requirements[0] {
                crate::action::Requirement::Discard { count } => {
                    let hand = g.players[seat as usize].hand;
                    let mut cards = ResourceSet::EMPTY;
                    for k in 0..count as u32 {
                        let r = hand.nth_card(k);
                        cards[r] += 1;
                    }
                    Action::Discard { cards }
                }
                r => panic!("unexpected requirement {r:?}"),
            }
        } else {
            legal.actions[rng.below(legal.actions.len() as u32) as usize]
        };
        if let Err(e) = g.apply(seat, a) {
            panic!("seed {seed}: listed action {a:?} refused: {e}");
        }
        if let Err(e) = g.check_invariants() {
            panic!("seed {seed} after {a:?}: {e}");
        }
        actions += 1;
    }
    (g, actions)
}

#[test]
fn random_games_end_with_every_listed_action_accepted() {
    for seed in 0..6 {
        let (g, actions) = random_game(3 + (seed % 2) as u8, seed);
        assert!(g.is_over(), "seed {seed}: no winner after {actions} actions");
        let w = g.winner().unwrap();
        assert!(g.victory_points(w) >= 12);
    }
}

#[test]
fn actions_events_and_phases_have_a_flat_json_form() {
    let cases = [
        (
            ba(BA::PlaceKnight { edge: 31 }),
            r#"{"type":"place_knight","edge":31}"#,
        ),
        (
            ba(BA::Treason {
                from: [Some(12), None],
                to: [Some(5), Some(7)],
            }),
            r#"{"type":"treason","from":[12,null],"to":[5,7]}"#,
        ),
        (ba(BA::Intrigue { hex: 12 }), r#"{"type":"intrigue","hex":12}"#),
        (
            ba(BA::MoveKnight {
                from: 31,
                to: 40,
                grain: true,
            }),
            r#"{"type":"move_knight","from":31,"to":40,"grain":true}"#,
        ),
        (
            ba(BA::BuyWithGold { resource: Ore }),
            r#"{"type":"buy_with_gold","resource":"ore"}"#,
        ),
        (
            ba(BA::TradeForGold { give: Wool }),
            r#"{"type":"trade_for_gold","give":"wool"}"#,
        ),
        (
            ba(BA::StealFrom { victim: 2 }),
            r#"{"type":"steal_from","victim":2}"#,
        ),
    ];
    for (a, json) in cases {
        assert_eq!(serde_json::to_string(&a).unwrap(), json);
        assert_eq!(serde_json::from_str::<Action>(json).unwrap(), a);
    }
    for p in [
        BP::PlaceKnight { castle: true },
        BP::Treason,
        BP::Intrigue,
        BP::Steal,
        BP::MoveKnights,
    ] {
        let j = serde_json::to_string(&Phase::Barbarians(p)).unwrap();
        assert_eq!(
            serde_json::from_str::<Phase>(&j).unwrap(),
            Phase::Barbarians(p),
            "{j}"
        );
    }
    let e = Event::Barbarians(BE::BarbarianLanding {
        number: 9,
        hex: 4,
        landed: true,
    });
    let j = serde_json::to_string(&e).unwrap();
    assert_eq!(
        j,
        r#"{"type":"barbarian_landing","number":9,"hex":4,"landed":true}"#
    );
    assert_eq!(serde_json::from_str::<Event>(&j).unwrap(), e);
}

#[test]
fn hand_types_and_the_deck_order_never_reach_other_viewers() {
    let mut g = blank(27);
    give(&mut g, 1, n_of(Brick, 2));
    give(&mut g, 2, n_of(Ore, 2));
    knight(&mut g, 1, 7);
    g.bs_mut().gold[2] = 4;
    let views = |g: &Game| {
        [Viewer::Seat(0), Viewer::Seat(3), Viewer::Spectator]
            .map(|v| serde_json::to_string(&g.view(v)).unwrap())
    };
    let before = views(&g);
    // Swap the hand types of seats 1 and 2 and reorder the deck: same counts.
    clear_hand(&mut g, 1);
    clear_hand(&mut g, 2);
    give(&mut g, 1, n_of(Ore, 2));
    give(&mut g, 2, n_of(Brick, 2));
    let b = g.bs_mut();
    b.deck[..b.deck_len as usize].reverse();
    b.deck[..b.deck_len as usize].rotate_left(3);
    assert_ne!(g.bs().deck, Game::new(config(4), 27).unwrap().bs().deck);
    check(&g);
    assert_eq!(views(&g), before);
}

// ----- positions --------------------------------------------------------------------------

use super::{BarbariansPosition, KnightPosition};
use crate::position::{Position, PositionError};

/// Every position a random game passes through sets up a game that reads back the same
/// and plays on exactly as the original (same dice, cards, landings and battles).
#[test]
fn positions_round_trip_through_random_games() {
    for seed in 0..4u64 {
        let players = 3 + (seed % 2) as u8;
        let mut g = Game::new(config(players), seed).unwrap();
        let mut rng = Rng::new(seed ^ 0xface);
        let mut steps = 0u32;
        let mut checked = 0;
        while !g.is_over() && steps < 20_000 {
            if steps.is_multiple_of(97) {
                let p = g.position();
                let mut copy = Game::from_position(config(players), &p, seed)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e}"));
                assert_eq!(copy.position(), p, "seed {seed} step {steps}");
                // Both play on alike for a while.
                let mut orig = g.clone();
                for _ in 0..40 {
                    let Some(seat) = orig.next_actor() else { break };
                    let legal = orig.legal_actions(seat);
                    assert_eq!(copy.legal_actions(seat), legal);
                    let Some(&a) = legal.actions.first() else { break };
                    assert_eq!(orig.apply(seat, a).unwrap(), copy.apply(seat, a).unwrap());
                }
                checked += 1;
            }
            let seat = g.next_actor().unwrap();
            let legal = g.legal_actions(seat);
            let a = if legal.actions.is_empty() {
                let crate::action::Requirement::Discard { count } = legal.requirements[0] else {
                    panic!("unexpected requirement")
                };
                let hand = g.players[seat as usize].hand;
                let mut cards = ResourceSet::EMPTY;
                for k in 0..count as u32 {
                    cards[hand.nth_card(k)] += 1;
                }
                Action::Discard { cards }
            } else {
                legal.actions[rng.below(legal.actions.len() as u32) as usize]
            };
            g.apply(seat, a).unwrap();
            steps += 1;
        }
        assert!(checked >= 5, "seed {seed}: {checked} positions checked");
    }
}

/// A position written by hand: barbarians (one hex conquered), knights, gold, prisoners
/// and a card waiting for its choice; read back with the derived state filled in.
#[test]
fn a_hand_written_position_sets_up_conquest_knights_and_a_card() {
    let g = blank(41);
    let coast = coastal(&g);
    let mut p = g.position();
    p.phase = Phase::Barbarians(BP::Intrigue);
    p.barbarians = Some(BarbariansPosition {
        barbarians: vec![3, 0, 1, 0, 0, 0, 0, 0, 0, 2],
        prisoners: vec![2, 0, 0, 1],
        gold: vec![5, 0, 3, 0],
        knights: vec![
            KnightPosition { edge: 3, seat: 0 },
            KnightPosition { edge: 40, seat: 2 },
        ],
        discards: [2, 0, 1, 0],
        card: Some(Card::Intrigue),
        gold_buys: 1,
        ..BarbariansPosition::default()
    });
    let game = Game::from_position(config(4), &p, 41).unwrap();
    let b = game.barbarians_state().unwrap();
    assert!(b.is_conquered(coast[0]) && !b.is_conquered(coast[9]));
    assert_eq!(b.supply, 30 - 6 - 3);
    assert_eq!(b.knights_left[..4], [5, 6, 5, 6]);
    assert_eq!(b.deck_len as usize, DECK - 4);
    assert_eq!(
        game.legal_actions(0).actions.len(),
        3,
        "an Intrigue on one of 3 hexes"
    );
    let read = game.position();
    let part = read.barbarians.clone().unwrap();
    assert_eq!(part.supply, Some(21));
    assert_eq!(part.deck.as_ref().map(Vec::len), Some(DECK - 4));
    assert_eq!(
        Game::from_position(config(4), &read, 41).unwrap().position(),
        read
    );
}

/// The position of a blank game in its main phase with `f` applied to the part.
fn with_part(f: impl FnOnce(&mut Position, &mut BarbariansPosition)) -> Result<Game, PositionError> {
    let g = blank(42);
    let mut p = g.position();
    let mut part = p.barbarians.take().unwrap();
    part.deck = None;
    f(&mut p, &mut part);
    p.barbarians = Some(part);
    Game::from_position(config(4), &p, 42)
}

fn refused_because(f: impl FnOnce(&mut Position, &mut BarbariansPosition), why: &str) {
    match with_part(f) {
        Ok(_) => panic!("a position that should be refused ({why}) was accepted"),
        Err(e) => assert!(e.to_string().contains(why), "expected {why:?}, got: {e}"),
    }
}

#[test]
fn impossible_barbarian_positions_are_refused_with_a_reason() {
    with_part(|_, _| {}).expect("the unmodified position");
    // Barbarians: conservation, at most 3 a hex, one count per coastal hex.
    refused_because(|_, b| b.supply = Some(27), "the game has 30");
    refused_because(|_, b| b.prisoners = vec![20, 10, 0, 1], "the game has 30");
    refused_because(
        |_, b| b.barbarians = vec![4, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        "at most 3",
    );
    refused_because(|_, b| b.barbarians = vec![1, 1], "the coast has 10 hexes");
    refused_because(|_, b| b.gold = vec![1, 2], "entries for a 4-player game");
    // Knights: at most 6 each, one per path, only on the board's paths.
    refused_because(
        |_, b| b.knights = (0..7).map(|e| KnightPosition { edge: e * 3, seat: 1 }).collect(),
        "more than 6 knights",
    );
    refused_because(
        |_, b| {
            b.knights = vec![
                KnightPosition { edge: 5, seat: 0 },
                KnightPosition { edge: 5, seat: 1 },
            ]
        },
        "two knights on path 5",
    );
    refused_because(
        |_, b| b.knights = vec![KnightPosition { edge: 200, seat: 0 }],
        "no edge 200",
    );
    refused_because(
        |_, b| b.knights = vec![KnightPosition { edge: 7, seat: 5 }],
        "seat 5",
    );
    // This turn: fresh castle knights, moved knights, gold buys.
    refused_because(
        |_, b| {
            b.knights = vec![KnightPosition { edge: 7, seat: 0 }];
            b.castle_fresh = vec![7];
        },
        "not a castle path",
    );
    refused_because(
        |_, b| {
            b.knights = vec![KnightPosition { edge: 7, seat: 1 }];
            b.moved = vec![7];
        },
        "no knight of the current player",
    );
    refused_because(
        |_, b| {
            b.knights = vec![KnightPosition { edge: 7, seat: 0 }];
            b.moved = vec![7];
        },
        "exactly in the phase `move_knights`",
    );
    refused_because(
        |p, _| p.phase = Phase::Barbarians(BP::MoveKnights),
        "exactly in the phase",
    );
    refused_because(|_, b| b.gold_buys = 3, "at most 2");
    refused_because(
        |p, b| {
            p.phase = Phase::Roll;
            p.dice = None;
            b.gold_buys = 1;
        },
        "before the roll",
    );
    // The deck and the card being carried out.
    refused_because(|_, b| b.deck = Some(vec![Card::Treason; 26]), "the game has");
    refused_because(|_, b| b.discards = [15, 0, 0, 0], "the game has 14");
    refused_because(|_, b| b.card = Some(Card::Treason), "does not fit the phase");
    refused_because(
        |p, _| p.phase = Phase::Barbarians(BP::Treason),
        "does not fit the phase",
    );
    refused_because(
        |p, b| {
            p.phase = Phase::Barbarians(BP::Intrigue);
            b.card = Some(Card::Intrigue);
            b.barbarians = vec![0; 10];
            b.supply = None;
        },
        "no coastal hex holds a barbarian",
    );
    // Gold is never negative: it does not parse.
    assert!(serde_json::from_str::<BarbariansPosition>(r#"{"gold":[-1,0,0,0]}"#).is_err());
}

#[test]
fn positions_refuse_a_foreign_board_a_missing_part_and_a_busy_set_up() {
    // A base game's board is not a Barbarian Invasion board.
    let base = Game::new(GameConfig::with_players(4), 1).unwrap();
    let mut p = blank(43).position();
    p.board = base.position().board;
    let e = Game::from_position(config(4), &p, 43).unwrap_err();
    assert!(matches!(e, PositionError::Board(_)), "{e}");
    // The game plays the scenario: its part is required; a part in another game is refused.
    let mut p = blank(43).position();
    p.barbarians = None;
    let e = Game::from_position(config(4), &p, 43).unwrap_err();
    assert!(e.to_string().contains("needs its part"), "{e}");
    let mut p = base.position();
    p.barbarians = Some(BarbariansPosition::default());
    let e = Game::from_position(GameConfig::with_players(4), &p, 1).unwrap_err();
    assert!(e.to_string().contains("does not play"), "{e}");
    // In the set-up nothing has happened yet.
    let fresh = Game::new(config(4), 43).unwrap();
    let p = fresh.position();
    assert_eq!(Game::from_position(config(4), &p, 43).unwrap().position(), p);
    let mut busy = p.clone();
    busy.barbarians.as_mut().unwrap().gold = vec![2, 0, 0, 0];
    let e = Game::from_position(config(4), &busy, 43).unwrap_err();
    assert!(e.to_string().contains("set-up"), "{e}");
}

// ----- liveness ---------------------------------------------------------------------------

#[test]
fn a_game_may_still_score_until_barbarians_building_and_income_run_out() {
    assert!(Game::new(config(3), 44).unwrap().may_still_score(), "the set-up");
    let mut g = blank(44);
    assert!(!g.may_still_score(), "no card, no gold, no building: no income");
    give(&mut g, 1, one(Ore));
    assert!(g.may_still_score(), "barbarians still to capture");
    // Every barbarian a prisoner, nobody with a piece on the board: dead.
    let coast = coastal(&g);
    for &h in &coast {
        set_barbarians(&mut g, h, 0);
    }
    let b = g.bs_mut();
    b.prisoners[..4].copy_from_slice(&[8, 8, 7, 7]);
    b.supply = 0;
    check(&g);
    assert!(!g.may_still_score());
    // A settlement on a producing hex with a city in supply: alive again.
    let corner = (0..g.topo.corner_count() as u8)
        .find(|&c| {
            g.topo.corner_hexes[c as usize]
                .iter()
                .any(|&h| h != crate::board::NONE && g.board.token[h as usize] != 0)
        })
        .unwrap();
    settle(&mut g, 0, corner);
    assert!(g.may_still_score());
    // Without cities, settlements, or roads and spots left, a settlement alone is not enough.
    g.players[0].cities_left = 0;
    g.players[0].settlements_left = 0;
    assert!(!g.may_still_score());
    g.players[0].settlements_left = 1;
    g.players[0].roads_left = 1;
    assert!(
        g.may_still_score(),
        "a road from the settlement, then a settlement"
    );
}
