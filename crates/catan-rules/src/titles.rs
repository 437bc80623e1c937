//! Longest Road and Largest Army, by the one rule of base.md applied after every change.

use crate::action::Seat;
use crate::event::Event;
use crate::game::Game;

/// The one rule for both titles. `counts[s]` is each seat's road length or knights;
/// `min` the minimum (5 or 3). Ties keep the holder; a tie at the top without the holder
/// sets the title aside.
pub fn award(counts: &[u8], holder: Option<Seat>, min: u8) -> Option<Seat> {
    let m = counts.iter().copied().max().unwrap_or(0);
    if m < min {
        return None;
    }
    if let Some(h) = holder {
        if counts[h as usize] == m {
            return Some(h);
        }
    }
    let mut top = counts.iter().enumerate().filter(|(_, &c)| c == m);
    match (top.next(), top.next()) {
        (Some((s, _)), None) => Some(s as Seat),
        _ => None,
    }
}

pub const LONGEST_ROAD_MIN: u8 = 5;
pub const LARGEST_ARMY_MIN: u8 = 3;

impl Game {
    pub(crate) fn update_longest_road(&mut self, out: &mut Vec<Event>) {
        let mut counts = [0u8; crate::config::MAX_SEATS];
        for s in 0..self.n as usize {
            counts[s] = self.players[s].road_len;
        }
        let new = award(&counts[..self.n as usize], self.longest_road, LONGEST_ROAD_MIN);
        if new != self.longest_road {
            self.longest_road = new;
            let length = counts.iter().copied().max().unwrap_or(0);
            out.push(Event::LongestRoad { holder: new, length });
        }
    }

    pub(crate) fn update_largest_army(&mut self, out: &mut Vec<Event>) {
        let mut counts = [0u8; crate::config::MAX_SEATS];
        for s in 0..self.n as usize {
            counts[s] = self.players[s].knights;
        }
        let new = award(&counts[..self.n as usize], self.largest_army, LARGEST_ARMY_MIN);
        if new != self.largest_army {
            self.largest_army = new;
            let knights = counts.iter().copied().max().unwrap_or(0);
            out.push(Event::LargestArmy { holder: new, knights });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::award;

    #[test]
    fn below_minimum_nobody_holds() {
        assert_eq!(award(&[4, 3, 0], None, 5), None);
        assert_eq!(award(&[4, 3, 0], Some(0), 5), None);
    }

    #[test]
    fn single_leader_takes_it() {
        assert_eq!(award(&[5, 3, 0], None, 5), Some(0));
        assert_eq!(award(&[6, 7, 0], Some(0), 5), Some(1));
    }

    #[test]
    fn tie_keeps_the_holder() {
        assert_eq!(award(&[6, 6, 0], Some(0), 5), Some(0));
        assert_eq!(award(&[6, 6, 0], Some(1), 5), Some(1));
    }

    #[test]
    fn tie_without_holder_sets_title_aside() {
        assert_eq!(award(&[6, 6, 0], None, 5), None);
        // The holder dropped below two others who tie: nobody holds it.
        assert_eq!(award(&[4, 6, 6], Some(0), 5), None);
    }
}
