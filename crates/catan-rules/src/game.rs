//! The game state and the single entry point that changes it, [`Game::apply`].
//!
//! Every handler validates completely before it mutates anything, so a refused action
//! leaves the game exactly as it was (the property tests compare whole states).

use crate::action::{Action, DevCard, Seat, SeatSet};
use crate::board::{Board, Topology, NONE};
use crate::config::{ConfigError, GameConfig, MAX_SEATS};
use crate::error::RuleError;
use crate::event::Event;
use crate::resources::ResourceSet;
use crate::rng::Rng;
use crate::scenario::ScenarioState;
use crate::trade::Terms;
use serde::{Deserialize, Serialize};

pub const MAX_DECK: usize = 34;

/// Why a log could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("action {index} of the log was refused: {error}")]
    Refused { index: usize, error: RuleError },
}

/// Everything about one seat. Bitmasks are indexed by corner / edge id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Player {
    pub hand: ResourceSet,
    /// Unplayed development cards by [`DevCard`] index (Victory Point cards included).
    pub dev: [u8; 5],
    /// Of `dev`, the cards bought this turn (not playable yet).
    pub dev_new: [u8; 5],
    /// Face-up knights (count toward Largest Army; The Helpers' Gregor may remove some).
    pub knights: u8,
    /// Development cards played so far, by [`DevCard`] index (public; Victory Point cards
    /// are never played).
    pub played: [u8; 5],
    pub roads_left: u8,
    pub settlements_left: u8,
    pub cities_left: u8,
    /// Current longest road length.
    pub road_len: u8,
    /// Harbor access: bit r for the 2:1 harbor of resource r, bit 5 for a generic one.
    pub harbors: u8,
    pub roads: u128,
    /// Corners touched by this player's roads.
    pub road_corners: u128,
    /// Corners holding this player's settlements and cities.
    pub buildings: u128,
}

impl Player {
    pub(crate) fn new() -> Player {
        Player {
            roads_left: 15,
            settlements_left: 5,
            cities_left: 4,
            ..Player::default()
        }
    }

    pub fn dev_total(&self) -> u32 {
        self.dev.iter().map(|&n| n as u32).sum()
    }

    /// Cards of this kind that may be played now (held and not bought this turn).
    #[inline]
    pub fn playable(&self, card: DevCard) -> u8 {
        self.dev[card.index()] - self.dev_new[card.index()]
    }
}

/// Where the game stands. Each action is checked against the phase first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Set-up: the seat in snake order places a settlement…
    SetupSettlement,
    /// …and then a road touching it.
    SetupRoad {
        corner: u8,
    },
    /// Before the roll (a development card may be played).
    Roll,
    /// After a 7: waiting for everyone holding more than 7 cards.
    Discard,
    /// The current player moves the robber (after a 7 or a Knight).
    MoveRobber,
    /// Trade and build.
    Main,
    /// Placing the free roads of a Road Building card.
    RoadBuilding {
        left: u8,
    },
    /// A special build turn (5–6 extension) of `seat`.
    SpecialBuild {
        seat: Seat,
    },
    GameOver {
        winner: Seat,
    },
    /// The Helpers' own phase (flat on the wire: `{"phase": "helper_decision"}`).
    #[serde(untagged)]
    Helpers(crate::helpers::HelpersPhase),
    /// Frenemies' own phases (flat: `{"phase": "gift_offered"}`, `{"phase": "return_token"}`).
    #[serde(untagged)]
    Frenemies(crate::frenemies::FrenemiesPhase),
    /// Barbarian Invasion's own phases (flat: `{"phase": "move_knights"}`, …).
    #[serde(untagged)]
    Barbarians(crate::barbarians::BarbariansPhase),
}

/// An answer to the open domestic trade offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Response {
    Pending,
    Accepted,
    Declined,
    /// Other terms, from the responder's side (gold only in Barbarian Invasion).
    Countered {
        give: ResourceSet,
        get: ResourceSet,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        give_gold: u16,
        #[serde(default, skip_serializing_if = "crate::action::is_zero")]
        get_gold: u16,
    },
}

/// The current player's open offer: they give `give` and receive `get` (and, in Barbarian
/// Invasion, `give_gold` / `get_gold` coins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TradeOffer {
    pub give: ResourceSet,
    pub get: ResourceSet,
    #[serde(default, skip_serializing_if = "crate::action::is_zero")]
    pub give_gold: u16,
    #[serde(default, skip_serializing_if = "crate::action::is_zero")]
    pub get_gold: u16,
    pub to: SeatSet,
    pub responses: crate::PerSeat<Response>,
}

