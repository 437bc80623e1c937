//! Which victory point targets a variant can actually reach.
//!
//! A target nobody can reach makes a game that never ends (an all-bot room at such a target
//! plays forever and its action log grows without bound), so room options are checked
//! against the range computed here.

use catan_rules::{GameConfig, Scenario};
use std::ops::RangeInclusive;

/// The victory point targets a game with `config` can reach.
///
/// Upper bound, per player (base.md, five-six.md and helpers.md):
/// - pieces: 5 settlements and 4 cities each. A city replaces a settlement, whose piece
///   goes back to the supply, so at most 9 buildings stand at once: 4 cities (8 VP) and
///   5 settlements (5 VP) = 13;
/// - the two titles, Longest Road and Largest Army, 2 VP each = 4;
/// - every Victory Point card of the deck, 5 in the base deck and 5 in the 5–6 deck = 5;
///
/// so 22 on either island. The Helpers adds no points (its helpers give resources,
/// moves and cards; a drawn VP card is one of the same 5). Frenemies adds its VP markers
/// (8 in the whole game, so one player can hold all of them): 30. Lower bound: every player
/// starts with 2 settlements (2 VP), so a target of 2 or less would be won before the
/// first roll; 3 is the smallest target that needs a move.
pub fn victory_point_range(config: &GameConfig) -> RangeInclusive<u8> {
    const SETTLEMENTS: u8 = 5;
    const CITIES: u8 = 4;
    const TITLES: u8 = 2;
    const VP_CARDS: u8 = 5;
    let max = match config.scenario {
        None | Some(Scenario::Helpers) => SETTLEMENTS + 2 * CITIES + 2 * TITLES + VP_CARDS,
        Some(Scenario::Frenemies) => {
            SETTLEMENTS + 2 * CITIES + 2 * TITLES + VP_CARDS + catan_rules::frenemies::VP_MARKERS
        }
        // No development card scores and Largest Army is not played: buildings, Longest
        // Road, and 1 VP per 2 of the 30 barbarians taken prisoner.
        Some(Scenario::Barbarians) => {
            SETTLEMENTS + 2 * CITIES + TITLES + catan_rules::barbarians::BARBARIANS / 2
        }
    };
    3..=max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reachable_maximum_is_22_for_every_variant() {
        for players in 3..=6 {
            let mut c = GameConfig::with_players(players);
            assert_eq!(victory_point_range(&c), 3..=22);
            c.scenario = Some(Scenario::Helpers);
            assert_eq!(victory_point_range(&c), 3..=22);
            c.scenario = Some(Scenario::Frenemies);
            assert_eq!(victory_point_range(&c), 3..=30, "the 8 VP markers");
        }
        for players in 3..=4 {
            let c = GameConfig::with_scenario(players, Some(Scenario::Barbarians));
            assert_eq!(victory_point_range(&c), 3..=30, "15 VP from 30 prisoners");
        }
    }
}
