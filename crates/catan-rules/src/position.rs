//! Positions: set a game up in a given position ([`Game::from_position`]) and read the
//! position of any game back ([`Game::position`]), for bot authors' tests and analysis and
//! for this project's own tests.
//!
//! A [`Position`] is plain data (serde, JSON): the board, the pieces on it, each player's
//! hand, development cards and knights, the bank, the deck, the titles, the phase and whose
//! turn it is, and the active scenario's part. Every optional field has a default, so a
//! position names only what matters to it:
//!
//! ```
//! use catan_rules::{Action, Game, GameConfig, Position};
//! let position: Position = serde_json::from_str(r#"{
//!     "phase": {"phase": "main"}, "current": 0, "turn": 9, "dice": [2, 4],
//!     "buildings": [{"corner": 0, "seat": 0}, {"corner": 20, "seat": 1, "city": true}],
//!     "roads": [{"edge": 0, "seat": 0}, {"edge": 31, "seat": 1}],
//!     "players": [{"hand": {"brick": 1, "lumber": 1}}, {}, {}, {}]
//! }"#).unwrap();
//! let mut game = Game::from_position(GameConfig::default(), &position, 42).unwrap();
//! game.apply(0, Action::BuildRoad { edge: 6 }).unwrap();
//! assert_eq!(game.public_victory_points(1), 2);
//! // Reading a position back gives every field, the derived ones filled in.
//! let read = game.position();
//! assert_eq!(read.bank.unwrap().total(), 95);
//! assert_eq!(Game::from_position(GameConfig::default(), &read, 42).unwrap().position(), read);
//! ```
//!
//! Positions are checked: one the rules cannot produce is refused with a
//! [`PositionError`] saying why (more pieces than a player owns, two buildings breaking the
//! distance rule, a road not connected to its owner's buildings, a settlement reached by
//! none of its owner's roads, resources or development cards that do not add up to the
//! game's, a title held against the rule, a phase that names an absent seat or does not fit
//! the dice, a player already at the target in their own turn, …). A position may be
//! *sparse*: a player may have fewer pieces than a real game would have by then (no two
//! set-up settlements are required), which keeps test positions small.
//!
//! The game RNG: a position read back carries the generator's state (`rng`), so the game
//! set up from it rolls the same dice and draws the same cards as the original. Without
//! `rng` the generator starts from `seed`; `seed` also lays out the board when the position
//! has none (the board [`Game::new`] would lay out with that seed) and shuffles the deck
//! when the position lists none. A game set up from a position is not replayable by
//! [`Game::replay`] from its seed alone: keep the position with the action log.
//!
//! Scenario parts: each scenario has one optional field here (`helpers`, `frenemies`,
//! `barbarians`, see [`crate::barbarians::BarbariansPosition`]) and
//! one function in its module that validates it and builds the scenario's state (joined to
//! the core at the scenario seam, [`crate::scenario`]); a part for a scenario the game does
//! not play is refused.

use crate::action::{DevCard, Seat};
use crate::board::{Board, HarborKind, Terrain, NONE};
use crate::config::{ConfigError, GameConfig};
use crate::frenemies::FrenemiesPosition;
use crate::game::{bit, bits, deck_counts, snake_seat, Game, Phase, Response, TradeOffer, MAX_DECK};
use crate::helpers::HelpersPosition;
use crate::paired::PairedPart;
use crate::resources::{Resource, ResourceSet};
use crate::rng::Rng;
use crate::scenario::ScenarioState;
use crate::titles::{award, LARGEST_ARMY_MIN, LONGEST_ROAD_MIN};
use crate::view::DevCards;
use serde::{Deserialize, Serialize};

/// A settlement (or, with `city`, a city) on a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedBuilding {
    pub corner: u8,
    pub seat: Seat,
    #[serde(default)]
    pub city: bool,
}

/// A road on an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedRoad {
    pub edge: u8,
    pub seat: Seat,
}

/// What lies on the island, in board order (the order of the view's `board.hexes` and
/// `board.harbors`). It must use exactly the layout's components.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardPosition {
    pub terrain: Vec<Terrain>,
    /// The number token of each hex (`null` on a desert).
    pub tokens: Vec<Option<u8>>,
    pub harbors: Vec<HarborKind>,
}

