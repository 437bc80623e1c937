//! The scenario seam: the one place where the core meets the scenarios.
//!
//! The active scenario's state is one field of [`Game`], a [`ScenarioState`] (`Copy`, so
//! games still clone flat). The core calls one named hook per moment — after set-up,
//! after production, on a 7, after a robber move, after a build, on buying a card, at
//! the end and the start of a turn, for victory points, legal actions, views and invariants — and each
//! hook dispatches to the active scenario's module with one arm per scenario. Hooks that
//! return a `Step` may replace the core's step rather than follow it (a scenario that
//! brings its own robber or deck answers `Step::Replaced`).
//!
//! A scenario's actions, events and phases are its own enums, joined to the core ones by
//! one `#[serde(untagged)]` variant each (`Action::Helpers`, `Event::Helpers`,
//! `Phase::Helpers`), so the JSON stays flat and tagged by `"type"` (`"phase"`). Its view
//! is one optional field of [`View`].
//!
//! Adding a scenario: a module under `src/`, a variant of [`crate::config::Scenario`] and
//! of [`ScenarioState`], one variant of `Action` / `Event` / `Phase` (as needed) with its
//! arm in `Game::dispatch`, `Game::waiting_on` and `Game::phase_reason`, one field of
//! [`View`], and one arm in each hook below that the scenario cares about. Positions: one
//! field of [`Position`] for the scenario's part, and one function in its module that
//! validates the part and builds the state (an arm in `ScenarioState::from_position`),
//! with its reverse in `Game::hook_position`.

use crate::action::{LegalActions, Seat, SeatSet};
use crate::barbarians::BarbariansState;
use crate::board::Board;
use crate::config::{GameConfig, Scenario};
use crate::error::RuleError;
use crate::event::Event;
use crate::frenemies::FrenemiesState;
use crate::game::{Game, Phase};
use crate::helpers::HelpersState;
use crate::position::{Position, PositionError};
use crate::rng::Rng;
use crate::view::{View, Viewer};

/// The active scenario and everything it adds to a game.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioState {
    /// The base game (with the 5–6 extension when configured): no scenario.
    Base,
    Helpers(HelpersState),
    Frenemies(FrenemiesState),
    Barbarians(BarbariansState),
}

/// What a replaceable hook did with the core's step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Nothing: the core carries out its own step.
    Core,
    /// The scenario carried out the step itself; the core skips its own.
    Replaced,
}

/// A piece just placed, as the after-build hook sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Built {
    /// Any road: set-up, paid, free or a scenario's (check `Game::in_setup`).
    Road {
        edge: u8,
    },
    Settlement {
        corner: u8,
    },
    City {
        corner: u8,
    },
}

impl ScenarioState {
    /// The starting state of `config`'s scenario (its random set-up from `rng`).
    pub(crate) fn new(config: &GameConfig, board: &Board, rng: &mut Rng) -> ScenarioState {
        match config.scenario {
            None => ScenarioState::Base,
            Some(Scenario::Helpers) => ScenarioState::Helpers(HelpersState::new(config, rng)),
            Some(Scenario::Frenemies) => ScenarioState::Frenemies(FrenemiesState::new(config)),
            Some(Scenario::Barbarians) => ScenarioState::Barbarians(BarbariansState::new(board, rng)),
        }
    }

    pub fn barbarians(&self) -> Option<&BarbariansState> {
        match self {
            ScenarioState::Barbarians(b) => Some(b),
            _ => None,
        }
    }

    pub(crate) fn barbarians_mut(&mut self) -> Option<&mut BarbariansState> {
        match self {
            ScenarioState::Barbarians(b) => Some(b),
            _ => None,
        }
    }

    pub fn helpers(&self) -> Option<&HelpersState> {
        match self {
            ScenarioState::Helpers(h) => Some(h),
            _ => None,
        }
    }

