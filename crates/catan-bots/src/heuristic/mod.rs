//! The heuristic bot: a plan-driven player that values positions by production (pips and
//! resource diversity), harbors, the build it is saving for, the Longest Road and Largest
//! Army races and who leads, and plays every variant the engine has.
//!
//! Each decision is a fresh, cheap analysis of the position (no search, no allocation
//! beyond reused buffers): [`eval::Eval`] values production and opponents, [`plan`] picks
//! the build to save for, and one module per kind of decision acts on it — [`setup`],
//! [`build`] (the turn's buys), [`trade`] (bank and domestic), [`robber`], [`discard`],
//! [`dev`] (development cards), [`helpers`], [`frenemies`] and [`barbarians`].
//!
//! Honesty: the bot sees the game only through [`seen::Seen`], which exposes what its seat
//! may know. Determinism: its only randomness is its own seeded RNG (tie-breaks), and it
//! reads no clock.
//!
//! Legality: every choice is checked against the seat's legal actions (and requirements)
//! before it is returned; a choice that is not covered falls back to a safe legal action
//! and is counted in [`HeuristicBot::fallbacks`], which the tests require to stay 0.

// Resources and seats index several parallel fixed arrays at once; index loops read
// better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

mod barbarians;
mod build;
mod dev;
mod discard;
mod eval;
mod frenemies;
mod helpers;
mod plan;
mod robber;
mod seen;
mod setup;
mod trade;

#[cfg(test)]
mod tests;

use catan_rules::barbarians::BarbariansAction;
use catan_rules::frenemies::FrenemiesPhase;
use catan_rules::{
    Action, Game, HelpersAction, LegalActions, Phase, Requirement, Resource, ResourceSet, Rng, Seat,
    MAX_SEATS,
};
use eval::Eval;
use plan::{Plan, Spot};
use seen::Seen;

/// What the bot remembers about its own turn (per seat, so one bot can play many seats).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Memory {
    turn: u32,
    /// Domestic offers made this turn.
    pub offers: u8,
    pub last_offer: Option<(ResourceSet, ResourceSet)>,
    /// Gifts offered this turn (Frenemies).
    pub gifts: u8,
}

/// Plays to win, by heuristics: it values production by pips and resource diversity,
/// harbors, the build it is saving for (chosen by value per round of waiting), the Longest
/// Road and Largest Army races and who leads; places set-up pieces, builds, buys, trades
/// with the bank and other players, moves the robber against the leader, discards what it
/// needs least, and uses The Helpers' helpers and Frenemies' favor tokens. It reads only
/// what its seat may know (its own hand and cards, public counts, the board), decides
/// from its own seeded RNG and no clock, and each decision is a few microseconds of
/// analysis with no search. One bot may play any number of seats.
#[derive(Clone, Debug)]
pub struct HeuristicBot {
    rng: Rng,
    legal: LegalActions,
    spots: Vec<Spot>,
    memory: [Memory; MAX_SEATS],
    /// Heuristic choices that the legal actions did not cover (a bug if ever non-zero; the
    /// bot then played a safe legal action instead).
    pub fallbacks: u64,
    /// Whether it uses Barbarian Invasion's features (see [`barbarians`]).
    barbarian_features: bool,
}

/// Everything one decision reads: the seat's knowledge, its evaluation and its plan.
pub(crate) struct Ctx<'a, 'g> {
    pub seen: &'a Seen<'g>,
    pub eval: &'a Eval,
    pub plan: Plan,
    pub legal: &'a LegalActions,
    /// A per-decision draw of the bot's own RNG, for breaking ties.
    pub salt: u64,
}

impl Ctx<'_, '_> {
    /// True if `a` is among the listed legal actions.
    pub fn can(&self, a: Action) -> bool {
        self.legal.actions.contains(&a)
    }
    /// `a` if it is listed.
    pub fn ok(&self, a: Action) -> Option<Action> {
        self.can(a).then_some(a)
    }
    /// A tiny tie-breaker for candidate `i`, from the bot's seeded RNG.
    pub fn jitter(&self, i: u32) -> f32 {
        let x =
            (self.salt ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (x >> 40) as f32 / (1u64 << 24) as f32 * 1e-3
    }
    pub fn requirement(&self, pred: impl Fn(&Requirement) -> bool) -> Option<Requirement> {
        self.legal.requirements.iter().copied().find(|r| pred(r))
    }
    /// What one card of `r` is worth to the bot now: more when the plan needs it, less
    /// when it holds many beyond the plan.
    pub fn card_value(&self, hand: ResourceSet, r: Resource) -> f32 {
        let w = self.eval.weight[r.index()];
        let need = self.plan.cost[r];
        if hand[r] <= need {
            3.0 + w
        } else {
            w / (1 + hand[r] - need) as f32
        }
    }
}

impl HeuristicBot {
    pub fn new(seed: u64) -> Self {
        HeuristicBot {
            rng: Rng::new(seed ^ 0x4e75_7231_5354_4943),
            legal: LegalActions::default(),
            spots: Vec::with_capacity(64),
            memory: [Memory::default(); MAX_SEATS],
            fallbacks: 0,
            barbarian_features: true,
        }
    }

    /// The bot without Barbarian Invasion's features: it plays the scenario through its
    /// general rules and takes the first listed choice in the scenario's own phases, as it
    /// did before them. Only for measuring what the features are worth.
    pub fn without_barbarian_features(mut self) -> Self {
        self.barbarian_features = false;
        self
    }

