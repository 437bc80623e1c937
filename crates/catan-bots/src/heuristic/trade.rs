//! Trading: with the bank when trades complete the next build (or thin a hand a 7 would
//! halve); domestic offers of spare cards for what the plan lacks (twice a turn at most,
//! never to a player close to winning); answers to other players' offers when the trade
//! brings the bot's own plan closer.

use super::build::spare;
use super::eval::{missing, production};
use super::{Ctx, Memory};
use catan_rules::{Action, Requirement, Resource, ResourceSet, Response, Seat, SeatSet};

/// A bank trade towards the plan's next purchase, if trades can complete it this turn
/// (or the hand is crowded).
pub fn toward(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let hand = seen.hand();
    let next = ctx.plan.next_cost();
    if next.is_empty() || hand.contains(&next) {
        return None;
    }
    // Cards beyond what the whole plan costs are worth trading for what it lacks even if
    // the purchase is not complete yet (idle cards only feed a 7); cards the plan itself
    // needs only when the trades complete the next purchase now (or the hand is crowded).
    if let Some((give, get, _)) = maritime_path(ctx, hand, next, ctx.plan.cost) {
        return ctx.ok(Action::MaritimeTrade { give, get });
    }
    if let Some((give, get, complete)) = maritime_path(ctx, hand, next, next) {
        if complete || hand.total() >= 8 {
            return ctx.ok(Action::MaritimeTrade { give, get });
        }
    }
    None
}

/// The first bank trade of a greedy sequence that gathers `cost` while keeping `keep`;
/// `true` if the whole sequence completes the cost.
fn maritime_path(
    ctx: &Ctx,
    hand: ResourceSet,
    cost: ResourceSet,
    keep: ResourceSet,
) -> Option<(Resource, Resource, bool)> {
    let seen = ctx.seen;
    let mut h = hand;
    let mut bank = seen.bank();
    let mut first = None;
    loop {
        let need = missing(h, cost);
        if need.is_empty() {
            return first.map(|(g, r)| (g, r, true));
        }
        // The needed card the bank has, most needed first.
        let Some(get) = Resource::ALL
            .into_iter()
            .filter(|&r| need[r] > 0 && bank[r] > 0)
            .max_by_key(|&r| need[r])
        else {
            return first.map(|(g, r)| (g, r, false));
        };
        // Give the resource with the most to spare beyond `keep`, cheapest rate first.
        let give = Resource::ALL
            .into_iter()
            .filter(|&r| r != get && h[r] >= keep[r].max(cost[r]) + seen.rate(r))
            .max_by(|&a, &b| {
                let sa = (h[a] - keep[a].max(cost[a])) as f32 / seen.rate(a) as f32;
                let sb = (h[b] - keep[b].max(cost[b])) as f32 / seen.rate(b) as f32;
                sa.total_cmp(&sb)
            });
        let Some(give) = give else {
            return first.map(|(g, r)| (g, r, false));
        };
        h[give] -= seen.rate(give);
        h[get] += 1;
        bank[get] -= 1;
        bank[give] += seen.rate(give);
        if first.is_none() {
            first = Some((give, get));
        }
    }
}

/// Seats the bot offers `r` to: those whose buildings produce it (the likely holders),
/// never one close to winning.
fn partners(ctx: &Ctx, r: Resource) -> SeatSet {
    let seen = ctx.seen;
    let mut to = SeatSet::EMPTY;
    for s in 0..seen.n {
        if s != seen.me && !ctx.eval.dangerous[s as usize] && production(seen, s)[r.index()] > 0.0 {
            to.insert(s);
        }
    }
    to
}

/// A domestic offer: spare cards for one card the next purchase lacks, addressed to the
/// players likely to hold it (each answer holds up the turn, so the bot does not ask
/// everyone about everything).
pub fn propose(ctx: &Ctx, mem: &mut Memory) -> Option<Action> {
    if mem.offers >= 2 || ctx.requirement(|r| *r == Requirement::OfferTrade).is_none() {
        return None;
    }
    let seen = ctx.seen;
    let hand = seen.hand();
    let need = missing(hand, ctx.plan.next_cost());
    if need.is_empty() || need.total() > 2 {
        return None;
    }
    let get_r = Resource::ALL
        .into_iter()
        .filter(|&r| need[r] > 0)
        .max_by(|&a, &b| ctx.eval.prod[b.index()].total_cmp(&ctx.eval.prod[a.index()]))?;
    let to = partners(ctx, get_r);
    if to.is_empty() {
        return None;
    }
    let spare = spare(ctx);
    // First offer one spare card, then two.
    let count = mem.offers + 1;
    let mut give = ResourceSet::EMPTY;
    let mut left = spare;
    left[get_r] = 0;
    for _ in 0..count {
        let Some(r) = Resource::ALL
            .into_iter()
            .filter(|&r| left[r] > 0)
            .max_by(|&a, &b| {
                left[a]
                    .cmp(&left[b])
                    .then(ctx.eval.weight[b.index()].total_cmp(&ctx.eval.weight[a.index()]))
            })
        else {
            break;
        };
        left[r] -= 1;
        give[r] += 1;
    }
    if give.is_empty() {
        return None;
    }
    let get = ResourceSet::one(get_r);
    if mem.last_offer == Some((give, get)) {
        return None;
    }
    mem.offers += 1;
    mem.last_offer = Some((give, get));
    Some(Action::OfferTrade {
        give,
        get,
        give_gold: 0,
        get_gold: 0,
        to,
    })
}

