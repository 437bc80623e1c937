use catan_bots::{Bot, BotLevel};
use catan_rules::{Game, GameConfig, Scenario};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(1);
    let scenario = match args.get(2).map(|s| s.as_str()) {
        Some("helpers") => Some(Scenario::Helpers),
        Some("frenemies") => Some(Scenario::Frenemies),
        _ => None,
    };
    let mut game = Game::new(GameConfig::with_scenario(4, scenario), seed).unwrap();
    let mut bot = Bot::new(BotLevel::Heuristic, seed);
    while !game.is_over() {
        let seat = game.next_actor().unwrap();
        let a = bot.choose(&game, seat).unwrap();
        let hand = game.player(seat).hand;
        let ev = game.apply(seat, a).unwrap();
        if !matches!(a, catan_rules::Action::RollDice) {
            println!(
                "t{:3} s{} vp{:2} [{}] {:?}",
                game.turn(),
                seat,
                game.victory_points(seat),
                hand,
                a
            );
        }
        for e in ev {
            if let catan_rules::Event::DiceRolled { .. } = e {}
        }
    }
    println!("winner {:?} turns {}", game.winner(), game.turn());
}
