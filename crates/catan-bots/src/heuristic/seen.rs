//! [`Seen`]: the heuristic bot's only window on the game.
//!
//! The server hands a bot the real [`Game`], which holds every secret: the other seats'
//! hands and development cards, the deck order, the favor tokens drawn. A bot worth
//! playing against must not use them, so no module of the heuristic bot touches `Game`:
//! they all read through `Seen`, which has accessors only for what the bot's own seat may
//! know — the public board and counts, and its own hand, cards and tokens. There is no
//! accessor for another seat's hand by type, its development cards, its favor tokens or
//! the deck; the private parts of a pending helper decision (Diara's cards, Ryan's view of
//! a hand) are handed out only to the seat they are shown to. Legal actions are the seat's
//! own, as its view lists them.

use catan_rules::barbarians::BarbariansState;
use catan_rules::board::MAX_HEXES;
use catan_rules::frenemies::{FrenemiesState, GiftOffer, Guild, TokenUse};
pub use catan_rules::game::{bit, bits};
use catan_rules::helpers::HelpersState;
use catan_rules::{
    Board, DevCard, Game, Helper, LegalActions, Pending, Phase, Resource, ResourceSet, Seat, Topology,
    TradeOffer,
};

/// What one seat may know of a game, and nothing more.
pub struct Seen<'a> {
    game: &'a Game,
    /// The seat the bot plays.
    pub me: Seat,
    /// Seats in the game.
    pub n: u8,
    pub topo: &'static Topology,
    /// Corners holding any building.
    pub occupied: u128,
    /// Corners where the distance rule forbids a settlement (occupied or next to one).
    pub blocked: u128,
    /// Corners holding a city.
    pub cities: u128,
    /// Whether the bot uses Barbarian Invasion's features (true in such a game unless the
    /// bot was made without them, for comparisons): conquest risk in its valuations,
    /// knights, cards, gold and steals chosen by value.
    pub barb: bool,
}

