//! Barbarians land after every settlement or city built outside the set-up
//! (`barbarians.md`, Barbarians land).

use super::{BarbariansEvent, CONQUEST};
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// Hook: a settlement or city was just built (not in set-up): roll 2d6 until three
    /// different numbers other than 7 come up; one barbarian from the supply lands on each
    /// named coastal hex unless it already holds 3 (no re-roll then) or the supply is
    /// empty.
    pub(crate) fn barbarians_land(&mut self, out: &mut Vec<Event>) {
        let mut numbers = [0u8; 3];
        let mut found = 0;
        while found < 3 {
            let n = self.rng.die() + self.rng.die();
            if n != 7 && !numbers[..found].contains(&n) {
                numbers[found] = n;
                found += 1;
            }
        }
        let before = self.bs().conquered_mask();
        for number in numbers {
            let board = self.board;
            let b = self.bs_mut();
            let hex = b.coastal_hex(&board, number);
            let landed = b.supply > 0 && b.barbarians[hex as usize] < CONQUEST;
            if landed {
                b.supply -= 1;
                b.barbarians[hex as usize] += 1;
            }
            out.push(Event::Barbarians(BarbariansEvent::BarbarianLanding {
                number,
                hex,
                landed,
            }));
        }
        self.barbarians_changed(before, out);
    }
}