/// A complete game. `Clone` is a flat copy of about a kilobyte, so bots can search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) config: GameConfig,
    pub(crate) seed: u64,
    pub(crate) rng: Rng,
    pub(crate) board: Board,
    pub(crate) topo: &'static Topology,
    pub(crate) n: u8,
    pub(crate) robber: u8,
    pub(crate) corner_owner: [u8; 128],
    pub(crate) cities: u128,
    /// Corners holding any building.
    pub(crate) occupied: u128,
    /// Corners where the distance rule forbids a settlement (occupied or next to one).
    pub(crate) blocked: u128,
    pub(crate) edge_owner: [u8; 128],
    pub(crate) roads_taken: u128,
    pub(crate) players: [Player; MAX_SEATS],
    pub(crate) bank: ResourceSet,
    pub(crate) deck: [DevCard; MAX_DECK],
    pub(crate) deck_len: u8,
    pub(crate) phase: Phase,
    pub(crate) setup_index: u8,
    pub(crate) current: Seat,
    pub(crate) first: Seat,
    pub(crate) turn: u32,
    pub(crate) rolled: bool,
    pub(crate) dev_played: bool,
    pub(crate) dice: Option<[u8; 2]>,
    pub(crate) discard_pending: [u8; MAX_SEATS],
    pub(crate) longest_road: Option<Seat>,
    pub(crate) largest_army: Option<Seat>,
    pub(crate) offer: Option<TradeOffer>,
    /// Paired Players: during player 2's part of a turn, player 1 (whose turn it is);
    /// `current` is then player 2 ([`crate::paired`]).
    pub(crate) paired: Option<Seat>,
    /// Development cards played so far, by kind (for the conservation check and views).
    pub(crate) cards_played: [u8; 5],
    /// The active scenario's state: the scenario seam ([`crate::scenario`]).
    pub(crate) scenario: ScenarioState,
    pub(crate) actions_applied: u32,
}

/// The seat placing at step `i` (0..2n) of the set-up's snake order from `first`.
pub(crate) fn snake_seat(first: Seat, n: u8, i: u8) -> Seat {
    let k = if i < n { i } else { 2 * n - 1 - i };
    (first + k) % n
}

/// The development deck of a layout, by [`DevCard`] index.
pub(crate) fn deck_counts(layout: crate::board::Layout) -> [u8; 5] {
    match layout {
        crate::board::Layout::Base => [14, 5, 2, 2, 2],
        crate::board::Layout::FiveSix => [20, 5, 3, 3, 3],
    }
}

/// The mask of corner or edge `i` (the board's sets of corners and edges are `u128` masks).
#[inline]
pub fn bit(i: u8) -> u128 {
    1u128 << i
}

/// Iterates the set bits of a mask, lowest first.
#[inline]
pub fn bits(mut m: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(i)
        }
    })
}

impl Game {
    /// A new game: the board is laid out, the deck shuffled and the first player drawn,
    /// all from `seed`.
    pub fn new(config: GameConfig, seed: u64) -> Result<Game, ConfigError> {
        config.validate()?;
        let mut rng = Rng::new(seed);
        let layout = config.layout();
        let board = crate::scenario::generate_board(&config, &mut rng)
            .unwrap_or_else(|| Board::generate(layout, config.tokens, &mut rng));
        let mut deck = [DevCard::Knight; MAX_DECK];
        let mut len = 0;
        for (i, &c) in deck_counts(layout).iter().enumerate() {
            for _ in 0..c {
                deck[len] = DevCard::ALL[i];
                len += 1;
            }
        }
        rng.shuffle(&mut deck[..len]);
        let n = config.players;
        let first = rng.below(n as u32) as Seat;
        let scenario = ScenarioState::new(&config, &board, &mut rng);
        let mut g = Game::assemble(config, seed, rng, board, scenario);
        g.deck = deck;
        g.deck_len = len as u8;
        g.first = first;
        g.current = first;
        Ok(g)
    }

