//! The bot's own turn after the roll: play a card that helps, use the scenario's
//! features, build towards the plan, trade for what the plan lacks, offer a domestic
//! trade, spend what would otherwise be lost to a 7, and end the turn. Also the free roads
//! of Road Building and the Special Building Phase of the 5–6 game.

use super::eval::{beyond, PIPS_PER_VP};
use super::plan::{self, road_value, Goal, Spot};
use super::{barbarians, dev, frenemies, helpers, trade, Ctx, Memory};
use catan_rules::{Action, ResourceSet};

/// The action that carries out the plan's next step, if it is listed (affordable now).
pub fn plan_step(ctx: &Ctx) -> Option<Action> {
    let a = match ctx.plan.goal {
        Goal::City { corner } => Action::BuildCity { corner },
        Goal::Settlement { corner } => Action::BuildSettlement { corner },
        Goal::Expand { edge, .. } | Goal::Road { edge } => Action::BuildRoad { edge },
        Goal::DevCard => return helpers::buy_card(ctx).or_else(|| ctx.ok(Action::BuyDevelopmentCard)),
        Goal::Nothing => return None,
    };
    ctx.ok(a)
}

/// An action that wins the game at once, if there is one.
fn winning(ctx: &Ctx) -> Option<Action> {
    let seen = ctx.seen;
    if seen.my_vp() + 2 < seen.target_vp() {
        return None;
    }
    let need = seen.target_vp().saturating_sub(seen.my_vp());
    ctx.legal.actions.iter().copied().find(|a| match a {
        Action::BuildSettlement { .. } | Action::BuildCity { .. } => need <= 1,
        Action::Frenemies(catan_rules::frenemies::FrenemiesAction::RedeemMasterBuilders) => need <= 1,
        _ => false,
    })
}

pub fn main_turn(ctx: &Ctx, mem: &mut Memory, spots: &mut Vec<Spot>) -> Option<Action> {
    if ctx.seen.offer().is_some() {
        return trade::conclude(ctx);
    }
    let a = winning(ctx)
        .or_else(|| dev::main(ctx))
        .or_else(|| helpers::main(ctx))
        .or_else(|| frenemies::main(ctx, spots))
        .or_else(|| plan_step(ctx))
        .or_else(|| barbarians::buy_with_gold(ctx))
        .or_else(|| trade::toward(ctx))
        .or_else(|| trade::propose(ctx, mem))
        .or_else(|| extra(ctx, spots))
        .or_else(|| frenemies::late(ctx, mem))
        .or_else(|| barbarians::trade_for_gold(ctx))
        .unwrap_or(Action::EndTurn);
    Some(a)
}

/// Something worth buying besides the plan: another point, or spending a hand a 7 would
/// halve, as long as the plan does not wait much longer for it.
pub fn extra(ctx: &Ctx, spots: &mut Vec<Spot>) -> Option<Action> {
    let seen = ctx.seen;
    let hand = seen.hand();
    let rounds = ctx.eval.rounds_to_afford(seen, hand, ctx.plan.cost);
    let crowded = hand.total() >= 8;
    let mut best: Option<(f32, Action)> = None;
    let mut consider = |a: Action, cost: ResourceSet, value: f32| {
        if value <= 0.0 || !ctx.can(a) {
            return;
        }
        let mut left = hand;
        left.sub(&cost);
        let delay = ctx.eval.rounds_to_afford(seen, left, ctx.plan.cost) - rounds;
        let ok = delay <= 0.5 || crowded || value >= ctx.plan.value;
        if ok && best.is_none_or(|(b, _)| value > b) {
            best = Some((value, a));
        }
    };
    for &a in &ctx.legal.actions {
        match a {
            Action::BuildCity { corner } => consider(
                a,
                ResourceSet::CITY,
                1.0 + ctx.eval.city_value(seen, corner) / PIPS_PER_VP,
            ),
            Action::BuildSettlement { corner } => consider(
                a,
                ResourceSet::SETTLEMENT,
                1.0 + ctx.eval.spot_value(seen, corner) / PIPS_PER_VP,
            ),
            _ => {}
        }
    }
    consider(
        Action::BuyDevelopmentCard,
        ResourceSet::DEV_CARD,
        plan::dev_card_value(seen),
    );
    // A road: towards the best spot, or for its own sake; with a crowded hand any road
    // that leads somewhere.
    if let Some((edge, v)) = best_road(ctx, spots) {
        let v = if crowded { v.max(0.05) } else { v };
        consider(Action::BuildRoad { edge }, ResourceSet::ROAD, v);
    }
    if let Some((_, a)) = best {
        if a == Action::BuyDevelopmentCard {
            return helpers::buy_card(ctx).or(Some(a));
        }
    }
    best.map(|(_, a)| a)
}

/// The best edge for a road now (any the bot may build on, ignoring cost), and its value:
/// towards a settlement spot (nearer and better first), or for its own sake.
pub fn best_road(ctx: &Ctx, spots: &mut Vec<Spot>) -> Option<(u8, f32)> {
    let seen = ctx.seen;
    if seen.roads_left(seen.me) == 0 {
        return None;
    }
    if let Goal::Expand { edge, .. } | Goal::Road { edge } = ctx.plan.goal {
        return Some((edge, ctx.plan.value * 0.5));
    }
    plan::spots(seen, 3, spots);
    let mut best: Option<(u8, f32)> = None;
    for e in super::seen::bits(plan::road_spots(seen, seen.me)) {
        let mut v = road_value(seen, e);
        for s in spots.iter().filter(|s| s.dist > 0 && s.edge == e) {
            let sv = (1.0 + ctx.eval.spot_value(seen, s.corner) / PIPS_PER_VP) * 0.3 / s.dist as f32;
            v = v.max(sv);
        }
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((e, v));
        }
    }
    best
}

/// A road of Road Building (or any free road): the plan's, else the best one.
pub fn free_road(ctx: &Ctx, spots: &mut Vec<Spot>) -> Action {
    let pick = best_road(ctx, spots)
        .map(|(edge, _)| Action::BuildRoad { edge })
        .filter(|a| ctx.can(*a));
    pick.or_else(|| {
        ctx.legal
            .actions
            .iter()
            .copied()
            .find(|a| matches!(a, Action::BuildRoad { .. }))
    })
    .unwrap_or(ctx.legal.actions[0])
}

/// A special build turn (5–6 players): build the plan or something else worth it; no
/// trading is allowed.
pub fn special(ctx: &Ctx, spots: &mut Vec<Spot>) -> Action {
    plan_step(ctx)
        .or_else(|| extra(ctx, spots))
        .unwrap_or(Action::EndTurn)
}

/// Cards beyond what the plan costs.
pub fn spare(ctx: &Ctx) -> ResourceSet {
    beyond(ctx.seen.hand(), ctx.plan.cost)
}
