//! The move a server makes for a seat whose time ran out. It must always be legal, be the
//! same for the same game (it is journaled and replayed like any action), and do as little
//! as possible on the absent player's behalf: decline what may be declined, discard from
//! what it holds most, take what it must, and end the turn.

use catan_rules::{Action, Game, HelpersAction, LegalActions, Requirement, Resource, ResourceSet, Seat};

/// The move made for `seat` when its time is up, or `None` if the game is not waiting on
/// it (or it has nothing to do: it answered and waits for others).
///
/// In order of preference: discard the required cards (one at a time from the resource
/// held most, ties by resource order); decline a trade offer, a gift or Hilda; withdraw an
/// own open offer; roll; end the turn; otherwise the first legal action the rules list
/// (a set-up placement, the robber's move, a card to take or return, a helper to keep).
pub fn timeout_move(game: &Game, seat: Seat) -> Option<Action> {
    if !game.waiting_on().contains(seat) {
        return None;
    }
    let mut legal = LegalActions::default();
    game.legal_into(seat, &mut legal);
    choose(game, seat, &legal)
}

/// Cheaper form for callers that already hold `seat`'s legal actions.
pub fn choose(game: &Game, seat: Seat, legal: &LegalActions) -> Option<Action> {
    for req in &legal.requirements {
        if let Requirement::Discard { count } = *req {
            return Some(Action::Discard {
                cards: discard_from(game.player(seat).hand, count),
            });
        }
    }
    let rank = |a: &Action| -> Option<u8> {
        Some(match a {
            Action::DeclineTrade => 0,
            Action::Frenemies(catan_rules::frenemies::FrenemiesAction::RejectGift) => 0,
            Action::Helpers(HelpersAction::DeclineHilda) => 0,
            Action::CancelTrade => 1,
            Action::RollDice => 2,
            Action::EndTurn => 3,
            Action::Helpers(HelpersAction::HelperFlip) => 4,
            _ => return None,
        })
    };
    let preferred = legal
        .actions
        .iter()
        .filter_map(|a| rank(a).map(|r| (r, *a)))
        .min_by_key(|(r, _)| *r)
        .map(|(_, a)| a);
    preferred.or_else(|| legal.actions.first().copied())
}

/// `count` cards of `hand`, each taken from the resource held most at that point (the
/// first in resource order on a tie): what a player least needs to keep is a guess, and
/// this one keeps the hand as varied as it can.
pub fn discard_from(mut hand: ResourceSet, count: u8) -> ResourceSet {
    let mut out = ResourceSet::EMPTY;
    for _ in 0..count {
        let Some(r) = Resource::ALL
            .into_iter()
            .filter(|&r| hand[r] > 0)
            .max_by_key(|&r| (hand[r], std::cmp::Reverse(r as u8)))
        else {
            break;
        };
        hand[r] -= 1;
        out[r] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomBot;
    use catan_rules::{FiveSixTurns, GameConfig, Scenario};

    fn games() -> usize {
        std::env::var("CATAN_PROPTEST_GAMES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(40)
    }

    fn configs() -> Vec<GameConfig> {
        let mut out = vec![GameConfig::default()];
        for scenario in [Scenario::Helpers, Scenario::Frenemies, Scenario::Barbarians] {
            out.push(GameConfig {
                scenario: Some(scenario),
                victory_points: Scenario::default_victory_points(Some(scenario)),
                ..GameConfig::default()
            });
        }
        out.push(GameConfig {
            players: 6,
            five_six_turns: Some(FiveSixTurns::Paired),
            ..GameConfig::default()
        });
        out.push(GameConfig {
            players: 5,
            ..GameConfig::default()
        });
        out
    }

    #[test]
    fn discards_take_from_the_largest_pile_first() {
        let hand = ResourceSet::new(1, 4, 0, 3, 2);
        assert_eq!(discard_from(hand, 5), ResourceSet::new(0, 3, 0, 2, 0));
        // Ties go to the first resource in order.
        assert_eq!(
            discard_from(ResourceSet::new(2, 2, 2, 2, 2), 2),
            ResourceSet::new(1, 1, 0, 0, 0)
        );
        assert_eq!(discard_from(hand, 0), ResourceSet::EMPTY);
    }

    /// Over many random positions of every variant, each seat the game waits on gets a
    /// move, the rules accept it, and the same game gives the same move.
    #[test]
    fn every_awaited_seat_gets_a_legal_move() {
        let mut checked = 0u64;
        for (i, config) in configs().into_iter().enumerate() {
            for g in 0..games() as u64 {
                let seed = 1000 * i as u64 + g;
                let mut game = Game::new(config, seed).unwrap();
                let mut bot = RandomBot::new(seed).with_trades(true);
                let mut steps = 0;
                while !game.is_over() && steps < 3_000 {
                    for seat in game.waiting_on().iter() {
                        let mut legal = LegalActions::default();
                        game.legal_into(seat, &mut legal);
                        let a = timeout_move(&game, seat);
                        if legal.is_empty() {
                            // It answered an offer and waits for the others.
                            continue;
                        }
                        let a = a.unwrap_or_else(|| {
                            panic!("no move for awaited seat {seat} in {:?}", game.phase())
                        });
                        assert_eq!(timeout_move(&game, seat), Some(a), "deterministic");
                        let mut after = game.clone();
                        after.apply(seat, a).unwrap_or_else(|e| {
                            panic!("{a:?} for {seat} refused in {:?}: {e}", game.phase())
                        });
                        checked += 1;
                    }
                    let seat = game.next_actor().unwrap();
                    let a = bot.choose(&game, seat).unwrap();
                    game.apply(seat, a).unwrap();
                    steps += 1;
                }
            }
        }
        assert!(checked > 10_000, "only {checked} positions checked");
    }

    /// A seat played only by its timer never stalls a game: with one seat timed out at
    /// every step of its and the others played by random bots, each game ends (someone
    /// wins) or runs to a long cap, and the timed-out seat's turns always end.
    #[test]
    fn a_seat_played_by_timeouts_never_stalls_the_game() {
        for (i, config) in configs().into_iter().enumerate() {
            for g in 0..(games() as u64 / 4).max(2) {
                let seed = 7000 + 1000 * i as u64 + g;
                let mut game = Game::new(config, seed).unwrap();
                let mut bot = RandomBot::new(seed);
                let mut steps = 0;
                // Moves made in a row for seat 0 without its turn ending.
                let mut in_a_row = 0;
                while !game.is_over() && steps < 20_000 {
                    let seat = game.next_actor().unwrap();
                    let a = if seat == 0 {
                        in_a_row += 1;
                        assert!(in_a_row < 50, "seat 0 is stuck in {:?}", game.phase());
                        timeout_move(&game, 0).expect("seat 0 is awaited")
                    } else {
                        in_a_row = 0;
                        bot.choose(&game, seat).unwrap()
                    };
                    game.apply(seat, a).unwrap();
                    steps += 1;
                }
            }
        }
    }
}
