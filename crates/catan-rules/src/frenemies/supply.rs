//! The favor-token set by player count, from one table.

use super::Guild;

/// Dotted tokens per copy of the scenario, by [`Guild`] (**Decision**, the seed does not
/// say which types carry dots; 14 per copy). Change here, and only here.
pub const DOTTED: [u8; 5] = [2, 2, 2, 4, 4];
/// Undotted tokens per copy (44 per copy).
pub const UNDOTTED: [u8; 5] = [6, 6, 6, 13, 13];

/// The tokens in play for `players` seats: 3 — one copy without its dotted tokens (44);
/// 4 — one full copy (58); 5 — a full copy plus a second copy's dotted ones (72);
/// 6 — the undotted tokens of two copies (88).
pub fn token_set(players: u8) -> [u8; 5] {
    let (undotted, dotted) = match players {
        0..=3 => (1, 0),
        4 => (1, 1),
        5 => (1, 2),
        _ => (2, 0),
    };
    let mut set = [0; 5];
    for g in Guild::ALL {
        let i = g.index();
        set[i] = undotted * UNDOTTED[i] + dotted * DOTTED[i];
    }
    set
}
