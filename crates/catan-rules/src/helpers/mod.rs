//! Scenario: CATAN – The Helpers (`helpers.md`).
//!
//! Each player always has one helper tile. Using its advantage is an action of its own
//! (or a variant of a build/buy action for Yngvi, Diara and Gregor); follow-up decisions
//! (Asla's returns, Diara's keep, Ryan's pick, Hilda's and Thorolf's reactions, and the
//! flip-or-exchange after every use) run in the scenario's own phase
//! ([`HelpersPhase::Decision`]), which then resumes the phase it interrupted. The core
//! reaches this module only through the scenario seam ([`crate::scenario`]): after the
//! second set-up road, after a production roll (Hilda), on a rolled 7 (Thorolf, which
//! replaces the core's discard step), for legal actions, views and invariants; the
//! scenario's actions arrive as [`HelpersAction`] through `Game::helpers_apply`.

mod asla;
mod carla;
mod diara;
mod digur;
mod gregor;
mod hilda;
mod hogni;
mod kaja;
mod position;
mod ryan;
mod stina;
mod thorolf;
mod wire;
mod yngvi;

pub use position::{HeldPosition, HelpersPosition};
pub use wire::{HelpersAction, HelpersEvent};

use crate::action::{Action, DevCard, LegalActions, Requirement, Seat};
use crate::config::{GameConfig, MAX_SEATS};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// The twelve helpers, numbered as the rules list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Helper {
    Asla,
    Yngvi,
    Hilda,
    Hogni,
    Thorolf,
    Diara,
    Ryan,
    Gregor,
    Stina,
    Digur,
    Kaja,
    Carla,
}

impl Helper {
    pub const ALL: [Helper; 12] = [
        Helper::Asla,
        Helper::Yngvi,
        Helper::Hilda,
        Helper::Hogni,
        Helper::Thorolf,
        Helper::Diara,
        Helper::Ryan,
        Helper::Gregor,
        Helper::Stina,
        Helper::Digur,
        Helper::Kaja,
        Helper::Carla,
    ];
    /// Digur, Kaja and Carla may be used before the roll; the others, like trading and
    /// building, only after it (Decision: the spec says "own turn" for most).
    pub fn usable_before_roll(self) -> bool {
        matches!(self, Helper::Digur | Helper::Kaja | Helper::Carla)
    }

    pub fn bit(self) -> u16 {
        1 << self as u16
    }
    pub fn from_index(i: usize) -> Helper {
        Helper::ALL[i]
    }
}

/// Iterates the helpers in a bitmask.
pub fn helpers_in(mask: u16) -> impl Iterator<Item = Helper> {
    (0..12)
        .filter(move |i| mask & (1 << i) != 0)
        .map(Helper::from_index)
}

/// The scenario's own phase, joined to [`Phase`] as `Phase::Helpers` (on the wire
/// `{"phase": "helper_decision"}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum HelpersPhase {
    /// A follow-up decision: see the scenario state's `pending`.
    #[serde(rename = "helper_decision")]
    Decision,
}

impl HelpersPhase {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            HelpersPhase::Decision => "a helper decision is pending",
        }
    }
}

/// A follow-up decision the game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Pending {
    None,
    /// `seat` just used its helper: flip (sun side only) or exchange.
    FlipOrExchange {
        seat: Seat,
    },
    /// Asla: `seat` owes a card back to `to[next]`, …, up to `count`.
    AslaReturn {
        seat: Seat,
        to: [Seat; 2],
        next: u8,
        count: u8,
    },
    /// Diara: `seat` keeps one of the `count` cards looked at. The cards themselves are
    /// not serialized: views show them to the user alone (`HelpersView::looked_at`).
    DiaraKeep {
        seat: Seat,
        #[serde(skip, default = "no_cards")]
        cards: [DevCard; 3],
        count: u8,
    },
    /// Ryan: `seat` sees `target`'s hand and takes one card.
    RyanTake {
        seat: Seat,
        target: Seat,
    },
    /// Hilda: `seat` may take one resource (or decline).
    HildaOffer {
        seat: Seat,
    },
    /// Thorolf: `seat` (7 or fewer cards) takes one resource.
    ThorolfTake {
        seat: Seat,
    },
}

