//! Set-up placements: settlements on the corners with the most (and most varied)
//! production, harbors that fit it, and room to grow; roads pointing at the best corner
//! left nearby.

use super::eval::{corner_pips, Eval};
use super::seen::{bit, bits, Seen};
use super::Ctx;
use catan_rules::board::NONE;
use catan_rules::{Action, Resource};

/// Weighted value of a set-up settlement on `corner` for the bot, given what it already
/// produces (its first settlement, when placing the second).
pub fn corner_score(seen: &Seen, eval: &Eval, corner: u8) -> f32 {
    let cp = corner_pips(seen, corner, 0.5);
    let mut v = 0.0;
    let mut kinds = 0;
    for r in 0..5 {
        if cp[r] > 0.0 {
            v += cp[r] * eval.weight[r];
            // A resource the bot produces nowhere else.
            if eval.prod[r] == 0.0 {
                kinds += 1;
            }
        }
    }
    v += 1.2 * kinds as f32;
    // The only sources of brick and lumber early matter most: a start with neither
    // cannot expand.
    let has = |r: Resource| eval.prod[r.index()] + cp[r.index()] > 0.0;
    if seen.settlements_left(seen.me) == 4 {
        if !has(Resource::Brick) {
            v -= 2.0;
        }
        if !has(Resource::Lumber) {
            v -= 2.0;
        }
        if !has(Resource::Grain) {
            v -= 1.0;
        }
    }
    v += eval.harbor_value(seen, corner, &cp);
    // Barbarian Invasion: the second set-up building is a city (2 points to lose).
    let vp = if seen.settlements_left(seen.me) == 4 {
        2.0
    } else {
        1.0
    };
    v -= super::barbarians::setup_penalty(seen, corner, vp);
    v + 0.25 * growth(seen, eval, corner)
}

/// The best corner two roads from `corner` that would still be free once a settlement
/// stands on `corner`.
fn growth(seen: &Seen, eval: &Eval, corner: u8) -> f32 {
    let topo = seen.topo;
    let blocked = seen.blocked | topo.corner_adj_mask[corner as usize] | bit(corner);
    let mut best = 0f32;
    for &a in &topo.corner_corners[corner as usize] {
        if a == NONE {
            continue;
        }
        for &b in &topo.corner_corners[a as usize] {
            if b == NONE || blocked & bit(b) != 0 {
                continue;
            }
            let cp = corner_pips(seen, b, 0.5);
            let v: f32 = (0..5).map(|r| cp[r] * eval.weight[r]).sum();
            best = best.max(v);
        }
    }
    best
}

pub fn settlement(ctx: &Ctx) -> Action {
    let mut best: Option<(f32, u8)> = None;
    for (i, a) in ctx.legal.actions.iter().enumerate() {
        if let Action::BuildSettlement { corner } = *a {
            let v = corner_score(ctx.seen, ctx.eval, corner) + ctx.jitter(i as u32);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, corner));
            }
        }
    }
    match best {
        Some((_, corner)) => Action::BuildSettlement { corner },
        None => ctx.legal.actions[0],
    }
}

/// The road from the new settlement towards the best free corner two steps away; in
/// Frenemies not onto an opponent's network (a set-up connection pays nothing and spends
/// the pair's first connection).
pub fn road(ctx: &Ctx, corner: u8) -> Action {
    let seen = ctx.seen;
    let topo = seen.topo;
    let mut best: Option<(f32, u8)> = None;
    for (i, a) in ctx.legal.actions.iter().enumerate() {
        let Action::BuildRoad { edge } = *a else { continue };
        let [x, y] = topo.edge_corners[edge as usize];
        let far = if x == corner { y } else { x };
        let mut v = 0f32;
        for &c in &topo.corner_corners[far as usize] {
            if c == NONE || c == corner || seen.blocked & bit(c) != 0 {
                continue;
            }
            v = v.max(corner_score(seen, ctx.eval, c));
        }
        if seen.frenemies_on() {
            for o in 0..seen.n {
                if o != seen.me && (seen.buildings(o) | seen.road_corners(o)) & bit(far) != 0 {
                    v -= 5.0;
                }
            }
        }
        // Keep to the land: an edge with a harbor corner is fine, open coast less so.
        v += 0.1 * bits(topo.corner_edge_mask[far as usize]).count() as f32;
        v += ctx.jitter(i as u32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, edge));
        }
    }
    match best {
        Some((_, edge)) => Action::BuildRoad { edge },
        None => ctx.legal.actions[0],
    }
}
