//! Barbarian Invasion (`barbarians.md`): the scenario's features used by value.
//!
//! - Conquest risk: a coastal hex is judged by its barbarians and the odds that landings
//!   name its number ([`landing`]); production there is discounted ([`hex_factor`], read
//!   by [`super::eval::corner_pips`]) and a corner whose land hexes could all be conquered
//!   costs its points in the set-up ([`setup_penalty`]); a corner touching an inner hex,
//!   the castle or the desert never falls.
//! - Knights: each knight is worth what it does on the coastal hexes it stands on
//!   ([`hex_value`]): tipping a battle (prisoners, a freed hex, risk lifted from the bot's
//!   buildings), a share of one still to be won (more the fewer knights it lacks), or a
//!   little as one of two guards where barbarians may land. Knighthood takes the castle
//!   path from which the best such path is within the 3 paths the knight moves this turn,
//!   a Black Knight goes straight to the best path, and a knight moves only when its move
//!   gains something (paying grain for a long move only when it wins a battle).
//! - Treason and Intrigue: the choice whose barbarians leave the bot's buildings least
//!   exposed and its opponents' most (weighted by how dangerous each is), counting the
//!   battles won at the end of the turn ([`map_score`]).
//!
//! Risk is a plain model: each landing names a coastal number with its exact odds, and a
//! hex falls within the horizon if enough of [`HORIZON`] builds' landings name it
//! (knights that would win it back are not counted).
//! - Gold: bought into the resource the plan lacks when that completes the next build (or
//!   when gold piles up); a crowded hand's spare cards are traded for gold before a 7 can
//!   halve them. Prisoners count towards the leader in [`super::eval::effective_vp`].
//! - On a 7: the steal goes to the leader.

use super::eval::{hex_pips, missing, PIPS, PIPS_PER_VP};
use super::seen::{bit, bits, Seen};
use super::Ctx;
use catan_rules::barbarians::{BarbariansAction as BA, BarbariansPhase, CONQUEST, GOLD_BUYS, GOLD_PRICE};
use catan_rules::board::{MAX_HEXES, NONE};
use catan_rules::{Action, Resource, Seat};
use std::sync::OnceLock;

/// Builds (each lands three barbarians) over which conquest risk is judged.
const HORIZON: f32 = 10.0;
/// A prisoner: half a point.
const PRISONER: f32 = 0.5;
/// Least gain (in VP-equivalents) for which a knight moves: below it, it stays put.
const MIN_GAIN: f32 = 0.06;
/// What the grain of a long move costs the bot, in VP-equivalents.
const GRAIN_COST: f32 = 0.2;
/// Paths a knight moves for free.
const FREE_STEPS: u8 = 3;

fn act(a: BA) -> Action {
    Action::Barbarians(a)
}

/// The chance that one landing (2d6 rolled until three different numbers other than 7)
/// names `number`: exact, by summing over the ordered triples of numbers.
pub fn landing(number: u8) -> f32 {
    static ODDS: OnceLock<[f32; 13]> = OnceLock::new();
    let odds = ODDS.get_or_init(|| {
        let nums: Vec<usize> = (2..=12).filter(|&n| n != 7).collect();
        let w = |n: usize| PIPS[n] as f64 / 30.0;
        let mut p = [0f64; 13];
        for &a in &nums {
            for &b in &nums {
                if b == a {
                    continue;
                }
                for &c in &nums {
                    if c == a || c == b {
                        continue;
                    }
                    let q = w(a) * w(b) / (1.0 - w(a)) * w(c) / (1.0 - w(a) - w(b));
                    p[a] += q;
                    p[b] += q;
                    p[c] += q;
                }
            }
        }
        p.map(|x| x as f32)
    });
    odds[number as usize]
}

/// P(X ≥ k) for X Poisson with mean `lam` (k ≤ 3).
fn poisson_tail(lam: f32, k: u8) -> f32 {
    let mut term = (-lam).exp();
    let mut below = 0.0;
    for i in 0..k {
        below += term;
        term *= lam / (i + 1) as f32;
    }
    (1.0 - below).clamp(0.0, 1.0)
}

/// Conquest risk of each coastal hex for each count of barbarians on it (0–3): the chance
/// it falls within the horizon. Computed once per decision.
pub struct Risks {
    by_count: [[f32; 4]; MAX_HEXES],
    coastal: u32,
}

