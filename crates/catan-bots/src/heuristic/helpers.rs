//! The Helpers: use the helper when its advantage serves the plan (free cards from Kaja,
//! Digur and Ryan at once; Asla, Stina and Yngvi for what the next build lacks; Gregor's
//! cheap buildings unless Largest Army would be lost; Högni when a moved road opens a
//! settlement spot; Diara when buying a card; Carla to swap a dead card), take the most
//! needed card in every follow-up, give back the least needed, and keep or exchange the
//! helper by what each one is worth to the bot now.

use super::dev::estimated_holdings;
use super::eval::{missing, production, PIPS_PER_VP};
use super::plan::{self, Goal};
use super::robber::touches_me;
use super::seen::bit;
use super::Ctx;
use catan_rules::{Action, DevCard, Helper, HelpersAction, Pending, Requirement, Resource, ResourceSet};

/// The resource the bot wants most now, among those `ok` allows.
fn most_wanted(ctx: &Ctx, ok: impl Fn(Resource) -> bool) -> Option<Resource> {
    let hand = ctx.seen.hand();
    Resource::ALL
        .into_iter()
        .filter(|&r| ok(r))
        .max_by(|&a, &b| ctx.card_value(hand, a).total_cmp(&ctx.card_value(hand, b)))
}

/// The card the bot can best spare, among those it holds.
fn least_wanted(ctx: &Ctx) -> Option<Resource> {
    let hand = ctx.seen.hand();
    Resource::ALL
        .into_iter()
        .filter(|&r| hand[r] > 0)
        .min_by(|&a, &b| ctx.card_value(hand, a).total_cmp(&ctx.card_value(hand, b)))
}

/// Helpers usable before the roll: Digur when the robber sits on the bot's production.
pub fn before_roll(ctx: &Ctx) -> Option<Action> {
    if ctx.seen.helper(ctx.seen.me) != Some(Helper::Digur) || !touches_me(ctx, ctx.seen.robber()) {
        return None;
    }
    digur(ctx)
}

/// A helper use worth making in the main phase, if any.
pub fn main(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let helper = seen.helper(seen.me)?;
    match helper {
        Helper::Kaja => {
            let a = ctx.legal.actions.iter().copied().filter_map(|a| match a {
                Action::Helpers(HelpersAction::UseKaja { resource }) => Some(resource),
                _ => None,
            });
            let hand = seen.hand();
            a.max_by(|&x, &y| ctx.card_value(hand, x).total_cmp(&ctx.card_value(hand, y)))
                .map(|resource| Action::Helpers(HelpersAction::UseKaja { resource }))
        }
        Helper::Ryan => ctx
            .legal
            .actions
            .iter()
            .copied()
            .filter_map(|a| match a {
                Action::Helpers(HelpersAction::UseRyan { target }) => Some(target),
                _ => None,
            })
            .max_by_key(|&t| (seen.cards(t), seen.public_vp(t)))
            .map(|target| Action::Helpers(HelpersAction::UseRyan { target })),
        Helper::Digur => {
            // Worth it when the robber hurts the bot, or its hex spares the leader and the
            // card is useful.
            let hex = seen.robber();
            let spares_leader = ctx
                .eval
                .leader
                .is_none_or(|l| !super::robber::hurts(ctx, hex, None, l));
            let useful = seen.board().terrain[hex as usize]
                .resource()
                .is_some_and(|r| missing(seen.hand(), ctx.plan.cost)[r] > 0);
            if touches_me(ctx, hex) || (spares_leader && useful) {
                digur(ctx)
            } else {
                None
            }
        }
        Helper::Gregor => gregor(ctx),
        Helper::Stina => stina(ctx),
        Helper::Asla => asla(ctx),
        Helper::Yngvi => yngvi(ctx),
        Helper::Hogni => hogni(ctx),
        Helper::Carla => carla(ctx),
        Helper::Diara | Helper::Hilda | Helper::Thorolf => None,
    }
}

