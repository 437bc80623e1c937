//! The battle at the end of every turn (`barbarians.md`, Battle): the coastal hexes one by
//! one clockwise from the castle; a hex is won when the knights on its 6 paths outnumber
//! its barbarians (at least one); the barbarians become prisoners of the involved
//! players; then the knight-loss die sends the knights on one pair of opposite paths home
//! (3 gold each).

use super::{BarbariansEvent, CONSOLATION};
use crate::action::Seat;
use crate::config::MAX_SEATS;
use crate::event::Event;
use crate::game::{bit, Game};

impl Game {
    /// Hook: the current player ends the turn: fight every coastal hex in order.
    pub(crate) fn barbarians_battle(&mut self, out: &mut Vec<Event>) {
        let coastal = self.bs().coastal;
        for hex in coastal {
            self.battle_at(hex, out);
        }
    }

    /// Knights on `hex`'s paths by seat.
    pub(crate) fn knights_on_hex(&self, hex: u8) -> [u8; MAX_SEATS] {
        let b = self.bs();
        let mut by_seat = [0u8; MAX_SEATS];
        for &e in &self.topo.hex_edges[hex as usize] {
            if let Some(s) = b.knight_at(e) {
                by_seat[s as usize] += 1;
            }
        }
        by_seat
    }

    fn battle_at(&mut self, hex: u8, out: &mut Vec<Event>) {
        let barbarians = self.bs().barbarians[hex as usize];
        if barbarians == 0 {
            return;
        }
        let by_seat = self.knights_on_hex(hex);
        let knights: u8 = by_seat.iter().sum();
        if knights == 0 {
            return;
        }
        let won = knights > barbarians;
        out.push(Event::Barbarians(BarbariansEvent::Battle {
            hex,
            knights,
            barbarians,
            won,
        }));
        if !won {
            return;
        }
        let before = self.bs().conquered_mask();
        self.bs_mut().barbarians[hex as usize] = 0;
        self.share_prisoners(barbarians, &by_seat, out);
        self.barbarians_changed(before, out);
        // Knight losses: the die's face names a pair of opposite paths.
        let face = self.rng.die();
        let pair = (face as usize - 1) % 3;
        let edges = [
            self.topo.hex_edges[hex as usize][pair],
            self.topo.hex_edges[hex as usize][pair + 3],
        ];
        out.push(Event::Barbarians(BarbariansEvent::KnightLossDie {
            hex,
            face,
            edges,
        }));
        for e in edges {
            if let Some(s) = self.bs().knight_at(e) {
                let b = self.bs_mut();
                b.knights[s as usize] &= !bit(e);
                b.knights_left[s as usize] += 1;
                b.moved &= !bit(e);
                b.castle_fresh &= !bit(e);
                out.push(Event::Barbarians(BarbariansEvent::KnightLost {
                    seat: s,
                    edge: e,
                }));
                self.gain_gold(s, CONSOLATION, out);
            }
        }
    }

    /// Shares `count` prisoners among the involved players (`by_seat`: their knights on
    /// the hex): one player takes all; otherwise one each as far as they go (a roll-off
    /// decides who when there are too few; 3 gold to each who gets none); each leftover
    /// goes to the player with most knights there (a roll-off breaks a tie; 3 gold to each
    /// loser of it).
    pub(crate) fn share_prisoners(&mut self, count: u8, by_seat: &[u8; MAX_SEATS], out: &mut Vec<Event>) {
        // Involved players from the current player round the table (events in that order).
        let involved: Vec<Seat> = (0..self.n)
            .map(|k| (self.current + k) % self.n)
            .filter(|&s| by_seat[s as usize] > 0)
            .collect();
        let mut got = [0u8; MAX_SEATS];
        if involved.len() == 1 {
            got[involved[0] as usize] = count;
        } else if (count as usize) < involved.len() {
            let order = self.roll_off(&involved, out);
            for (i, &s) in order.iter().enumerate() {
                if i < count as usize {
                    got[s as usize] = 1;
                } else {
                    self.gain_gold(s, CONSOLATION, out);
                }
            }
        } else {
            for &s in &involved {
                got[s as usize] = 1;
            }
            let mut left = count as usize - involved.len();
            while left > 0 {
                let most = involved.iter().map(|&s| by_seat[s as usize]).max().unwrap_or(0);
                let tied: Vec<Seat> = involved
                    .iter()
                    .copied()
                    .filter(|&s| by_seat[s as usize] == most)
                    .collect();
                let winner = if tied.len() == 1 {
                    tied[0]
                } else {
                    let order = self.roll_off(&tied, out);
                    for &s in &order[1..] {
                        self.gain_gold(s, CONSOLATION, out);
                    }
                    order[0]
                };
                got[winner as usize] += 1;
                left -= 1;
            }
        }
        for &s in &involved {
            if got[s as usize] > 0 {
                self.bs_mut().prisoners[s as usize] += got[s as usize];
                out.push(Event::Barbarians(BarbariansEvent::PrisonersTaken {
                    seat: s,
                    count: got[s as usize],
                }));
            }
        }
    }

    /// Orders `seats` by a 2d6 roll each, highest first; tied players roll again among
    /// themselves until no tie remains.
    pub(crate) fn roll_off(&mut self, seats: &[Seat], out: &mut Vec<Event>) -> Vec<Seat> {
        if seats.len() <= 1 {
            return seats.to_vec();
        }
        let rolls: Vec<u8> = seats.iter().map(|_| self.rng.die() + self.rng.die()).collect();
        out.push(Event::Barbarians(BarbariansEvent::RollOff {
            seats: seats.to_vec(),
            rolls: rolls.clone(),
        }));
        let mut values: Vec<u8> = rolls.clone();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        let mut order = Vec::with_capacity(seats.len());
        for v in values {
            let group: Vec<Seat> = seats
                .iter()
                .zip(&rolls)
                .filter(|&(_, &r)| r == v)
                .map(|(&s, _)| s)
                .collect();
            order.extend(self.roll_off(&group, out));
        }
        order
    }
}
