//! Using favor tokens, on one's own turn only (after the roll, never in a Special
//! Building Phase, never with tokens received this turn): redeem favors, or exchange one
//! token — not both in a turn.

use super::{Earned, FrenemiesAction, FrenemiesEvent, FrenemiesPhase, Guild, TokenUse};
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, Game, Phase};
use crate::resources::{Resource, ResourceSet};

/// Traders' favors per turn.
pub const TRADERS_PER_TURN: u8 = 2;

impl Game {
    /// The checks every redemption shares, and the tokens for `guild`.
    fn check_redeem(&self, seat: Seat, guild: Guild, action: &'static str) -> Result<(), RuleError> {
        self.require_trade_phase(seat, action)?;
        let f = self.fs();
        if f.used == TokenUse::Exchanged {
            return Err(RuleError::favor(
                "you exchanged a token this turn: no redeeming as well",
            ));
        }
        if f.usable(seat, guild) < guild.cost() {
            return Err(if f.held[seat as usize][guild.index()] >= guild.cost() {
                RuleError::favor("tokens received this turn can be used from your next turn")
            } else {
                RuleError::favor("you do not hold enough tokens of that guild")
            });
        }
        Ok(())
    }

    /// Returns `guild`'s tokens face up (out of play) and records the redemption.
    fn spend(&mut self, seat: Seat, guild: Guild, gave: ResourceSet, got: ResourceSet, out: &mut Vec<Event>) {
        let tokens = guild.cost();
        let f = self.fs_mut();
        f.held[seat as usize][guild.index()] -= tokens;
        f.redeemed[guild.index()] += tokens;
        f.used = TokenUse::Redeemed;
        out.push(Event::Frenemies(FrenemiesEvent::FavorRedeemed {
            seat,
            guild,
            tokens,
            gave,
            got,
        }));
    }

    pub(crate) fn redeem_traders(
        &mut self,
        seat: Seat,
        give: Resource,
        get: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_redeem(seat, Guild::Traders, "redeem_traders")?;
        if self.fs().traders_used >= TRADERS_PER_TURN {
            return Err(RuleError::favor("the Traders' favor only twice per turn"));
        }
        if give == get {
            return Err(RuleError::favor("trade for a different resource"));
        }
        let gave = ResourceSet::one(give);
        self.check_afford(seat, &gave)?;
        if self.bank[get] == 0 {
            return Err(RuleError::BankEmpty { resource: get });
        }
        let got = ResourceSet::one(get);
        self.pay(seat, &gave);
        self.bank.sub(&got);
        self.players[seat as usize].hand.add(&got);
        self.fs_mut().traders_used += 1;
        self.spend(seat, Guild::Traders, gave, got, out);
        Ok(())
    }

    pub(crate) fn redeem_merchants(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_redeem(seat, Guild::Merchants, "redeem_merchants")?;
        if self.bank[resource] == 0 {
            return Err(RuleError::BankEmpty { resource });
        }
        let got = ResourceSet::one(resource);
        self.bank.sub(&got);
        self.players[seat as usize].hand.add(&got);
        self.spend(seat, Guild::Merchants, ResourceSet::EMPTY, got, out);
        Ok(())
    }

    pub(crate) fn redeem_road_builders(
        &mut self,
        seat: Seat,
        edge: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_redeem(seat, Guild::RoadBuilders, "redeem_road_builders")?;
        if edge as usize >= self.topo.edge_count() {
            return Err(RuleError::no_place("edge", edge));
        }
        if self.players[seat as usize].roads_left == 0 {
            return Err(RuleError::no_piece("road"));
        }
        if self.road_spots(seat) & bit(edge) == 0 {
            return Err(RuleError::place(
                "a road must touch your own road, settlement or city, and cannot pass an opponent's building",
            ));
        }
        self.spend(
            seat,
            Guild::RoadBuilders,
            ResourceSet::EMPTY,
            ResourceSet::EMPTY,
            out,
        );
        self.lay_road(seat, edge, out);
        Ok(())
    }

    /// The free card counts as bought this turn (not playable until the next).
    pub(crate) fn redeem_scholars(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_redeem(seat, Guild::Scholars, "redeem_scholars")?;
        if self.deck_len == 0 {
            return Err(RuleError::DeckEmpty);
        }
        self.spend(seat, Guild::Scholars, ResourceSet::EMPTY, ResourceSet::EMPTY, out);
        self.draw_dev_card(seat, out);
        Ok(())
    }

