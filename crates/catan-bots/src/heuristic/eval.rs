//! Valuing a position from one seat's knowledge: production in pips by resource, what a
//! card of each resource is worth to the bot, how threatening each opponent is (and who
//! the leader is), how long a cost takes to gather, and road lengths.

use super::seen::{bit, bits, Seen};
use catan_rules::board::NONE;
use catan_rules::{Resource, ResourceSet, Seat, Topology};

/// Pips of each number token: how many of the 36 dice outcomes roll it.
pub const PIPS: [u8; 13] = [0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1];

/// How much a pip of each resource is worth before the bot's own situation is counted:
/// brick and lumber build the roads and settlements of the early game, grain and ore the
/// cities and cards of the later one, wool the least.
const BASE_WEIGHT: [f32; 5] = [1.0, 1.0, 0.75, 0.95, 0.9];

/// One VP-equivalent per this many weighted pips of production a building adds (a
/// settlement on 12 pips is worth about its own point again over a game).
pub const PIPS_PER_VP: f32 = 12.0;

pub const MAX_SEATS: usize = catan_rules::MAX_SEATS;

/// The pips of `hex` (0 for a desert).
pub fn hex_pips(seen: &Seen, hex: u8) -> f32 {
    PIPS[seen.board().token[hex as usize] as usize] as f32
}

/// Pips by resource of the hexes around `corner`; the robber's hex counts `robbed`, and in
/// Barbarian Invasion a coastal hex only as much as it is likely to keep producing.
pub fn corner_pips(seen: &Seen, corner: u8, robbed: f32) -> [f32; 5] {
    let mut p = [0f32; 5];
    for &h in &seen.topo.corner_hexes[corner as usize] {
        if h == NONE {
            continue;
        }
        if let Some(r) = seen.board().terrain[h as usize].resource() {
            let f = if h == seen.robber() { robbed } else { 1.0 };
            p[r.index()] += hex_pips(seen, h) * f * super::barbarians::hex_factor(seen, h);
        }
    }
    p
}

/// Production of `seat` in pips by resource (cities count twice, the robber's hex not).
pub fn production(seen: &Seen, seat: Seat) -> [f32; 5] {
    let mut p = [0f32; 5];
    for c in bits(seen.buildings(seat)) {
        let k = if seen.is_city(c) { 2.0 } else { 1.0 };
        let cp = corner_pips(seen, c, 0.0);
        for r in 0..5 {
            p[r] += k * cp[r];
        }
    }
    p
}

/// The per-decision analysis everything else reads.
pub struct Eval {
    /// Own production in pips by resource (robber-aware).
    pub prod: [f32; 5],
    /// Weight of one pip of each resource for the bot now (diversity, scarcity).
    pub weight: [f32; 5],
    /// How dangerous each seat is (0 for the bot itself).
    pub threat: [f32; MAX_SEATS],
    /// An opponent clearly ahead, whom the robber and trades work against.
    pub leader: Option<Seat>,
    /// Seats too close to winning to trade with or gift to.
    pub dangerous: [bool; MAX_SEATS],
}

impl Eval {
    pub fn new(seen: &Seen) -> Eval {
        let prod = production(seen, seen.me);
        // Scarcity: pips of each resource on the whole island.
        let mut board = [0f32; 5];
        for h in 0..seen.topo.hex_count() as u8 {
            if let Some(r) = seen.board().terrain[h as usize].resource() {
                board[r.index()] += hex_pips(seen, h);
            }
        }
        let avg = board.iter().sum::<f32>() / 5.0;
        let mut weight = [0f32; 5];
        for r in 0..5 {
            let scarcity = (avg / board[r].max(1.0)).sqrt().clamp(0.75, 1.5);
            let diversity = if prod[r] == 0.0 {
                1.5
            } else if prod[r] < 4.0 {
                1.2
            } else {
                1.0
            };
            weight[r] = BASE_WEIGHT[r] * scarcity * diversity;
        }
        let target = seen.target_vp() as f32;
        let mut threat = [0f32; MAX_SEATS];
        let mut dangerous = [false; MAX_SEATS];
        for s in 0..seen.n {
            if s == seen.me {
                continue;
            }
            let vp = effective_vp(seen, s);
            threat[s as usize] = 0.5 + 4.0 * (vp / target).powi(2);
            dangerous[s as usize] = vp + 2.0 >= target;
        }
        Eval {
            prod,
            weight,
            threat,
            leader: leader(seen),
            dangerous,
        }
    }

    /// Weighted pips a settlement at `corner` would add (its hexes, the harbor, and
    /// resources the bot lacks).
    pub fn spot_value(&self, seen: &Seen, corner: u8) -> f32 {
        let cp = corner_pips(seen, corner, 0.5);
        let mut v = 0.0;
        for r in 0..5 {
            v += cp[r] * self.weight[r];
        }
        v + self.harbor_value(seen, corner, &cp)
    }

    /// What a harbor at `corner` is worth to the bot, in weighted pips.
    pub fn harbor_value(&self, seen: &Seen, corner: u8, extra: &[f32; 5]) -> f32 {
        match seen.board().harbor_at(corner) {
            None => 0.0,
            Some(kind) => match kind.resource() {
                Some(r) => {
                    if seen.rate(r) <= 2 {
                        0.0
                    } else {
                        0.5 + 0.3 * (self.prod[r.index()] + extra[r.index()])
                    }
                }
                None => {
                    if (0..5).any(|i| seen.rate(Resource::from_index(i)) <= 3) {
                        0.0
                    } else {
                        1.0 + 0.06 * (self.prod.iter().sum::<f32>() + extra.iter().sum::<f32>())
                    }
                }
            },
        }
    }

