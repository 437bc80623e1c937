//! Head-to-head in Barbarian Invasion: the heuristic bot with the scenario's features
//! (`heuristic/barbarians.rs`) against the same bot without them (the first listed choice
//! in the scenario's phases, no conquest risk in its valuations), two seats each.
//!
//! `cargo run --release -p catan-bots --example barbarians_h2h -- [GAMES] [PLAYERS]`
//!
//! Seats alternate new/old and the pairing is swapped every other game (new on seats 0
//! and 2, then on 1 and 3), so that seat order favours neither; the first player is drawn
//! by the game as usual. Prints the win rate of each kind and the median turns.

use catan_bots::HeuristicBot;
use catan_rules::{Game, GameConfig, Scenario};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let config = GameConfig::with_scenario(players, Some(Scenario::Barbarians));
    let (mut new_wins, mut old_wins, mut unfinished) = (0u64, 0u64, 0u64);
    let mut turns = Vec::with_capacity(games as usize);
    let mut prisoners = [0u64; 2];
    for g in 0..games {
        let mut game = Game::new(config, g).unwrap();
        let is_new = |s: u8| (s as u64 + g).is_multiple_of(2);
        let mut new = HeuristicBot::new(g);
        let mut old = HeuristicBot::new(g ^ 0x5eed).without_barbarian_features();
        while !game.is_over() && game.turn() < 2000 {
            let seat = game.next_actor().expect("someone acts");
            let bot = if is_new(seat) { &mut new } else { &mut old };
            let a = bot.choose(&game, seat).expect("a bot to act acts");
            game.apply(seat, a).expect("the bot's action is legal");
        }
        let Some(w) = game.winner() else {
            unfinished += 1;
            continue;
        };
        if is_new(w) {
            new_wins += 1;
        } else {
            old_wins += 1;
        }
        turns.push(game.turn());
        let b = game.barbarians_state().unwrap();
        for s in 0..players {
            prisoners[!is_new(s) as usize] += b.prisoners[s as usize] as u64;
        }
        assert_eq!(new.fallbacks + old.fallbacks, 0, "game {g}: a bot fell back");
    }
    turns.sort_unstable();
    let done = (games - unfinished).max(1) as f64;
    println!("games: {games}  players: {players}  unfinished: {unfinished}");
    println!(
        "win rates: new {:.3} old {:.3} (half the seats each, over the games)",
        new_wins as f64 / done,
        old_wins as f64 / done
    );
    println!(
        "prisoners per game: new {:.2} old {:.2}",
        prisoners[0] as f64 / done,
        prisoners[1] as f64 / done
    );
    println!(
        "median turns: {}",
        turns.get(turns.len() / 2).copied().unwrap_or(0)
    );
}