impl Pending {
    pub fn seat(&self) -> Option<Seat> {
        match *self {
            Pending::None => None,
            Pending::FlipOrExchange { seat }
            | Pending::AslaReturn { seat, .. }
            | Pending::DiaraKeep { seat, .. }
            | Pending::RyanTake { seat, .. }
            | Pending::HildaOffer { seat }
            | Pending::ThorolfTake { seat } => Some(seat),
        }
    }
}

fn no_cards() -> [DevCard; 3] {
    [DevCard::Knight; 3]
}

const NEVER: u32 = u32::MAX;

/// Everything the scenario adds to a game. `Copy`, so games still clone flat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelpersState {
    pub held: [Option<Helper>; MAX_SEATS],
    /// True when the holder's helper shows its moon side.
    pub moon: [bool; MAX_SEATS],
    /// The turn in which each seat received its current helper (0 = set-up).
    pub received_turn: [u32; MAX_SEATS],
    /// The turn in which each seat last used a helper.
    pub used_turn: [u32; MAX_SEATS],
    /// Starting stack, bottom first; the top is `stack[stack_len - 1]`.
    pub stack: [Helper; MAX_SEATS],
    pub stack_len: u8,
    pub display: u16,
    pub out: u16,
    pub pending: Pending,
    /// The phase to return to once the pending decisions are done.
    pub resume: Phase,
    /// Knights taken out of the game by Gregor.
    pub knights_removed: u8,
}

impl HelpersState {
    /// Development cards aside: (knights Gregor removed, cards Diara is looking at).
    pub(crate) fn dev_cards_aside(&self) -> (u32, u32) {
        let looking = match self.pending {
            Pending::DiaraKeep { count, .. } => count as u32,
            _ => 0,
        };
        (self.knights_removed as u32, looking)
    }

    /// Starting stack 1..N, display N random others (or all with `all_helpers`), the rest
    /// out of the game.
    pub fn new(config: &GameConfig, rng: &mut Rng) -> HelpersState {
        let n = config.players as usize;
        let mut stack = [Helper::Asla; MAX_SEATS];
        stack[..n].copy_from_slice(&Helper::ALL[..n]);
        let mut rest: Vec<Helper> = Helper::ALL[n..].to_vec();
        rng.shuffle(&mut rest);
        let shown = if config.all_helpers {
            rest.len()
        } else {
            n.min(rest.len())
        };
        let display = rest[..shown].iter().fold(0u16, |m, h| m | h.bit());
        let out = rest[shown..].iter().fold(0u16, |m, h| m | h.bit());
        HelpersState {
            held: [None; MAX_SEATS],
            moon: [false; MAX_SEATS],
            received_turn: [0; MAX_SEATS],
            used_turn: [NEVER; MAX_SEATS],
            stack,
            stack_len: n as u8,
            display,
            out,
            pending: Pending::None,
            resume: Phase::Roll,
            knights_removed: 0,
        }
    }
}

impl Game {
    /// The scenario state (panics outside The Helpers; callers check first).
    pub(crate) fn hs(&self) -> &HelpersState {
        self.scenario.helpers().expect("helpers scenario")
    }
    pub(crate) fn hs_mut(&mut self) -> &mut HelpersState {
        self.scenario.helpers_mut().expect("helpers scenario")
    }

    pub fn helpers_state(&self) -> Option<&HelpersState> {
        self.scenario.helpers()
    }

    /// The timing limits every helper shares: not in the turn it was received, at most
    /// once per turn. The one place these are decided (own-turn uses, Hilda, Thorolf).
    pub(crate) fn helper_rested(&self, seat: Seat) -> Result<(), RuleError> {
        let h = self.hs();
        if h.received_turn[seat as usize] == self.turn {
            return Err(RuleError::helper(
                "a helper cannot be used in the turn it was received",
            ));
        }
        if h.used_turn[seat as usize] == self.turn {
            return Err(RuleError::helper("a helper can be used only once per turn"));
        }
        Ok(())
    }

