//! Placing roads, settlements and cities (set-up, paid, free from Road Building, and in the
//! Special Building Phase).

use crate::action::Seat;
use crate::board::NONE;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, Game, Phase};
use crate::resources::ResourceSet;
use crate::scenario::Built;

/// How a placement is paid for in the current phase.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Payment {
    Free,
    Cost,
}

impl Game {
    /// Which seat may build now, and whether it pays.
    fn builder(&self, seat: Seat, action: &'static str) -> Result<Payment, RuleError> {
        match self.phase {
            Phase::Main | Phase::RoadBuilding { .. } if seat == self.current => {
                Ok(if matches!(self.phase, Phase::RoadBuilding { .. }) {
                    Payment::Free
                } else {
                    Payment::Cost
                })
            }
            Phase::SpecialBuild { seat: s } if seat == s => Ok(Payment::Cost),
            Phase::SetupSettlement | Phase::SetupRoad { .. } if seat == self.setup_seat() => {
                Ok(Payment::Free)
            }
            Phase::Roll
            | Phase::Main
            | Phase::RoadBuilding { .. }
            | Phase::MoveRobber
            | Phase::Discard
            | Phase::Helpers(_)
            | Phase::Frenemies(_)
            | Phase::Barbarians(_)
                if seat == self.current =>
            {
                Err(self.wrong_phase(action))
            }
            _ => Err(RuleError::turn(action)),
        }
    }

    /// Edges where `seat` may place a road now (ignoring cost and supply).
    pub(crate) fn road_spots(&self, seat: Seat) -> u128 {
        let p = &self.players[seat as usize];
        // A road extends from the player's own buildings, or from a corner their road
        // touches unless an opponent's building sits there.
        let others = self.occupied & !p.buildings;
        let from = p.buildings | (p.road_corners & !others);
        let mut spots = 0u128;
        for c in crate::game::bits(from) {
            spots |= self.topo.corner_edge_mask[c as usize];
        }
        spots & !self.roads_taken & !self.hook_forbidden_edges()
    }

    /// Corners where `seat` may place a settlement now in the main game.
    pub(crate) fn settlement_spots(&self, seat: Seat) -> u128 {
        self.players[seat as usize].road_corners & !self.blocked & !self.hook_forbidden_corners()
    }

    /// Corners open for a set-up settlement (distance rule only).
    pub(crate) fn setup_settlement_spots(&self) -> u128 {
        self.topo.all_corners_mask & !self.blocked & !self.hook_forbidden_corners()
    }