    /// A game on `board` before set-up: no pieces, empty hands, the full bank, an empty
    /// deck, seat 0 first.
    pub(crate) fn assemble(
        config: GameConfig,
        seed: u64,
        rng: Rng,
        board: Board,
        scenario: ScenarioState,
    ) -> Game {
        Game {
            config,
            seed,
            rng,
            board,
            topo: board.layout.topology(),
            n: config.players,
            robber: board.robber_start,
            corner_owner: [NONE; 128],
            cities: 0,
            occupied: 0,
            blocked: 0,
            edge_owner: [NONE; 128],
            roads_taken: 0,
            players: [Player::new(); MAX_SEATS],
            bank: config.bank(),
            deck: [DevCard::Knight; MAX_DECK],
            deck_len: 0,
            phase: Phase::SetupSettlement,
            setup_index: 0,
            current: 0,
            first: 0,
            turn: 0,
            rolled: false,
            dev_played: false,
            dice: None,
            discard_pending: [0; MAX_SEATS],
            longest_road: None,
            largest_army: None,
            offer: None,
            paired: None,
            cards_played: [0; 5],
            scenario,
            actions_applied: 0,
        }
    }

    /// Replays `actions` from a fresh game; the result is identical to the original.
    pub fn replay(config: GameConfig, seed: u64, actions: &[(Seat, Action)]) -> Result<Game, ReplayError> {
        let mut g = Game::new(config, seed)?;
        let mut ev = Vec::new();
        for (index, &(seat, a)) in actions.iter().enumerate() {
            ev.clear();
            g.apply_into(seat, a, &mut ev)
                .map_err(|error| ReplayError::Refused { index, error })?;
        }
        Ok(g)
    }

    // ----- read access -------------------------------------------------------------