    /// Common checks for using `helper` on one's own turn: the scenario is on, it is the
    /// user's turn in the main phase (or before the roll, for the helpers allowing it),
    /// the user holds the helper, and it is rested.
    pub(crate) fn check_own_helper(
        &self,
        seat: Seat,
        helper: Helper,
        action: &'static str,
    ) -> Result<(), RuleError> {
        if self.scenario.helpers().is_none() {
            return Err(RuleError::helper("this game is not played with The Helpers"));
        }
        self.require_own_turn(seat, action)?;
        match self.phase {
            Phase::Main => {}
            Phase::Roll if helper.usable_before_roll() => {}
            _ => return Err(self.wrong_phase(action)),
        }
        if self.hs().held[seat as usize] != Some(helper) {
            return Err(RuleError::helper("you do not hold that helper"));
        }
        self.helper_rested(seat)
    }

    /// Carries out one of the scenario's actions (the seam's one dispatch arm).
    pub(crate) fn helpers_apply(
        &mut self,
        seat: Seat,
        action: HelpersAction,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match action {
            HelpersAction::UseAsla {
                resource,
                first,
                second,
            } => self.use_asla(seat, resource, first, second, out),
            HelpersAction::AslaReturn { resource } => self.asla_return(seat, resource, out),
            HelpersAction::BuildRoadWithYngvi { edge, replace, with } => {
                self.use_yngvi(seat, edge, replace, with, out)
            }
            HelpersAction::UseHilda { resource } => self.use_hilda(seat, resource, out),
            HelpersAction::DeclineHilda => self.decline_hilda(seat),
            HelpersAction::UseHogni { from, to } => self.use_hogni(seat, from, to, out),
            HelpersAction::ThorolfTake { resource } => self.thorolf_take(seat, resource, out),
            HelpersAction::BuyDevelopmentCardWithDiara { replace, with } => {
                self.use_diara(seat, replace, with, out)
            }
            HelpersAction::DiaraKeep { index } => self.diara_keep(seat, index, out),
            HelpersAction::UseRyan { target } => self.use_ryan(seat, target, out),
            HelpersAction::RyanTake { resource } => self.ryan_take(seat, resource, out),
            HelpersAction::UseGregor { corner, city } => self.use_gregor(seat, corner, city, out),
            HelpersAction::UseStina { give, get } => self.use_stina(seat, give, get, out),
            HelpersAction::UseDigur { desert } => self.use_digur(seat, desert, out),
            HelpersAction::UseKaja { resource } => self.use_kaja(seat, resource, out),
            HelpersAction::UseCarla { card } => self.use_carla(seat, card, out),
            HelpersAction::HelperFlip => self.helper_flip(seat, out),
            HelpersAction::HelperExchange { helper } => self.helper_exchange(seat, helper, out),
        }
    }

    /// Hook: the scenario's legal actions: a helper's use on one's own turn, or the
    /// pending decision's choices.
    pub(crate) fn helpers_legal(&self, seat: Seat, out: &mut LegalActions) {
        match self.phase {
            Phase::Roll | Phase::Main => {
                self.push_helper_actions(seat, &mut out.actions, &mut out.requirements)
            }
            Phase::Helpers(_) => self.push_pending_actions(seat, &mut out.actions),
            _ => {}
        }
    }

    /// Enters the decision phase for `pending`, remembering where to resume.
    pub(crate) fn begin_pending(&mut self, pending: Pending) {
        if self.phase != Phase::Helpers(HelpersPhase::Decision) {
            let resume = self.phase;
            self.hs_mut().resume = resume;
            self.phase = Phase::Helpers(HelpersPhase::Decision);
        }
        self.hs_mut().pending = pending;
    }