impl Risks {
    pub fn new(seen: &Seen) -> Risks {
        let mut by_count = [[0f32; 4]; MAX_HEXES];
        let mut coastal = 0u32;
        let open = seen.barbarian_supply() > 0;
        for &h in seen.coastal() {
            coastal |= 1 << h;
            let lam = landing(seen.board().token[h as usize]) * HORIZON;
            for b in 0..3u8 {
                by_count[h as usize][b as usize] = if open {
                    poisson_tail(lam, CONQUEST - b)
                } else {
                    0.0
                };
            }
            by_count[h as usize][3] = 1.0;
        }
        Risks { by_count, coastal }
    }
    /// The risk of `hex` holding `b` barbarians (0 for a hex that never falls).
    #[inline]
    pub fn of(&self, hex: u8, b: u8) -> f32 {
        if hex == NONE || self.coastal & (1 << hex) == 0 {
            0.0
        } else {
            self.by_count[hex as usize][b.min(3) as usize]
        }
    }
}

/// How much of `hex`'s production the bot counts on: none from a conquered hex, less from
/// a coastal hex likely to fall.
pub fn hex_factor(seen: &Seen, hex: u8) -> f32 {
    if !seen.barb || !seen.is_coastal(hex) {
        return 1.0;
    }
    let b = seen.barbarians(hex);
    if b >= CONQUEST {
        return 0.0;
    }
    let r = if seen.barbarian_supply() > 0 {
        poisson_tail(landing(seen.board().token[hex as usize]) * HORIZON, CONQUEST - b)
    } else {
        0.0
    };
    1.0 - 0.5 * r
}

/// What a building on `corner` (`vp` 1 or 2) is expected to lose with the barbarians of
/// `map`: its points if every land hex it touches falls, and the production of the hexes
/// that fall.
fn building_loss(seen: &Seen, risks: &Risks, map: &[u8; MAX_HEXES], corner: u8, vp: f32) -> f32 {
    let mut all = 1.0f32;
    let mut prod = 0.0;
    for &h in &seen.topo.corner_hexes[corner as usize] {
        if h == NONE {
            continue;
        }
        let r = risks.of(h, map[h as usize]);
        all *= r;
        prod += hex_pips(seen, h) * r;
    }
    vp * all + 0.5 * vp * prod / PIPS_PER_VP
}

/// Expected losses of `seat`'s buildings to the barbarians of `map`.
fn harm(seen: &Seen, risks: &Risks, map: &[u8; MAX_HEXES], seat: Seat) -> f32 {
    bits(seen.buildings(seat))
        .map(|c| building_loss(seen, risks, map, c, if seen.is_city(c) { 2.0 } else { 1.0 }))
        .sum()
}

/// Set-up: what a building on `corner` risks (its points times the chance every hex it
/// touches falls); 0 on a corner touching an inner hex, the castle or the desert.
pub fn setup_penalty(seen: &Seen, corner: u8, vp: f32) -> f32 {
    if !seen.barb {
        return 0.0;
    }
    let risks = Risks::new(seen);
    let map = seen.barbarian_map();
    let mut all = 1.0f32;
    for &h in &seen.topo.corner_hexes[corner as usize] {
        if h != NONE {
            all *= risks.of(h, map[h as usize]);
        }
    }
    // A city's points and the set-up's only harbors are lost with it; the castle nearby
    // also lets its knights reach the coast sooner.
    let castle = seen
        .castle()
        .is_some_and(|c| seen.topo.corner_hexes[corner as usize].contains(&c));
    4.0 * vp * all - if castle { 0.5 } else { 0.0 }
}

/// Knights of `mask` on the paths of `hex`.
#[inline]
fn on_hex(seen: &Seen, hex: u8, mask: u128) -> u8 {
    seen.topo.hex_edges[hex as usize]
        .iter()
        .filter(|&&e| mask & bit(e) != 0)
        .count() as u8
}

/// Opponents with a knight among `others` on the paths of `hex`.
fn others_involved(seen: &Seen, hex: u8, others: u128) -> u8 {
    (0..seen.n)
        .filter(|&o| o != seen.me && on_hex(seen, hex, seen.knight_edges(o) & others) > 0)
        .count() as u8
}

