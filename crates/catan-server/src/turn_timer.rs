//! A room's turn and reaction timers: which seats the game waits on, since when, and until
//! when. IO-free (the caller passes the time), so the bookkeeping is unit tested apart
//! from the room.
//!
//! A **turn** is the mover's own time: a set-up placement, a turn from roll to end, a
//! special build turn, a Paired Players part. A **reaction** is anyone's answer the
//! mover's turn waits for: discards after a 7, answers to a trade offer or a gift, a
//! helper's follow-up by another seat. While a reaction is awaited the mover's turn clock
//! stops (the time is added back to its deadline), so slow answers do not eat its turn.

use catan_rules::{Game, Phase, Seat, SeatSet};
use std::time::Duration;
use tokio::time::Instant;

/// A moment both as the room's clock sees it (to sleep until) and as the wall clock in
/// epoch milliseconds (for clients, in the view's `deadline_ms`). Both move together, so
/// every view of the same wait carries the same number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    pub at: Instant,
    pub epoch_ms: i64,
}

impl Moment {
    pub fn now() -> Moment {
        let epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        Moment {
            at: Instant::now(),
            epoch_ms,
        }
    }

    fn plus(self, d: Duration) -> Moment {
        Moment {
            at: self.at + d,
            epoch_ms: self.epoch_ms + d.as_millis() as i64,
        }
    }
}

/// What the game waits for now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Nothing (the game is over).
    Nothing,
    /// The mover's own time.
    Turn(Seat),
    /// Answers from these seats.
    Reaction(SeatSet),
}

/// Classifies what `game` waits for.
pub fn wait_of(game: &Game) -> Wait {
    let waiting = game.waiting_on();
    if waiting.is_empty() {
        return Wait::Nothing;
    }
    let responders = game.pending_responders();
    if !responders.is_empty() {
        return Wait::Reaction(responders);
    }
    if game.phase() == Phase::Discard {
        return Wait::Reaction(waiting);
    }
    let mover = mover(game);
    if waiting == single(mover) {
        Wait::Turn(mover)
    } else {
        Wait::Reaction(waiting)
    }
}

/// The seat whose turn it is: in set-up the one placing, in a special build turn its
/// builder, otherwise the current player.
fn mover(game: &Game) -> Seat {
    match game.phase() {
        Phase::SetupSettlement | Phase::SetupRoad { .. } => {
            game.waiting_on().iter().next().unwrap_or(game.current())
        }
        Phase::SpecialBuild { seat } => seat,
        _ => game.current(),
    }
}

fn single(seat: Seat) -> SeatSet {
    let mut s = SeatSet::EMPTY;
    s.insert(seat);
    s
}

#[derive(Clone, Copy, Debug)]
struct Reaction {
    seats: SeatSet,
    deadline: Option<Moment>,
    /// When the mover's turn clock stopped (the first of consecutive reactions).
    since: Moment,
}

/// A room's timers (see the module's documentation).
#[derive(Clone, Debug)]
pub struct TurnTimer {
    turn_limit: Option<Duration>,
    reaction_limit: Option<Duration>,
    wait: Wait,
    /// Whose turn the turn deadline belongs to: (turn number, mover, set-up placement).
    turn_key: Option<(u32, Seat, bool)>,
    turn_deadline: Option<Moment>,
    reaction: Option<Reaction>,
}

impl TurnTimer {
    pub fn new(turn_limit_ms: Option<u32>, reaction_limit_ms: Option<u32>) -> TurnTimer {
        TurnTimer {
            turn_limit: turn_limit_ms.map(|ms| Duration::from_millis(ms as u64)),
            reaction_limit: reaction_limit_ms.map(|ms| Duration::from_millis(ms as u64)),
            wait: Wait::Nothing,
            turn_key: None,
            turn_deadline: None,
            reaction: None,
        }
    }

