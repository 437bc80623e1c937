//! A finished game's statistics (`GET /api/games/{id}/stats`), for the client's game-over
//! screen and replay page: how often each dice sum came up against its expected count, and
//! the resource cards each player gained and lost, by source. Computed by replaying the
//! stored log through the rules and folding the (unredacted) events: the game is over, so
//! nothing in them is secret any more.
//!
//! Sources: `production` (rolls and the starting resources), `trade` (bank, harbors,
//! other players, Frenemies' gifts and traders), `robber` (stolen, and discards on a 7),
//! `cards` (Year of Plenty, Monopoly), `other` (helpers and favors that move cards).
//! Cards spent on building or buying are neither gained nor lost.

use catan_rules::frenemies::FrenemiesEvent;
use catan_rules::{Event, Game, HelpersEvent, ResourceSet, Seat};
use catan_store::{Replay, ReplayError};
use serde::Serialize;

/// Card counts by source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BySource {
    pub production: u32,
    pub trade: u32,
    pub robber: u32,
    pub cards: u32,
    pub other: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Production,
    Trade,
    Robber,
    Cards,
    Other,
}

impl BySource {
    fn add(&mut self, source: Source, n: u32) {
        *match source {
            Source::Production => &mut self.production,
            Source::Trade => &mut self.trade,
            Source::Robber => &mut self.robber,
            Source::Cards => &mut self.cards,
            Source::Other => &mut self.other,
        } += n;
    }

    pub fn total(&self) -> u32 {
        self.production + self.trade + self.robber + self.cards + self.other
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PlayerStats {
    pub seat: Seat,
    pub gained: BySource,
    pub lost: BySource,
}

#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DiceStats {
    /// Rolls so far.
    pub rolls: u32,
    /// How often each sum 2..=12 came up (11 entries, index 0 is a 2).
    pub counts: [u32; 11],
    /// The expected count of each sum for that many rolls (`rolls × ways / 36`).
    pub expected: [f64; 11],
}

/// `GET /api/games/{id}/stats`.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GameStats {
    pub id: String,
    pub dice: DiceStats,
    pub players: Vec<PlayerStats>,
}

/// Replays `replay` and folds its events into [`GameStats`].
pub fn compute(replay: &Replay) -> Result<GameStats, ReplayError> {
    let mut game = Game::new(replay.config, replay.seed).map_err(ReplayError::Config)?;
    let n = game.players();
    let mut acc = Fold::new(n);
    for (index, a) in replay.actions.iter().enumerate() {
        let events = game
            .apply(a.seat, a.action)
            .map_err(|error| ReplayError::Rules { index, error })?;
        for e in &events {
            acc.event(e);
        }
    }
    Ok(acc.finish(replay.id.clone()))
}

struct Fold {
    counts: [u32; 11],
    players: Vec<PlayerStats>,
}

impl Fold {
    fn new(n: u8) -> Fold {
        Fold {
            counts: [0; 11],
            players: (0..n)
                .map(|seat| PlayerStats {
                    seat,
                    ..Default::default()
                })
                .collect(),
        }
    }

    fn gain(&mut self, seat: Seat, source: Source, n: u32) {
        if let Some(p) = self.players.get_mut(seat as usize) {
            p.gained.add(source, n);
        }
    }

    fn lose(&mut self, seat: Seat, source: Source, n: u32) {
        if let Some(p) = self.players.get_mut(seat as usize) {
            p.lost.add(source, n);
        }
    }