    pub(crate) fn helpers_mut(&mut self) -> Option<&mut HelpersState> {
        match self {
            ScenarioState::Helpers(h) => Some(h),
            _ => None,
        }
    }

    pub fn frenemies(&self) -> Option<&FrenemiesState> {
        match self {
            ScenarioState::Frenemies(f) => Some(f),
            _ => None,
        }
    }

    pub(crate) fn frenemies_mut(&mut self) -> Option<&mut FrenemiesState> {
        match self {
            ScenarioState::Frenemies(f) => Some(f),
            _ => None,
        }
    }
}

/// Hook: a scenario that brings its own board lays it out here (from the game RNG, in
/// place of the core's layout); `None`: the core's board.
pub(crate) fn generate_board(config: &GameConfig, rng: &mut Rng) -> Option<Board> {
    match config.scenario {
        Some(Scenario::Barbarians) => Some(crate::barbarians::generate_board(rng)),
        None | Some(Scenario::Helpers) | Some(Scenario::Frenemies) => None,
    }
}

/// Whether the scenario can move a road away from the building it served (The Helpers'
/// Högni moves an end road), so that a building may stand without a road of its owner.
pub(crate) fn roads_can_move(config: &GameConfig) -> bool {
    match config.scenario {
        None | Some(Scenario::Frenemies) | Some(Scenario::Barbarians) => false,
        Some(Scenario::Helpers) => true,
    }
}

impl ScenarioState {
    /// The scenario state a position describes: its scenario's part, validated against the
    /// rest of `game` (built from the same position), by the scenario's own function. A
    /// part for a scenario the game does not play is refused; adding a scenario adds its
    /// field to [`Position`], its name below and one arm.
    pub(crate) fn from_position(
        game: &mut Game,
        position: &Position,
    ) -> Result<ScenarioState, PositionError> {
        let parts = [
            (Scenario::Helpers, "helpers", position.helpers.is_some()),
            (Scenario::Frenemies, "frenemies", position.frenemies.is_some()),
            (Scenario::Barbarians, "barbarians", position.barbarians.is_some()),
        ];
        for (scenario, name, given) in parts {
            if given && game.config.scenario != Some(scenario) {
                return Err(PositionError::Scenario {
                    scenario: name,
                    reason: "the position has a part for a scenario this game does not play".into(),
                });
            }
        }
        let missing = |scenario: &'static str| PositionError::Scenario {
            scenario,
            reason: "the game plays this scenario: the position needs its part".into(),
        };
        Ok(match game.config.scenario {
            None => ScenarioState::Base,
            Some(Scenario::Helpers) => {
                let part = position.helpers.as_ref().ok_or_else(|| missing("helpers"))?;
                ScenarioState::Helpers(game.helpers_from_position(part)?)
            }
            Some(Scenario::Frenemies) => {
                let part = position.frenemies.as_ref().ok_or_else(|| missing("frenemies"))?;
                ScenarioState::Frenemies(game.frenemies_from_position(part)?)
            }
            Some(Scenario::Barbarians) => {
                let part = position
                    .barbarians
                    .as_ref()
                    .ok_or_else(|| missing("barbarians"))?;
                ScenarioState::Barbarians(game.barbarians_from_position(part)?)
            }
        })
    }
}

/// Hook: a scenario that brings its own board checks a position's board against its own
/// components (in place of the core's layout); `None`: the core's check.
pub(crate) fn board_from_parts(
    config: &GameConfig,
    terrain: &[crate::board::Terrain],
    tokens: &[Option<u8>],
    harbors: &[crate::board::HarborKind],
) -> Option<Result<Board, String>> {
    match config.scenario {
        Some(Scenario::Barbarians) => Some(crate::barbarians::board_from_parts(terrain, tokens, harbors)),
        None | Some(Scenario::Helpers) | Some(Scenario::Frenemies) => None,
    }
}