/// One seat's cards and knights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayerPosition {
    pub hand: ResourceSet,
    /// Unplayed development cards (Victory Point cards included).
    pub development_cards: DevCards,
    /// Of those, the ones bought this turn (not playable yet).
    pub new_development_cards: DevCards,
    /// Development cards played so far (never Victory Point cards).
    pub played_development_cards: DevCards,
    /// Knights face up in front of the player (Largest Army counts these); `None`: every
    /// knight played (The Helpers' Gregor may have removed some).
    pub knights: Option<u8>,
    /// Cards still to discard after a 7 (only in the discard phase).
    pub discard_pending: u8,
}

/// A game position; see the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Position {
    /// `None`: the board [`Game::new`] lays out with the seed given to
    /// [`Game::from_position`].
    pub board: Option<BoardPosition>,
    /// The robber's hex; `None`: where it starts (the first desert).
    pub robber: Option<u8>,
    pub buildings: Vec<PlacedBuilding>,
    pub roads: Vec<PlacedRoad>,
    /// One entry per seat (an empty list: every seat with nothing).
    pub players: Vec<PlayerPosition>,
    /// `None`: every resource card no hand holds.
    pub bank: Option<ResourceSet>,
    /// The development deck, bottom first (the top card, drawn next, last). `None`: every
    /// card nobody holds, played or (Diara) looks at, shuffled by the game RNG.
    pub deck: Option<Vec<DevCard>>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub phase: Phase,
    /// The first player (the set-up's snake order starts there).
    pub first: Seat,
    /// Whose turn it is (in set-up: the seat placing; in a paired turn's second part:
    /// player 2).
    pub current: Seat,
    /// 0 during set-up, then 1, 2, …
    pub turn: u32,
    /// The dice rolled this turn (`None` before the roll).
    pub dice: Option<[u8; 2]>,
    /// The current player has played their development card this turn.
    pub development_card_played: bool,
    pub offer: Option<TradeOffer>,
    /// Paired Players: player 2's part of the turn is running.
    pub paired: Option<PairedPart>,
    /// The Helpers' part (required when the game plays The Helpers).
    pub helpers: Option<HelpersPosition>,
    /// Frenemies' part (required when the game plays Frenemies).
    pub frenemies: Option<FrenemiesPosition>,
    /// Barbarian Invasion's part (required when the game plays it).
    pub barbarians: Option<crate::barbarians::BarbariansPosition>,
    /// The game RNG's state, as a decimal string; `None`: seeded from the seed.
    #[serde(with = "crate::rng::seed_string::option")]
    pub rng: Option<u64>,
}

impl Default for Position {
    /// Seat 0 to roll in turn 1, nothing on the board, empty hands.
    fn default() -> Self {
        Position {
            board: None,
            robber: None,
            buildings: Vec::new(),
            roads: Vec::new(),
            players: Vec::new(),
            bank: None,
            deck: None,
            longest_road: None,
            largest_army: None,
            phase: Phase::Roll,
            first: 0,
            current: 0,
            turn: 1,
            dice: None,
            development_card_played: false,
            offer: None,
            paired: None,
            helpers: None,
            frenemies: None,
            barbarians: None,
            rng: None,
        }
    }
}