    /// Follows the game after an action by `by` (`None`: the game just started or was
    /// resumed). A new turn gets a fresh turn deadline; a new reaction a fresh reaction
    /// deadline. A reaction goes on (same deadline) while the seats still awaited are some
    /// of those awaited before and the action was one of theirs (one more discard or
    /// answer); anything else, such as the mover's next offer, starts a new one.
    pub fn follow(&mut self, game: &Game, by: Option<Seat>, now: Moment) {
        let wait = wait_of(game);
        self.wait = wait;
        if wait == Wait::Nothing {
            self.turn_key = None;
            self.turn_deadline = None;
            self.reaction = None;
            return;
        }
        let setup = matches!(game.phase(), Phase::SetupSettlement | Phase::SetupRoad { .. });
        let key = (game.turn(), mover(game), setup);
        if self.turn_key != Some(key) {
            self.turn_key = Some(key);
            self.turn_deadline = self.turn_limit.map(|l| now.plus(l));
            self.reaction = None;
        }
        match wait {
            Wait::Reaction(seats) => {
                let goes_on = self
                    .reaction
                    .as_ref()
                    .is_some_and(|r| seats.0 & !r.seats.0 == 0 && by.is_some_and(|b| r.seats.contains(b)));
                match &mut self.reaction {
                    Some(r) if goes_on => r.seats = seats,
                    _ => {
                        let since = self.reaction.map_or(now, |r| r.since);
                        self.reaction = Some(Reaction {
                            seats,
                            deadline: self.reaction_limit.map(|l| now.plus(l)),
                            since,
                        });
                    }
                }
            }
            Wait::Turn(_) => {
                if let Some(r) = self.reaction.take() {
                    let paused = now.at.saturating_duration_since(r.since.at);
                    if let Some(d) = &mut self.turn_deadline {
                        *d = d.plus(paused);
                    }
                }
            }
            Wait::Nothing => unreachable!(),
        }
    }

    /// The deadline of the current wait, if it has a timer.
    pub fn deadline(&self) -> Option<Moment> {
        match self.wait {
            Wait::Nothing => None,
            Wait::Turn(_) => self.turn_deadline,
            Wait::Reaction(_) => self.reaction.and_then(|r| r.deadline),
        }
    }