    pub fn config(&self) -> &GameConfig {
        &self.config
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn topology(&self) -> &'static Topology {
        self.topo
    }
    pub fn players(&self) -> u8 {
        self.n
    }
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat as usize]
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn current(&self) -> Seat {
        self.current
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn bank(&self) -> ResourceSet {
        self.bank
    }
    pub fn deck_len(&self) -> u8 {
        self.deck_len
    }
    pub fn robber(&self) -> u8 {
        self.robber
    }
    pub fn offer(&self) -> Option<&TradeOffer> {
        self.offer.as_ref()
    }
    pub fn longest_road(&self) -> Option<Seat> {
        self.longest_road
    }
    pub fn largest_army(&self) -> Option<Seat> {
        self.largest_army
    }
    pub fn corner_owner(&self, corner: u8) -> Option<Seat> {
        let o = self.corner_owner[corner as usize];
        (o != NONE).then_some(o)
    }
    pub fn is_city(&self, corner: u8) -> bool {
        self.cities & bit(corner) != 0
    }
    pub fn edge_owner(&self, edge: u8) -> Option<Seat> {
        let o = self.edge_owner[edge as usize];
        (o != NONE).then_some(o)
    }
    pub fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::GameOver { winner } => Some(winner),
            _ => None,
        }
    }
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::GameOver { .. })
    }
    pub fn actions_applied(&self) -> u32 {
        self.actions_applied
    }
    pub fn discard_pending(&self, seat: Seat) -> u8 {
        self.discard_pending[seat as usize]
    }

    /// Points visible to everyone: buildings and titles (no hidden VP cards).
    pub fn public_victory_points(&self, seat: Seat) -> u8 {
        let p = &self.players[seat as usize];
        let settlements = 5 - p.settlements_left;
        let cities = 4 - p.cities_left;
        let mut vp = settlements + 2 * cities;
        if self.longest_road == Some(seat) {
            vp += 2;
        }
        if self.largest_army == Some(seat) {
            vp += 2;
        }
        vp + self.hook_public_vp(seat) - self.hook_vp_withheld(seat)
    }

    /// All points, Victory Point cards included.
    pub fn victory_points(&self, seat: Seat) -> u8 {
        self.public_victory_points(seat) + self.players[seat as usize].dev[DevCard::VictoryPoint.index()]
    }

    /// The seat placing pieces in set-up (snake order).
    pub(crate) fn setup_seat(&self) -> Seat {
        snake_seat(self.first, self.n, self.setup_index)
    }

    /// The seats the game is waiting on now: the one seat to move, every seat that
    /// still has to discard, and the addressees of an open offer who have not answered.
    pub fn waiting_on(&self) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        match self.phase {
            Phase::GameOver { .. } => {}
            Phase::SetupSettlement | Phase::SetupRoad { .. } => s.insert(self.setup_seat()),
            Phase::Discard => {
                for seat in 0..self.n {
                    if self.discard_pending[seat as usize] > 0 {
                        s.insert(seat);
                    }
                }
            }
            Phase::SpecialBuild { seat } => s.insert(seat),
            Phase::Helpers(_) | Phase::Frenemies(_) | Phase::Barbarians(_) => self.hook_waiting_on(&mut s),
            _ => {
                s.insert(self.current);
                s.0 |= self.pending_responders().0;
            }
        }
        s
    }

    /// Addressees of the open offer who have not answered yet.
    pub fn pending_responders(&self) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        // Answers are possible only while the current player is in the main phase.
        if self.phase != Phase::Main {
            return s;
        }
        if let Some(o) = &self.offer {
            for seat in o.to.iter() {
                if o.responses[seat as usize] == Response::Pending {
                    s.insert(seat);
                }
            }
        }
        s
    }

    /// The seat a driver (simulator, server bot loop) should let act next: a pending
    /// discard or trade answer first, otherwise the seat to move.
    pub fn next_actor(&self) -> Option<Seat> {
        let pending = self.pending_responders();
        if let Some(s) = pending.iter().next() {
            return Some(s);
        }
        self.waiting_on().iter().next()
    }

    // ----- the one entry point ----------------------------------------------------

    /// Applies `action` for `seat`. On success returns what happened; on error the game is
    /// unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`] appending to a caller-owned buffer (no allocation in hot loops).
    pub fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        if seat >= self.n {
            return Err(RuleError::NoSuchSeat { seat });
        }
        let mark = out.len();
        let result = self.dispatch(seat, action, out);
        match result {
            Ok(()) => {
                self.actions_applied += 1;
                self.check_victory(out);
                Ok(())
            }
            Err(e) => {
                out.truncate(mark);
                Err(e)
            }
        }
    }

    fn dispatch(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match action {
            Action::RollDice => self.roll_dice(seat, out),
            Action::BuildRoad { edge } => self.build_road(seat, edge, out),
            Action::BuildSettlement { corner } => self.build_settlement(seat, corner, out),
            Action::BuildCity { corner } => self.build_city(seat, corner, out),
            Action::BuyDevelopmentCard => self.buy_dev_card(seat, out),
            Action::PlayKnight => self.play_knight(seat, out),
            Action::PlayRoadBuilding => self.play_road_building(seat, out),
            Action::PlayYearOfPlenty { first, second } => self.play_year_of_plenty(seat, first, second, out),
            Action::PlayMonopoly { resource } => self.play_monopoly(seat, resource, out),
            Action::MoveRobber { hex, victim } => self.move_robber(seat, hex, victim, out),
            Action::Discard { cards } => self.discard(seat, cards, out),
            Action::MaritimeTrade { give, get } => self.maritime_trade(seat, give, get, out),
            Action::OfferTrade {
                give,
                get,
                give_gold,
                get_gold,
                to,
            } => self.offer_trade(seat, Terms::new(give, get, give_gold, get_gold), to, out),
            Action::AcceptTrade => self.answer_trade(seat, Response::Accepted, out),
            Action::DeclineTrade => self.answer_trade(seat, Response::Declined, out),
            Action::CounterOffer {
                give,
                get,
                give_gold,
                get_gold,
            } => self.counter_offer(seat, Terms::new(give, get, give_gold, get_gold), out),
            Action::ConfirmTrade { with } => self.confirm_trade(seat, with, out),
            Action::CancelTrade => self.cancel_trade(seat, out),
            Action::EndTurn => self.end_turn(seat, out),
            Action::Helpers(a) => self.helpers_apply(seat, a, out),
            Action::Frenemies(a) => self.frenemies_apply(seat, a, out),
            Action::Barbarians(a) => self.barbarians_apply(seat, a, out),
        }
    }

    // ----- turn flow ----------------------------------------------------------------

    /// Checks that `seat` is the current player in its own turn, in the given phase.
    pub(crate) fn require_own_turn(&self, seat: Seat, action: &'static str) -> Result<(), RuleError> {
        if let Phase::SpecialBuild { seat: builder } = self.phase {
            if seat == builder {
                return Err(RuleError::phase(
                    action,
                    "the Special Building Phase allows only building and buying development cards",
                ));
            }
        }
        if matches!(self.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
            return Err(if seat == self.setup_seat() {
                RuleError::phase(action, self.phase_reason())
            } else {
                RuleError::turn(action)
            });
        }
        if seat != self.current {
            return Err(RuleError::turn(action));
        }
        if let Phase::SpecialBuild { .. } = self.phase {
            return Err(RuleError::turn(action));
        }
        Ok(())
    }

    pub(crate) fn phase_reason(&self) -> &'static str {
        match self.phase {
            Phase::SetupSettlement => "the set-up: place a settlement",
            Phase::SetupRoad { .. } => "the set-up: place a road next to your new settlement",
            Phase::Roll => "roll the dice first",
            Phase::Discard => "waiting for discards after a 7",
            Phase::MoveRobber => "the robber must be moved first",
            Phase::Main => "the dice have already been rolled",
            Phase::RoadBuilding { .. } => "place your free roads first",
            Phase::SpecialBuild { .. } => "this is the Special Building Phase",
            Phase::Helpers(p) => p.reason(),
            Phase::Frenemies(p) => p.reason(),
            Phase::Barbarians(p) => p.reason(),
            Phase::GameOver { .. } => "the game is over",
        }
    }

    pub(crate) fn wrong_phase(&self, action: &'static str) -> RuleError {
        RuleError::phase(action, self.phase_reason())
    }

    fn end_turn(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match self.phase {
            Phase::Main | Phase::Barbarians(crate::barbarians::BarbariansPhase::MoveKnights) => {
                if seat != self.current {
                    return Err(RuleError::turn("end the turn"));
                }
                self.hook_may_end_turn(seat)?;
                self.offer = None;
                if let Some(player1) = self.paired {
                    // Player 2's part is over: the turn passes on from player 1.
                    self.start_turn((player1 + 1) % self.n, out);
                    return Ok(());
                }
                self.hook_end_turn(seat, out);
                out.push(Event::TurnEnded { seat });
                let next = (seat + 1) % self.n;
                if self.config.paired_players() {
                    self.start_paired_part(seat, out);
                } else if self.config.special_building() {
                    self.phase = Phase::SpecialBuild { seat: next };
                    out.push(Event::SpecialBuildTurn { seat: next });
                } else {
                    self.start_turn(next, out);
                }
                Ok(())
            }
            Phase::SpecialBuild { seat: builder } => {
                if seat != builder {
                    return Err(RuleError::turn("end a special build turn"));
                }
                let next = (builder + 1) % self.n;
                if next == self.current {
                    self.start_turn((self.current + 1) % self.n, out);
                } else {
                    self.phase = Phase::SpecialBuild { seat: next };
                    out.push(Event::SpecialBuildTurn { seat: next });
                }
                Ok(())
            }
            _ if seat != self.current => Err(RuleError::turn("end the turn")),
            _ => Err(self.wrong_phase("end_turn")),
        }
    }

    pub(crate) fn start_turn(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.current = seat;
        self.turn += 1;
        self.rolled = false;
        self.dev_played = false;
        self.dice = None;
        self.offer = None;
        self.paired = None;
        for p in self.players.iter_mut() {
            p.dev_new = [0; 5];
        }
        self.phase = Phase::Roll;
        out.push(Event::TurnStarted {
            seat,
            turn: self.turn,
        });
        self.hook_turn_started(seat, out);
    }

    /// The game ends the moment the current player has the target during their own turn
    /// (which includes the start of their turn, for points gained outside it). Nobody wins
    /// during set-up or a Special Building Phase. In a paired turn the current player is
    /// player 2 during their part, who may win then (`five-six.md`).
    fn check_victory(&mut self, out: &mut Vec<Event>) {
        match self.phase {
            Phase::SetupSettlement
            | Phase::SetupRoad { .. }
            | Phase::SpecialBuild { .. }
            | Phase::GameOver { .. } => return,
            _ => {}
        }
        let seat = self.current;
        if self.victory_points(seat) >= self.config.victory_points {
            self.phase = Phase::GameOver { winner: seat };
            self.offer = None;
            let mut points = crate::PerSeat::filled(self.n, 0);
            for s in 0..self.n {
                points[s as usize] = self.victory_points(s);
            }
            out.push(Event::GameOver { winner: seat, points });
        }
    }

    // ----- shared helpers --------------------------------------------------------

    pub(crate) fn pay(&mut self, seat: Seat, cost: &ResourceSet) {
        self.players[seat as usize].hand.sub(cost);
        self.bank.add(cost);
    }

    pub(crate) fn check_afford(&self, seat: Seat, cost: &ResourceSet) -> Result<(), RuleError> {
        if self.players[seat as usize].hand.contains(cost) {
            Ok(())
        } else {
            Err(RuleError::NotEnoughResources { needed: *cost })
        }
    }

    /// Takes one random card from `victim`'s hand (the game RNG decides which).
    pub(crate) fn steal(&mut self, thief: Seat, victim: Seat, out: &mut Vec<Event>) {
        let hand = self.players[victim as usize].hand;
        let total = hand.total();
        if total == 0 {
            return;
        }
        let r = hand.nth_card(self.rng.below(total));
        self.players[victim as usize].hand[r] -= 1;
        self.players[thief as usize].hand[r] += 1;
        out.push(Event::Stole {
            thief,
            victim,
            resource: Some(r),
        });
    }
}