    pub(crate) fn redeem_master_builders(
        &mut self,
        seat: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_redeem(seat, Guild::MasterBuilders, "redeem_master_builders")?;
        if self.fs().markers_left == 0 {
            return Err(RuleError::favor("no VP markers are left"));
        }
        self.spend(
            seat,
            Guild::MasterBuilders,
            ResourceSet::EMPTY,
            ResourceSet::EMPTY,
            out,
        );
        let f = self.fs_mut();
        f.markers_left -= 1;
        f.markers[seat as usize] += 1;
        out.push(Event::Frenemies(FrenemiesEvent::VpMarkerTaken { seat }));
        Ok(())
    }

    /// Exchange: draw 1 token, then return any 1 ([`FrenemiesPhase::ReturnToken`]).
    /// **Decision:** needs a token held since before this turn (it exchanges one).
    pub(crate) fn exchange_token(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.require_trade_phase(seat, "exchange_token")?;
        let f = self.fs();
        match f.used {
            TokenUse::None => {}
            TokenUse::Redeemed => {
                return Err(RuleError::favor(
                    "you redeemed tokens this turn: no exchange as well",
                ))
            }
            TokenUse::Exchanged => return Err(RuleError::favor("only one exchange per turn")),
        }
        if Guild::ALL.iter().all(|&g| f.usable(seat, g) == 0) {
            return Err(RuleError::favor("you hold no token you may use this turn"));
        }
        if f.supply_count() == 0 {
            return Err(RuleError::favor("the supply is empty"));
        }
        self.fs_mut().used = TokenUse::Exchanged;
        self.draw_tokens(seat, 1, Earned::Exchange, out);
        self.phase = Phase::Frenemies(FrenemiesPhase::ReturnToken);
        Ok(())
    }

    pub(crate) fn return_token(
        &mut self,
        seat: Seat,
        guild: Guild,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.phase != Phase::Frenemies(FrenemiesPhase::ReturnToken) {
            return Err(self.wrong_phase("return_token"));
        }
        if seat != self.current {
            return Err(RuleError::turn("return a token"));
        }
        let g = guild.index();
        if self.fs().held[seat as usize][g] == 0 {
            return Err(RuleError::favor("you hold no token of that guild"));
        }
        let f = self.fs_mut();
        f.held[seat as usize][g] -= 1;
        f.fresh[seat as usize][g] = f.fresh[seat as usize][g].min(f.held[seat as usize][g]);
        f.supply[g] += 1;
        self.phase = Phase::Main;
        out.push(Event::Frenemies(FrenemiesEvent::TokenReturned {
            seat,
            guild: Some(guild),
        }));
        Ok(())
    }

    /// Every favor and the exchange `seat` may use now.
    pub(crate) fn push_favors(&self, seat: Seat, acts: &mut Vec<Action>) {
        let f = self.fs();
        let p = &self.players[seat as usize];
        let can = |g: Guild| self.check_redeem(seat, g, "redeem").is_ok();
        if can(Guild::Traders) && f.traders_used < TRADERS_PER_TURN {
            for (give, n) in p.hand.iter() {
                if n == 0 {
                    continue;
                }
                for get in Resource::ALL {
                    if get != give && self.bank[get] > 0 {
                        acts.push(Action::Frenemies(FrenemiesAction::RedeemTraders { give, get }));
                    }
                }
            }
        }
        if can(Guild::Merchants) {
            for (resource, n) in self.bank.iter() {
                if n > 0 {
                    acts.push(Action::Frenemies(FrenemiesAction::RedeemMerchants { resource }));
                }
            }
        }
        if can(Guild::RoadBuilders) && p.roads_left > 0 {
            for edge in crate::game::bits(self.road_spots(seat)) {
                acts.push(Action::Frenemies(FrenemiesAction::RedeemRoadBuilders { edge }));
            }
        }
        if can(Guild::Scholars) && self.deck_len > 0 {
            acts.push(Action::Frenemies(FrenemiesAction::RedeemScholars));
        }
        if can(Guild::MasterBuilders) && f.markers_left > 0 {
            acts.push(Action::Frenemies(FrenemiesAction::RedeemMasterBuilders));
        }
        if f.used == TokenUse::None
            && f.supply_count() > 0
            && Guild::ALL.iter().any(|&g| f.usable(seat, g) > 0)
        {
            acts.push(Action::Frenemies(FrenemiesAction::ExchangeToken));
        }
    }
}
