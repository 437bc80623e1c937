//! Unit tests of the rules engine, one file per system. Positions are built directly on the
//! `pub(crate)` state (resources always move between the bank and hands, development cards
//! between the deck and hands, so `check_invariants` keeps passing), then driven through
//! the public entry point [`Game::apply`]. These may be sparse in ways a real game is not
//! (roads with no building, an empty board after the set-up); tests that need only real
//! positions are written on the public API instead, with [`Game::from_position`]
//! (`crates/catan-rules/tests/victory.rs`, `tests/positions.rs`).

mod building;
mod dev_cards;
mod five_six_board;
mod paired;
mod production;
mod robber;
mod setup;
mod special_build;
mod titles;
mod trade;

use crate::action::{Action, DevCard, Seat};
use crate::board::NONE;
use crate::config::GameConfig;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, Game, Phase};
use crate::resources::{Resource, ResourceSet};
use crate::rng::Rng;

pub(crate) use Resource::{Brick, Grain, Lumber, Ore, Wool};

/// A fresh game in set-up (seed fixed).
pub(crate) fn new_game(players: u8, seed: u64) -> Game {
    Game::new(GameConfig::with_players(players), seed).unwrap()
}

/// Plays the whole set-up with the first legal choice every time; the game is then in
/// `Phase::Roll` of the first player's first turn.
pub(crate) fn game(players: u8) -> Game {
    game_with(GameConfig::with_players(players), 7)
}

pub(crate) fn game_with(config: GameConfig, seed: u64) -> Game {
    let mut g = Game::new(config, seed).unwrap();
    finish_setup(&mut g);
    g
}

/// Completes the set-up from wherever it stands with the first legal choices.
pub(crate) fn finish_setup(g: &mut Game) {
    while matches!(g.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
        let seat = g.setup_seat();
        let a = g.legal_actions(seat).actions[0];
        g.apply(seat, a).unwrap();
    }
    assert_eq!(g.phase, Phase::Roll);
    check(g);
}

/// A game after set-up with an empty board and empty hands: seat 0 to roll in turn 1.
/// Tests place exactly the pieces they need.
pub(crate) fn blank(players: u8) -> Game {
    blank_with(GameConfig::with_players(players), 7)
}

pub(crate) fn blank_with(config: GameConfig, seed: u64) -> Game {
    let mut g = Game::new(config, seed).unwrap();
    g.setup_index = 2 * g.n;
    g.first = 0;
    g.current = 0;
    g.turn = 1;
    g.phase = Phase::Roll;
    check(&g);
    g
}

/// Skips the roll: the current player is in the trade-and-build part of the turn.
pub(crate) fn main_phase(g: &mut Game) {
    g.phase = Phase::Main;
    g.rolled = true;
    g.dice = Some([1, 2]);
}

/// Makes `seat` the current player, after the roll.
pub(crate) fn turn_of(g: &mut Game, seat: Seat) {
    g.current = seat;
    main_phase(g);
}

pub(crate) fn check(g: &Game) {
    if let Err(e) = g.check_invariants() {
        panic!("invariant broken: {e}");
    }
}

/// Moves `cards` from the bank to `seat`'s hand.
pub(crate) fn give(g: &mut Game, seat: Seat, cards: ResourceSet) {
    assert!(g.bank.contains(&cards), "the bank lacks {cards}");
    g.bank.sub(&cards);
    g.players[seat as usize].hand.add(&cards);
}

/// Returns `seat`'s whole hand to the bank.
pub(crate) fn clear_hand(g: &mut Game, seat: Seat) {
    let h = g.players[seat as usize].hand;
    g.bank.add(&h);
    g.players[seat as usize].hand = ResourceSet::EMPTY;
}

/// Moves bank cards of `r` to `sink` until the bank holds exactly `left`.
pub(crate) fn drain_bank(g: &mut Game, r: Resource, left: u8, sink: Seat) {
    let n = g.bank[r] - left;
    let mut s = ResourceSet::EMPTY;
    s[r] = n;
    give(g, sink, s);
}

pub(crate) fn hand(g: &Game, seat: Seat) -> ResourceSet {
    g.players[seat as usize].hand
}

pub(crate) fn rs(brick: u8, lumber: u8, wool: u8, grain: u8, ore: u8) -> ResourceSet {
    ResourceSet::new(brick, lumber, wool, grain, ore)
}

pub(crate) fn times(set: ResourceSet, k: u8) -> ResourceSet {
    ResourceSet(set.0.map(|x| x * k))
}

