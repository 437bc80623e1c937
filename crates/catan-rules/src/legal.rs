//! The legal actions of any seat at any moment, in a form a client or bot can use without
//! knowing the rules. Combinatorial choices (a discard, a trade offer) are stated as
//! [`Requirement`]s. Every listed action is accepted by [`Game::apply`] (a property test
//! checks this over thousands of random games).

use crate::action::{Action, DevCard, LegalActions, Requirement, Seat};
use crate::board::NONE;
use crate::game::{bit, bits, Game, Phase};
use crate::resources::{Resource, ResourceSet};

impl Game {
    /// Everything `seat` may do now.
    pub fn legal_actions(&self, seat: Seat) -> LegalActions {
        let mut l = LegalActions::default();
        self.legal_into(seat, &mut l);
        l
    }

    /// [`Game::legal_actions`] into a reused buffer (no allocation once it has grown).
    pub fn legal_into(&self, seat: Seat, out: &mut LegalActions) {
        out.clear();
        if seat >= self.n {
            return;
        }
        let acts = &mut out.actions;
        match self.phase {
            Phase::GameOver { .. } => {}
            Phase::SetupSettlement => {
                if seat == self.setup_seat() {
                    for c in bits(self.setup_settlement_spots()) {
                        acts.push(Action::BuildSettlement { corner: c });
                    }
                }
            }
            Phase::SetupRoad { corner } => {
                if seat == self.setup_seat() {
                    for &e in &self.topo.corner_edges[corner as usize] {
                        if e != NONE && (self.roads_taken | self.hook_forbidden_edges()) & bit(e) == 0 {
                            acts.push(Action::BuildRoad { edge: e });
                        }
                    }
                }
            }
            Phase::Roll => {
                if seat == self.current {
                    acts.push(Action::RollDice);
                    self.push_dev_plays(seat, acts);
                }
            }
            Phase::Helpers(_) | Phase::Frenemies(_) | Phase::Barbarians(_) => {}
            Phase::Discard => {
                let count = self.discard_pending[seat as usize];
                if count > 0 {
                    out.requirements.push(Requirement::Discard { count });
                }
            }
            Phase::MoveRobber => {
                if seat == self.current {
                    for h in 0..self.topo.hex_count() as u8 {
                        if h == self.robber {
                            continue;
                        }
                        let victims = self.robber_victims(seat, h);
                        if victims.is_empty() {
                            acts.push(Action::MoveRobber { hex: h, victim: None });
                        } else {
                            for v in victims.iter() {
                                acts.push(Action::MoveRobber {
                                    hex: h,
                                    victim: Some(v),
                                });
                            }
                        }
                    }
                }
            }
            Phase::RoadBuilding { .. } => {
                if seat == self.current && self.players[seat as usize].roads_left > 0 {
                    for e in bits(self.road_spots(seat)) {
                        acts.push(Action::BuildRoad { edge: e });
                    }
                }
            }
            Phase::SpecialBuild { seat: s } => {
                if seat == s {
                    acts.push(Action::EndTurn);
                    self.push_builds(seat, acts);
                }
            }
            Phase::Main => {
                if seat == self.current {
                    acts.push(Action::EndTurn);
                    self.push_builds(seat, acts);
                    self.push_dev_plays(seat, acts);
                    self.push_maritime(seat, acts);
                    if let Some(o) = &self.offer {
                        acts.push(Action::CancelTrade);
                        for with in o.to.iter() {
                            if let Some(t) = self.terms_with(with) {
                                if self.holds(seat, &t.give, t.give_gold)
                                    && self.holds(with, &t.get, t.get_gold)
                                {
                                    acts.push(Action::ConfirmTrade { with });
                                }
                            }
                        }
                    }
                    // Something to give: a card, or gold in Barbarian Invasion.
                    let gold = self.gold_of(seat);
                    if (self.players[seat as usize].hand.total() > 0 || gold > 0) && self.paired.is_none() {
                        out.requirements.push(Requirement::OfferTrade);
                    }
                } else if self.pending_responders().contains(seat) {
                    let o = self.offer.as_ref().unwrap();
                    if self.holds(seat, &o.get, o.get_gold) {
                        acts.push(Action::AcceptTrade);
                    }
                    acts.push(Action::DeclineTrade);
                    if self.players[seat as usize].hand.total() > 0 || self.gold_of(seat) > 0 {
                        out.requirements.push(Requirement::CounterOffer);
                    }
                }
            }
        }
        self.hook_legal(seat, out);
    }

    fn push_builds(&self, seat: Seat, acts: &mut Vec<Action>) {
        let p = &self.players[seat as usize];
        if p.roads_left > 0 && p.hand.contains(&ResourceSet::ROAD) {
            for e in bits(self.road_spots(seat)) {
                acts.push(Action::BuildRoad { edge: e });
            }
        }
        if p.settlements_left > 0 && p.hand.contains(&ResourceSet::SETTLEMENT) {
            for c in bits(self.settlement_spots(seat)) {
                acts.push(Action::BuildSettlement { corner: c });
            }
        }
        if p.cities_left > 0 && p.hand.contains(&ResourceSet::CITY) {
            for c in bits(p.buildings & !self.cities) {
                if self.hook_may_upgrade(c) {
                    acts.push(Action::BuildCity { corner: c });
                }
            }
        }
        if self.deck_len > 0 && p.hand.contains(&ResourceSet::DEV_CARD) {
            acts.push(Action::BuyDevelopmentCard);
        }
    }

    fn push_dev_plays(&self, seat: Seat, acts: &mut Vec<Action>) {
        if self.dev_played {
            return;
        }
        let p = &self.players[seat as usize];
        if p.playable(DevCard::Knight) > 0 {
            acts.push(Action::PlayKnight);
        }
        if p.playable(DevCard::RoadBuilding) > 0 {
            acts.push(Action::PlayRoadBuilding);
        }
        if p.playable(DevCard::YearOfPlenty) > 0 {
            // Every pair of which the bank can supply at least one card (a single card
            // when it cannot supply both: base.md's Decision).
            for a in 0..5 {
                for b in a..5 {
                    if self.bank.0[a] > 0 || self.bank.0[b] > 0 {
                        acts.push(Action::PlayYearOfPlenty {
                            first: Resource::from_index(a),
                            second: Resource::from_index(b),
                        });
                    }
                }
            }
        }
        if p.playable(DevCard::Monopoly) > 0 {
            for r in Resource::ALL {
                acts.push(Action::PlayMonopoly { resource: r });
            }
        }
    }

    fn push_maritime(&self, seat: Seat, acts: &mut Vec<Action>) {
        let hand = &self.players[seat as usize].hand;
        for give in Resource::ALL {
            if hand[give] >= self.maritime_rate(seat, give) {
                for get in Resource::ALL {
                    if get != give && self.bank[get] > 0 {
                        acts.push(Action::MaritimeTrade { give, get });
                    }
                }
            }
        }
    }
}