impl<'a> Seen<'a> {
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn new(game: &'a Game, me: Seat) -> Seen<'a> {
        Seen::with_features(game, me, true)
    }

    /// As [`Seen::new`]; `barbarian_features: false` makes a bot that ignores Barbarian
    /// Invasion's features (the bot as it was before them, for comparisons).
    pub fn with_features(game: &'a Game, me: Seat, barbarian_features: bool) -> Seen<'a> {
        let n = game.players();
        let topo = game.topology();
        let occupied = (0..n).fold(0u128, |m, s| m | game.player(s).buildings);
        let mut blocked = occupied;
        let mut cities = 0u128;
        for c in bits(occupied) {
            blocked |= topo.corner_adj_mask[c as usize];
            if game.is_city(c) {
                cities |= bit(c);
            }
        }
        let mut seen = Seen {
            game,
            me,
            n,
            topo,
            occupied,
            blocked,
            cities,
            barb: barbarian_features && game.barbarians_state().is_some(),
        };
        if seen.barb {
            // No settlement goes on a corner of a conquered hex.
            seen.blocked |= seen.conquered_corners();
        }
        seen
    }

    // ----- the public table ---------------------------------------------------------

    pub fn target_vp(&self) -> u8 {
        self.game.config().victory_points
    }
    pub fn board(&self) -> &Board {
        self.game.board()
    }
    pub fn phase(&self) -> Phase {
        self.game.phase()
    }
    pub fn current(&self) -> Seat {
        self.game.current()
    }
    pub fn turn(&self) -> u32 {
        self.game.turn()
    }
    pub fn robber(&self) -> u8 {
        self.game.robber()
    }
    pub fn bank(&self) -> ResourceSet {
        self.game.bank()
    }
    pub fn deck_len(&self) -> u8 {
        self.game.deck_len()
    }
    pub fn offer(&self) -> Option<&TradeOffer> {
        self.game.offer()
    }
    pub fn longest_road(&self) -> Option<Seat> {
        self.game.longest_road()
    }
    pub fn largest_army(&self) -> Option<Seat> {
        self.game.largest_army()
    }
    pub fn owner(&self, corner: u8) -> Option<Seat> {
        self.game.corner_owner(corner)
    }
    pub fn is_city(&self, corner: u8) -> bool {
        self.cities & bit(corner) != 0
    }
    pub fn in_setup(&self) -> bool {
        matches!(self.phase(), Phase::SetupSettlement | Phase::SetupRoad { .. })
    }

    // ----- every seat's public facts -------------------------------------------------

    /// Visible points (buildings, titles, scenario markers; no hidden VP cards).
    pub fn public_vp(&self, s: Seat) -> u8 {
        self.game.public_victory_points(s)
    }
    /// How many resource cards `s` holds (the count is public, the kinds are not).
    pub fn cards(&self, s: Seat) -> u32 {
        self.game.player(s).hand.total()
    }
    /// How many development cards `s` holds.
    pub fn dev_count(&self, s: Seat) -> u32 {
        self.game.player(s).dev_total()
    }
    pub fn knights(&self, s: Seat) -> u8 {
        self.game.player(s).knights
    }
    pub fn road_len(&self, s: Seat) -> u8 {
        self.game.player(s).road_len
    }
    /// Edges holding `s`'s roads.
    pub fn roads(&self, s: Seat) -> u128 {
        self.game.player(s).roads
    }
    /// Corners touched by `s`'s roads.
    pub fn road_corners(&self, s: Seat) -> u128 {
        self.game.player(s).road_corners
    }
    /// Corners holding `s`'s settlements and cities.
    pub fn buildings(&self, s: Seat) -> u128 {
        self.game.player(s).buildings
    }
    pub fn roads_left(&self, s: Seat) -> u8 {
        self.game.player(s).roads_left
    }
    pub fn settlements_left(&self, s: Seat) -> u8 {
        self.game.player(s).settlements_left
    }
    pub fn cities_left(&self, s: Seat) -> u8 {
        self.game.player(s).cities_left
    }

    // ----- the bot's own seat ----------------------------------------------------------

    pub fn hand(&self) -> ResourceSet {
        self.game.player(self.me).hand
    }
    /// Own unplayed development cards by kind (VP cards included).
    pub fn dev(&self) -> [u8; 5] {
        self.game.player(self.me).dev
    }
    /// Own cards of `card` playable now (not bought this turn).
    pub fn playable(&self, card: DevCard) -> u8 {
        self.game.player(self.me).playable(card)
    }
    /// Own points including hidden VP cards.
    pub fn my_vp(&self) -> u8 {
        self.game.victory_points(self.me)
    }
    /// Own bank rate for giving `r` (harbors are public anyway).
    pub fn rate(&self, r: Resource) -> u8 {
        self.game.maritime_rate(self.me, r)
    }
    /// Own legal actions, exactly as the seat's view lists them.
    pub fn legal_into(&self, out: &mut LegalActions) {
        self.game.legal_into(self.me, out)
    }

    // ----- The Helpers (public, except what a helper shows its user) ---------------------

    fn hs(&self) -> Option<&HelpersState> {
        self.game.helpers_state()
    }
    pub fn helper(&self, s: Seat) -> Option<Helper> {
        self.hs().and_then(|h| h.held[s as usize])
    }
    /// The pending helper decision, with the cards Diara shows only when they are shown
    /// to this seat (otherwise blanked).
    pub fn pending(&self) -> Pending {
        let Some(h) = self.hs() else {
            return Pending::None;
        };
        match h.pending {
            Pending::DiaraKeep { seat, count, .. } if seat != self.me => Pending::DiaraKeep {
                seat,
                cards: [DevCard::Knight; 3],
                count,
            },
            p => p,
        }
    }
    /// Ryan's reveal: the target's hand, only while this seat is the one looking.
    pub fn revealed_hand(&self) -> Option<ResourceSet> {
        match self.hs()?.pending {
            Pending::RyanTake { seat, target } if seat == self.me => Some(self.game.player(target).hand),
            _ => None,
        }
    }

    // ----- Frenemies (own tokens by guild; everyone else's only as counts) ---------------

    fn fs(&self) -> Option<&FrenemiesState> {
        self.game.frenemies_state()
    }
    pub fn frenemies_on(&self) -> bool {
        self.fs().is_some()
    }
    /// Own tokens by guild.
    pub fn my_tokens(&self) -> [u8; 5] {
        self.fs().map_or([0; 5], |f| f.held[self.me as usize])
    }
    /// Own tokens of `guild` usable now (held since before this turn).
    pub fn usable_tokens(&self, guild: Guild) -> u8 {
        self.fs().map_or(0, |f| f.usable(self.me, guild))
    }
    pub fn token_supply(&self) -> u32 {
        self.fs().map_or(0, |f| f.supply_count())
    }
    /// Whether the networks of `a` and `b` have met (public).
    pub fn connected(&self, a: Seat, b: Seat) -> bool {
        self.fs().is_some_and(|f| f.is_connected(a, b))
    }
    pub fn gift(&self) -> Option<GiftOffer> {
        self.fs().and_then(|f| f.gift)
    }
    pub fn token_use(&self) -> TokenUse {
        self.fs().map_or(TokenUse::None, |f| f.used)
    }
    pub fn gift_accepted(&self) -> bool {
        self.fs().is_some_and(|f| f.gift_accepted)
    }
}

impl Seen<'_> {
    // ----- Barbarian Invasion (all public but the deck's order) ---------------------------

    fn bb(&self) -> Option<&BarbariansState> {
        self.game.barbarians_state()
    }
    /// Barbarians on `hex` (0 off the coast or outside the scenario).
    pub fn barbarians(&self, hex: u8) -> u8 {
        self.bb().map_or(0, |b| b.barbarians[hex as usize])
    }
    /// Barbarians on every hex, by hex id.
    pub fn barbarian_map(&self) -> [u8; MAX_HEXES] {
        self.bb().map_or([0; MAX_HEXES], |b| b.barbarians)
    }
    pub fn barbarian_supply(&self) -> u8 {
        self.bb().map_or(0, |b| b.supply)
    }
    /// The coastal hexes in battle order (empty outside the scenario).
    pub fn coastal(&self) -> &[u8] {
        self.bb().map_or(&[], |b| &b.coastal[..])
    }
    pub fn is_coastal(&self, hex: u8) -> bool {
        self.coastal().contains(&hex)
    }
    pub fn castle(&self) -> Option<u8> {
        self.bb().map(|b| b.castle)
    }
    /// Whether every land hex `corner` touches is conquered (its building scores 0).
    pub fn building_conquered(&self, corner: u8) -> bool {
        self.game.building_conquered(corner)
    }
    /// Corners of conquered hexes (no settlement may go there).
    pub fn conquered_corners(&self) -> u128 {
        let Some(b) = self.bb() else { return 0 };
        b.coastal
            .iter()
            .filter(|&&h| b.is_conquered(h))
            .fold(0, |m, &h| m | self.topo.hex_corner_mask[h as usize])
    }
    /// Edges holding `s`'s knights.
    pub fn knight_edges(&self, s: Seat) -> u128 {
        self.bb().map_or(0, |b| b.knights[s as usize])
    }
    /// Edges holding anyone's knight.
    pub fn all_knights(&self) -> u128 {
        self.bb().map_or(0, |b| b.all_knights())
    }
    /// Knights `s` still has in supply.
    pub fn knights_left(&self, s: Seat) -> u8 {
        self.bb().map_or(0, |b| b.knights_left[s as usize])
    }
    pub fn gold(&self, s: Seat) -> u16 {
        self.bb().map_or(0, |b| b.gold[s as usize])
    }
    pub fn prisoners(&self, s: Seat) -> u8 {
        self.bb().map_or(0, |b| b.prisoners[s as usize])
    }
    /// Gold buys made this turn.
    pub fn gold_buys(&self) -> u8 {
        self.bb().map_or(0, |b| b.gold_buys)
    }
}
