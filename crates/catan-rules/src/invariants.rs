//! Whole-state consistency checks, recomputed from scratch. Used by `catan-sim --check`
//! and by the property tests after every action; never on the hot path of a real game.

use crate::action::DevCard;
use crate::board::NONE;
use crate::game::{bit, Game, Phase};
use crate::resources::Resource;
use crate::titles::{LARGEST_ARMY_MIN, LONGEST_ROAD_MIN};

impl Game {
    /// Returns a description of the first broken invariant, if any.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.n as usize;
        let start_bank = self.config.bank();
        // Resources are conserved: hands + bank = the starting bank, of each resource.
        for r in Resource::ALL {
            let held: u32 = self.players[..n].iter().map(|p| p.hand[r] as u32).sum();
            if held + self.bank[r] as u32 != start_bank[r] as u32 {
                return Err(format!(
                    "{r}: hands {held} + bank {} != {}",
                    self.bank[r], start_bank[r]
                ));
            }
        }
        // Development cards are conserved: deck + held + played = the full deck.
        let deck_total: u32 = crate::game::deck_counts(self.board.layout)
            .iter()
            .map(|&c| c as u32)
            .sum();
        let held: u32 = self.players[..n].iter().map(|p| p.dev_total()).sum();
        let knights: u32 = self.players[..n].iter().map(|p| p.knights as u32).sum();
        let played: u32 = self.cards_played.iter().map(|&c| c as u32).sum();
        let (removed, looking) = self.hook_dev_cards_aside();
        let knights = knights + removed;
        let held = held + looking;
        if knights != self.cards_played[DevCard::Knight.index()] as u32 {
            return Err(format!(
                "knights on the table {knights} != knights played {}",
                self.cards_played[0]
            ));
        }
        if self.deck_len as u32 + held + played != deck_total {
            return Err(format!(
                "dev cards: deck {} + held {held} + played {played} != {deck_total}",
                self.deck_len
            ));
        }
        for (s, p) in self.players[..n].iter().enumerate() {
            for i in 0..5 {
                if p.dev_new[i] > p.dev[i] {
                    return Err(format!("seat {s}: more new cards than held"));
                }
            }
            if p.knights > p.played[DevCard::Knight.index()] {
                return Err(format!("seat {s}: more knights on the table than played"));
            }
            if p.played[DevCard::VictoryPoint.index()] != 0 {
                return Err(format!("seat {s}: a Victory Point card counted as played"));
            }
        }
        // Each seat's played cards add up to the game's played pile.
        for i in 0..5 {
            let by_seats: u32 = self.players[..n].iter().map(|p| p.played[i] as u32).sum();
            if by_seats != self.cards_played[i] as u32 {
                return Err(format!(
                    "{:?}: played by seats {by_seats} != played {}",
                    DevCard::ALL[i],
                    self.cards_played[i]
                ));
            }
        }
        // Pieces: the board agrees with each supply, and supplies are within limits.
        for s in 0..n {
            let p = &self.players[s];
            let roads = (0..self.topo.edge_count())
                .filter(|&e| self.edge_owner[e] == s as u8)
                .count();
            let mut settlements = 0;
            let mut cities = 0;
            for c in 0..self.topo.corner_count() {
                if self.corner_owner[c] == s as u8 {
                    if self.cities & bit(c as u8) != 0 {
                        cities += 1;
                    } else {
                        settlements += 1;
                    }
                }
            }
            if roads + p.roads_left as usize != 15
                || settlements + p.settlements_left as usize != 5
                || cities + p.cities_left as usize != 4
            {
                return Err(format!(
                    "seat {s}: pieces on board {roads}/{settlements}/{cities} vs supply {}/{}/{}",
                    p.roads_left, p.settlements_left, p.cities_left
                ));
            }
            if p.roads.count_ones() as usize != roads {
                return Err(format!("seat {s}: road mask out of step"));
            }
            // Road length recomputed from scratch.
            if self.road_length(s as u8) != p.road_len {
                return Err(format!(
                    "seat {s}: stored road length {} != {}",
                    p.road_len,
                    self.road_length(s as u8)
                ));
            }
            // Victory points recomputed from scratch.
            let titles = 2 * (self.longest_road == Some(s as u8)) as usize
                + 2 * (self.largest_army == Some(s as u8)) as usize;
            let vp = settlements
                + 2 * cities
                + titles
                + p.dev[DevCard::VictoryPoint.index()] as usize
                + self.hook_public_vp(s as u8) as usize
                - self.hook_vp_withheld(s as u8) as usize;
            if vp != self.victory_points(s as u8) as usize {
                return Err(format!(
                    "seat {s}: VP {vp} from scratch != {}",
                    self.victory_points(s as u8)
                ));
            }
        }
        // Titles are held by someone with the top count at or above the minimum.
        let check_title = |holder: Option<u8>, count: &dyn Fn(usize) -> u8, min: u8, name: &str| {
            let m = (0..n).map(count).max().unwrap_or(0);
            match holder {
                Some(h) if count(h as usize) != m || m < min => {
                    Err(format!("{name} held by {h} without the top count"))
                }
                None if m >= min && (0..n).filter(|&s| count(s) == m).count() == 1 => {
                    Err(format!("{name} unheld although one player leads with {m}"))
                }
                _ => Ok(()),
            }
        };
        check_title(
            self.longest_road,
            &|s| self.players[s].road_len,
            LONGEST_ROAD_MIN,
            "Longest Road",
        )?;
        check_title(
            self.largest_army,
            &|s| self.players[s].knights,
            LARGEST_ARMY_MIN,
            "Largest Army",
        )?;
        // Distance rule holds everywhere.
        for c in 0..self.topo.corner_count() {
            if self.corner_owner[c] != NONE {
                for &d in &self.topo.corner_corners[c] {
                    if d != NONE && self.corner_owner[d as usize] != NONE {
                        return Err(format!("buildings on adjacent corners {c} and {d}"));
                    }
                }
            }
        }
        self.hook_invariants()?;
        if let Phase::GameOver { winner } = self.phase {
            if self.victory_points(winner) < self.config.victory_points {
                return Err(format!("winner {winner} below the target"));
            }
        }
        Ok(())
    }
}