    /// Marks `helper` used by `seat` and asks for flip or exchange.
    pub(crate) fn helper_used(&mut self, seat: Seat, helper: Helper, out: &mut Vec<Event>) {
        let turn = self.turn;
        self.hs_mut().used_turn[seat as usize] = turn;
        out.push(Event::Helpers(HelpersEvent::HelperUsed { seat, helper }));
    }

    /// After the advantage: on to flip or exchange.
    pub(crate) fn ask_flip_or_exchange(&mut self, seat: Seat) {
        self.begin_pending(Pending::FlipOrExchange { seat });
    }

    /// All decisions done: resume the interrupted phase and run what waits behind it.
    pub(crate) fn end_pending(&mut self) {
        let resume = self.hs().resume;
        self.hs_mut().pending = Pending::None;
        self.phase = resume;
        // A Thorolf decision on a 7 comes before the discards; they may now be complete.
        if self.phase == Phase::Discard && self.discard_pending.iter().all(|&n| n == 0) {
            self.phase = Phase::MoveRobber;
        }
    }

    pub(crate) fn require_pending(&self, seat: Seat, action: &'static str) -> Result<Pending, RuleError> {
        let Some(h) = self.scenario.helpers() else {
            return Err(RuleError::helper("this game is not played with The Helpers"));
        };
        if self.phase != Phase::Helpers(HelpersPhase::Decision) {
            return Err(self.wrong_phase(action));
        }
        if h.pending.seat() != Some(seat) {
            return Err(RuleError::turn(action));
        }
        Ok(h.pending)
    }

    pub(crate) fn helper_flip(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let Pending::FlipOrExchange { .. } = self.require_pending(seat, "helper_flip")? else {
            return Err(self.wrong_phase("helper_flip"));
        };
        if self.hs().moon[seat as usize] {
            return Err(RuleError::helper("a moon-side helper must be exchanged"));
        }
        let helper = self.hs().held[seat as usize].unwrap();
        self.hs_mut().moon[seat as usize] = true;
        out.push(Event::Helpers(HelpersEvent::HelperFlipped { seat, helper }));
        self.end_pending();
        Ok(())
    }

    pub(crate) fn helper_exchange(
        &mut self,
        seat: Seat,
        take: Helper,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Pending::FlipOrExchange { .. } = self.require_pending(seat, "helper_exchange")? else {
            return Err(self.wrong_phase("helper_exchange"));
        };
        if self.hs().display & take.bit() == 0 {
            return Err(RuleError::helper("that helper is not in the display"));
        }
        let turn = self.turn;
        let h = self.hs_mut();
        let returned = h.held[seat as usize].unwrap();
        h.display = (h.display | returned.bit()) & !take.bit();
        h.held[seat as usize] = Some(take);
        h.moon[seat as usize] = false;
        h.received_turn[seat as usize] = turn;
        out.push(Event::Helpers(HelpersEvent::HelperExchanged {
            seat,
            returned,
            took: take,
        }));
        self.end_pending();
        Ok(())
    }

    /// Hook: right after a player's second set-up road, they take the top of the stack.
    pub(crate) fn helpers_after_setup(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.scenario.helpers().is_none() {
            return;
        }
        let h = self.hs_mut();
        h.stack_len -= 1;
        let helper = h.stack[h.stack_len as usize];
        h.held[seat as usize] = Some(helper);
        h.moon[seat as usize] = false;
        h.received_turn[seat as usize] = 0;
        out.push(Event::Helpers(HelpersEvent::HelperTaken { seat, helper }));
    }

    /// The holder of `helper`, if any.
    pub(crate) fn holder_of(&self, helper: Helper) -> Option<Seat> {
        let h = self.scenario.helpers()?;
        (0..self.n).find(|&s| h.held[s as usize] == Some(helper))
    }

