//! Digur — chase the robber to a desert: if the robber is not on a desert, move it to one
//! (the user's choice on the 5–6 board) and take 1 of what the hex it left produces. Before
//! or after the production roll; no steal.

use super::Helper;
use crate::action::{Action, Seat};
use crate::board::Terrain;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::helpers::HelpersAction;

impl Game {
    fn deserts(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.topo.hex_count() as u8).filter(|&h| self.board.terrain[h as usize] == Terrain::Desert)
    }

    pub(crate) fn push_digur(&self, _seat: Seat, acts: &mut Vec<Action>) {
        if self.board.terrain[self.robber as usize] == Terrain::Desert {
            return;
        }
        for desert in self.deserts() {
            acts.push(Action::Helpers(HelpersAction::UseDigur { desert }));
        }
    }

    pub(crate) fn use_digur(
        &mut self,
        seat: Seat,
        desert: u8,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_own_helper(seat, Helper::Digur, "use_digur")?;
        if self.board.terrain[self.robber as usize] == Terrain::Desert {
            return Err(RuleError::helper("the robber is already on a desert"));
        }
        if desert as usize >= self.topo.hex_count() || self.board.terrain[desert as usize] != Terrain::Desert
        {
            return Err(RuleError::helper("Digur chases the robber to a desert"));
        }
        self.helper_used(seat, Helper::Digur, out);
        let left = self.robber;
        self.robber = desert;
        out.push(Event::RobberMoved { seat, hex: desert });
        if let Some(r) = self.board.terrain[left as usize].resource() {
            if self.bank[r] > 0 {
                self.take_from_bank(seat, Helper::Digur, r, out);
            }
        }
        self.ask_flip_or_exchange(seat);
        Ok(())
    }
}
