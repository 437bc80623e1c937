//! Playing development cards: a Knight before the roll when the robber sits on the bot or
//! the card takes Largest Army, later when the robber can hurt someone; Monopoly on what
//! opponents most likely hold (estimated from their public production and hand sizes);
//! Year of Plenty when it completes the next build; Road Building towards the plan.

use super::eval::{missing, production};
use super::robber;
use super::Ctx;
use catan_rules::{Action, DevCard, Resource};

/// Pips of the bot's production the robber blocks now.
fn robbed_pips(ctx: &Ctx) -> f32 {
    let seen = ctx.seen;
    let hex = seen.robber();
    let pips = super::eval::hex_pips(seen, hex);
    seen.topo.hex_corners[hex as usize]
        .iter()
        .filter(|&&c| seen.owner(c) == Some(seen.me))
        .map(|&c| if seen.is_city(c) { 2.0 * pips } else { pips })
        .sum()
}

/// True if one more played Knight gives the bot Largest Army.
fn knight_takes_army(ctx: &Ctx) -> bool {
    let seen = ctx.seen;
    let me = seen.me;
    if seen.largest_army() == Some(me) {
        return false;
    }
    let mine = seen.knights(me) + 1;
    let best = (0..seen.n)
        .filter(|&s| s != me)
        .map(|s| seen.knights(s))
        .max()
        .unwrap_or(0);
    mine >= 3 && mine > best
}

/// The best robber move the bot could make now (for deciding whether a Knight pays).
fn best_robber_move(ctx: &Ctx) -> f32 {
    let seen = ctx.seen;
    let mut best = f32::MIN;
    for hex in 0..seen.topo.hex_count() as u8 {
        if hex == seen.robber() {
            continue;
        }
        let mut victim = None;
        for &c in &seen.topo.hex_corners[hex as usize] {
            if let Some(o) = seen.owner(c) {
                if o != seen.me
                    && seen.cards(o) > 0
                    && victim.is_none_or(|v: u8| ctx.eval.threat[o as usize] > ctx.eval.threat[v as usize])
                {
                    victim = Some(o);
                }
            }
        }
        best = best.max(robber::score(ctx, hex, victim));
    }
    best
}

pub fn before_roll(ctx: &Ctx) -> Option<Action> {
    if !ctx.can(Action::PlayKnight) {
        return None;
    }
    (robbed_pips(ctx) >= 3.0 || knight_takes_army(ctx)).then_some(Action::PlayKnight)
}

/// A card to play in the main phase, if one helps now.
pub fn main(ctx: &Ctx) -> Option<Action> {
    monopoly(ctx)
        .or_else(|| year_of_plenty(ctx))
        .or_else(|| road_building(ctx))
        .or_else(|| knight(ctx))
}

fn knight(ctx: &Ctx) -> Option<Action> {
    if !ctx.can(Action::PlayKnight) {
        return None;
    }
    let worth = robbed_pips(ctx) >= 2.0 || knight_takes_army(ctx) || best_robber_move(ctx) >= 2.5;
    worth.then_some(Action::PlayKnight)
}

/// Cards of each resource the opponents most likely hold: each one's hand size shared out
/// by its public production.
pub fn estimated_holdings(ctx: &Ctx) -> [f32; 5] {
    let seen = ctx.seen;
    let mut est = [0f32; 5];
    for o in 0..seen.n {
        if o == seen.me {
            continue;
        }
        let p = production(seen, o);
        let total: f32 = p.iter().sum();
        let cards = seen.cards(o) as f32;
        for r in 0..5 {
            est[r] += cards * if total > 0.0 { p[r] / total } else { 0.2 };
        }
    }
    est
}

fn monopoly(ctx: &Ctx) -> Option<Action> {
    if ctx.seen.playable(DevCard::Monopoly) == 0 {
        return None;
    }
    let est = estimated_holdings(ctx);
    let need = missing(ctx.seen.hand(), ctx.plan.cost);
    let mut best: Option<(f32, Resource)> = None;
    for r in Resource::ALL {
        let e = est[r.index()];
        let worth = if need[r] > 0 { e >= 2.0 } else { e >= 4.0 };
        if !worth {
            continue;
        }
        let v = e * if need[r] > 0 { 1.5 } else { 1.0 };
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, r));
        }
    }
    best.and_then(|(_, resource)| ctx.ok(Action::PlayMonopoly { resource }))
}

fn year_of_plenty(ctx: &Ctx) -> Option<Action> {
    if ctx.seen.playable(DevCard::YearOfPlenty) == 0 {
        return None;
    }
    let hand = ctx.seen.hand();
    let need = missing(hand, ctx.plan.next_cost());
    let n = need.total();
    if n == 0 || n > 2 {
        return None;
    }
    // The needed cards, then what the whole plan lacks, then the most valued.
    let mut wants = [Resource::Brick; 4];
    let mut len = 0;
    for (r, k) in need.iter() {
        for _ in 0..k {
            wants[len] = r;
            len += 1;
        }
    }
    let mut after = hand;
    after.add(&need);
    let rest = missing(after, ctx.plan.cost);
    if let Some((r, _)) = rest.iter().find(|&(_, k)| k > 0) {
        wants[len] = r;
        len += 1;
    }
    if len < 2 {
        wants[len] = Resource::ALL
            .into_iter()
            .max_by(|&a, &b| ctx.card_value(after, a).total_cmp(&ctx.card_value(after, b)))
            .unwrap();
    }
    let (a, b) = (wants[0], wants[1]);
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    ctx.ok(Action::PlayYearOfPlenty { first, second }).or_else(|| {
        // The bank cannot supply that pair: any listed pair with the first card needed.
        ctx.legal.actions.iter().copied().find(|x| {
            matches!(*x, Action::PlayYearOfPlenty { first, second } if first == wants[0] || second == wants[0])
        })
    })
}

fn road_building(ctx: &Ctx) -> Option<Action> {
    use super::plan::Goal;
    if !ctx.can(Action::PlayRoadBuilding) || ctx.seen.roads_left(ctx.seen.me) == 0 {
        return None;
    }
    matches!(ctx.plan.goal, Goal::Expand { .. } | Goal::Road { .. }).then_some(Action::PlayRoadBuilding)
}
