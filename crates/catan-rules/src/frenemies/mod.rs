//! Scenario: Catan Frenemies (`frenemies.md`): favor tokens of five guilds, earned by a
//! harmless robber move, a gift or a first connection of networks, and redeemed for
//! favors on one's own turn. Joined to the core only through the scenario seam
//! ([`crate::scenario`]): after a build (connections), after a robber move (harmless
//! moves), at the start of a turn, for victory points (VP markers), legal actions, views
//! and invariants; its actions arrive as [`FrenemiesAction`] through
//! `Game::frenemies_apply`.

mod connections;
mod favors;
mod gift;
mod position;
mod supply;
mod view;
mod wire;

pub use position::{FrenemiesPosition, TokenHolderPosition};
pub use supply::{token_set, DOTTED, UNDOTTED};
pub use view::{FrenemiesView, TokenHolder};
pub use wire::{Earned, FrenemiesAction, FrenemiesEvent, FrenemiesPhase};

use crate::action::{LegalActions, Seat, SeatSet};
use crate::config::{GameConfig, MAX_SEATS};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Phase};
use crate::resources::Resource;
use serde::{Deserialize, Serialize};

/// The five guilds (favor token types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Guild {
    /// Wagon: a 1:1 bank trade (1 token, at most twice a turn).
    Traders,
    /// Ship: any 1 resource (1 token).
    Merchants,
    /// Shovel: a free road (1 token).
    RoadBuilders,
    /// Book: a free development card (2 tokens).
    Scholars,
    /// Compass: a VP marker (2 tokens).
    MasterBuilders,
}

impl Guild {
    pub const ALL: [Guild; 5] = [
        Guild::Traders,
        Guild::Merchants,
        Guild::RoadBuilders,
        Guild::Scholars,
        Guild::MasterBuilders,
    ];
    /// Tokens one favor of this guild costs.
    pub fn cost(self) -> u8 {
        match self {
            Guild::Traders | Guild::Merchants | Guild::RoadBuilders => 1,
            Guild::Scholars | Guild::MasterBuilders => 2,
        }
    }
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// VP markers in the game.
pub const VP_MARKERS: u8 = 8;

/// What the current player did with tokens this turn (redeem and exchange exclude each
/// other).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TokenUse {
    None,
    Redeemed,
    Exchanged,
}

/// The gift in progress (or what this turn's gifts left behind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GiftOffer {
    pub from: Seat,
    pub to: Seat,
    pub resource: Resource,
}

/// Everything the scenario adds to a game. `Copy`, so games still clone flat. The supply
/// is kept as counts per guild; drawing picks a uniformly random token among them with
/// the game RNG, which is the same as drawing from a shuffled face-down pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrenemiesState {
    /// The size of this game's token set (44 / 58 / 72 / 88).
    pub set_size: u8,
    pub supply: [u8; 5],
    pub held: [[u8; 5]; MAX_SEATS],
    /// Of `held`, tokens received during the current turn (not usable yet).
    pub fresh: [[u8; 5]; MAX_SEATS],
    /// Tokens redeemed (out of play), by guild.
    pub redeemed: [u8; 5],
    pub markers: [u8; MAX_SEATS],
    pub markers_left: u8,
    /// Pairs of seats whose networks have met: bit `a * 8 + b` for `a < b`.
    pub connected: u64,
    // ----- this turn ----------------------------------------------------------------
    pub used: TokenUse,
    pub traders_used: u8,
    pub gift_accepted: bool,
    /// Opponents who rejected a gift this turn.
    pub gift_rejected: SeatSet,
    /// Opponents who asked for another resource this turn.
    pub gift_asked: SeatSet,
    pub gift: Option<GiftOffer>,
}