/// What `gold` is worth to the plan with `hand`, in [`distance`]'s units: each 2 gold buys
/// one card the plan lacks (a whole point of distance), and half that beyond: gold is
/// never stolen nor discarded, so it keeps its value for the builds after this plan.
fn gold_worth(ctx: &Ctx, hand: ResourceSet, gold: u16) -> f32 {
    let cards = u32::from(gold / 2);
    let lacking = missing(hand, ctx.plan.cost).total();
    let now = cards.min(lacking);
    now as f32 + 0.5 * (cards - now) as f32
}

/// How far a hand is from the plan: cards missing, with a little credit for cards held.
fn distance(ctx: &Ctx, hand: ResourceSet) -> f32 {
    missing(hand, ctx.plan.cost).total() as f32 - 0.05 * hand.total() as f32
}

/// The proposer's follow-up: confirm the best answer that helps, wait for answers still
/// to come, or withdraw.
pub fn conclude(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let o = seen.offer()?;
    let hand = seen.hand();
    let now = distance(ctx, hand);
    let mut best: Option<(f32, Seat)> = None;
    for &a in &ctx.legal.actions {
        let Action::ConfirmTrade { with } = a else {
            continue;
        };
        let (gave, got) = match o.responses[with as usize] {
            Response::Accepted => (o.give, o.get),
            // Counters with gold are not weighed (the heuristic trades cards only).
            Response::Countered {
                give,
                get,
                give_gold: 0,
                get_gold: 0,
            } => (get, give),
            _ => continue,
        };
        if ctx.eval.dangerous[with as usize] || gave.total() > got.total() + 1 {
            continue;
        }
        let mut after = hand;
        after.sub(&gave);
        after.add(&got);
        let gain = now - distance(ctx, after);
        if gain > 0.5 && best.is_none_or(|(b, _)| gain > b) {
            best = Some((gain, with));
        }
    }
    if let Some((_, with)) = best {
        return Some(Action::ConfirmTrade { with });
    }
    if !seen_pending(ctx).is_empty() {
        return None;
    }
    Some(Action::CancelTrade)
}

fn seen_pending(ctx: &Ctx) -> SeatSet {
    let mut s = SeatSet::EMPTY;
    if let Some(o) = ctx.seen.offer() {
        for seat in o.to.iter() {
            if o.responses[seat as usize] == Response::Pending {
                s.insert(seat);
            }
        }
    }
    s
}

/// An answer to the open offer addressed to the bot: accept when the trade brings its
/// plan closer (and the proposer is not about to win), counter with a spare card for one
/// it needs, or decline.
pub fn answer(ctx: &Ctx) -> Action {
    let seen = ctx.seen;
    let Some(o) = seen.offer() else {
        return Action::DeclineTrade;
    };
    let proposer = seen.current();
    if ctx.eval.dangerous[proposer as usize] {
        return Action::DeclineTrade;
    }
    let hand = seen.hand();
    let now = distance(ctx, hand);
    if hand.contains(&o.get) && o.get.total() <= o.give.total() + 1 {
        let mut after = hand;
        after.sub(&o.get);
        after.add(&o.give);
        let mut gain = now - distance(ctx, after);
        // Barbarian Invasion: gold asked of the bot, or offered to it, is weighed as the
        // cards it buys (2 gold for 1 of its choice).
        let gold = seen.gold(seen.me);
        if o.get_gold > 0 || o.give_gold > 0 {
            let kept = gold.saturating_sub(o.get_gold) + o.give_gold;
            gain += gold_worth(ctx, after, kept) - gold_worth(ctx, after, gold);
        }
        if ctx.eval.leader == Some(proposer) {
            gain -= 0.5;
        }
        if gain > 0.5 && ctx.can(Action::AcceptTrade) {
            return Action::AcceptTrade;
        }
    }
    // Counter: one spare card for one card of the offer the bot needs.
    if ctx.requirement(|r| *r == Requirement::CounterOffer).is_some() {
        let need = missing(hand, ctx.plan.cost);
        let want = Resource::ALL.into_iter().find(|&r| o.give[r] > 0 && need[r] > 0);
        let spare = spare(ctx);
        let give = Resource::ALL
            .into_iter()
            .filter(|&r| spare[r] > 0 && Some(r) != want)
            .max_by_key(|&r| spare[r]);
        if let (Some(w), Some(g)) = (want, give) {
            let (give, get) = (ResourceSet::one(g), ResourceSet::one(w));
            // Not the same terms the proposer offered (that would have been accepted).
            if (give, get) != (o.get, o.give) {
                return Action::CounterOffer {
                    give,
                    get,
                    give_gold: 0,
                    get_gold: 0,
                };
            }
        }
    }
    Action::DeclineTrade
}