    /// The seats whose time is up at `now` (empty if none).
    pub fn due(&self, now: Instant) -> SeatSet {
        match (self.deadline(), self.wait) {
            (Some(d), Wait::Turn(s)) if d.at <= now => single(s),
            (Some(d), Wait::Reaction(seats)) if d.at <= now => seats,
            _ => SeatSet::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_rules::{Action, GameConfig, ResourceSet};

    fn at(base: Moment, secs: u64) -> Moment {
        base.plus(Duration::from_secs(secs))
    }

    /// Plays set-up with the first legal action of each awaited seat.
    fn past_setup(game: &mut Game, timer: &mut TurnTimer, now: Moment) {
        while matches!(game.phase(), Phase::SetupSettlement | Phase::SetupRoad { .. }) {
            let s = game.next_actor().unwrap();
            let a = game.legal_actions(s).actions[0];
            game.apply(s, a).unwrap();
            timer.follow(game, Some(s), now);
        }
    }

    #[test]
    fn each_turn_gets_its_own_deadline_and_reactions_pause_it() {
        let t0 = Moment::now();
        let mut game = Game::new(GameConfig::default(), 5).unwrap();
        let mut timer = TurnTimer::new(Some(120_000), Some(45_000));
        timer.follow(&game, None, t0);
        let first = game.next_actor().unwrap();
        assert_eq!(timer.wait, Wait::Turn(first));
        assert_eq!(timer.deadline(), Some(at(t0, 120)));
        assert!(timer.due(at(t0, 119).at).is_empty());
        assert_eq!(timer.due(at(t0, 120).at).iter().collect::<Vec<_>>(), vec![first]);
        past_setup(&mut game, &mut timer, at(t0, 10));
        let cur = game.current();
        assert_eq!(timer.deadline(), Some(at(t0, 130)), "a new turn after set-up");
        // Roll, then offer a trade at t0+20: a reaction with its own deadline.
        game.apply(cur, Action::RollDice).unwrap();
        timer.follow(&game, Some(cur), at(t0, 15));
        // This seed rolls no 7 here, and the current player holds a card to offer.
        assert_eq!(game.phase(), Phase::Main);
        let hand = game.player(cur).hand;
        let r = catan_rules::Resource::ALL
            .into_iter()
            .find(|&r| hand[r] > 0)
            .unwrap();
        let mut give = ResourceSet::EMPTY;
        give[r] += 1;
        let mut get = ResourceSet::EMPTY;
        get[catan_rules::Resource::ALL.into_iter().find(|&x| x != r).unwrap()] += 1;
        let offer = Action::OfferTrade {
            give,
            get,
            to: SeatSet::EMPTY,
            give_gold: 0,
            get_gold: 0,
        };
        game.apply(cur, offer).unwrap();
        timer.follow(&game, Some(cur), at(t0, 20));
        assert!(matches!(timer.wait, Wait::Reaction(s) if !s.contains(cur) && s.len() == 3));
        assert_eq!(timer.deadline(), Some(at(t0, 65)));
        // One answer: the same reaction goes on, same deadline.
        let answering = game.pending_responders().iter().next().unwrap();
        game.apply(answering, Action::DeclineTrade).unwrap();
        timer.follow(&game, Some(answering), at(t0, 30));
        assert_eq!(timer.deadline(), Some(at(t0, 65)));
        // The mover withdraws at t0+40: back on its turn clock, 20 s later than before.
        game.apply(cur, Action::CancelTrade).unwrap();
        timer.follow(&game, Some(cur), at(t0, 40));
        assert_eq!(timer.wait, Wait::Turn(cur));
        assert_eq!(timer.deadline(), Some(at(t0, 150)));
        // The next offer is a new reaction with a full reaction time.
        game.apply(cur, offer).unwrap();
        timer.follow(&game, Some(cur), at(t0, 50));
        assert_eq!(timer.deadline(), Some(at(t0, 95)));
        game.apply(cur, Action::CancelTrade).unwrap();
        timer.follow(&game, Some(cur), at(t0, 50));
        game.apply(cur, Action::EndTurn).unwrap();
        timer.follow(&game, Some(cur), at(t0, 60));
        assert_eq!(timer.deadline(), Some(at(t0, 180)), "the next player's turn");
    }

    /// Over random games: discards are reactions with the reaction time, a robber move is
    /// the mover's turn, and with the turn timer off a turn has no deadline.
    #[test]
    fn discards_are_reactions_and_off_means_no_deadline() {
        let t0 = Moment::now();
        let mut discards = 0;
        for seed in 0..20 {
            let mut game = Game::new(GameConfig::default(), seed).unwrap();
            let mut bot = catan_bots::RandomBot::new(seed);
            let mut timer = TurnTimer::new(None, Some(45_000));
            timer.follow(&game, None, t0);
            while !game.is_over() && game.turn() < 200 {
                let s = game.next_actor().unwrap();
                let a = bot.choose(&game, s).unwrap();
                game.apply(s, a).unwrap();
                let now = at(t0, game.actions_applied() as u64);
                let before = timer.deadline();
                timer.follow(&game, Some(s), now);
                match game.phase() {
                    Phase::Discard => {
                        assert!(matches!(timer.wait, Wait::Reaction(w) if w == game.waiting_on()));
                        if matches!(a, Action::Discard { .. }) {
                            assert_eq!(timer.deadline(), before, "one more discard: same wait");
                        } else {
                            assert_eq!(timer.deadline(), Some(at(now, 45)));
                            discards += 1;
                        }
                    }
                    Phase::MoveRobber => {
                        assert_eq!(timer.wait, Wait::Turn(game.current()));
                        assert_eq!(timer.deadline(), None);
                    }
                    _ => {}
                }
            }
        }
        assert!(discards > 0, "no discard came up");
    }
}