/// What lifting the barbarians off coastal `hex` saves the bot's own buildings.
fn relief(seen: &Seen, risks: &Risks, map: &[u8; MAX_HEXES], hex: u8) -> f32 {
    let mut freed = *map;
    freed[hex as usize] = 0;
    let mut v = 0.0;
    for c in bits(seen.buildings(seen.me) & seen.topo.hex_corner_mask[hex as usize]) {
        let vp = if seen.is_city(c) { 2.0 } else { 1.0 };
        v += building_loss(seen, risks, map, c, vp) - building_loss(seen, risks, &freed, c, vp);
    }
    v
}

/// What the bot's knights on coastal `hex` are worth to it with `b` barbarians there,
/// `all` knights on the board and `mine` of them the bot's: a battle they win (the bot's
/// share of the prisoners and the risk lifted off its buildings), a share of one still to
/// be won, or a little as guards where barbarians may land.
fn hex_value(ctx: &Ctx, risks: &Risks, map: &[u8; MAX_HEXES], hex: u8, all: u128, mine: u128) -> f32 {
    let seen = ctx.seen;
    let m = on_hex(seen, hex, mine);
    if m == 0 {
        return 0.0;
    }
    let k = on_hex(seen, hex, all);
    let b = map[hex as usize];
    let stake = relief(seen, risks, map, hex);
    if b == 0 {
        // Guards: a barbarian landing here meets them at the end of that turn (it takes
        // two knights to outnumber it).
        let p = landing(seen.board().token[hex as usize]);
        let guard = if k >= 2 { 1.0 } else { 0.1 } * m as f32 / k as f32;
        return 0.04 * guard * p * (1.0 + 4.0 * risks.of(hex, 1));
    }
    let others = others_involved(seen, hex, all & !mine);
    let share = if others == 0 {
        b as f32
    } else {
        (b as f32 * m as f32 / k as f32).max(if b > others { 1.0 } else { 0.5 })
    };
    let win = PRISONER * share + stake;
    if k > b {
        win
    } else {
        // Part of a battle still to be won: worth more the fewer knights it still lacks
        // (one knight alone against three barbarians wins nothing soon).
        let part = k as f32 / (b + 1) as f32;
        0.5 * win * part * part * m as f32 / k as f32
    }
}

/// Coastal hexes on the paths `edges`.
fn coastal_of(seen: &Seen, edges: &[u8]) -> [u8; 4] {
    let mut out = [NONE; 4];
    let mut n = 0;
    for &e in edges {
        for h in seen.topo.edge_hexes[e as usize] {
            if h != NONE && seen.is_coastal(h) && !out[..n].contains(&h) {
                out[n] = h;
                n += 1;
            }
        }
    }
    out
}

/// The change in the bot's knights' worth when its knights go from `mine` to `mine2`
/// (everyone's from `all` to `all2`), `touched` the paths that changed.
fn knights_delta(
    ctx: &Ctx,
    risks: &Risks,
    touched: &[u8],
    all: u128,
    mine: u128,
    all2: u128,
    mine2: u128,
) -> f32 {
    let map = ctx.seen.barbarian_map();
    let mut d = 0.0;
    for h in coastal_of(ctx.seen, touched) {
        if h == NONE {
            break;
        }
        d += hex_value(ctx, risks, &map, h, all2, mine2) - hex_value(ctx, risks, &map, h, all, mine);
    }
    d
}

/// Whether the knights of `all` outnumber the barbarians on a coastal hex at `edge`.
fn wins_at(seen: &Seen, edge: u8, all: u128) -> bool {
    seen.topo.edge_hexes[edge as usize].iter().any(|&h| {
        h != NONE && seen.is_coastal(h) && {
            let b = seen.barbarians(h);
            b > 0 && on_hex(seen, h, all) > b
        }
    })
}

fn castle_edges(seen: &Seen) -> u128 {
    seen.castle().map_or(0, |c| {
        seen.topo.hex_edges[c as usize].iter().fold(0, |m, &e| m | bit(e))
    })
}

/// A knight of the bot's placed on `edge` now: what it adds.
fn add_value(ctx: &Ctx, risks: &Risks, edge: u8) -> f32 {
    let seen = ctx.seen;
    let (all, mine) = (seen.all_knights(), seen.knight_edges(seen.me));
    knights_delta(ctx, risks, &[edge], all, mine, all | bit(edge), mine | bit(edge))
}

