//! Production: settlements 1, cities 2, the robber's hex, the bank shortage rule.

use super::*;

fn produced(ev: &[Event], seat: Seat) -> ResourceSet {
    ev.iter()
        .filter_map(|e| match e {
            Event::Produced { seat: s, cards } if *s == seat => Some(*cards),
            _ => None,
        })
        .fold(ResourceSet::EMPTY, |mut a, c| {
            a.add(&c);
            a
        })
}

/// The hex carrying the unique 2, its resource, and two of its opposite corners.
fn two_hex(g: &Game) -> (u8, Resource, u8, u8) {
    let h = only_hex_with(g, 2);
    let r = g.board.terrain[h as usize].resource().unwrap();
    let cs = g.topo.hex_corners[h as usize];
    (h, r, cs[0], cs[3])
}

#[test]
fn settlement_collects_one_and_city_two() {
    let mut g = blank(4);
    let (_, r, a, b) = two_hex(&g);
    settle(&mut g, 1, a);
    city(&mut g, 2, b);
    let bank = g.bank[r];
    let ev = force_roll(&mut g, 2);
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(hand(&g, 1), one(r));
    assert_eq!(hand(&g, 2), n_of(r, 2));
    assert!(hand(&g, 0).is_empty() && hand(&g, 3).is_empty());
    assert_eq!(produced(&ev, 1), one(r));
    assert_eq!(produced(&ev, 2), n_of(r, 2));
    assert_eq!(g.bank[r], bank - 3);
    check(&g);
}

#[test]
fn only_the_rolled_number_produces() {
    let mut g = blank(4);
    let (_, _, a, _) = two_hex(&g);
    settle(&mut g, 1, a);
    let ev = force_roll(&mut g, 12);
    // The corner of the 2-hex touches no 12 (12 is on one other hex, which may neighbour
    // it): whatever seat 1 got came from hexes carrying 12.
    let got = produced(&ev, 1);
    let mut expected = ResourceSet::EMPTY;
    for h in hexes_at(&g, a) {
        if g.board.token[h as usize] == 12 {
            expected[g.board.terrain[h as usize].resource().unwrap()] += 1;
        }
    }
    assert_eq!(got, expected);
    check(&g);
}

#[test]
fn robber_hex_produces_nothing() {
    let mut g = blank(4);
    let (h, _, a, b) = two_hex(&g);
    settle(&mut g, 1, a);
    city(&mut g, 2, b);
    g.robber = h;
    let bank = g.bank;
    let ev = force_roll(&mut g, 2);
    assert!(!ev.iter().any(|e| matches!(e, Event::Produced { .. })), "{ev:?}");
    assert!(hand(&g, 1).is_empty() && hand(&g, 2).is_empty());
    assert_eq!(g.bank, bank);
    check(&g);
}

#[test]
fn bank_shortage_single_claimant_gets_what_is_left() {
    let mut g = blank(4);
    let (_, r, a, _) = two_hex(&g);
    city(&mut g, 1, a);
    drain_bank(&mut g, r, 1, 3);
    let ev = force_roll(&mut g, 2);
    assert_eq!(hand(&g, 1), one(r), "owed 2, the bank had 1");
    assert_eq!(g.bank[r], 0);
    assert!(!ev.iter().any(|e| matches!(e, Event::ProductionBlocked { .. })));
    check(&g);
}

#[test]
fn bank_shortage_single_claimant_with_empty_bank_gets_nothing() {
    let mut g = blank(4);
    let (_, r, a, _) = two_hex(&g);
    settle(&mut g, 1, a);
    drain_bank(&mut g, r, 0, 3);
    force_roll(&mut g, 2);
    assert!(hand(&g, 1).is_empty());
    check(&g);
}

/// A seed and number whose two hexes produce different resources.
fn two_resource_number() -> (Game, u8, u8, u8) {
    for seed in 0..200 {
        let g = blank_with(GameConfig::with_players(4), seed);
        for n in [3u8, 4, 5, 6, 8, 9, 10, 11] {
            let [a, b, _] = g.board.token_hexes[n as usize];
            if b == NONE {
                continue;
            }
            let ra = g.board.terrain[a as usize].resource();
            let rb = g.board.terrain[b as usize].resource();
            if ra != rb {
                return (g, n, a, b);
            }
        }
    }
    unreachable!()
}

#[test]
fn bank_shortage_several_claimants_nobody_gets_that_resource() {
    let (mut g, n, a, b) = two_resource_number();
    let ra = g.board.terrain[a as usize].resource().unwrap();
    let rb = g.board.terrain[b as usize].resource().unwrap();
    // Seats 1 and 2 on hex a only, seat 3 on hex b only.
    let on_a = pick_corners(&g, &solo_corners(&g, a), 2);
    settle(&mut g, 1, on_a[0]);
    settle(&mut g, 2, on_a[1]);
    let on_b = pick_corners(&g, &solo_corners(&g, b), 1);
    settle(&mut g, 3, on_b[0]);
    // The bank can pay one of them but not both.
    drain_bank(&mut g, ra, 1, 0);

    let mut enough = g.clone();
    clear_hand(&mut enough, 0);
    drain_bank(&mut enough, ra, 2, 0);

    let ev = force_roll(&mut g, n);
    assert!(hand(&g, 1).is_empty(), "{:?}", hand(&g, 1));
    assert!(hand(&g, 2).is_empty());
    assert_eq!(g.bank[ra], 1);
    assert!(ev.contains(&Event::ProductionBlocked { resource: ra }));
    // Others are still paid in other resources.
    assert_eq!(hand(&g, 3), one(rb));
    assert!(!ev.contains(&Event::ProductionBlocked { resource: rb }));
    check(&g);

    // With exactly enough in the bank, both are paid.
    let ev = force_roll(&mut enough, n);
    assert_eq!(hand(&enough, 1), one(ra));
    assert_eq!(hand(&enough, 2), one(ra));
    assert_eq!(enough.bank[ra], 0);
    assert!(!ev.iter().any(|e| matches!(e, Event::ProductionBlocked { .. })));
    check(&enough);
}

#[test]
fn roll_is_refused_twice_and_out_of_turn() {
    let mut g = blank(4);
    assert_refused(&mut g, 1, Action::RollDice);
    force_roll(&mut g, 2);
    let e = assert_refused(&mut g, 0, Action::RollDice);
    assert!(matches!(e, RuleError::WrongPhase { .. }), "{e:?}");
    assert_refused(&mut g, 1, Action::RollDice);
}
