//! The view projection: the one place where hidden information is removed.
//!
//! A seat sees its own hand by type, its own development cards and its own total points;
//! of everyone else it sees only counts. A spectator sees only counts. Nobody sees the
//! deck order or the RNG. Events are redacted here too ([`redact`]).

use crate::action::{DevCard, LegalActions, Seat, SeatSet};
use crate::board::{HarborKind, Layout, Terrain};
use crate::config::GameConfig;
use crate::event::Event;
use crate::game::{Game, Phase, TradeOffer};
use crate::helpers::{Helper, Pending};
use crate::resources::ResourceSet;
use serde::{Deserialize, Serialize};

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    pub(crate) fn is(self, seat: Seat) -> bool {
        self == Viewer::Seat(seat)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HexView {
    pub id: u8,
    pub col: i16,
    pub row: i16,
    pub terrain: Terrain,
    /// Number token, `None` on a desert.
    pub token: Option<u8>,
    pub corners: [u8; 6],
    pub edges: [u8; 6],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HarborView {
    pub kind: HarborKind,
    pub edge: u8,
    pub corners: [u8; 2],
}

/// The fixed part of the board: geometry and what lies on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardView {
    pub layout: Layout,
    pub hexes: Vec<HexView>,
    /// `[x, y]` of each corner (hex centres are at `x = col`, `y = 3·row`).
    pub corners: Vec<[i16; 2]>,
    /// The two corners of each edge.
    pub edges: Vec<[u8; 2]>,
    pub harbors: Vec<HarborView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BuildingView {
    pub corner: u8,
    pub seat: Seat,
    pub city: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoadView {
    pub edge: u8,
    pub seat: Seat,
}

/// Development cards by kind (in a [`crate::Position`] absent kinds are 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DevCards {
    pub knight: u8,
    pub victory_point: u8,
    pub road_building: u8,
    pub year_of_plenty: u8,
    pub monopoly: u8,
}

impl From<DevCards> for [u8; 5] {
    fn from(d: DevCards) -> Self {
        let mut a = [0u8; 5];
        a[DevCard::Knight.index()] = d.knight;
        a[DevCard::VictoryPoint.index()] = d.victory_point;
        a[DevCard::RoadBuilding.index()] = d.road_building;
        a[DevCard::YearOfPlenty.index()] = d.year_of_plenty;
        a[DevCard::Monopoly.index()] = d.monopoly;
        a
    }
}

impl From<[u8; 5]> for DevCards {
    fn from(d: [u8; 5]) -> Self {
        DevCards {
            knight: d[DevCard::Knight.index()],
            victory_point: d[DevCard::VictoryPoint.index()],
            road_building: d[DevCard::RoadBuilding.index()],
            year_of_plenty: d[DevCard::YearOfPlenty.index()],
            monopoly: d[DevCard::Monopoly.index()],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayerView {
    pub seat: Seat,
    pub resource_count: u32,
    pub development_count: u32,
    /// Face-up knights (Largest Army counts these).
    pub knights_played: u8,
    /// Development cards played so far, by kind (public; Victory Point cards are never
    /// played, so that count stays 0).
    pub played_development_cards: DevCards,
    pub roads_left: u8,
    pub settlements_left: u8,
    pub cities_left: u8,
    pub road_length: u8,
    pub public_victory_points: u8,
    pub discard_pending: u8,
    /// The hand by type: only in the holder's own view.
    pub hand: Option<ResourceSet>,
    /// Unplayed development cards: only in the holder's own view.
    pub development_cards: Option<DevCards>,
    /// Of those, bought this turn (not playable yet): only in the holder's own view.
    pub new_development_cards: Option<DevCards>,
    /// All points including hidden VP cards: own view, or everyone's once the game is over.
    pub victory_points: Option<u8>,
    /// VP cards, revealed to all when the game ends.
    pub victory_point_cards: Option<u8>,
}

/// What one viewer may know of the game, plus what that viewer may do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    pub viewer: Viewer,
    pub config: GameConfig,
    /// The fixed board. Always in [`Game::view`]; left out by [`Game::view_state`], which
    /// servers diff after every action (the board never changes, so it travels once, in
    /// snapshots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardView>,
    pub robber: u8,
    pub buildings: Vec<BuildingView>,
    pub roads: Vec<RoadView>,
    pub players: Vec<PlayerView>,
    pub bank: ResourceSet,
    pub deck_size: u8,
    pub phase: Phase,
    pub current: Seat,
    pub turn: u32,
    pub dice: Option<[u8; 2]>,
    /// The current player has played a development card this turn (at most one a turn).
    pub development_card_played: bool,
    /// Paired Players: during player 2's part of a turn, player 1 (whose turn it is) and
    /// player 2 (`current`, who acts now); `null` otherwise.
    pub paired: Option<crate::paired::PairedPart>,
    pub offer: Option<TradeOffer>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub winner: Option<Seat>,
    /// Seats the game is waiting on (the player to move, discards, trade answers).
    pub waiting_on: SeatSet,
    /// The viewer's legal actions (empty for spectators).
    pub legal: LegalActions,
    /// The Helpers scenario, when played.
    pub helpers: Option<HelpersView>,
    /// Frenemies, when played (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frenemies: Option<crate::frenemies::FrenemiesView>,
    /// Barbarian Invasion, when played (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barbarians: Option<crate::barbarians::BarbariansView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HeldHelper {
    pub seat: Seat,
    pub helper: Option<Helper>,
    /// `true` when the moon side is up (must be exchanged after its next use).
    pub moon: bool,
    /// Received this turn: not usable until a later turn.
    pub fresh: bool,
    /// Used this turn (a helper acts once a turn).
    pub used: bool,
}

/// The Helpers: everything is public except what Diara and Ryan show their user.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HelpersView {
    pub held: Vec<HeldHelper>,
    pub display: Vec<Helper>,
    pub out_of_game: Vec<Helper>,
    /// The starting stack, bottom first (empty after set-up).
    pub stack: Vec<Helper>,
    /// The pending decision, if any (public; its private parts are below).
    pub pending: Option<Pending>,
    /// Diara: the cards looked at, only in the user's view.
    pub looked_at: Option<Vec<DevCard>>,
    /// Ryan: the target's hand, only in the user's view.
    pub revealed_hand: Option<ResourceSet>,
}

/// What a seat sees beyond a spectator: from [`Game::seat_parts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatParts {
    pub seat: Seat,
    /// The seat's own entry in `players` (with its hand, cards and points).
    pub player: PlayerView,
    pub legal: LegalActions,
    /// The Helpers as the seat sees them, when that differs from the spectator's.
    pub helpers: Option<HelpersView>,
    /// Frenemies as the seat sees it (its own tokens), when played.
    pub frenemies: Option<crate::frenemies::FrenemiesView>,
}

impl View {
    /// Turns the spectator's view into the view of `parts.seat` (see [`Game::seat_parts`]).
    pub fn overlay(&mut self, parts: SeatParts) {
        self.viewer = Viewer::Seat(parts.seat);
        self.players[parts.seat as usize] = parts.player;
        self.legal = parts.legal;
        if parts.helpers.is_some() {
            self.helpers = parts.helpers;
        }
        if parts.frenemies.is_some() {
            self.frenemies = parts.frenemies;
        }
    }
}

impl Game {
    /// The fixed board part of every view.
    pub fn board_view(&self) -> BoardView {
        let t = self.topo;
        BoardView {
            layout: self.board.layout,
            hexes: (0..t.hex_count())
                .map(|h| HexView {
                    id: h as u8,
                    col: t.hex_pos[h].0,
                    row: t.hex_pos[h].1,
                    terrain: self.board.terrain[h],
                    token: (self.board.token[h] != 0).then_some(self.board.token[h]),
                    corners: t.hex_corners[h],
                    edges: t.hex_edges[h],
                })
                .collect(),
            corners: t.corner_pos.iter().map(|&(x, y)| [x, y]).collect(),
            edges: t.edge_corners.clone(),
            harbors: t
                .harbor_edges
                .iter()
                .enumerate()
                .map(|(i, &e)| HarborView {
                    kind: self.board.harbors[i],
                    edge: e,
                    corners: t.edge_corners[e as usize],
                })
                .collect(),
        }
    }

    pub(crate) fn helpers_view(&self, h: &crate::helpers::HelpersState, viewer: Viewer) -> HelpersView {
        let pending = (h.pending != Pending::None).then_some(h.pending);
        let looked_at = match h.pending {
            Pending::DiaraKeep { seat, cards, count } if viewer.is(seat) => {
                Some(cards[..count as usize].to_vec())
            }
            _ => None,
        };
        let revealed_hand = match h.pending {
            Pending::RyanTake { seat, target } if viewer.is(seat) => Some(self.players[target as usize].hand),
            _ => None,
        };
        HelpersView {
            held: (0..self.n)
                .map(|s| HeldHelper {
                    seat: s,
                    helper: h.held[s as usize],
                    moon: h.moon[s as usize],
                    fresh: h.received_turn[s as usize] == self.turn,
                    used: h.used_turn[s as usize] == self.turn,
                })
                .collect(),
            display: crate::helpers::helpers_in(h.display).collect(),
            out_of_game: crate::helpers::helpers_in(h.out).collect(),
            stack: h.stack[..h.stack_len as usize].to_vec(),
            pending,
            looked_at,
            revealed_hand,
        }
    }

    /// The Helpers as `seat` sees them when that differs from the spectator's view: while
    /// the seat looks at cards (Diara) or a hand (Ryan).
    pub(crate) fn helpers_seat_view(
        &self,
        h: &crate::helpers::HelpersState,
        seat: Seat,
    ) -> Option<HelpersView> {
        let private = match h.pending {
            Pending::DiaraKeep { seat: s, .. } | Pending::RyanTake { seat: s, .. } => s == seat,
            _ => false,
        };
        private.then(|| self.helpers_view(h, Viewer::Seat(seat)))
    }

    /// The game as `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> View {
        let mut v = self.view_state(viewer);
        v.board = Some(self.board_view());
        v
    }

    /// Seat `s`'s entry in `players` as `viewer` sees it.
    fn player_view(&self, s: Seat, viewer: Viewer) -> PlayerView {
        let p = &self.players[s as usize];
        let own = viewer.is(s);
        let over = self.is_over();
        PlayerView {
            seat: s,
            resource_count: p.hand.total(),
            development_count: p.dev_total(),
            knights_played: p.knights,
            played_development_cards: p.played.into(),
            roads_left: p.roads_left,
            settlements_left: p.settlements_left,
            cities_left: p.cities_left,
            road_length: p.road_len,
            public_victory_points: self.public_victory_points(s),
            discard_pending: self.discard_pending[s as usize],
            hand: own.then_some(p.hand),
            development_cards: own.then(|| p.dev.into()),
            new_development_cards: own.then(|| p.dev_new.into()),
            victory_points: (own || over).then(|| self.victory_points(s)),
            victory_point_cards: (own || over).then(|| p.dev[DevCard::VictoryPoint.index()]),
        }
    }

    /// The parts of `seat`'s view that may differ from a spectator's: a server showing
    /// one game to several viewers builds the spectator's view once and only these per
    /// seat. `view_state(Spectator)` with these laid over it ([`View::overlay`]) is
    /// exactly `view_state(Seat(seat))` (a property test checks it in random games of
    /// every variant).
    pub fn seat_parts(&self, seat: Seat) -> SeatParts {
        let mut parts = SeatParts {
            seat,
            player: self.player_view(seat, Viewer::Seat(seat)),
            legal: LegalActions::default(),
            helpers: None,
            frenemies: None,
        };
        self.legal_into(seat, &mut parts.legal);
        self.hook_seat_parts(seat, &mut parts);
        parts
    }

    /// [`Game::view`] without the fixed board.
    pub fn view_state(&self, viewer: Viewer) -> View {
        let players = (0..self.n).map(|s| self.player_view(s, viewer)).collect();
        let mut buildings = Vec::new();
        for c in crate::game::bits(self.occupied) {
            buildings.push(BuildingView {
                corner: c,
                seat: self.corner_owner[c as usize],
                city: self.is_city(c),
            });
        }
        let roads = crate::game::bits(self.roads_taken)
            .map(|e| RoadView {
                edge: e,
                seat: self.edge_owner[e as usize],
            })
            .collect();
        let legal = match viewer {
            Viewer::Seat(s) => self.legal_actions(s),
            Viewer::Spectator => LegalActions::default(),
        };
        let mut v = View {
            viewer,
            config: self.config,
            board: None,
            robber: self.robber,
            buildings,
            roads,
            players,
            bank: self.bank,
            deck_size: self.deck_len,
            phase: self.phase,
            current: if matches!(self.phase, Phase::SetupSettlement | Phase::SetupRoad { .. }) {
                self.setup_seat()
            } else {
                self.current
            },
            turn: self.turn,
            dice: self.dice,
            development_card_played: self.dev_played,
            paired: self.paired_part(),
            offer: self.offer,
            longest_road: self.longest_road,
            largest_army: self.largest_army,
            winner: self.winner(),
            waiting_on: self.waiting_on(),
            legal,
            helpers: None,
            frenemies: None,
            barbarians: None,
        };
        self.hook_view(viewer, &mut v);
        v
    }
}

/// `event` as `viewer` may see it: a stolen card's type only for thief and victim, a
/// bought development card only for its buyer.
pub fn redact(event: &Event, viewer: Viewer) -> Event {
    match *event {
        Event::Stole {
            thief,
            victim,
            resource,
        } => Event::Stole {
            thief,
            victim,
            resource: if viewer.is(thief) || viewer.is(victim) {
                resource
            } else {
                None
            },
        },
        Event::DevelopmentCardBought { seat, card } => Event::DevelopmentCardBought {
            seat,
            card: if viewer.is(seat) { card } else { None },
        },
        Event::Helpers(ref e) => Event::Helpers(e.redact(viewer)),
        Event::Frenemies(ref e) => Event::Frenemies(e.redact(viewer)),
        ref e => e.clone(),
    }
}