impl Game {
    /// Hook: the scenario's part of [`Game::position`].
    pub(crate) fn hook_position(&self, p: &mut Position) {
        match &self.scenario {
            ScenarioState::Base => {}
            ScenarioState::Helpers(h) => p.helpers = Some(self.helpers_position(h)),
            ScenarioState::Frenemies(f) => p.frenemies = Some(self.frenemies_position(f)),
            ScenarioState::Barbarians(b) => p.barbarians = Some(self.barbarians_position(b)),
        }
    }

    /// Hook: the scenario state of a position is in place: derived state follows it
    /// (Barbarian Invasion: no harbor through a conquered building).
    pub(crate) fn hook_position_set(&mut self) {
        if let ScenarioState::Barbarians(_) = self.scenario {
            self.barbarians_recompute_harbors();
        }
    }

    /// Hook: development cards by kind the scenario holds outside the deck, the hands and
    /// the played pile (Diara's look).
    pub(crate) fn hook_cards_aside(&self) -> [u8; 5] {
        match &self.scenario {
            ScenarioState::Base | ScenarioState::Frenemies(_) | ScenarioState::Barbarians(_) => [0; 5],
            ScenarioState::Helpers(h) => self.helpers_cards_aside(h),
        }
    }

    /// The active scenario's state.
    pub fn scenario_state(&self) -> &ScenarioState {
        &self.scenario
    }