    /// Chooses an action for `seat`, or `None` if it has nothing to do now (no legal
    /// action, or it is the current player waiting for answers to its offer).
    pub fn choose(&mut self, game: &Game, seat: Seat) -> Option<Action> {
        let seen = Seen::with_features(game, seat, self.barbarian_features);
        let mut legal = std::mem::take(&mut self.legal);
        seen.legal_into(&mut legal);
        let out = if legal.is_empty() {
            None
        } else {
            match self.decide(&seen, &legal) {
                Decision::Act(a) if covers(&seen, &legal, &a) => Some(a),
                Decision::Wait => None,
                Decision::Act(_) => {
                    self.fallbacks += 1;
                    Some(fallback(&seen, &legal))
                }
            }
        };
        self.legal = legal;
        out
    }

    fn decide(&mut self, seen: &Seen, legal: &LegalActions) -> Decision {
        let eval = Eval::new(seen);
        let mem = &mut self.memory[seen.me as usize];
        if mem.turn != seen.turn() {
            *mem = Memory {
                turn: seen.turn(),
                ..Memory::default()
            };
        }
        let plan = if seen.in_setup() {
            Plan::NOTHING
        } else {
            plan::choose(seen, &eval, &mut self.spots)
        };
        let ctx = Ctx {
            seen,
            eval: &eval,
            plan,
            legal,
            salt: self.rng.next_u64(),
        };
        let me = seen.me;
        let a = match seen.phase() {
            Phase::SetupSettlement => setup::settlement(&ctx),
            Phase::SetupRoad { corner } => setup::road(&ctx, corner),
            Phase::Roll => dev::before_roll(&ctx)
                .or_else(|| helpers::before_roll(&ctx))
                .unwrap_or(Action::RollDice),
            Phase::Discard => discard::action(&ctx),
            Phase::MoveRobber => robber::choose(&ctx),
            Phase::RoadBuilding { .. } => build::free_road(&ctx, &mut self.spots),
            Phase::SpecialBuild { .. } => build::special(&ctx, &mut self.spots),
            Phase::Main if seen.current() == me => match build::main_turn(&ctx, mem, &mut self.spots) {
                // Barbarian Invasion, after building: knights move where they gain
                // something (a knight placed on the castle this turn must leave it).
                Some(Action::EndTurn) if seen.barb => {
                    barbarians::move_knight(&ctx).unwrap_or(Action::EndTurn)
                }
                Some(Action::EndTurn) if !legal.actions.contains(&Action::EndTurn) => legal
                    .actions
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Barbarians(BarbariansAction::MoveKnight { .. })))
                    .unwrap_or(Action::EndTurn),
                Some(a) => a,
                None => return Decision::Wait,
            },
            Phase::Main => trade::answer(&ctx),
            Phase::Helpers(_) => helpers::decision(&ctx),
            Phase::Frenemies(FrenemiesPhase::GiftOffered) => frenemies::answer_gift(&ctx),
            Phase::Frenemies(FrenemiesPhase::ReturnToken) => frenemies::return_token(&ctx),
            Phase::Barbarians(p) => barbarians::decision(&ctx, p).unwrap_or_else(|| fallback(seen, legal)),
            Phase::GameOver { .. } => return Decision::Wait,
            // A phase of a scenario this bot does not know yet (one added to the rules
            // later): a plain legal action rather than none.
            #[allow(unreachable_patterns)]
            _ => fallback(seen, legal),
        };
        Decision::Act(a)
    }
}

enum Decision {
    Act(Action),
    /// Nothing to do until others have answered.
    Wait,
}

/// True if `a` is a legal action of the seat: listed, or filling one of its requirements
/// exactly as the requirement states.
pub fn covers(seen: &Seen, legal: &LegalActions, a: &Action) -> bool {
    if legal.actions.contains(a) {
        return true;
    }
    let hand = seen.hand();
    let terms_ok = |give: &ResourceSet, get: &ResourceSet| {
        !give.is_empty() && !get.is_empty() && !give.overlaps(get) && hand.contains(give)
    };
    legal.requirements.iter().any(|req| match (*req, *a) {
        (Requirement::Discard { count }, Action::Discard { cards }) => {
            cards.total() == count as u32 && hand.contains(&cards)
        }
        (Requirement::OfferTrade, Action::OfferTrade { give, get, to, .. }) => {
            let others = ((1u16 << seen.n) - 1) as u8 & !(1 << seen.me);
            terms_ok(&give, &get) && to.0 & !others == 0
        }
        (Requirement::CounterOffer, Action::CounterOffer { give, get, .. }) => terms_ok(&give, &get),
        (Requirement::UseStina { resource, max }, Action::Helpers(HelpersAction::UseStina { give, get })) => {
            give == resource
                && get.total() >= 1
                && get.total() <= max as u32
                && get[give] == 0
                && seen.bank().contains(&get)
        }
        _ => false,
    })
}

/// A safe legal action when the heuristic's choice was not covered: end the turn or roll
/// if possible, else the first listed action, else the first requirement filled plainly.
fn fallback(seen: &Seen, legal: &LegalActions) -> Action {
    for a in [Action::EndTurn, Action::RollDice, Action::DeclineTrade] {
        if legal.actions.contains(&a) {
            return a;
        }
    }
    if let Some(&a) = legal.actions.first() {
        return a;
    }
    match legal.requirements[0] {
        Requirement::Discard { count } => {
            let mut left = seen.hand();
            let mut cards = ResourceSet::EMPTY;
            for _ in 0..count {
                let r = Resource::ALL.into_iter().max_by_key(|&r| left[r]).unwrap();
                left[r] -= 1;
                cards[r] += 1;
            }
            Action::Discard { cards }
        }
        // Every other requirement is optional and comes with a listed action.
        _ => Action::EndTurn,
    }
}
