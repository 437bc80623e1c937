//! Frenemies: earn favor tokens (a harmless robber move when it pays more than harm, see
//! [`super::robber`]; a spare card given away each turn; first connections of networks,
//! see [`super::plan::road_value`]), spend them (a VP marker whenever two compasses allow,
//! a free card for two books, a merchant's card or a trader's 1:1 swap for what the plan
//! lacks, a free road where a road is worth building), exchange a token that cannot be
//! used, and answer gifts — never helping a player close to winning.

use super::build::{best_road, spare};
use super::eval::missing;
use super::plan::Spot;
use super::{Ctx, Memory};
use catan_rules::frenemies::{FrenemiesAction, Guild, TokenUse};
use catan_rules::{Action, Resource};

fn act(a: FrenemiesAction) -> Action {
    Action::Frenemies(a)
}

/// Favors worth redeeming now, before building.
pub fn main(ctx: &Ctx, spots: &mut Vec<Spot>) -> Option<Action> {
    let seen = ctx.seen;
    if !seen.frenemies_on() {
        return None;
    }
    if let Some(a) = ctx.ok(act(FrenemiesAction::RedeemMasterBuilders)) {
        return Some(a);
    }
    if let Some(a) = ctx.ok(act(FrenemiesAction::RedeemScholars)) {
        return Some(a);
    }
    let hand = seen.hand();
    let need = missing(hand, ctx.plan.next_cost());
    if !need.is_empty() {
        let bank = seen.bank();
        let want = Resource::ALL
            .into_iter()
            .filter(|&r| need[r] > 0 && bank[r] > 0)
            .max_by(|&a, &b| ctx.card_value(hand, a).total_cmp(&ctx.card_value(hand, b)));
        if let Some(get) = want {
            if let Some(a) = ctx.ok(act(FrenemiesAction::RedeemMerchants { resource: get })) {
                return Some(a);
            }
            let spare = spare(ctx);
            let give = Resource::ALL
                .into_iter()
                .filter(|&r| r != get && spare[r] > 0)
                .min_by(|&a, &b| ctx.card_value(hand, a).total_cmp(&ctx.card_value(hand, b)));
            if let Some(give) = give {
                if let Some(a) = ctx.ok(act(FrenemiesAction::RedeemTraders { give, get })) {
                    return Some(a);
                }
            }
        }
    }
    if let Some((edge, v)) = best_road(ctx, spots) {
        if v > 0.1 {
            if let Some(a) = ctx.ok(act(FrenemiesAction::RedeemRoadBuilders { edge })) {
                return Some(a);
            }
        }
    }
    None
}

/// At the end of the turn: a gift of a spare card (a token for the bot), or an exchange of
/// a token that cannot be used.
pub fn late(ctx: &Ctx, mem: &mut Memory) -> Option<Action> {
    let seen = ctx.seen;
    if !seen.frenemies_on() {
        return None;
    }
    if !seen.gift_accepted() && mem.gifts < 3 && seen.token_supply() > 0 {
        let hand = seen.hand();
        let spare = spare(ctx);
        let resource = Resource::ALL
            .into_iter()
            .filter(|&r| spare[r] > 0)
            .min_by(|&a, &b| ctx.card_value(hand, a).total_cmp(&ctx.card_value(hand, b)));
        if let Some(resource) = resource {
            // The weakest eligible opponent, not one close to winning.
            let to = ctx
                .legal
                .actions
                .iter()
                .filter_map(|a| match *a {
                    Action::Frenemies(FrenemiesAction::OfferGift { to, resource: r }) if r == resource => {
                        Some(to)
                    }
                    _ => None,
                })
                .filter(|&t| !ctx.eval.dangerous[t as usize])
                .min_by_key(|&t| seen.public_vp(t));
            if let Some(to) = to {
                mem.gifts += 1;
                return Some(act(FrenemiesAction::OfferGift { to, resource }));
            }
        }
    }
    if seen.token_use() == TokenUse::None {
        let t = |g: Guild| seen.usable_tokens(g);
        let stuck = t(Guild::MasterBuilders) == 1 || t(Guild::Scholars) == 1 || t(Guild::RoadBuilders) > 0;
        if stuck {
            return ctx.ok(act(FrenemiesAction::ExchangeToken));
        }
    }
    None
}

/// What a set of tokens is worth to the bot: favors it can pay for, plus a little for
/// halves of two-token favors.
fn tokens_value(t: [u8; 5]) -> f32 {
    let pairs = |n: u8, whole: f32, half: f32| (n / 2) as f32 * whole + (n % 2) as f32 * half;
    t[Guild::Traders.index()] as f32 * 0.5
        + t[Guild::Merchants.index()] as f32 * 1.0
        + t[Guild::RoadBuilders.index()] as f32 * 0.8
        + pairs(t[Guild::Scholars.index()], 2.0, 0.6)
        + pairs(t[Guild::MasterBuilders.index()], 3.5, 1.2)
}

/// After an exchange: give back the token whose loss costs least.
pub fn return_token(ctx: &Ctx) -> Action {
    let held = ctx.seen.my_tokens();
    let mut best: Option<(f32, Action)> = None;
    for &a in &ctx.legal.actions {
        let Action::Frenemies(FrenemiesAction::ReturnToken { guild }) = a else {
            continue;
        };
        let mut left = held;
        left[guild.index()] -= 1;
        let v = tokens_value(left);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a).unwrap_or(ctx.legal.actions[0])
}

/// A gift offered to the bot: accept, ask for a card it needs instead, or refuse one from a
/// player close to winning (the gift earns the giver a token).
pub fn answer_gift(ctx: &Ctx) -> Action {
    let seen = ctx.seen;
    let Some(g) = seen.gift() else {
        return ctx.legal.actions[0];
    };
    if ctx.eval.dangerous[g.from as usize] {
        return ctx
            .ok(act(FrenemiesAction::RejectGift))
            .unwrap_or(ctx.legal.actions[0]);
    }
    let hand = seen.hand();
    let need = missing(hand, ctx.plan.cost);
    if need[g.resource] == 0 {
        if let Some(r) = Resource::ALL.into_iter().find(|&r| need[r] > 0) {
            if let Some(a) = ctx.ok(act(FrenemiesAction::AskOtherGift { resource: r })) {
                return a;
            }
        }
    }
    ctx.ok(act(FrenemiesAction::AcceptGift))
        .unwrap_or(ctx.legal.actions[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_compass_is_returned_before_a_pair_is_broken() {
        let mut t = [0u8; 5];
        t[Guild::MasterBuilders.index()] = 2;
        t[Guild::Traders.index()] = 1;
        let mut a = t;
        a[Guild::MasterBuilders.index()] -= 1;
        let mut b = t;
        b[Guild::Traders.index()] -= 1;
        assert!(tokens_value(b) > tokens_value(a));
    }
}
