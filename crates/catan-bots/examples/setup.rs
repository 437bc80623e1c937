use catan_bots::{Bot, BotLevel};
use catan_rules::{Game, GameConfig, Phase};
fn main() {
    let seed: u64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(1);
    let mut game = Game::new(GameConfig::default(), seed).unwrap();
    let mut bot = Bot::new(BotLevel::Heuristic, seed);
    while matches!(game.phase(), Phase::SetupSettlement | Phase::SetupRoad { .. }) {
        let seat = game.next_actor().unwrap();
        let a = bot.choose(&game, seat).unwrap();
        if let catan_rules::Action::BuildSettlement { corner } = a {
            let t = game.topology();
            let hexes: Vec<String> = t.corner_hexes[corner as usize]
                .iter()
                .filter(|&&h| h != 255)
                .map(|&h| {
                    format!(
                        "{:?}{}",
                        game.board().terrain[h as usize],
                        game.board().token[h as usize]
                    )
                })
                .collect();
            println!(
                "seat {seat} corner {corner}: {hexes:?} harbor {:?}",
                game.board().harbor_at(corner)
            );
        }
        game.apply(seat, a).unwrap();
    }
}