pub(crate) fn one(r: Resource) -> ResourceSet {
    ResourceSet::one(r)
}

pub(crate) fn n_of(r: Resource, n: u8) -> ResourceSet {
    let mut s = ResourceSet::EMPTY;
    s[r] = n;
    s
}

/// Takes a development card of `card`'s kind out of the deck into `seat`'s hand (as if
/// bought in an earlier turn unless `new`).
pub(crate) fn give_dev(g: &mut Game, seat: Seat, card: DevCard, new: bool) {
    let len = g.deck_len as usize;
    let i = g.deck[..len]
        .iter()
        .position(|&c| c == card)
        .unwrap_or_else(|| panic!("no {card:?} left in the deck"));
    g.deck.swap(i, len - 1);
    g.deck_len -= 1;
    let p = &mut g.players[seat as usize];
    p.dev[card.index()] += 1;
    if new {
        p.dev_new[card.index()] += 1;
    }
}

/// Puts a card of `card`'s kind on top of the deck (the next one bought).
pub(crate) fn stack_deck(g: &mut Game, card: DevCard) {
    let len = g.deck_len as usize;
    let i = g.deck[..len].iter().position(|&c| c == card).unwrap();
    g.deck.swap(i, len - 1);
}

/// Records `k` knights as already played by `seat` (taken from the deck), and applies
/// the Largest Army rule.
pub(crate) fn knights_played(g: &mut Game, seat: Seat, k: u8) {
    for _ in 0..k {
        give_dev(g, seat, DevCard::Knight, false);
        g.players[seat as usize].dev[DevCard::Knight.index()] -= 1;
        g.players[seat as usize].knights += 1;
        g.players[seat as usize].played[DevCard::Knight.index()] += 1;
        g.cards_played[DevCard::Knight.index()] += 1;
    }
    g.update_largest_army(&mut Vec::new());
}

/// Places a road for free, without the connection rule, and updates road lengths and
/// the Longest Road title.
pub(crate) fn road(g: &mut Game, seat: Seat, edge: u8) {
    assert_eq!(g.edge_owner[edge as usize], NONE, "edge {edge} is taken");
    g.place_road(seat, edge);
    g.recompute_road(seat);
    g.update_longest_road(&mut Vec::new());
}

pub(crate) fn roads(g: &mut Game, seat: Seat, edges: &[u8]) {
    for &e in edges {
        road(g, seat, e);
    }
}

/// Places a settlement for free (no road needed), respecting the distance rule, and
/// cuts opponents' roads as a built one would.
pub(crate) fn settle(g: &mut Game, seat: Seat, corner: u8) {
    assert_eq!(
        g.blocked & bit(corner),
        0,
        "corner {corner} breaks the distance rule"
    );
    g.place_settlement(seat, corner);
    g.after_settlement_cut(seat, corner, &mut Vec::new());
}

/// Places a city for free on an empty corner.
pub(crate) fn city(g: &mut Game, seat: Seat, corner: u8) {
    settle(g, seat, corner);
    g.cities |= bit(corner);
    let p = &mut g.players[seat as usize];
    p.cities_left -= 1;
    p.settlements_left += 1;
}

/// Applies an action that must succeed.
#[track_caller]
pub(crate) fn ok(g: &mut Game, seat: Seat, action: Action) -> Vec<Event> {
    match g.apply(seat, action) {
        Ok(ev) => ev,
        Err(e) => panic!("seat {seat} {action:?} refused: {e}"),
    }
}

/// Applies an action that must be refused, and checks the refusal changed nothing.
#[track_caller]
pub(crate) fn assert_refused(g: &mut Game, seat: Seat, action: Action) -> RuleError {
    let before = g.clone();
    let result = g.apply(seat, action);
    let err = match result {
        Ok(ev) => panic!("seat {seat} {action:?} was accepted: {ev:?}"),
        Err(e) => e,
    };
    assert!(*g == before, "refused {action:?} ({err}) changed the game");
    err
}

/// Rolls the dice through [`Game::apply`] with an RNG state chosen so that they show
/// `sum`. Returns the events of the roll.
#[track_caller]
pub(crate) fn force_roll(g: &mut Game, sum: u8) -> Vec<Event> {
    let seat = g.current;
    for k in 0..10_000u64 {
        let mut c = g.clone();
        c.rng = Rng::new(k);
        let ev = ok(&mut c, seat, Action::RollDice);
        let [a, b] = c.dice.unwrap();
        if a + b == sum {
            *g = c;
            return ev;
        }
    }
    unreachable!("no RNG state rolls {sum}")
}