fn digur(ctx: &Ctx) -> Option<Action> {
    ctx.legal
        .actions
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Helpers(HelpersAction::UseDigur { .. })))
}

/// Gregor: a settlement for brick + lumber, or a city for grain + 2 ore, paid with a
/// played knight — unless that knight keeps Largest Army.
fn gregor(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let me = seen.me;
    if seen.largest_army() == Some(me) {
        let best_other = (0..seen.n)
            .filter(|&s| s != me)
            .map(|s| seen.knights(s))
            .max()
            .unwrap_or(0);
        if seen.knights(me) <= best_other + 1 {
            return None;
        }
    }
    let mut best: Option<(f32, Action)> = None;
    for &a in &ctx.legal.actions {
        let Action::Helpers(HelpersAction::UseGregor { corner, city }) = a else {
            continue;
        };
        let v = if city {
            1.1 + ctx.eval.city_value(seen, corner) / PIPS_PER_VP
        } else {
            1.0 + ctx.eval.spot_value(seen, corner) / PIPS_PER_VP
        };
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

/// Stina: 2:1 with the bank, for what the plan lacks, from the resource with most to spare.
fn stina(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let hand = seen.hand();
    let spare = super::build::spare(ctx);
    let need = missing(hand, ctx.plan.cost);
    let mut best: Option<(u32, Action)> = None;
    for req in &ctx.legal.requirements {
        let Requirement::UseStina { resource, max } = *req else {
            continue;
        };
        let can = (spare[resource] as u32 / 2).min(max as u32);
        if can == 0 {
            continue;
        }
        let mut bank = seen.bank();
        bank[resource] = 0;
        let mut get = ResourceSet::EMPTY;
        for r in Resource::ALL {
            while get.total() < can && get[r] < need[r] && bank[r] > get[r] {
                get[r] += 1;
            }
        }
        if get.is_empty() {
            continue;
        }
        let k = get.total();
        if best.is_none_or(|(b, _)| k > b) {
            best = Some((
                k,
                Action::Helpers(HelpersAction::UseStina { give: resource, get }),
            ));
        }
    }
    // Worth the once-a-turn use when it completes the next purchase or trades two or more.
    let (k, a) = best?;
    let Action::Helpers(HelpersAction::UseStina { give, get }) = a else {
        return None;
    };
    let mut after = hand;
    after[give] -= 2 * get.total() as u8;
    after.add(&get);
    (after.contains(&ctx.plan.next_cost()) || k >= 2).then_some(a)
}

/// Asla: ask the likeliest holders for a card the next build lacks; one spare card goes
/// back to each giver.
fn asla(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let hand = seen.hand();
    let need = missing(hand, ctx.plan.next_cost());
    let resource = most_wanted(ctx, |r| need[r] > 0)?;
    let spare = super::build::spare(ctx);
    if spare.total() == 0 {
        return None;
    }
    // The two opponents likeliest to hold `resource`.
    let mut likely = [(0f32, 0u8); 2];
    for s in 0..seen.n {
        if s == seen.me || seen.cards(s) == 0 {
            continue;
        }
        let p = production(seen, s);
        let total: f32 = p.iter().sum();
        let share = if total > 0.0 {
            p[resource.index()] / total
        } else {
            0.2
        };
        let x = (share * seen.cards(s) as f32, s);
        if x.0 > likely[0].0 {
            likely = [x, likely[0]];
        } else if x.0 > likely[1].0 {
            likely[1] = x;
        }
    }
    if likely[0].0 < 0.5 {
        return None;
    }
    let first = likely[0].1;
    let second = (likely[1].0 >= 0.5 && spare.total() >= 2 && need[resource] >= 2).then_some(likely[1].1);
    ctx.ok(Action::Helpers(HelpersAction::UseAsla {
        resource,
        first,
        second,
    }))
}

/// Yngvi: the plan's road, paying its missing brick or lumber with a spare card.
fn yngvi(ctx: &Ctx) -> Option<Action> {
    let hand = ctx.seen.hand();
    if hand.contains(&ResourceSet::ROAD) {
        return None;
    }
    let edge = match ctx.plan.goal {
        Goal::Expand { edge, .. } | Goal::Road { edge } => edge,
        _ => return None,
    };
    let spare = super::build::spare(ctx);
    ctx.legal
        .actions
        .iter()
        .copied()
        .filter(|a| {
            matches!(*a, Action::Helpers(HelpersAction::BuildRoadWithYngvi { edge: e, with, .. })
                if e == edge && spare[with] > 0)
        })
        .max_by_key(|a| match *a {
            Action::Helpers(HelpersAction::BuildRoadWithYngvi { with, .. }) => spare[with],
            _ => 0,
        })
}

/// Högni: move an end road where its far end is a free settlement corner, if that corner
/// is clearly better than whatever the road leads to now.
fn hogni(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    let topo = seen.topo;
    let open = |c: u8| seen.blocked & bit(c) == 0;
    let lead = |edge: u8| -> f32 {
        topo.edge_corners[edge as usize]
            .iter()
            .filter(|&&c| open(c))
            .map(|&c| ctx.eval.spot_value(seen, c))
            .fold(0.0, f32::max)
    };
    let mut best: Option<(f32, Action)> = None;
    for &a in &ctx.legal.actions {
        let Action::Helpers(HelpersAction::UseHogni { from, to }) = a else {
            continue;
        };
        let gain = lead(to) - lead(from);
        if gain > 4.0 && best.is_none_or(|(b, _)| gain > b) {
            best = Some((gain, a));
        }
    }
    best.map(|(_, a)| a)
}

/// What a card drawn blind from the deck is worth on average (about a Year of Plenty).
const BLIND_CARD: f32 = 0.5;

/// Carla: swap the held card worth least to the bot now (Road Building with nowhere to
/// build, Monopoly when opponents hold few cards), if it is worth less than a blind draw.
fn carla(ctx: &Ctx) -> Option<Action> {
    let dev = ctx.seen.dev();
    DevCard::ALL
        .into_iter()
        .filter(|c| dev[c.index()] > 0)
        .map(|c| (card_value(ctx, c), c))
        .filter(|&(v, _)| v < BLIND_CARD - 0.05)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .and_then(|(_, card)| ctx.ok(Action::Helpers(HelpersAction::UseCarla { card })))
}

/// With Diara: buy a development card paying the cheapest way for the plan, then choose
/// among the top cards.
pub fn buy_card(ctx: &Ctx) -> Option<Action> {
    let hand = ctx.seen.hand();
    let mut best: Option<(f32, Action)> = None;
    for &a in &ctx.legal.actions {
        let Action::Helpers(HelpersAction::BuyDevelopmentCardWithDiara { replace, with }) = a else {
            continue;
        };
        let mut cost = ResourceSet::DEV_CARD;
        if let (Some(r), Some(w)) = (replace, with) {
            cost[r] -= 1;
            cost[w] += 1;
        }
        let mut left = hand;
        left.sub(&cost);
        let v = -(missing(left, ctx.plan.cost).total() as f32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

/// What holding `helper` is worth to the bot for the coming turns.
pub fn helper_value(ctx: &Ctx, helper: Helper) -> f32 {
    let seen = ctx.seen;
    let me = seen.me;
    let behind = (0..seen.n).any(|s| s != me && seen.public_vp(s) > seen.public_vp(me));
    let max_prod = ctx.eval.prod.iter().cloned().fold(0.0, f32::max);
    match helper {
        Helper::Kaja => 2.0,
        Helper::Hilda => 1.5,
        Helper::Ryan => {
            if behind {
                1.7
            } else {
                0.6
            }
        }
        Helper::Thorolf => 1.1 + 0.05 * seen.cards(me) as f32,
        Helper::Digur => 1.0,
        Helper::Stina => 0.8 + 0.06 * max_prod,
        Helper::Asla => 1.0,
        Helper::Diara => 0.9,
        Helper::Yngvi => {
            if seen.roads_left(me) > 6 {
                1.0
            } else {
                0.4
            }
        }
        Helper::Gregor => 0.3 + 0.3 * seen.knights(me) as f32,
        Helper::Hogni => 0.4,
        Helper::Carla => {
            let dev = seen.dev();
            let dead = DevCard::ALL
                .into_iter()
                .filter(|c| dev[c.index()] > 0 && card_value(ctx, *c) < BLIND_CARD - 0.05)
                .count();
            0.3 + 0.5 * dead as f32
        }
    }
}

/// The follow-up decisions of a helper, the bot's own or a reaction to a roll.
pub fn decision(ctx: &Ctx) -> Action {
    let seen = ctx.seen;
    let first = ctx.legal.actions[0];
    match seen.pending() {
        Pending::FlipOrExchange { .. } => {
            let current = seen.helper(seen.me).map_or(0.0, |h| helper_value(ctx, h));
            let best = ctx
                .legal
                .actions
                .iter()
                .copied()
                .filter_map(|a| match a {
                    Action::Helpers(HelpersAction::HelperExchange { helper }) => {
                        Some((helper_value(ctx, helper), a))
                    }
                    _ => None,
                })
                .max_by(|x, y| x.0.total_cmp(&y.0));
            let flip = Action::Helpers(HelpersAction::HelperFlip);
            match best {
                Some((v, a)) if !ctx.can(flip) || v > current + 0.4 => a,
                _ if ctx.can(flip) => flip,
                Some((_, a)) => a,
                None => first,
            }
        }
        Pending::AslaReturn { .. } => least_wanted(ctx)
            .map(|resource| Action::Helpers(HelpersAction::AslaReturn { resource }))
            .filter(|a| ctx.can(*a))
            .unwrap_or(first),
        Pending::DiaraKeep { cards, count, .. } => {
            let mut best = (f32::MIN, 0u8);
            for i in 0..count {
                let v = card_value(ctx, cards[i as usize]);
                if v > best.0 {
                    best = (v, i);
                }
            }
            ctx.ok(Action::Helpers(HelpersAction::DiaraKeep { index: best.1 }))
                .unwrap_or(first)
        }
        Pending::RyanTake { .. } => {
            let shown = seen.revealed_hand().unwrap_or(ResourceSet::EMPTY);
            most_wanted(ctx, |r| shown[r] > 0)
                .map(|resource| Action::Helpers(HelpersAction::RyanTake { resource }))
                .filter(|a| ctx.can(*a))
                .unwrap_or(first)
        }
        Pending::HildaOffer { .. } => {
            let bank = seen.bank();
            most_wanted(ctx, |r| bank[r] > 0)
                .map(|resource| Action::Helpers(HelpersAction::UseHilda { resource }))
                .filter(|a| ctx.can(*a))
                .unwrap_or(first)
        }
        Pending::ThorolfTake { .. } => {
            let bank = seen.bank();
            most_wanted(ctx, |r| bank[r] > 0)
                .map(|resource| Action::Helpers(HelpersAction::ThorolfTake { resource }))
                .filter(|a| ctx.can(*a))
                .unwrap_or(first)
        }
        Pending::None => first,
    }
}

/// What a development card is worth to the bot (Diara's choice).
fn card_value(ctx: &Ctx, card: DevCard) -> f32 {
    let seen = ctx.seen;
    match card {
        DevCard::VictoryPoint => {
            if seen.my_vp() + 1 >= seen.target_vp() {
                10.0
            } else {
                1.0
            }
        }
        DevCard::Knight => {
            0.55 + if plan::dev_card_value(seen) > 0.45 {
                0.3
            } else {
                0.0
            }
        }
        DevCard::YearOfPlenty => 0.6,
        DevCard::Monopoly => 0.4 + 0.05 * estimated_holdings(ctx).iter().cloned().fold(0.0, f32::max),
        DevCard::RoadBuilding => {
            if seen.roads_left(seen.me) >= 2 && plan::road_spots(seen, seen.me) != 0 {
                0.5
            } else {
                0.1
            }
        }
    }
}