    pub(crate) fn build_road(&mut self, seat: Seat, edge: u8, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let pay = self.builder(seat, "build a road")?;
        if edge as usize >= self.topo.edge_count() {
            return Err(RuleError::no_place("edge", edge));
        }
        if self.roads_taken & bit(edge) != 0 {
            return Err(RuleError::place("that edge already has a road"));
        }
        if self.hook_forbidden_edges() & bit(edge) != 0 {
            return Err(RuleError::place(
                "no road may be built on a path of a conquered hex",
            ));
        }
        if let Phase::SetupSettlement = self.phase {
            return Err(self.wrong_phase("build_road"));
        }
        if let Phase::SetupRoad { corner } = self.phase {
            if !self.topo.edge_corners[edge as usize].contains(&corner) {
                return Err(RuleError::place(
                    "the set-up road must touch the settlement just placed",
                ));
            }
        } else if self.road_spots(seat) & bit(edge) == 0 {
            return Err(RuleError::place(
                "a road must touch your own road, settlement or city, and cannot pass an opponent's building",
            ));
        }
        if self.players[seat as usize].roads_left == 0 {
            return Err(RuleError::no_piece("road"));
        }
        if pay == Payment::Cost {
            self.check_afford(seat, &ResourceSet::ROAD)?;
            self.pay(seat, &ResourceSet::ROAD);
        }
        self.lay_road(seat, edge, out);

        match self.phase {
            Phase::SetupRoad { .. } => {
                if self.setup_index >= self.n {
                    // The second settlement and road are down.
                    self.hook_after_setup(seat, out);
                }
                self.setup_index += 1;
                if self.setup_index == 2 * self.n {
                    let first = self.first;
                    self.start_turn(first, out);
                } else {
                    self.current = self.setup_seat();
                    self.phase = Phase::SetupSettlement;
                }
            }
            Phase::RoadBuilding { left } => {
                let left = left - 1;
                let p = &self.players[seat as usize];
                if left == 0 || p.roads_left == 0 || self.road_spots(seat) == 0 {
                    self.phase = if self.rolled { Phase::Main } else { Phase::Roll };
                } else {
                    self.phase = Phase::RoadBuilding { left };
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Puts a road on the board and re-evaluates Longest Road (all road builds).
    pub(crate) fn lay_road(&mut self, seat: Seat, edge: u8, out: &mut Vec<Event>) {
        self.place_road(seat, edge);
        out.push(Event::RoadBuilt { seat, edge });
        self.recompute_road(seat);
        self.update_longest_road(out);
        self.hook_after_build(seat, Built::Road { edge }, out);
    }

    pub(crate) fn place_road(&mut self, seat: Seat, edge: u8) {
        let [a, b] = self.topo.edge_corners[edge as usize];
        self.edge_owner[edge as usize] = seat;
        self.roads_taken |= bit(edge);
        let p = &mut self.players[seat as usize];
        p.roads |= bit(edge);
        p.road_corners |= bit(a) | bit(b);
        p.roads_left -= 1;
    }

    pub(crate) fn build_settlement(
        &mut self,
        seat: Seat,
        corner: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let pay = self.builder(seat, "build a settlement")?;
        match self.phase {
            Phase::SetupRoad { .. } | Phase::RoadBuilding { .. } => {
                return Err(self.wrong_phase("build_settlement"))
            }
            _ => {}
        }
        let setup = self.phase == Phase::SetupSettlement;
        self.check_settlement(seat, corner, !setup)?;
        if pay == Payment::Cost {
            self.check_afford(seat, &ResourceSet::SETTLEMENT)?;
            self.pay(seat, &ResourceSet::SETTLEMENT);
        }
        self.place_settlement(seat, corner);
        out.push(Event::SettlementBuilt { seat, corner });

        if setup {
            if self.setup_index >= self.n {
                // Second settlement: one card per adjacent producing hex.
                let mut cards = ResourceSet::EMPTY;
                for &h in &self.topo.corner_hexes[corner as usize] {
                    if h == NONE {
                        continue;
                    }
                    if let Some(r) = self.board.terrain[h as usize].resource() {
                        if self.bank[r] > 0 {
                            cards[r] += 1;
                            self.bank[r] -= 1;
                        }
                    }
                }
                self.players[seat as usize].hand.add(&cards);
                if !cards.is_empty() {
                    out.push(Event::StartingResources { seat, cards });
                }
            }
            self.phase = Phase::SetupRoad { corner };
            if self.setup_index >= self.n && self.hook_setup_city() {
                // The second set-up building is a city (Barbarian Invasion).
                self.upgrade_to_city(seat, corner, out);
                return Ok(());
            }
        } else {
            self.after_settlement_cut(seat, corner, out);
        }
        self.hook_after_build(seat, Built::Settlement { corner }, out);
        Ok(())
    }

    /// A new settlement may cut opponents' roads: recompute them and the title.
    pub(crate) fn after_settlement_cut(&mut self, seat: Seat, corner: u8, out: &mut Vec<Event>) {
        let mut cut = false;
        for s in 0..self.n {
            if s != seat && self.players[s as usize].road_corners & bit(corner) != 0 {
                self.recompute_road(s);
                cut = true;
            }
        }
        if cut {
            self.update_longest_road(out);
        }
    }

    pub(crate) fn place_settlement(&mut self, seat: Seat, corner: u8) {
        self.corner_owner[corner as usize] = seat;
        self.occupied |= bit(corner);
        self.blocked |= bit(corner) | self.topo.corner_adj_mask[corner as usize];
        let p = &mut self.players[seat as usize];
        p.buildings |= bit(corner);
        p.settlements_left -= 1;
        if let Some(h) = self.board.harbor_at(corner) {
            p.harbors |= h.bit();
        }
    }

    pub(crate) fn build_city(
        &mut self,
        seat: Seat,
        corner: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let _ = self.builder(seat, "build a city")?;
        match self.phase {
            Phase::Main | Phase::SpecialBuild { .. } => {}
            _ => return Err(self.wrong_phase("build_city")),
        }
        self.check_city(seat, corner)?;
        self.check_afford(seat, &ResourceSet::CITY)?;
        self.pay(seat, &ResourceSet::CITY);
        self.upgrade_to_city(seat, corner, out);
        Ok(())
    }

    /// Replaces `seat`'s settlement at `corner` by a city (the settlement goes back to the
    /// supply).
    pub(crate) fn upgrade_to_city(&mut self, seat: Seat, corner: u8, out: &mut Vec<Event>) {
        self.cities |= bit(corner);
        let p = &mut self.players[seat as usize];
        p.cities_left -= 1;
        p.settlements_left += 1;
        out.push(Event::CityBuilt { seat, corner });
        self.hook_after_build(seat, Built::City { corner }, out);
    }

    /// Where a settlement may stand: a free corner respecting the distance rule, reached
    /// by the player's road (outside set-up), with a settlement left in the supply.
    pub(crate) fn check_settlement(&self, seat: Seat, corner: u8, needs_road: bool) -> Result<(), RuleError> {
        if corner as usize >= self.topo.corner_count() {
            return Err(RuleError::no_place("corner", corner));
        }
        if self.occupied & bit(corner) != 0 {
            return Err(RuleError::place("that corner is already built on"));
        }
        if self.blocked & bit(corner) != 0 {
            return Err(RuleError::place("too close to another building (distance rule)"));
        }
        if self.hook_forbidden_corners() & bit(corner) != 0 {
            return Err(RuleError::place(
                "no settlement may stand on a corner of a conquered hex",
            ));
        }
        if needs_road && self.players[seat as usize].road_corners & bit(corner) == 0 {
            return Err(RuleError::place(
                "a settlement must be reached by one of your roads",
            ));
        }
        if self.players[seat as usize].settlements_left == 0 {
            return Err(RuleError::no_piece("settlement"));
        }
        Ok(())
    }

    /// Where a city may stand: on one of the player's settlements, with a city in supply.
    pub(crate) fn check_city(&self, seat: Seat, corner: u8) -> Result<(), RuleError> {
        if corner as usize >= self.topo.corner_count() {
            return Err(RuleError::no_place("corner", corner));
        }
        if self.corner_owner[corner as usize] != seat || self.cities & bit(corner) != 0 {
            return Err(RuleError::place(
                "a city must replace one of your own settlements",
            ));
        }
        if self.players[seat as usize].cities_left == 0 {
            return Err(RuleError::no_piece("city"));
        }
        if !self.hook_may_upgrade(corner) {
            return Err(RuleError::place("a conquered settlement cannot be upgraded"));
        }
        Ok(())
    }
}
