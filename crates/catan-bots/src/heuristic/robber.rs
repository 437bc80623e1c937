//! Moving the robber: onto the hex that costs the most dangerous opponents the most
//! production, away from the bot's own buildings, stealing from the most threatening
//! victim. When one opponent leads clearly ([`super::eval::leader`]) only moves that hurt
//! the leader are considered, if there is one that spares the bot. In Frenemies a harmless
//! move earns a favor token, which is weighed against the harm.

use super::eval::hex_pips;
use super::Ctx;
use catan_rules::board::NONE;
use catan_rules::{Action, Seat, Terrain};

/// A favor token, in the same units as robber scores (where a steal is about 1.5): the
/// guilds' favors average about two cards.
const TOKEN: f32 = 2.5;

/// How good moving the robber to `hex` and stealing from `victim` is for the bot.
pub fn score(ctx: &Ctx, hex: u8, victim: Option<Seat>) -> f32 {
    let seen = ctx.seen;
    let pips = hex_pips(seen, hex);
    let mut s = 0f32;
    let mut harmless = true;
    for &c in &seen.topo.hex_corners[hex as usize] {
        let Some(o) = seen.owner(c) else { continue };
        harmless = false;
        let k = if seen.is_city(c) { 2.0 } else { 1.0 };
        if o == seen.me {
            s -= 0.7 * pips * k;
        } else {
            s += 0.15 * pips * k * ctx.eval.threat[o as usize];
        }
    }
    if let Some(v) = victim {
        if seen.cards(v) > 0 {
            s += 1.0 + 0.5 * ctx.eval.threat[v as usize];
        }
    }
    if seen.frenemies_on() && seen.token_supply() > 0 {
        let desert = seen.board().terrain[hex as usize] == Terrain::Desert;
        if harmless || (desert && victim.is_none()) {
            s += TOKEN;
        }
    }
    s
}

/// True if the bot has a building on `hex`.
pub fn touches_me(ctx: &Ctx, hex: u8) -> bool {
    let seen = ctx.seen;
    seen.topo.hex_corners[hex as usize]
        .iter()
        .any(|&c| c != NONE && seen.owner(c) == Some(seen.me))
}

/// True if moving to `hex` (stealing from `victim`) hurts `seat`.
pub fn hurts(ctx: &Ctx, hex: u8, victim: Option<Seat>, seat: Seat) -> bool {
    let seen = ctx.seen;
    victim == Some(seat)
        || (hex_pips(seen, hex) > 0.0
            && seen.topo.hex_corners[hex as usize]
                .iter()
                .any(|&c| c != NONE && seen.owner(c) == Some(seat)))
}

pub fn choose(ctx: &Ctx) -> Action {
    let leader = ctx.eval.leader;
    // Robbing the leader, or blocking their production where they have nothing to steal
    // (or nobody is robbed), without touching the bot's own buildings.
    let against_leader = |hex: u8, victim: Option<Seat>| {
        leader.is_some_and(|l| {
            victim == Some(l) || (hurts(ctx, hex, None, l) && (victim.is_none() || ctx.seen.cards(l) == 0))
        }) && !touches_me(ctx, hex)
    };
    let focus = ctx.legal.actions.iter().any(|a| match *a {
        Action::MoveRobber { hex, victim } => against_leader(hex, victim),
        _ => false,
    });
    let mut best: Option<(f32, Action)> = None;
    for (i, &a) in ctx.legal.actions.iter().enumerate() {
        let Action::MoveRobber { hex, victim } = a else {
            continue;
        };
        if focus && !against_leader(hex, victim) {
            continue;
        }
        let v = score(ctx, hex, victim) + ctx.jitter(i as u32);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a).unwrap_or(ctx.legal.actions[0])
}