    /// Hook: right after `seat`'s last set-up road.
    pub(crate) fn hook_after_setup(&mut self, seat: Seat, out: &mut Vec<Event>) {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Frenemies(_) | ScenarioState::Barbarians(_) => {}
            ScenarioState::Helpers(_) => self.helpers_after_setup(seat, out),
        }
    }

    /// Hook: after a production roll paid `receivers` (the phase is already `Main`).
    pub(crate) fn hook_after_production(&mut self, receivers: SeatSet, _out: &mut Vec<Event>) {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Frenemies(_) | ScenarioState::Barbarians(_) => {}
            ScenarioState::Helpers(_) => self.helpers_after_production(receivers),
        }
    }

    /// Hook: a 7 was rolled. Replaceable: the core's step is the discards followed by the
    /// robber move ([`Game::start_discards`]).
    pub(crate) fn hook_on_seven(&mut self, out: &mut Vec<Event>) -> Step {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Frenemies(_) => Step::Core,
            ScenarioState::Helpers(_) => self.helpers_on_seven(out),
            ScenarioState::Barbarians(_) => self.barbarians_on_seven(out),
        }
    }

    /// Hook: every discard after a 7 is in (the phase is already `MoveRobber`).
    /// Replaceable: the core's step is the robber move.
    pub(crate) fn hook_discards_done(&mut self) -> Step {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Frenemies(_) => Step::Core,
            ScenarioState::Barbarians(_) => self.barbarians_discards_done(),
        }
    }

    /// Hook: does `hex` produce when its number is rolled (the robber aside)?
    #[inline]
    pub(crate) fn hook_hex_produces(&self, hex: u8) -> bool {
        match &self.scenario {
            ScenarioState::Barbarians(b) => !b.is_conquered(hex),
            _ => true,
        }
    }

    /// Hook: corners where no settlement may be placed, whoever builds.
    #[inline]
    pub(crate) fn hook_forbidden_corners(&self) -> u128 {
        match &self.scenario {
            ScenarioState::Barbarians(_) => self.barbarians_forbidden_corners(),
            _ => 0,
        }
    }

    /// Hook: edges where no road may be built, whoever builds.
    #[inline]
    pub(crate) fn hook_forbidden_edges(&self) -> u128 {
        match &self.scenario {
            ScenarioState::Barbarians(_) => self.barbarians_forbidden_edges(),
            _ => 0,
        }
    }

    /// Hook: may the settlement on `corner` become a city (besides the core's checks)?
    pub(crate) fn hook_may_upgrade(&self, corner: u8) -> bool {
        match &self.scenario {
            ScenarioState::Barbarians(_) => !self.building_conquered(corner),
            _ => true,
        }
    }

    /// Hook: is the second set-up building a city?
    pub(crate) fn hook_setup_city(&self) -> bool {
        matches!(self.scenario, ScenarioState::Barbarians(_))
    }

    /// Hook: may `seat` end the turn now (checked before anything changes)?
    pub(crate) fn hook_may_end_turn(&self, seat: Seat) -> Result<(), RuleError> {
        match &self.scenario {
            ScenarioState::Barbarians(_) => self.may_end_turn_barbarians(seat),
            _ => Ok(()),
        }
    }

    /// Hook: points the core counts for `seat` that the scenario takes away (conquered
    /// buildings).
    #[inline]
    pub(crate) fn hook_vp_withheld(&self, seat: Seat) -> u8 {
        match &self.scenario {
            ScenarioState::Barbarians(_) => self.barbarians_vp_withheld(seat),
            _ => 0,
        }
    }

    /// Hook: `seat` moved the robber to `hex` (stealing from `victim`, if any).
    pub(crate) fn hook_robber_moved(
        &mut self,
        seat: Seat,
        hex: u8,
        victim: Option<Seat>,
        out: &mut Vec<Event>,
    ) {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Barbarians(_) => {}
            ScenarioState::Frenemies(_) => self.frenemies_robber_moved(seat, hex, victim, out),
        }
    }

    /// Hook: may the robber go to `hex` without stealing although someone could be
    /// robbed there? (The core says no.)
    pub(crate) fn hook_may_skip_steal(&self, hex: u8) -> bool {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Barbarians(_) => false,
            ScenarioState::Frenemies(_) => self.frenemies_may_skip_steal(hex),
        }
    }

    /// Hook: `seat` placed `built` (paid, free or during set-up).
    pub(crate) fn hook_after_build(&mut self, seat: Seat, built: Built, out: &mut Vec<Event>) {
        match (&self.scenario, built) {
            (ScenarioState::Frenemies(_), Built::Road { edge }) => self.frenemies_after_road(seat, edge, out),
            (ScenarioState::Barbarians(_), Built::Settlement { .. } | Built::City { .. })
                if !self.in_setup() =>
            {
                self.barbarians_land(out)
            }
            (ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Frenemies(_), _)
            | (ScenarioState::Barbarians(_), _) => {}
        }
    }

    /// Hook: `seat` buys a development card (the turn and phase are checked). Replaceable:
    /// the core's step pays and draws from the deck.
    pub(crate) fn hook_buy_card(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<Step, RuleError> {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Frenemies(_) => Ok(Step::Core),
            ScenarioState::Barbarians(_) => self.barbarians_buy_card(seat, out),
        }
    }

    /// Hook: `seat` ends its own turn (before any Special Building Phase).
    pub(crate) fn hook_end_turn(&mut self, _seat: Seat, out: &mut Vec<Event>) {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Frenemies(_) => {}
            ScenarioState::Barbarians(_) => self.barbarians_battle(out),
        }
    }

    /// Hook: `seat`'s turn begins (after the previous turn and any Special Building
    /// Phase).
    pub(crate) fn hook_turn_started(&mut self, _seat: Seat, _out: &mut Vec<Event>) {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) => {}
            ScenarioState::Frenemies(_) => self.frenemies_new_turn(),
            ScenarioState::Barbarians(_) => self.barbarians_new_turn(),
        }
    }

    /// Hook: Paired Players: player 2 (`seat`) begins their part of the current turn
    /// ([`crate::paired`]); per-turn limits start afresh for them.
    pub(crate) fn hook_paired_part_started(&mut self, _seat: Seat, _out: &mut Vec<Event>) {
        match self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) | ScenarioState::Barbarians(_) => {}
            ScenarioState::Frenemies(_) => self.frenemies_turn_limits_reset(),
        }
    }

    /// Hook: public victory points the scenario adds for `seat`.
    #[inline]
    pub(crate) fn hook_public_vp(&self, seat: Seat) -> u8 {
        match &self.scenario {
            ScenarioState::Base | ScenarioState::Helpers(_) => 0,
            ScenarioState::Frenemies(f) => f.markers[seat as usize],
            ScenarioState::Barbarians(b) => b.prisoners[seat as usize] / 2,
        }
    }

    /// Hook: the scenario's legal actions of `seat`, after the core's.
    pub(crate) fn hook_legal(&self, seat: Seat, out: &mut LegalActions) {
        match self.scenario {
            ScenarioState::Base => {}
            ScenarioState::Helpers(_) => self.helpers_legal(seat, out),
            ScenarioState::Frenemies(_) => self.frenemies_legal(seat, out),
            ScenarioState::Barbarians(_) => self.barbarians_legal(seat, out),
        }
    }

    /// Hook: who the game waits on in one of the scenario's own phases.
    pub(crate) fn hook_waiting_on(&self, s: &mut SeatSet) {
        match &self.scenario {
            ScenarioState::Base => {}
            ScenarioState::Helpers(h) => {
                if let Some(seat) = h.pending.seat() {
                    s.insert(seat);
                }
            }
            ScenarioState::Frenemies(_) => self.frenemies_waiting_on(s),
            ScenarioState::Barbarians(_) => self.barbarians_waiting_on(s),
        }
    }

    /// Hook: the scenario's part of `viewer`'s view (its hidden parts stripped here).
    pub(crate) fn hook_view(&self, viewer: Viewer, v: &mut View) {
        match &self.scenario {
            ScenarioState::Base => {}
            ScenarioState::Helpers(h) => v.helpers = Some(self.helpers_view(h, viewer)),
            ScenarioState::Frenemies(f) => v.frenemies = Some(self.frenemies_view(f, viewer)),
            ScenarioState::Barbarians(b) => {
                // The core deck is not played: the size shown is the scenario's deck.
                v.deck_size = b.deck_len;
                v.barbarians = Some(self.barbarians_view(b, viewer));
            }
        }
    }

    /// Hook: the scenario's part of [`Game::seat_parts`], where a seat sees more than a
    /// spectator (Barbarian Invasion shows everyone the same).
    pub(crate) fn hook_seat_parts(&self, seat: Seat, parts: &mut crate::view::SeatParts) {
        match &self.scenario {
            ScenarioState::Base | ScenarioState::Barbarians(_) => {}
            ScenarioState::Helpers(h) => parts.helpers = self.helpers_seat_view(h, seat),
            ScenarioState::Frenemies(f) => parts.frenemies = Some(self.frenemies_view(f, Viewer::Seat(seat))),
        }
    }

    /// Hook: development cards the scenario holds outside hands, deck and discard pile:
    /// (knights taken off the table, cards being looked at).
    pub(crate) fn hook_dev_cards_aside(&self) -> (u32, u32) {
        match &self.scenario {
            ScenarioState::Base | ScenarioState::Frenemies(_) | ScenarioState::Barbarians(_) => (0, 0),
            ScenarioState::Helpers(h) => h.dev_cards_aside(),
        }
    }

    /// Hook: the scenario's own invariants.
    pub(crate) fn hook_invariants(&self) -> Result<(), String> {
        match &self.scenario {
            ScenarioState::Base => Ok(()),
            ScenarioState::Helpers(h) => self.check_helper_invariants(h),
            ScenarioState::Frenemies(f) => self.check_frenemies_invariants(f),
            ScenarioState::Barbarians(b) => self.check_barbarian_invariants(b),
        }
    }

    /// True in set-up (used by scenario invariants).
    pub(crate) fn in_setup(&self) -> bool {
        matches!(self.phase, Phase::SetupSettlement | Phase::SetupRoad { .. })
    }
}