    /// Helper-related legal actions of `seat` outside the decision phase.
    pub(crate) fn push_helper_actions(
        &self,
        seat: Seat,
        acts: &mut Vec<Action>,
        reqs: &mut Vec<Requirement>,
    ) {
        let Some(h) = self.scenario.helpers() else { return };
        let Some(helper) = h.held[seat as usize] else {
            return;
        };
        if self.check_own_helper(seat, helper, "use a helper").is_err() {
            return;
        }
        match helper {
            Helper::Asla => self.push_asla(seat, acts),
            Helper::Yngvi => self.push_yngvi(seat, acts),
            Helper::Hogni => self.push_hogni(seat, acts),
            Helper::Diara => self.push_diara(seat, acts),
            Helper::Ryan => self.push_ryan(seat, acts),
            Helper::Gregor => self.push_gregor(seat, acts),
            Helper::Stina => self.push_stina(seat, reqs),
            Helper::Digur => self.push_digur(seat, acts),
            Helper::Kaja => self.push_kaja(seat, acts),
            Helper::Carla => self.push_carla(seat, acts),
            // Hilda and Thorolf react to rolls; they are offered in the decision phase.
            Helper::Hilda | Helper::Thorolf => {}
        }
    }

    /// Legal actions in [`Phase::Helpers(HelpersPhase::Decision)`].
    pub(crate) fn push_pending_actions(&self, seat: Seat, acts: &mut Vec<Action>) {
        let Some(h) = self.scenario.helpers() else { return };
        if h.pending.seat() != Some(seat) {
            return;
        }
        match h.pending {
            Pending::None => {}
            Pending::FlipOrExchange { .. } => {
                if !h.moon[seat as usize] {
                    acts.push(Action::Helpers(HelpersAction::HelperFlip));
                }
                for helper in helpers_in(h.display) {
                    acts.push(Action::Helpers(HelpersAction::HelperExchange { helper }));
                }
            }
            Pending::AslaReturn { .. } => {
                for (r, n) in self.players[seat as usize].hand.iter() {
                    if n > 0 {
                        acts.push(Action::Helpers(HelpersAction::AslaReturn { resource: r }));
                    }
                }
            }
            Pending::DiaraKeep { count, .. } => {
                for index in 0..count {
                    acts.push(Action::Helpers(HelpersAction::DiaraKeep { index }));
                }
            }
            Pending::RyanTake { target, .. } => {
                for (r, n) in self.players[target as usize].hand.iter() {
                    if n > 0 {
                        acts.push(Action::Helpers(HelpersAction::RyanTake { resource: r }));
                    }
                }
            }
            Pending::HildaOffer { .. } => {
                for (r, n) in self.bank.iter() {
                    if n > 0 {
                        acts.push(Action::Helpers(HelpersAction::UseHilda { resource: r }));
                    }
                }
                acts.push(Action::Helpers(HelpersAction::DeclineHilda));
            }
            Pending::ThorolfTake { .. } => {
                for (r, n) in self.bank.iter() {
                    if n > 0 {
                        acts.push(Action::Helpers(HelpersAction::ThorolfTake { resource: r }));
                    }
                }
            }
        }
    }

    /// Scenario invariants: one helper per player after set-up; every tile accounted for.
    pub(crate) fn check_helper_invariants(&self, h: &HelpersState) -> Result<(), String> {
        let mut seen = h.display | h.out;
        if h.display & h.out != 0 {
            return Err("a helper is both in the display and out of the game".into());
        }
        let mut count = h.display.count_ones() + h.out.count_ones();
        for s in 0..self.n as usize {
            if let Some(x) = h.held[s] {
                if seen & x.bit() != 0 {
                    return Err(format!("helper {x:?} in two places"));
                }
                seen |= x.bit();
                count += 1;
            } else if !self.in_setup() {
                return Err(format!("seat {s} holds no helper"));
            }
        }
        for x in &h.stack[..h.stack_len as usize] {
            if seen & x.bit() != 0 {
                return Err(format!("helper {x:?} in two places"));
            }
            seen |= x.bit();
            count += 1;
        }
        if count != 12 || seen != 0xfff {
            return Err(format!("helpers accounted for: {count} of 12"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
