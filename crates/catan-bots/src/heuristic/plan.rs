//! The build the bot is saving for: every candidate (a city, a settlement it can reach
//! now, one a few roads away, a road that takes Longest Road or connects networks in
//! Frenemies, a development card) is valued in VP-equivalents and divided by the rounds it
//! takes to gather its cost; the best one is the plan. Trades, discards and answers to
//! offers all serve the plan.

use super::eval::{longest_trail, Eval, PIPS_PER_VP};
use super::seen::{bit, bits, Seen};
use catan_rules::board::NONE;
use catan_rules::{ResourceSet, Seat};

/// What the bot wants to build next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    City {
        corner: u8,
    },
    /// A settlement on a corner the bot's roads reach now.
    Settlement {
        corner: u8,
    },
    /// A settlement `roads` roads away; the first road goes on `edge`.
    Expand {
        corner: u8,
        edge: u8,
        roads: u8,
    },
    /// A road for its own sake (Longest Road, a first connection in Frenemies).
    Road {
        edge: u8,
    },
    DevCard,
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    pub goal: Goal,
    /// Everything the goal costs (an expansion: its roads and the settlement).
    pub cost: ResourceSet,
    /// What the goal is worth, in VP-equivalents.
    pub value: f32,
    /// Value per round of waiting: what the plans are ranked by.
    pub score: f32,
}

impl Plan {
    pub const NOTHING: Plan = Plan {
        goal: Goal::Nothing,
        cost: ResourceSet::EMPTY,
        value: 0.0,
        score: 0.0,
    };

    /// The next purchase towards the goal (an expansion starts with its first road).
    pub fn next_cost(&self) -> ResourceSet {
        match self.goal {
            Goal::City { .. } => ResourceSet::CITY,
            Goal::Settlement { .. } => ResourceSet::SETTLEMENT,
            Goal::Expand { .. } | Goal::Road { .. } => ResourceSet::ROAD,
            Goal::DevCard => ResourceSet::DEV_CARD,
            Goal::Nothing => ResourceSet::EMPTY,
        }
    }
}

/// A corner a settlement could go on, `dist` roads away, reached first over `edge`.
#[derive(Clone, Copy, Debug)]
pub struct Spot {
    pub corner: u8,
    pub dist: u8,
    pub edge: u8,
}

/// Corners `seat` can extend roads from: its buildings, and corners its roads touch that
/// hold no opponent's building.
pub fn road_sources(seen: &Seen, seat: Seat) -> u128 {
    let own = seen.buildings(seat);
    own | (seen.road_corners(seat) & !(seen.occupied & !own))
}

/// Edges `seat` may build a road on now (ignoring cost): the engine's rule, from public
/// facts.
pub fn road_spots(seen: &Seen, seat: Seat) -> u128 {
    let mut taken = 0u128;
    for s in 0..seen.n {
        taken |= seen.roads(s);
    }
    let mut spots = 0u128;
    for c in bits(road_sources(seen, seat)) {
        spots |= seen.topo.corner_edge_mask[c as usize];
    }
    spots & !taken
}

/// Settlement spots within `max` roads of the bot's network, nearest first per corner.
pub fn spots(seen: &Seen, max: u8, out: &mut Vec<Spot>) {
    out.clear();
    let me = seen.me;
    if seen.settlements_left(me) == 0 {
        return;
    }
    let topo = seen.topo;
    let mut taken = 0u128;
    for s in 0..seen.n {
        taken |= seen.roads(s);
    }
    let others = seen.occupied & !seen.buildings(me);
    // Reachable now: corners on the bot's roads.
    for c in bits(seen.road_corners(me) & !seen.blocked) {
        out.push(Spot {
            corner: c,
            dist: 0,
            edge: NONE,
        });
    }
    let max = max.min(seen.roads_left(me));
    let mut first = [NONE; 128];
    let mut seen_mask = road_sources(seen, me);
    let mut frontier = seen_mask;
    for d in 1..=max {
        let mut next = 0u128;
        for c in bits(frontier) {
            // Roads cannot run on past an opponent's building.
            if d > 1 && others & bit(c) != 0 {
                continue;
            }
            for &e in &topo.corner_edges[c as usize] {
                if e == NONE || taken & bit(e) != 0 {
                    continue;
                }
                let [a, b] = topo.edge_corners[e as usize];
                let o = if a == c { b } else { a };
                if seen_mask & bit(o) != 0 {
                    continue;
                }
                seen_mask |= bit(o);
                next |= bit(o);
                first[o as usize] = if d == 1 { e } else { first[c as usize] };
                if seen.blocked & bit(o) == 0 {
                    out.push(Spot {
                        corner: o,
                        dist: d,
                        edge: first[o as usize],
                    });
                }
            }
        }
        frontier = next;
    }
}

