//! Yngvi — makeshift road building: pay 1 lumber or 1 brick of a road with any 1 other
//! resource.

use super::Helper;
use crate::action::{Action, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{bit, bits, Game};
use crate::helpers::{HelpersAction, HelpersEvent};
use crate::resources::{Resource, ResourceSet};

fn cost(replace: Resource, with: Resource) -> ResourceSet {
    let mut c = ResourceSet::ROAD;
    c[replace] -= 1;
    c[with] += 1;
    c
}

impl Game {
    pub(crate) fn push_yngvi(&self, seat: Seat, acts: &mut Vec<Action>) {
        let p = &self.players[seat as usize];
        if p.roads_left == 0 {
            return;
        }
        let spots = self.road_spots(seat);
        for replace in [Resource::Brick, Resource::Lumber] {
            for with in Resource::ALL {
                if with != replace && p.hand.contains(&cost(replace, with)) {
                    for edge in bits(spots) {
                        acts.push(Action::Helpers(HelpersAction::BuildRoadWithYngvi {
                            edge,
                            replace,
                            with,
                        }));
                    }
                }
            }
        }
    }

    pub(crate) fn use_yngvi(
        &mut self,
        seat: Seat,
        edge: u8,
        replace: Resource,
        with: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Yngvi, "build_road_with_yngvi")?;
        if !matches!(replace, Resource::Brick | Resource::Lumber) || with == replace {
            return Err(RuleError::helper(
                "Yngvi replaces the brick or the lumber of a road with another resource",
            ));
        }
        if edge as usize >= self.topo.edge_count() {
            return Err(RuleError::no_place("edge", edge));
        }
        if self.road_spots(seat) & bit(edge) == 0 {
            return Err(RuleError::place(
                "a road must touch your own road, settlement or city, and cannot pass an opponent's building",
            ));
        }
        if self.players[seat as usize].roads_left == 0 {
            return Err(RuleError::no_piece("road"));
        }
        let cost = cost(replace, with);
        self.check_afford(seat, &cost)?;
        self.helper_used(seat, Helper::Yngvi, out);
        self.pay(seat, &cost);
        out.push(Event::Helpers(HelpersEvent::HelperPaid { seat, cards: cost }));
        self.lay_road(seat, edge, out);
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