impl FrenemiesState {
    pub fn new(config: &GameConfig) -> FrenemiesState {
        let supply = token_set(config.players);
        FrenemiesState {
            set_size: supply.iter().sum(),
            supply,
            held: [[0; 5]; MAX_SEATS],
            fresh: [[0; 5]; MAX_SEATS],
            redeemed: [0; 5],
            markers: [0; MAX_SEATS],
            markers_left: VP_MARKERS,
            connected: 0,
            used: TokenUse::None,
            traders_used: 0,
            gift_accepted: false,
            gift_rejected: SeatSet::EMPTY,
            gift_asked: SeatSet::EMPTY,
            gift: None,
        }
    }

    pub fn supply_count(&self) -> u32 {
        self.supply.iter().map(|&n| n as u32).sum()
    }
    pub fn held_count(&self, seat: Seat) -> u32 {
        self.held[seat as usize].iter().map(|&n| n as u32).sum()
    }
    /// Tokens of `guild` that `seat` may use now (held before this turn).
    pub fn usable(&self, seat: Seat, guild: Guild) -> u8 {
        self.held[seat as usize][guild.index()] - self.fresh[seat as usize][guild.index()]
    }
    pub fn pair_bit(a: Seat, b: Seat) -> u64 {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        1u64 << (lo * 8 + hi)
    }
    pub fn is_connected(&self, a: Seat, b: Seat) -> bool {
        self.connected & Self::pair_bit(a, b) != 0
    }
    /// The connected pairs among `n` seats, each once, lower seat first.
    pub fn connected_pairs(&self, n: u8) -> Vec<[Seat; 2]> {
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if self.is_connected(a, b) {
                    pairs.push([a, b]);
                }
            }
        }
        pairs
    }
}

impl Game {
    pub(crate) fn fs(&self) -> &FrenemiesState {
        self.scenario.frenemies().expect("frenemies scenario")
    }
    pub(crate) fn fs_mut(&mut self) -> &mut FrenemiesState {
        self.scenario.frenemies_mut().expect("frenemies scenario")
    }

    pub fn frenemies_state(&self) -> Option<&FrenemiesState> {
        self.scenario.frenemies()
    }

    /// Carries out one of the scenario's actions (the seam's one dispatch arm).
    pub(crate) fn frenemies_apply(
        &mut self,
        seat: Seat,
        action: FrenemiesAction,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.scenario.frenemies().is_none() {
            return Err(RuleError::favor("this game is not played with Frenemies"));
        }
        match action {
            FrenemiesAction::OfferGift { to, resource } => self.offer_gift(seat, to, resource, out),
            FrenemiesAction::AcceptGift => self.accept_gift(seat, out),
            FrenemiesAction::RejectGift => self.reject_gift(seat, out),
            FrenemiesAction::AskOtherGift { resource } => self.ask_other_gift(seat, resource, out),
            FrenemiesAction::RedeemTraders { give, get } => self.redeem_traders(seat, give, get, out),
            FrenemiesAction::RedeemMerchants { resource } => self.redeem_merchants(seat, resource, out),
            FrenemiesAction::RedeemRoadBuilders { edge } => self.redeem_road_builders(seat, edge, out),
            FrenemiesAction::RedeemScholars => self.redeem_scholars(seat, out),
            FrenemiesAction::RedeemMasterBuilders => self.redeem_master_builders(seat, out),
            FrenemiesAction::ExchangeToken => self.exchange_token(seat, out),
            FrenemiesAction::ReturnToken { guild } => self.return_token(seat, guild, out),
        }
    }

    /// `seat` draws up to `count` tokens at random (fewer when the supply runs out).
    pub(crate) fn draw_tokens(&mut self, seat: Seat, count: u8, reason: Earned, out: &mut Vec<Event>) {
        let mut got = [0u8; 5];
        let mut drawn = 0;
        for _ in 0..count {
            let total = self.fs().supply_count();
            if total == 0 {
                break;
            }
            let mut k = self.rng.below(total);
            let mut guild = 0;
            while k >= self.fs().supply[guild] as u32 {
                k -= self.fs().supply[guild] as u32;
                guild += 1;
            }
            let f = self.fs_mut();
            f.supply[guild] -= 1;
            f.held[seat as usize][guild] += 1;
            f.fresh[seat as usize][guild] += 1;
            got[guild] += 1;
            drawn += 1;
        }
        if drawn > 0 {
            out.push(Event::Frenemies(FrenemiesEvent::TokensDrawn {
                seat,
                count: drawn,
                reason,
                guilds: Some(got),
            }));
        }
    }