/// The bot's current road length and the length one more road on `edge` would give.
pub fn road_len_with(seen: &Seen, edge: u8) -> u8 {
    let me = seen.me;
    let breakers = seen.occupied & !seen.buildings(me);
    longest_trail(seen.topo, seen.roads(me) | bit(edge), breakers)
}

/// The longest road among opponents (and who holds the title).
fn rival_road(seen: &Seen) -> u8 {
    (0..seen.n)
        .filter(|&s| s != seen.me)
        .map(|s| seen.road_len(s))
        .max()
        .unwrap_or(0)
}

/// What a road on `edge` is worth for its own sake: taking Longest Road, growing towards
/// it while in the race, a first connection with an opponent in Frenemies.
pub fn road_value(seen: &Seen, edge: u8) -> f32 {
    let me = seen.me;
    let mut v = 0.0;
    let mine = seen.road_len(me);
    let rival = rival_road(seen);
    let holder = seen.longest_road();
    let len = road_len_with(seen, edge);
    if len > mine {
        let need = rival.max(4) + 1;
        if holder != Some(me) && len >= need {
            v += 2.0;
        } else if holder == Some(me) && mine <= rival + 1 {
            // Defending the title.
            v += 0.5;
        } else if mine + 3 >= need && seen.roads_left(me) >= need.saturating_sub(len) {
            v += 0.35;
        }
    }
    if seen.frenemies_on() && seen.token_supply() > 0 {
        let [a, b] = seen.topo.edge_corners[edge as usize];
        let ends = bit(a) | bit(b);
        for o in 0..seen.n {
            if o != me && !seen.connected(me, o) && (seen.buildings(o) | seen.road_corners(o)) & ends != 0 {
                // Three favor tokens for the bot.
                v += 0.6;
                break;
            }
        }
    }
    v
}

/// Value of one development card to the bot.
pub fn dev_card_value(seen: &Seen) -> f32 {
    let me = seen.me;
    let mut v = 0.45;
    let mine = seen.knights(me) + seen.dev()[0];
    let best_other = (0..seen.n)
        .filter(|&s| s != me)
        .map(|s| seen.knights(s))
        .max()
        .unwrap_or(0);
    if seen.largest_army() != Some(me) && mine + 2 >= best_other.max(2) {
        v += 0.25;
    }
    v
}

/// Every candidate goal, scored; the best is the plan.
pub fn choose(seen: &Seen, eval: &Eval, spots_buf: &mut Vec<Spot>) -> Plan {
    let me = seen.me;
    let hand = seen.hand();
    let mut best = Plan::NOTHING;
    let mut consider = |goal: Goal, cost: ResourceSet, value: f32| {
        if value <= 0.0 {
            return;
        }
        let rounds = eval.rounds_to_afford(seen, hand, cost);
        let score = value / (1.0 + rounds);
        if score > best.score {
            best = Plan {
                goal,
                cost,
                value,
                score,
            };
        }
    };
    // Cities on own settlements.
    if seen.cities_left(me) > 0 {
        for c in bits(seen.buildings(me) & !seen.cities) {
            // A conquered settlement cannot be upgraded (Barbarian Invasion).
            if seen.barb && seen.building_conquered(c) {
                continue;
            }
            let v = 1.0 + eval.city_value(seen, c) / PIPS_PER_VP;
            consider(Goal::City { corner: c }, ResourceSet::CITY, v);
        }
    }
    // Settlements, now or a few roads away.
    spots(seen, 3, spots_buf);
    for s in spots_buf.iter() {
        let v = 1.0 + eval.spot_value(seen, s.corner) / PIPS_PER_VP;
        if s.dist == 0 {
            consider(Goal::Settlement { corner: s.corner }, ResourceSet::SETTLEMENT, v);
        } else {
            let mut cost = ResourceSet::SETTLEMENT;
            for _ in 0..s.dist {
                cost.add(&ResourceSet::ROAD);
            }
            // Others may take the corner while the roads go down.
            let risk = 0.85f32.powi(s.dist as i32 - 1);
            consider(
                Goal::Expand {
                    corner: s.corner,
                    edge: s.edge,
                    roads: s.dist,
                },
                cost,
                v * risk,
            );
        }
    }
    // Roads for their own sake.
    if seen.roads_left(me) > 0 {
        for e in bits(road_spots(seen, me)) {
            let v = road_value(seen, e);
            consider(Goal::Road { edge: e }, ResourceSet::ROAD, v);
        }
    }
    if seen.barb {
        consider(
            Goal::DevCard,
            ResourceSet::DEV_CARD,
            super::barbarians::card_value(seen),
        );
    } else if seen.deck_len() > 0 {
        consider(Goal::DevCard, ResourceSet::DEV_CARD, dev_card_value(seen));
    }
    best
}