/// Why a position cannot be set up: each variant names a kind of impossible position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("{what}: {found} entries for a {expected}-player game")]
    SeatCount {
        what: &'static str,
        expected: u8,
        found: usize,
    },
    #[error("{what} names seat {seat}, but the game's seats are 0 to {last}")]
    NoSuchSeat { what: String, seat: Seat, last: Seat },
    #[error("there is no {what} {id} on this board")]
    NoSuchPlace { what: &'static str, id: u8 },
    #[error("two pieces on {what} {id}")]
    Occupied { what: &'static str, id: u8 },
    #[error("seat {seat} has {count} {piece} on the board; a player has only {max}")]
    TooManyPieces {
        seat: Seat,
        piece: &'static str,
        count: usize,
        max: u8,
    },
    #[error("the buildings on corners {corner} and {other} break the distance rule")]
    DistanceRule { corner: u8, other: u8 },
    #[error("seat {seat}'s road on edge {edge} is not connected to any of their buildings")]
    RoadNotConnected { seat: Seat, edge: u8 },
    #[error("seat {seat}'s building on corner {corner} is reached by none of their roads")]
    BuildingWithoutRoad { seat: Seat, corner: u8 },
    #[error("{resource}: the hands hold {hands} and the bank {bank}, but the game has {total}")]
    Resources {
        resource: Resource,
        hands: u32,
        bank: u32,
        total: u8,
    },
    #[error("development cards: {0}")]
    DevCards(String),
    #[error("seat {seat}: {reason}")]
    Player { seat: Seat, reason: String },
    #[error("{title}: {reason}")]
    Title { title: &'static str, reason: String },
    #[error("the phase: {0}")]
    Phase(String),
    #[error("the board: {0}")]
    Board(String),
    #[error("the trade offer: {0}")]
    Offer(String),
    #[error("seat {seat} has {points} points in their own turn: the game would be over")]
    AlreadyWon { seat: Seat, points: u8 },
    #[error("{scenario}: {reason}")]
    Scenario { scenario: &'static str, reason: String },
    /// A consistency check the engine runs on every game failed (a safety net behind the
    /// checks above).
    #[error("the position breaks a rule of the game: {0}")]
    Inconsistent(String),
}

/// The highest turn number a position may have (far beyond any game; keeps the turn
/// counter clear of overflow).
pub const MAX_TURN: u32 = 1 << 30;

impl PositionError {
    pub(crate) fn phase(reason: impl Into<String>) -> Self {
        PositionError::Phase(reason.into())
    }
}

impl Game {
    /// Sets up a game in `position` (see [`Position`]); `seed` seeds the game RNG unless the
    /// position carries its state, and lays out the board when the position has none.
    pub fn from_position(config: GameConfig, position: &Position, seed: u64) -> Result<Game, PositionError> {
        config.validate()?;
        let layout = config.layout();
        let mut rng = Rng::new(seed);
        let board = match &position.board {
            Some(b) => crate::scenario::board_from_parts(&config, &b.terrain, &b.tokens, &b.harbors)
                .unwrap_or_else(|| Board::from_parts(layout, &b.terrain, &b.tokens, &b.harbors))
                .map_err(PositionError::Board)?,
            None => crate::scenario::generate_board(&config, &mut rng)
                .unwrap_or_else(|| Board::generate(layout, config.tokens, &mut rng)),
        };
        let mut g = Game::assemble(config, seed, rng, board, ScenarioState::Base);
        g.set_pieces(position)?;
        g.set_players(position)?;
        g.set_turn(position)?;
        g.scenario = ScenarioState::from_position(&mut g, position)?;
        g.hook_position_set();
        g.set_deck(position)?;
        if let Some(state) = position.rng {
            g.rng = Rng::from_state(state);
        }
        g.check_phase(position)?;
        g.check_titles()?;
        g.check_not_won()?;
        g.check_invariants().map_err(PositionError::Inconsistent)?;
        Ok(g)
    }

    /// The position of this game, every field filled in (board, bank, deck and RNG state
    /// included): [`Game::from_position`] with it sets up a game that plays on exactly as
    /// this one.
    pub fn position(&self) -> Position {
        let t = self.topo;
        let mut p = Position {
            board: Some(BoardPosition {
                terrain: self.board.terrain[..t.hex_count()].to_vec(),
                tokens: self.board.token[..t.hex_count()]
                    .iter()
                    .map(|&k| (k != 0).then_some(k))
                    .collect(),
                harbors: self.board.harbors[..t.harbor_count()].to_vec(),
            }),
            robber: Some(self.robber),
            buildings: bits(self.occupied)
                .map(|c| PlacedBuilding {
                    corner: c,
                    seat: self.corner_owner[c as usize],
                    city: self.is_city(c),
                })
                .collect(),
            roads: bits(self.roads_taken)
                .map(|e| PlacedRoad {
                    edge: e,
                    seat: self.edge_owner[e as usize],
                })
                .collect(),
            players: self.players[..self.n as usize]
                .iter()
                .enumerate()
                .map(|(s, p)| PlayerPosition {
                    hand: p.hand,
                    development_cards: p.dev.into(),
                    new_development_cards: p.dev_new.into(),
                    played_development_cards: p.played.into(),
                    knights: Some(p.knights),
                    discard_pending: self.discard_pending[s],
                })
                .collect(),
            bank: Some(self.bank),
            deck: Some(self.deck[..self.deck_len as usize].to_vec()),
            longest_road: self.longest_road,
            largest_army: self.largest_army,
            phase: self.phase,
            first: self.first,
            current: self.current,
            turn: self.turn,
            dice: self.dice,
            development_card_played: self.dev_played,
            offer: self.offer,
            paired: self.paired_part(),
            helpers: None,
            frenemies: None,
            barbarians: None,
            rng: Some(self.rng.state()),
        };
        self.hook_position(&mut p);
        p
    }

    /// `seat` must be one of the game's seats.
    pub(crate) fn position_seat(
        &self,
        seat: Seat,
        what: impl FnOnce() -> String,
    ) -> Result<(), PositionError> {
        if seat < self.n {
            Ok(())
        } else {
            Err(PositionError::NoSuchSeat {
                what: what(),
                seat,
                last: self.n - 1,
            })
        }
    }

    /// The pieces: on the board, within each supply, the distance rule kept, every road
    /// connected to its owner's buildings and every building on its owner's road.
    fn set_pieces(&mut self, position: &Position) -> Result<(), PositionError> {
        let t = self.topo;
        if let Phase::SetupRoad { corner } = position.phase {
            if corner as usize >= t.corner_count() {
                return Err(PositionError::NoSuchPlace {
                    what: "corner",
                    id: corner,
                });
            }
        }
        if let Some(h) = position.robber {
            if h as usize >= t.hex_count() {
                return Err(PositionError::NoSuchPlace { what: "hex", id: h });
            }
            self.robber = h;
        }
        let mut counts = [[0usize; 3]; crate::config::MAX_SEATS];
        for b in &position.buildings {
            if b.corner as usize >= t.corner_count() {
                return Err(PositionError::NoSuchPlace {
                    what: "corner",
                    id: b.corner,
                });
            }
            self.position_seat(b.seat, || format!("the building on corner {}", b.corner))?;
            if self.occupied & bit(b.corner) != 0 {
                return Err(PositionError::Occupied {
                    what: "corner",
                    id: b.corner,
                });
            }
            counts[b.seat as usize][b.city as usize] += 1;
            let (piece, max) = if b.city { ("cities", 4) } else { ("settlements", 5) };
            let count = counts[b.seat as usize][b.city as usize];
            if count > max as usize {
                return Err(PositionError::TooManyPieces {
                    seat: b.seat,
                    piece,
                    count,
                    max,
                });
            }
            // A city takes no settlement from the supply (it replaced one that went back).
            if b.city {
                self.players[b.seat as usize].settlements_left += 1;
            }
            self.place_settlement(b.seat, b.corner);
            if b.city {
                self.cities |= bit(b.corner);
                self.players[b.seat as usize].cities_left -= 1;
            }
        }
        for c in bits(self.occupied) {
            for &d in &t.corner_corners[c as usize] {
                if d != NONE && d > c && self.occupied & bit(d) != 0 {
                    return Err(PositionError::DistanceRule { corner: c, other: d });
                }
            }
        }
        for r in &position.roads {
            if r.edge as usize >= t.edge_count() {
                return Err(PositionError::NoSuchPlace {
                    what: "edge",
                    id: r.edge,
                });
            }
            self.position_seat(r.seat, || format!("the road on edge {}", r.edge))?;
            if self.roads_taken & bit(r.edge) != 0 {
                return Err(PositionError::Occupied {
                    what: "edge",
                    id: r.edge,
                });
            }
            counts[r.seat as usize][2] += 1;
            let count = counts[r.seat as usize][2];
            if count > 15 {
                return Err(PositionError::TooManyPieces {
                    seat: r.seat,
                    piece: "roads",
                    count,
                    max: 15,
                });
            }
            self.place_road(r.seat, r.edge);
        }
        for s in 0..self.n {
            self.check_network(s, position)?;
            self.recompute_road(s);
        }
        Ok(())
    }

    /// Every road of `seat` is connected (through their own roads; an opponent's building
    /// may have cut it since) to one of their buildings, and every building of theirs
    /// touches one of their roads, except the settlement just placed in set-up (and in a
    /// scenario that moves roads away from buildings, The Helpers' Högni).
    fn check_network(&self, seat: Seat, position: &Position) -> Result<(), PositionError> {
        let p = &self.players[seat as usize];
        let mut reached = p.buildings;
        let mut roads = p.roads;
        loop {
            let mut grew = false;
            for e in bits(roads) {
                let [a, b] = self.topo.edge_corners[e as usize];
                if reached & (bit(a) | bit(b)) != 0 {
                    reached |= bit(a) | bit(b);
                    roads &= !bit(e);
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        if let Some(edge) = bits(roads).next() {
            return Err(PositionError::RoadNotConnected { seat, edge });
        }
        let placing = match position.phase {
            Phase::SetupRoad { corner } => bit(corner),
            _ => 0,
        };
        if crate::scenario::roads_can_move(&self.config) {
            return Ok(());
        }
        if let Some(corner) = bits(p.buildings & !p.road_corners & !placing).next() {
            return Err(PositionError::BuildingWithoutRoad { seat, corner });
        }
        Ok(())
    }

    /// Hands, development cards and knights; the bank (resources add up to the game's).
    fn set_players(&mut self, position: &Position) -> Result<(), PositionError> {
        let n = self.n as usize;
        let default = [PlayerPosition::default(); crate::config::MAX_SEATS];
        let players = match position.players.len() {
            0 => &default[..n],
            len if len == n => &position.players[..],
            found => {
                return Err(PositionError::SeatCount {
                    what: "players",
                    expected: self.n,
                    found,
                })
            }
        };
        let helpers = self.config.scenario == Some(crate::config::Scenario::Helpers);
        let full = deck_counts(self.board.layout);
        let mut all_played = [0u32; 5];
        for (s, pp) in players.iter().enumerate() {
            let seat = s as Seat;
            let reason = |r: String| PositionError::Player { seat, reason: r };
            let dev: [u8; 5] = pp.development_cards.into();
            let new: [u8; 5] = pp.new_development_cards.into();
            let played: [u8; 5] = pp.played_development_cards.into();
            for card in DevCard::ALL {
                let i = card.index();
                if new[i] > dev[i] {
                    return Err(reason(format!(
                        "{} {card:?} cards bought this turn but {} held",
                        new[i], dev[i]
                    )));
                }
                all_played[i] += played[i] as u32;
                if dev[i] as u32 + played[i] as u32 > full[i] as u32 || all_played[i] > full[i] as u32 {
                    return Err(PositionError::DevCards(format!(
                        "seat {seat} holds {} and has played {} {card:?} cards; the game has {}",
                        dev[i], played[i], full[i]
                    )));
                }
            }
            if played[DevCard::VictoryPoint.index()] != 0 {
                return Err(reason(
                    "Victory Point cards are never played (they count in hand)".into(),
                ));
            }
            let played_knights = played[DevCard::Knight.index()];
            let knights = pp.knights.unwrap_or(played_knights);
            if knights > played_knights || (!helpers && knights != played_knights) {
                return Err(reason(format!(
                    "{knights} knights face up but {played_knights} played{}",
                    if helpers {
                        ""
                    } else {
                        " (only The Helpers' Gregor removes knights)"
                    }
                )));
            }
            let p = &mut self.players[s];
            p.hand = pp.hand;
            p.dev = dev;
            p.dev_new = new;
            p.played = played;
            p.knights = knights;
            self.discard_pending[s] = pp.discard_pending;
            for i in 0..5 {
                self.cards_played[i] += played[i];
            }
        }
        let total = self.config.bank();
        let mut bank = ResourceSet::EMPTY;
        for r in Resource::ALL {
            let hands: u32 = self.players[..n].iter().map(|p| p.hand[r] as u32).sum();
            let given = position.bank.map(|b| b[r] as u32);
            let ok = match given {
                Some(b) => hands + b == total[r] as u32,
                None => hands <= total[r] as u32,
            };
            if !ok {
                return Err(PositionError::Resources {
                    resource: r,
                    hands,
                    bank: given.unwrap_or(0),
                    total: total[r],
                });
            }
            bank[r] = total[r] - hands as u8;
        }
        self.bank = bank;
        Ok(())
    }

    /// Phase, turn, seats, dice, the set-up's progress and the offer.
    fn set_turn(&mut self, position: &Position) -> Result<(), PositionError> {
        if position.turn > MAX_TURN {
            return Err(PositionError::phase(format!(
                "turn {}: a game never gets that far (at most {MAX_TURN})",
                position.turn
            )));
        }
        self.position_seat(position.current, || "current".into())?;
        self.position_seat(position.first, || "first".into())?;
        for (title, holder) in [
            ("longest_road", position.longest_road),
            ("largest_army", position.largest_army),
        ] {
            if let Some(s) = holder {
                self.position_seat(s, || title.into())?;
            }
        }
        self.phase = position.phase;
        self.first = position.first;
        self.current = position.current;
        self.turn = position.turn;
        self.dice = position.dice;
        self.rolled = position.dice.is_some();
        self.dev_played = position.development_card_played;
        self.offer = position.offer;
        self.longest_road = position.longest_road;
        self.largest_army = position.largest_army;
        if let Some(pp) = position.paired {
            self.position_seat(pp.player_1, || "paired.player_1".into())?;
            self.paired = Some(pp.player_1);
        }
        self.setup_index = if self.in_setup() {
            self.setup_progress()?
        } else {
            2 * self.n
        };
        Ok(())
    }

    /// The set-up's step, from the pieces placed: each seat has placed exactly what the
    /// snake order gave it so far.
    fn setup_progress(&self) -> Result<u8, PositionError> {
        let n = self.n;
        let roads: u32 = self.players[..n as usize]
            .iter()
            .map(|p| p.roads.count_ones())
            .sum();
        if roads >= 2 * n as u32 {
            return Err(PositionError::phase("the set-up is over: every road is placed"));
        }
        let placing = snake_seat(self.first, n, roads as u8);
        let extra = matches!(self.phase, Phase::SetupRoad { .. });
        for s in 0..n {
            let done = (0..roads as u8)
                .filter(|&i| snake_seat(self.first, n, i) == s)
                .count() as u32;
            let p = &self.players[s as usize];
            let settlements = p.buildings.count_ones();
            let want = done + (extra && s == placing) as u32;
            if p.roads.count_ones() != done || settlements != want || self.cities & p.buildings != 0 {
                return Err(PositionError::phase(format!(
                    "set-up step {roads}: seat {s} should have placed {want} settlements (no \
                     cities) and {done} roads, not {settlements} and {}",
                    p.roads.count_ones()
                )));
            }
        }
        if let Phase::SetupRoad { corner } = self.phase {
            if self.corner_owner.get(corner as usize) != Some(&placing) {
                return Err(PositionError::phase(format!(
                    "the road is to go next to seat {placing}'s new settlement, not at corner {corner}"
                )));
            }
        }
        if self.current != placing {
            return Err(PositionError::phase(format!(
                "in this set-up step seat {placing} places, not seat {}",
                self.current
            )));
        }
        Ok(roads as u8)
    }

    /// The deck: as given (it must complete the game's cards) or every card not elsewhere,
    /// shuffled.
    fn set_deck(&mut self, position: &Position) -> Result<(), PositionError> {
        let full = deck_counts(self.board.layout);
        let aside = self.hook_cards_aside();
        let mut elsewhere = aside.map(u32::from);
        for p in &self.players[..self.n as usize] {
            for i in 0..5 {
                elsewhere[i] += p.dev[i] as u32 + p.played[i] as u32;
            }
        }
        for card in DevCard::ALL {
            let i = card.index();
            if elsewhere[i] > full[i] as u32 {
                return Err(PositionError::DevCards(format!(
                    "{} {card:?} cards held, played or looked at; the game has {}",
                    elsewhere[i], full[i]
                )));
            }
        }
        let deck: Vec<DevCard> = match &position.deck {
            Some(deck) => {
                for card in DevCard::ALL {
                    let i = card.index();
                    let in_deck = deck.iter().filter(|&&c| c == card).count();
                    if in_deck + elsewhere[i] as usize != full[i] as usize {
                        return Err(PositionError::DevCards(format!(
                            "{in_deck} {card:?} cards in the deck and {} elsewhere; the game has {}",
                            elsewhere[i], full[i]
                        )));
                    }
                }
                deck.clone()
            }
            None => {
                let mut deck = Vec::with_capacity(MAX_DECK);
                for card in DevCard::ALL {
                    for _ in elsewhere[card.index()]..full[card.index()] as u32 {
                        deck.push(card);
                    }
                }
                self.rng.shuffle(&mut deck);
                deck
            }
        };
        self.deck[..deck.len()].copy_from_slice(&deck);
        self.deck_len = deck.len() as u8;
        Ok(())
    }

    /// The phase agrees with the dice, the seats, the discards, the offer and the options.
    /// Scenario phases are checked by their scenario part; the core checks the phase they
    /// return to.
    fn check_phase(&self, position: &Position) -> Result<(), PositionError> {
        let n = self.n;
        let setup = self.in_setup();
        if setup != (self.turn == 0) {
            return Err(PositionError::phase(if setup {
                "the set-up is turn 0"
            } else {
                "turns after the set-up count from 1"
            }));
        }
        if let Some(d) = self.dice {
            if d.iter().any(|x| !(1..=6).contains(x)) {
                return Err(PositionError::phase(format!("dice {d:?}: each die shows 1 to 6")));
            }
        }
        let seven = self.dice.map(|d| d[0] + d[1]) == Some(7);
        // The phase a scenario's own phase returns to.
        let effective = match self.phase {
            Phase::Helpers(_) => self.scenario.helpers().map_or(Phase::Main, |h| h.resume),
            Phase::Frenemies(_) | Phase::Barbarians(_) => Phase::Main,
            p => p,
        };
        match (self.phase, self.config.scenario) {
            (Phase::Helpers(_), Some(crate::config::Scenario::Helpers)) => {}
            (Phase::Frenemies(_), Some(crate::config::Scenario::Frenemies)) => {}
            (Phase::Barbarians(_), Some(crate::config::Scenario::Barbarians)) => {}
            (Phase::Helpers(_) | Phase::Frenemies(_) | Phase::Barbarians(_), _) => {
                return Err(PositionError::phase(
                    "a phase of a scenario this game does not play",
                ))
            }
            _ => {}
        }
        let dev_held: u32 = self.players[..n as usize].iter().map(|p| p.dev_total()).sum();
        match effective {
            Phase::SetupSettlement | Phase::SetupRoad { .. } => {
                if self.dice.is_some()
                    || self.dev_played
                    || dev_held + self.cards_played.iter().map(|&c| c as u32).sum::<u32>() > 0
                {
                    return Err(PositionError::phase(
                        "no dice and no development cards during the set-up",
                    ));
                }
            }
            Phase::Roll => {
                if self.dice.is_some() {
                    return Err(PositionError::phase(
                        "the dice are rolled: the phase is past the roll",
                    ));
                }
            }
            Phase::Discard => {
                if !seven || !self.discard_pending[..n as usize].iter().any(|&c| c > 0) {
                    return Err(PositionError::phase(
                        "discards follow a rolled 7 with someone still to discard",
                    ));
                }
            }
            Phase::MoveRobber => {
                if !seven && !self.dev_played {
                    return Err(PositionError::phase(
                        "the robber moves after a rolled 7 or a Knight played this turn",
                    ));
                }
            }
            Phase::Main => {
                if self.dice.is_none() {
                    return Err(PositionError::phase("trading and building come after the roll"));
                }
            }
            Phase::RoadBuilding { left } => {
                let p = &self.players[self.current as usize];
                if !(1..=2).contains(&left)
                    || !self.dev_played
                    || p.roads_left == 0
                    || self.road_spots(self.current) == 0
                {
                    return Err(PositionError::phase(
                        "Road Building: 1 or 2 roads left to place, a card played this turn, \
                         and a road and a place for it",
                    ));
                }
            }
            Phase::SpecialBuild { seat } => {
                self.position_seat(seat, || "the special build phase".into())?;
                if !self.config.special_building() || seat == self.current || self.dice.is_none() {
                    return Err(PositionError::phase(
                        "a special build turn: the game plays the Special Building Phase, after \
                         the current player's roll, and the builder is another seat",
                    ));
                }
            }
            Phase::GameOver { winner } => {
                self.position_seat(winner, || "the winner".into())?;
                let points = self.victory_points(winner);
                if points < self.config.victory_points {
                    return Err(PositionError::phase(format!(
                        "seat {winner} won with {points} points; the target is {}",
                        self.config.victory_points
                    )));
                }
            }
            Phase::Helpers(_) | Phase::Frenemies(_) | Phase::Barbarians(_) => {
                return Err(PositionError::phase(
                    "a scenario phase cannot resume into another",
                ));
            }
        }
        for s in 0..n {
            let pending = self.discard_pending[s as usize];
            if pending > 0
                && (effective != Phase::Discard || pending as u32 > self.players[s as usize].hand.total())
            {
                return Err(PositionError::Player {
                    seat: s,
                    reason: format!("{pending} cards to discard: only in the discard phase, from cards held"),
                });
            }
        }
        if let Some(pp) = position.paired {
            let player_2 = self.paired_partner(pp.player_1);
            let ok_phase = matches!(
                effective,
                Phase::Main | Phase::MoveRobber | Phase::RoadBuilding { .. } | Phase::GameOver { .. }
            );
            if !self.config.paired_players()
                || pp.player_2 != player_2
                || self.current != player_2
                || !ok_phase
                || self.dice.is_none()
            {
                return Err(PositionError::phase(format!(
                    "player 2's part: the game plays Paired Players, player 2 is seat {player_2} \
                     (the third to the left of {}) and the current player, after the roll",
                    pp.player_1
                )));
            }
        }
        if let Some(o) = &self.offer {
            self.check_offer(o, effective)?;
        }
        Ok(())
    }

    fn check_offer(&self, o: &TradeOffer, effective: Phase) -> Result<(), PositionError> {
        let bad = |r: &str| Err(PositionError::Offer(r.into()));
        let after_roll = matches!(
            effective,
            Phase::Main | Phase::MoveRobber | Phase::RoadBuilding { .. }
        );
        if !after_roll || self.dice.is_none() || self.paired.is_some() {
            return bad(
                "an offer is open only in the current player's turn after the roll (not in a \
                 paired part)",
            );
        }
        let no_gift = |cards: &crate::ResourceSet, gold: u16| !cards.is_empty() || gold > 0;
        if !no_gift(&o.give, o.give_gold) || !no_gift(&o.get, o.get_gold) || o.give.overlaps(&o.get) {
            return bad("both sides give at least one card, no resource on both sides");
        }
        if (o.give_gold > 0 || o.get_gold > 0)
            && self.config.scenario != Some(crate::config::Scenario::Barbarians)
        {
            return bad("gold is traded only in Barbarian Invasion");
        }
        if o.give_gold > 0 && o.get_gold > 0 {
            return bad("gold cannot be on both sides");
        }
        if o.responses.len() != self.n as usize {
            return Err(PositionError::SeatCount {
                what: "offer.responses",
                expected: self.n,
                found: o.responses.len(),
            });
        }
        for s in o.to.iter() {
            self.position_seat(s, || "offer.to".into())?;
        }
        if o.to.is_empty() || o.to.contains(self.current) {
            return bad("an offer goes to other players");
        }
        for s in 0..self.n {
            if !o.to.contains(s) && o.responses[s as usize] != Response::Declined {
                return bad("seats the offer is not addressed to stand as declined");
            }
        }
        Ok(())
    }

    /// Titles are held as the one rule for both titles allows (base.md): a holder has the
    /// greatest count, at least the minimum; nobody holds one that a single leader would.
    fn check_titles(&self) -> Result<(), PositionError> {
        let n = self.n as usize;
        let roads: Vec<u8> = (0..n).map(|s| self.players[s].road_len).collect();
        let knights: Vec<u8> = (0..n).map(|s| self.players[s].knights).collect();
        for (title, counts, holder, min, unit) in [
            (
                "Longest Road",
                roads,
                self.longest_road,
                LONGEST_ROAD_MIN,
                "roads",
            ),
            (
                "Largest Army",
                knights,
                self.largest_army,
                LARGEST_ARMY_MIN,
                "knights",
            ),
        ] {
            let top = counts.iter().copied().max().unwrap_or(0);
            let legal = match holder {
                Some(h) => counts[h as usize] == top && top >= min,
                None => award(&counts, None, min).is_none(),
            };
            if !legal {
                return Err(PositionError::Title {
                    title,
                    reason: match holder {
                        Some(h) => format!(
                            "seat {h} holds it with {} {unit}; it needs the most, at least {min} \
                             (counts {counts:?})",
                            counts[h as usize]
                        ),
                        None => format!(
                            "nobody holds it, but one player alone leads with {top} {unit} \
                             (counts {counts:?})"
                        ),
                    },
                });
            }
        }
        Ok(())
    }

    /// The game ends the moment the current player has the target in their own turn, so no
    /// running position has them there.
    fn check_not_won(&self) -> Result<(), PositionError> {
        if self.in_setup() || matches!(self.phase, Phase::SpecialBuild { .. } | Phase::GameOver { .. }) {
            return Ok(());
        }
        let points = self.victory_points(self.current);
        if points >= self.config.victory_points {
            return Err(PositionError::AlreadyWon {
                seat: self.current,
                points,
            });
        }
        Ok(())
    }
}