/// Knighthood (a castle path, which the knight leaves this turn) or Black Knight (any free
/// path): the path from which the knight does the most.
fn place_knight(ctx: &Ctx, castle: bool) -> Action {
    let seen = ctx.seen;
    let risks = Risks::new(seen);
    let blocked = seen.all_knights() | castle_edges(seen);
    let mut best: Option<(f32, Action)> = None;
    for (i, &a) in ctx.legal.actions.iter().enumerate() {
        let Action::Barbarians(BA::PlaceKnight { edge }) = a else {
            continue;
        };
        let v = if castle {
            // Where it can go from there this turn.
            bits(seen.topo.edges_within(edge, FREE_STEPS) & !blocked)
                .map(|d| add_value(ctx, &risks, d))
                .fold(f32::MIN, f32::max)
        } else {
            add_value(ctx, &risks, edge)
        };
        let v = v + ctx.jitter(i as u32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a).unwrap_or(ctx.legal.actions[0])
}

/// The knight move worth most, if it gains enough; when a knight placed on the castle this
/// turn must leave (`end_turn` is not listed), its best move whatever it gains.
pub fn move_knight(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    if !seen.barb {
        return None;
    }
    let forced = !ctx.can(Action::EndTurn);
    let castle = castle_edges(seen);
    let risks = Risks::new(seen);
    let (all, mine) = (seen.all_knights(), seen.knight_edges(seen.me));
    let mut best: Option<(f32, Action)> = None;
    for (i, &a) in ctx.legal.actions.iter().enumerate() {
        let Action::Barbarians(BA::MoveKnight { from, to, grain }) = a else {
            continue;
        };
        if forced && castle & bit(from) == 0 {
            continue;
        }
        let (all2, mine2) = (all & !bit(from) | bit(to), mine & !bit(from) | bit(to));
        let mut v = knights_delta(ctx, &risks, &[from, to], all, mine, all2, mine2);
        if grain {
            // The long move pays only when it wins a battle (or when a knight must leave
            // the castle and only a long move gets it out).
            if !forced && !wins_at(seen, to, all2) {
                continue;
            }
            v -= GRAIN_COST;
        }
        let v = v + ctx.jitter(i as u32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    match best {
        Some((v, a)) if forced || v >= MIN_GAIN => Some(a),
        _ => None,
    }
}

/// The score of a barbarian map for the bot: the battles won at the end of the turn
/// (prisoners to the bot, or to others; the won hexes cleared), then its own expected
/// losses to the barbarians left against its opponents' (weighted by how dangerous each
/// is).
fn map_score(ctx: &Ctx, risks: &Risks, map: &[u8; MAX_HEXES]) -> f32 {
    let seen = ctx.seen;
    let me = seen.me;
    let all = seen.all_knights();
    let mut left = *map;
    let mut s = 0.0;
    for &h in seen.coastal() {
        let b = map[h as usize];
        if b == 0 {
            continue;
        }
        let k = on_hex(seen, h, all);
        if k <= b {
            continue;
        }
        left[h as usize] = 0;
        for o in 0..seen.n {
            let c = on_hex(seen, h, seen.knight_edges(o));
            if c == 0 {
                continue;
            }
            let share = PRISONER * b as f32 * c as f32 / k as f32;
            if o == me {
                s += share;
            } else {
                s -= 0.25 * ctx.eval.threat[o as usize] * share;
            }
        }
    }
    s -= harm(seen, risks, &left, me);
    for o in 0..seen.n {
        if o != me {
            s += 0.25 * ctx.eval.threat[o as usize] * harm(seen, risks, &left, o);
        }
    }
    s
}

/// Treason: the move of barbarians that leaves the best map.
fn treason(ctx: &Ctx) -> Action {
    let seen = ctx.seen;
    let risks = Risks::new(seen);
    let base = seen.barbarian_map();
    let mut best: Option<(f32, Action)> = None;
    for (i, &a) in ctx.legal.actions.iter().enumerate() {
        let Action::Barbarians(BA::Treason { from, to }) = a else {
            continue;
        };
        let mut map = base;
        for h in from.iter().flatten() {
            map[*h as usize] -= 1;
        }
        for h in to.iter().flatten() {
            map[*h as usize] += 1;
        }
        let v = map_score(ctx, &risks, &map) + ctx.jitter(i as u32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a).unwrap_or(ctx.legal.actions[0])
}

/// Intrigue: the barbarian whose removal leaves the best map (the prisoner is the same
/// wherever it comes from).
fn intrigue(ctx: &Ctx) -> Action {
    let seen = ctx.seen;
    let risks = Risks::new(seen);
    let base = seen.barbarian_map();
    let mut best: Option<(f32, Action)> = None;
    for (i, &a) in ctx.legal.actions.iter().enumerate() {
        let Action::Barbarians(BA::Intrigue { hex }) = a else {
            continue;
        };
        let mut map = base;
        map[hex as usize] -= 1;
        let v = map_score(ctx, &risks, &map) + ctx.jitter(i as u32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a).unwrap_or(ctx.legal.actions[0])
}

/// After a 7: steal from the leader; else from the most dangerous opponent holding cards.
fn steal(ctx: &Ctx) -> Action {
    let seen = ctx.seen;
    let mut best: Option<(f32, Action)> = None;
    for &a in &ctx.legal.actions {
        let Action::Barbarians(BA::StealFrom { victim }) = a else {
            continue;
        };
        let mut v = ctx.eval.threat[victim as usize] + 0.05 * seen.cards(victim) as f32;
        if ctx.eval.leader == Some(victim) {
            v += 100.0;
        }
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a).unwrap_or(ctx.legal.actions[0])
}

/// The scenario's own phases.
pub fn decision(ctx: &Ctx, phase: BarbariansPhase) -> Option<Action> {
    if !ctx.seen.barb {
        return None;
    }
    Some(match phase {
        BarbariansPhase::PlaceKnight { castle } => place_knight(ctx, castle),
        BarbariansPhase::Treason => treason(ctx),
        BarbariansPhase::Intrigue => intrigue(ctx),
        BarbariansPhase::Steal => steal(ctx),
        BarbariansPhase::MoveKnights => move_knight(ctx).unwrap_or(Action::EndTurn),
    })
}

/// Gold bought into what the plan lacks: when the buys left complete the next build, or
/// when gold piles up (then towards the whole plan).
pub fn buy_with_gold(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    if !seen.barb {
        return None;
    }
    let gold = seen.gold(seen.me);
    let buys = (GOLD_BUYS - seen.gold_buys().min(GOLD_BUYS)) as u16;
    let can = (gold / GOLD_PRICE).min(buys);
    if can == 0 {
        return None;
    }
    let hand = seen.hand();
    let next = missing(hand, ctx.plan.next_cost());
    let need = if !next.is_empty() && next.total() as u16 <= can {
        next
    } else if gold >= 3 * GOLD_PRICE {
        missing(hand, ctx.plan.cost)
    } else {
        return None;
    };
    let bank = seen.bank();
    let r = Resource::ALL
        .into_iter()
        .filter(|&r| need[r] > 0 && bank[r] > 0)
        .max_by(|&a, &b| ctx.card_value(hand, a).total_cmp(&ctx.card_value(hand, b)))?;
    ctx.ok(act(BA::BuyWithGold { resource: r }))
}

/// A crowded hand (a 7 would halve it): spare cards the bank takes for gold, which no 7
/// touches.
pub fn trade_for_gold(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    if !seen.barb || seen.hand().total() < 8 {
        return None;
    }
    let hand = seen.hand();
    let spare = super::build::spare(ctx);
    Resource::ALL
        .into_iter()
        .filter(|&r| ctx.can(act(BA::TradeForGold { give: r })) && spare[r] > 0)
        .max_by_key(|&r| spare[r] * 8 + hand[r])
        .map(|give| act(BA::TradeForGold { give }))
}

/// What a card of the scenario's deck is worth: a knight (14 of 26) where battles are to
/// be won, Treason's gold, Intrigue's prisoner. (A base of 0.25 beat 0.15, 0.35 and 0.5
/// in the head-to-head example: cards bought ahead of settlements and cities cost more
/// than their prisoners bring.)
pub fn card_value(seen: &Seen) -> f32 {
    let open = seen
        .coastal()
        .iter()
        .filter(|&&h| {
            let b = seen.barbarians(h);
            b >= 2 && on_hex(seen, h, seen.all_knights()) <= b
        })
        .count() as f32;
    let knights = if seen.knights_left(seen.me) > 0 {
        0.1 + 0.05 * open.min(4.0)
    } else {
        0.0
    };
    0.25 + knights
}

/// Points a seat's odd prisoner is half-way to (public).
pub fn odd_prisoner(seen: &Seen, s: Seat) -> f32 {
    if seen.barb {
        0.5 * (seen.prisoners(s) % 2) as f32
    } else {
        0.0
    }
}

#[cfg(test)]
#[path = "barbarians_tests.rs"]
mod tests;