// ----- board look-ups -------------------------------------------------------------------

/// The land hexes at `corner`.
pub(crate) fn hexes_at(g: &Game, corner: u8) -> Vec<u8> {
    g.topo.corner_hexes[corner as usize]
        .iter()
        .copied()
        .filter(|&h| h != NONE)
        .collect()
}

/// The edges at `corner`.
pub(crate) fn edges_at(g: &Game, corner: u8) -> Vec<u8> {
    g.topo.corner_edges[corner as usize]
        .iter()
        .copied()
        .filter(|&e| e != NONE)
        .collect()
}

/// The corner of `edge` that is not `corner`.
pub(crate) fn other_end(g: &Game, edge: u8, corner: u8) -> u8 {
    let [a, b] = g.topo.edge_corners[edge as usize];
    assert!(a == corner || b == corner);
    if a == corner {
        b
    } else {
        a
    }
}

/// Corners of hex `h` whose other hexes do not carry `h`'s number (a building there
/// collects on that number only from `h`).
pub(crate) fn solo_corners(g: &Game, h: u8) -> Vec<u8> {
    let t = g.board.token[h as usize];
    g.topo.hex_corners[h as usize]
        .iter()
        .copied()
        .filter(|&c| {
            hexes_at(g, c)
                .iter()
                .all(|&o| o == h || g.board.token[o as usize] != t)
        })
        .collect()
}

/// The hex carrying `number` (which must be on exactly one hex).
pub(crate) fn only_hex_with(g: &Game, number: u8) -> u8 {
    let hs = g.board.token_hexes[number as usize];
    assert_eq!(hs[1], NONE, "{number} is on more than one hex");
    hs[0]
}

pub(crate) fn first_desert(g: &Game) -> u8 {
    (0..g.topo.hex_count() as u8)
        .find(|&h| g.board.terrain[h as usize] == crate::board::Terrain::Desert)
        .unwrap()
}

/// A land hex other than the robber's with no building on any of its corners... and,
/// if `producing`, not a desert.
pub(crate) fn empty_hex(g: &Game, producing: bool) -> u8 {
    (0..g.topo.hex_count() as u8)
        .find(|&h| {
            h != g.robber
                && g.topo.hex_corner_mask[h as usize] & g.occupied == 0
                && (!producing || g.board.terrain[h as usize].resource().is_some())
        })
        .unwrap()
}

/// The coastal edges in order round the island: consecutive ones share a corner, so
/// `coast_path(g, k, n)` is a simple path of `n` roads.
pub(crate) fn coast_path(g: &Game, start: usize, n: usize) -> Vec<u8> {
    let c = &g.topo.coast;
    (0..n).map(|i| c[(start + i) % c.len()]).collect()
}

/// The corners along `path` (a simple path of edges), in order: n + 1 corners.
pub(crate) fn path_corners(g: &Game, path: &[u8]) -> Vec<u8> {
    let [a, b] = g.topo.edge_corners[path[0] as usize];
    let first = if path.len() > 1 && g.topo.edge_corners[path[1] as usize].contains(&a) {
        b
    } else {
        a
    };
    let mut out = vec![first];
    let mut at = first;
    for &e in path {
        at = other_end(g, e, at);
        out.push(at);
    }
    out
}

pub(crate) fn vp_cards(g: &mut Game, seat: Seat, k: u8) {
    for _ in 0..k {
        give_dev(g, seat, DevCard::VictoryPoint, false);
    }
}

/// Picks `k` corners from `candidates` that are free and keep the distance rule among
/// themselves and with every building on the board.
pub(crate) fn pick_corners(g: &Game, candidates: &[u8], k: usize) -> Vec<u8> {
    let mut blocked = g.blocked;
    let mut out = Vec::new();
    for &c in candidates {
        if out.len() == k {
            break;
        }
        if blocked & bit(c) == 0 {
            out.push(c);
            blocked |= bit(c) | g.topo.corner_adj_mask[c as usize];
        }
    }
    assert_eq!(out.len(), k, "not enough free corners in {candidates:?}");
    out
}

/// Free corners that no road touches, keeping the distance rule.
pub(crate) fn spare_corners(g: &Game, k: usize) -> Vec<u8> {
    let touched: u128 = g.players.iter().fold(0, |m, p| m | p.road_corners);
    let cands: Vec<u8> = (0..g.topo.corner_count() as u8)
        .filter(|&c| touched & bit(c) == 0 && touched & g.topo.corner_adj_mask[c as usize] == 0)
        .collect();
    pick_corners(g, &cands, k)
}