    /// Weighted pips a city at `corner` (own settlement) adds.
    pub fn city_value(&self, seen: &Seen, corner: u8) -> f32 {
        let cp = corner_pips(seen, corner, 0.3);
        let mut v = 0.0;
        for r in 0..5 {
            // Grain and ore make more cities; doubling them is worth a little extra.
            v += cp[r] * self.weight[r];
        }
        v
    }

    /// Rounds until the bot can pay `cost` from `hand`, counting its production and bank
    /// trades of what it holds beyond the cost.
    pub fn rounds_to_afford(&self, seen: &Seen, hand: ResourceSet, cost: ResourceSet) -> f32 {
        let mut missing = [0f32; 5];
        let mut trades = 0f32;
        for r in Resource::ALL {
            let (h, c) = (hand[r], cost[r]);
            if h >= c {
                trades += ((h - c) / seen.rate(r)) as f32;
            } else {
                missing[r.index()] = (c - h) as f32;
            }
        }
        let total: f32 = missing.iter().sum();
        if total == 0.0 {
            return 0.0;
        }
        // Spend the trades on the resources the bot produces least.
        let mut order = [0usize, 1, 2, 3, 4];
        order.sort_by(|&a, &b| self.prod[a].total_cmp(&self.prod[b]));
        for &r in &order {
            let take = missing[r].min(trades);
            missing[r] -= take;
            trades -= take;
        }
        let rest: f32 = missing.iter().sum();
        if rest == 0.0 {
            return 0.1 * total;
        }
        let rolls = seen.n as f32;
        let all: f32 = self.prod.iter().sum::<f32>() * rolls / 36.0;
        // Cards of other resources traded at about 4:1.
        let via_trade = all / 8.0;
        let (mut worst, mut sum) = (0f32, 0f32);
        for r in 0..5 {
            if missing[r] > 0.0 {
                let inc = self.prod[r] * rolls / 36.0 + via_trade;
                let t = missing[r] / inc.max(0.05);
                worst = worst.max(t);
                sum += t;
            }
        }
        (worst + 0.3 * (sum - worst)).min(30.0)
    }
}

/// Visible points plus a share of hidden development cards (some are VP cards) and, in
/// Barbarian Invasion, an odd prisoner's half point.
pub fn effective_vp(seen: &Seen, s: Seat) -> f32 {
    seen.public_vp(s) as f32 + 0.2 * seen.dev_count(s) as f32 + super::barbarians::odd_prisoner(seen, s)
}

/// The opponent clearly ahead: the one with the most visible points, if those are at least
/// 2 more than every other opponent's, or within 3 of the target (and still unique).
pub fn leader(seen: &Seen) -> Option<Seat> {
    let mut best: Option<Seat> = None;
    let mut second = 0u8;
    for s in 0..seen.n {
        if s == seen.me {
            continue;
        }
        let vp = seen.public_vp(s);
        match best {
            None => best = Some(s),
            Some(b) if vp > seen.public_vp(b) => {
                second = seen.public_vp(b);
                best = Some(s);
            }
            Some(_) => second = second.max(vp),
        }
    }
    let b = best?;
    let vp = seen.public_vp(b);
    (vp >= second + 2 || (vp > second && vp + 3 >= seen.target_vp())).then_some(b)
}

/// The longest trail in `roads`, not passing through `breakers` (corners holding an
/// opponent's building).
pub fn longest_trail(topo: &Topology, roads: u128, breakers: u128) -> u8 {
    fn walk(topo: &Topology, roads: u128, breakers: u128, at: u8, used: u128, first: bool) -> u8 {
        if !first && breakers & bit(at) != 0 {
            return 0;
        }
        let mut best = 0;
        for &e in &topo.corner_edges[at as usize] {
            if e == NONE || roads & bit(e) == 0 || used & bit(e) != 0 {
                continue;
            }
            let [a, b] = topo.edge_corners[e as usize];
            let next = if a == at { b } else { a };
            best = best.max(1 + walk(topo, roads, breakers, next, used | bit(e), false));
        }
        best
    }
    let mut corners = 0u128;
    for e in bits(roads) {
        for c in topo.edge_corners[e as usize] {
            corners |= bit(c);
        }
    }
    // A longest trail starts at a corner of degree 1 unless it is a cycle; trying every
    // corner is cheap for 15 roads.
    bits(corners)
        .map(|c| walk(topo, roads, breakers, c, 0, true))
        .max()
        .unwrap_or(0)
}

/// Resources in `a` beyond `b`: what a hand holds past a cost.
pub fn beyond(a: ResourceSet, b: ResourceSet) -> ResourceSet {
    let mut s = ResourceSet::EMPTY;
    for r in Resource::ALL {
        s[r] = a[r].saturating_sub(b[r]);
    }
    s
}

/// Cards of `cost` that `hand` lacks.
pub fn missing(hand: ResourceSet, cost: ResourceSet) -> ResourceSet {
    beyond(cost, hand)
}