    /// Hook: a new turn begins: the last turn's limits reset, and every token drawn so far
    /// (in a turn or a Special Building Phase) becomes usable on its holder's own turn.
    pub(crate) fn frenemies_new_turn(&mut self) {
        self.fs_mut().fresh = [[0; 5]; MAX_SEATS];
        self.frenemies_turn_limits_reset();
    }

    /// Hook: the current player's per-turn limits start afresh (a new turn, or player 2's
    /// part of a paired turn). Tokens received earlier in the same turn stay fresh: they
    /// are usable from the holder's next turn.
    pub(crate) fn frenemies_turn_limits_reset(&mut self) {
        let f = self.fs_mut();
        f.used = TokenUse::None;
        f.traders_used = 0;
        f.gift_accepted = false;
        f.gift_rejected = SeatSet::EMPTY;
        f.gift_asked = SeatSet::EMPTY;
        f.gift = None;
    }

    /// Hook: the scenario's legal actions.
    pub(crate) fn frenemies_legal(&self, seat: Seat, out: &mut LegalActions) {
        match self.phase {
            Phase::Main if seat == self.current => {
                self.push_gift_offers(seat, &mut out.actions);
                self.push_favors(seat, &mut out.actions);
            }
            Phase::MoveRobber if seat == self.current => self.push_desert_no_steal(&mut out.actions),
            Phase::Frenemies(FrenemiesPhase::GiftOffered) => self.push_gift_answers(seat, &mut out.actions),
            Phase::Frenemies(FrenemiesPhase::ReturnToken) if seat == self.current => {
                for g in Guild::ALL {
                    if self.fs().held[seat as usize][g.index()] > 0 {
                        out.actions
                            .push(crate::action::Action::Frenemies(FrenemiesAction::ReturnToken {
                                guild: g,
                            }));
                    }
                }
            }
            _ => {}
        }
    }

    /// Hook: who the game waits on in the scenario's phases.
    pub(crate) fn frenemies_waiting_on(&self, s: &mut SeatSet) {
        match (self.phase, self.fs().gift) {
            (Phase::Frenemies(FrenemiesPhase::GiftOffered), Some(g)) => s.insert(g.to),
            _ => s.insert(self.current),
        }
    }

    /// Scenario invariants: tokens conserved, markers conserved and at most 8, fresh
    /// tokens among the held ones.
    pub(crate) fn check_frenemies_invariants(&self, f: &FrenemiesState) -> Result<(), String> {
        let n = self.n as usize;
        let mut total: u32 = f.supply_count() + f.redeemed.iter().map(|&x| x as u32).sum::<u32>();
        for s in 0..n {
            total += f.held_count(s as Seat);
            for g in 0..5 {
                if f.fresh[s][g] > f.held[s][g] {
                    return Err(format!("seat {s}: more fresh tokens than held"));
                }
            }
        }
        if total != f.set_size as u32 {
            return Err(format!(
                "favor tokens: {total} accounted for, set of {}",
                f.set_size
            ));
        }
        let markers: u32 = f.markers[..n].iter().map(|&m| m as u32).sum::<u32>() + f.markers_left as u32;
        if markers != VP_MARKERS as u32 {
            return Err(format!("VP markers: {markers} accounted for"));
        }
        let expected = token_set(self.n);
        for g in 0..5 {
            let mut sum = f.supply[g] as u32 + f.redeemed[g] as u32;
            for s in 0..n {
                sum += f.held[s][g] as u32;
            }
            if sum != expected[g] as u32 {
                return Err(format!("guild {g}: {sum} tokens, set has {}", expected[g]));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