    fn event(&mut self, e: &Event) {
        use Source::*;
        let total = |c: &ResourceSet| c.total();
        match e {
            Event::DiceRolled { dice, .. } => {
                let sum = (dice[0] + dice[1]) as usize;
                if (2..=12).contains(&sum) {
                    self.counts[sum - 2] += 1;
                }
            }
            Event::Produced { seat, cards } | Event::StartingResources { seat, cards } => {
                self.gain(*seat, Production, total(cards))
            }
            Event::Discarded { seat, cards } => self.lose(*seat, Robber, total(cards)),
            Event::Stole { thief, victim, .. } => {
                self.gain(*thief, Robber, 1);
                self.lose(*victim, Robber, 1);
            }
            Event::YearOfPlenty { seat, cards } => self.gain(*seat, Cards, total(cards)),
            Event::Monopoly { seat, taken, .. } => {
                let mut sum = 0;
                for (victim, &n) in taken.as_slice().iter().enumerate() {
                    if victim as Seat != *seat && n > 0 {
                        self.lose(victim as Seat, Cards, n as u32);
                        sum += n as u32;
                    }
                }
                self.gain(*seat, Cards, sum);
            }
            Event::MaritimeTrade { seat, gave, got } => {
                self.lose(*seat, Trade, total(gave));
                self.gain(*seat, Trade, total(got));
            }
            // Resource cards only (gold is not a resource).
            Event::TradeCompleted {
                seat,
                with,
                gave,
                got,
                ..
            } => {
                self.lose(*seat, Trade, total(gave));
                self.gain(*seat, Trade, total(got));
                self.lose(*with, Trade, total(got));
                self.gain(*with, Trade, total(gave));
            }
            Event::Helpers(h) => match h {
                HelpersEvent::HelperGained { seat, cards, .. } => self.gain(*seat, Other, total(cards)),
                HelpersEvent::AslaGave { from, to, .. } => {
                    self.lose(*from, Other, 1);
                    self.gain(*to, Other, 1);
                }
                HelpersEvent::AslaReturned { seat, to, .. } => {
                    self.lose(*seat, Other, 1);
                    self.gain(*to, Other, 1);
                }
                HelpersEvent::RyanTook { seat, target, .. } => {
                    self.gain(*seat, Other, 1);
                    self.lose(*target, Other, 1);
                }
                _ => {}
            },
            Event::Frenemies(f) => match f {
                FrenemiesEvent::GiftAccepted { from, to, .. } => {
                    self.lose(*from, Trade, 1);
                    self.gain(*to, Trade, 1);
                }
                FrenemiesEvent::FavorRedeemed { seat, gave, got, .. } => {
                    self.lose(*seat, Trade, total(gave));
                    self.gain(*seat, Trade, total(got));
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn finish(self, id: String) -> GameStats {
        const WAYS: [u32; 11] = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
        let rolls: u32 = self.counts.iter().sum();
        let mut expected = [0.0; 11];
        for (e, w) in expected.iter_mut().zip(WAYS) {
            *e = f64::from(rolls) * f64::from(w) / 36.0;
        }
        GameStats {
            id,
            dice: DiceStats {
                rolls,
                counts: self.counts,
                expected,
            },
            players: self.players,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_rules::{Action, GameConfig};
    use catan_store::ActionRecord;

    /// A complete random game, recorded as the store would hold it.
    /// Also returns the events and, per seat, the cards paid for builds and development
    /// cards (set-up pieces and Road Building roads are free).
    fn random_game(seed: u64) -> (Replay, Vec<Event>, Game, Vec<u32>) {
        let config = GameConfig::default();
        let mut g = Game::new(config, seed).unwrap();
        let mut rng = catan_rules::Rng::new(seed ^ 0x5eed);
        let mut actions = Vec::new();
        let mut events = Vec::new();
        let mut spent = vec![0u32; g.players() as usize];
        while !g.is_over() && actions.len() < 20_000 {
            let seat = g.next_actor().unwrap();
            let legal = g.legal_actions(seat);
            let a: Action = if legal.actions.is_empty() {
                break;
            } else {
                legal.actions[rng.below(legal.actions.len() as u32) as usize]
            };
            let paid = matches!(
                g.phase(),
                catan_rules::Phase::Main | catan_rules::Phase::SpecialBuild { .. }
            );
            let cost = match a {
                Action::BuildRoad { .. } if paid => 2,
                Action::BuildSettlement { .. } if paid => 4,
                Action::BuildCity { .. } => 5,
                Action::BuyDevelopmentCard => 3,
                _ => 0,
            };
            spent[seat as usize] += cost;
            events.extend(g.apply(seat, a).unwrap());
            actions.push(ActionRecord {
                index: actions.len() as u32,
                seat,
                action: a,
                at_ms: 0,
            });
        }
        let replay = Replay {
            id: "g".into(),
            config,
            seed,
            rules_version: catan_rules::RULES_VERSION.into(),
            actions,
        };
        (replay, events, g, spent)
    }

    #[test]
    fn dice_counts_match_the_rolls_and_expected_counts_sum_to_the_rolls() {
        let (replay, events, _, _) = random_game(7);
        let st = compute(&replay).unwrap();
        let rolls: Vec<u8> = events
            .iter()
            .filter_map(|e| match e {
                Event::DiceRolled { dice, .. } => Some(dice[0] + dice[1]),
                _ => None,
            })
            .collect();
        assert!(!rolls.is_empty());
        assert_eq!(st.dice.rolls as usize, rolls.len());
        for sum in 2..=12u8 {
            let n = rolls.iter().filter(|&&r| r == sum).count() as u32;
            assert_eq!(st.dice.counts[sum as usize - 2], n, "sum {sum}");
        }
        let expected: f64 = st.dice.expected.iter().sum();
        assert!((expected - f64::from(st.dice.rolls)).abs() < 1e-9);
        assert!((st.dice.expected[5] - f64::from(st.dice.rolls) / 6.0).abs() < 1e-9);
    }

    #[test]
    fn cards_gained_minus_lost_minus_spent_is_each_final_hand() {
        for seed in 1..6 {
            let (replay, _, g, spent) = random_game(seed);
            let st = compute(&replay).unwrap();
            let view = g.view(catan_rules::Viewer::Spectator);
            for p in &st.players {
                let hand = view.players[p.seat as usize].resource_count;
                assert_eq!(
                    i64::from(p.gained.total())
                        - i64::from(p.lost.total())
                        - i64::from(spent[p.seat as usize]),
                    i64::from(hand),
                    "seed {seed} seat {}: {p:?}",
                    p.seat
                );
            }
        }
    }

    #[test]
    fn a_log_that_does_not_replay_is_an_error() {
        let (mut replay, _, _, _) = random_game(3);
        replay.actions[0].action = Action::EndTurn;
        assert!(matches!(
            compute(&replay),
            Err(ReplayError::Rules { index: 0, .. })
        ));
    }
}
