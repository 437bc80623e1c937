//! Discarding after a 7: give up the cards the bot needs least — first those beyond what
//! its plan costs, most plentiful and least valuable first; cards the plan needs last.

use super::Ctx;
use catan_rules::{Action, Requirement, Resource, ResourceSet};

/// `count` cards of `hand` to give up, keeping `keep` (the plan's cost) as long as
/// possible. `weight` is what one card of each resource is worth to the bot.
pub fn discard_cards(hand: ResourceSet, keep: ResourceSet, weight: &[f32; 5], count: u32) -> ResourceSet {
    let mut left = hand;
    let mut out = ResourceSet::EMPTY;
    for _ in 0..count.min(hand.total()) {
        let mut best: Option<(f32, Resource)> = None;
        for r in Resource::ALL {
            if left[r] == 0 {
                continue;
            }
            let w = weight[r.index()];
            // Value of the card that would go: needed ones are worth far more; spare ones
            // less the more of them there are.
            let v = if left[r] <= keep[r] {
                10.0 + w
            } else {
                w / (left[r] - keep[r]) as f32
            };
            if best.is_none_or(|(b, _)| v < b) {
                best = Some((v, r));
            }
        }
        let (_, r) = best.expect("cards left to discard");
        left[r] -= 1;
        out[r] += 1;
    }
    out
}

pub fn action(ctx: &Ctx) -> Action {
    let count = ctx
        .legal
        .requirements
        .iter()
        .find_map(|r| match r {
            Requirement::Discard { count } => Some(*count as u32),
            _ => None,
        })
        .unwrap_or(0);
    Action::Discard {
        cards: discard_cards(ctx.seen.hand(), ctx.plan.cost, &ctx.eval.weight, count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAT: [f32; 5] = [1.0; 5];

    #[test]
    fn keeps_what_the_plan_needs() {
        // Saving for a city (2 grain, 3 ore), holding it plus brick, lumber and wool.
        let hand = ResourceSet::new(1, 1, 2, 2, 3);
        let gone = discard_cards(hand, ResourceSet::CITY, &FLAT, 4);
        assert_eq!(gone.total(), 4);
        assert_eq!(gone[Resource::Grain] + gone[Resource::Ore], 0, "{gone}");
        assert_eq!(gone, ResourceSet::new(1, 1, 2, 0, 0));
    }

    #[test]
    fn spares_go_most_plentiful_first() {
        // Six spare wool and one spare brick: with four to go, wool goes.
        let hand = ResourceSet::new(1, 0, 6, 1, 0);
        let gone = discard_cards(hand, ResourceSet::EMPTY, &FLAT, 4);
        assert_eq!(gone, ResourceSet::new(0, 0, 4, 0, 0));
    }

    #[test]
    fn needed_cards_go_only_when_nothing_else_is_left() {
        let hand = ResourceSet::new(1, 1, 1, 1, 4);
        // Keeping a settlement's cost; 4 to go: the 4 ore go first.
        let gone = discard_cards(hand, ResourceSet::SETTLEMENT, &FLAT, 4);
        assert_eq!(gone, ResourceSet::new(0, 0, 0, 0, 4));
        // 5 to go: one needed card as well.
        let gone = discard_cards(hand, ResourceSet::SETTLEMENT, &FLAT, 5);
        assert_eq!(gone.total(), 5);
        assert_eq!(gone[Resource::Ore], 4);
    }

    #[test]
    fn weights_break_ties_among_spares() {
        let hand = ResourceSet::new(2, 0, 2, 0, 0);
        let mut w = FLAT;
        w[Resource::Wool.index()] = 0.3;
        let gone = discard_cards(hand, ResourceSet::EMPTY, &w, 2);
        assert_eq!(gone, ResourceSet::new(0, 0, 2, 0, 0));
    }
}
