//! The Barbarian Invasion board: the base island and frame, the castle and the desert on
//! opposite corner hexes of the outer ring, the coastal hexes' fixed tokens and the
//! inner hexes' shuffled ones (`barbarians.md`, Board).

use crate::board::{red_adjacent, Board, HarborKind, Layout, Terrain, MAX_HARBORS, MAX_HEXES};
use crate::rng::Rng;

/// **Decision:** the tokens of the outer ring clockwise from the castle: positions 1–5
/// and 7–11 (position 6 is the desert, 0 the castle).
pub const COASTAL_TOKENS: [u8; 10] = [4, 10, 6, 3, 9, 11, 5, 8, 2, 12];
/// The inner hexes' tokens (shuffled, no two of 6/8 adjacent).
pub const INNER_TOKENS: [u8; 7] = [4, 5, 6, 8, 9, 10, 11];
/// Terrain of the 10 coastal hexes.
pub const COASTAL_TERRAIN: [Terrain; 10] = [
    Terrain::Forest,
    Terrain::Forest,
    Terrain::Hills,
    Terrain::Hills,
    Terrain::Pasture,
    Terrain::Pasture,
    Terrain::Pasture,
    Terrain::Mountains,
    Terrain::Fields,
    Terrain::Fields,
];
/// Terrain of the 7 inner hexes.
pub const INNER_TERRAIN: [Terrain; 7] = [
    Terrain::Forest,
    Terrain::Pasture,
    Terrain::Hills,
    Terrain::Mountains,
    Terrain::Mountains,
    Terrain::Fields,
    Terrain::Fields,
];
const HARBORS: [HarborKind; 9] = [
    HarborKind::Generic,
    HarborKind::Generic,
    HarborKind::Generic,
    HarborKind::Generic,
    HarborKind::Brick,
    HarborKind::Lumber,
    HarborKind::Wool,
    HarborKind::Grain,
    HarborKind::Ore,
];

/// Ring positions (clockwise from the castle) of the coastal hexes.
const COASTAL_POSITIONS: [usize; 10] = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11];

/// Lays the board out from the game RNG. The castle and the desert are both desert
/// terrain on the core's board (no token, no production); [`castle_of`] tells them apart.
pub(crate) fn generate(rng: &mut Rng) -> Board {
    let topo = Layout::Base.topology();
    let ring = &topo.rings[0];
    let start = topo.spiral_starts[rng.below(topo.spiral_starts.len() as u32) as usize];
    let begin = ring.iter().position(|&h| h == start).expect("a ring hex");
    let at = |k: usize| ring[(begin + k) % ring.len()] as usize;
    let mut terrain = [Terrain::Desert; MAX_HEXES];
    let mut token = [0u8; MAX_HEXES];
    let mut coastal = COASTAL_TERRAIN;
    rng.shuffle(&mut coastal);
    for (i, &k) in COASTAL_POSITIONS.iter().enumerate() {
        terrain[at(k)] = coastal[i];
        token[at(k)] = COASTAL_TOKENS[i];
    }
    let inner: Vec<usize> = (0..topo.hex_count())
        .filter(|h| !ring.contains(&(*h as u8)))
        .collect();
    let mut inner_terrain = INNER_TERRAIN;
    rng.shuffle(&mut inner_terrain);
    for (i, &h) in inner.iter().enumerate() {
        terrain[h] = inner_terrain[i];
    }
    let mut harbors = [HarborKind::Generic; MAX_HARBORS];
    let mut hk = HARBORS;
    rng.shuffle(&mut hk);
    harbors[..9].copy_from_slice(&hk);
    loop {
        let mut ts = INNER_TOKENS;
        rng.shuffle(&mut ts);
        for (i, &h) in inner.iter().enumerate() {
            token[h] = ts[i];
        }
        if !red_adjacent(topo, &token) {
            break;
        }
    }
    Board::assemble(Layout::Base, terrain, token, harbors)
}

/// The castle, the desert and the coastal hexes in battle order (clockwise from the
/// castle) of a Barbarian Invasion board: the castle is the token-less corner hex of the
/// outer ring whose clockwise neighbour carries the first coastal token, the desert the
/// one opposite. `None` if the board is not laid out so.
pub fn castle_of(board: &Board) -> Option<(u8, u8, [u8; 10])> {
    let topo = board.topology();
    if board.layout != Layout::Base {
        return None;
    }
    let ring = &topo.rings[0];
    for &start in &topo.spiral_starts {
        let begin = ring.iter().position(|&h| h == start)?;
        let at = |k: usize| ring[(begin + k) % ring.len()];
        let mut coastal = [0u8; 10];
        let fits = board.terrain[at(0) as usize] == Terrain::Desert
            && board.terrain[at(6) as usize] == Terrain::Desert
            && COASTAL_POSITIONS.iter().enumerate().all(|(i, &k)| {
                coastal[i] = at(k);
                board.token[at(k) as usize] == COASTAL_TOKENS[i]
            });
        if fits {
            return Some((at(0), at(6), coastal));
        }
    }
    None
}

/// A position's board (`crate::position::BoardPosition`): the scenario's components (castle
/// and desert as two token-less deserts, the coastal and inner terrain, the coastal and inner
/// tokens, the 9 harbors) laid out as [`castle_of`] recognises. Red numbers may touch here:
/// a position may set up any such island.
pub(crate) fn from_parts(
    terrain: &[Terrain],
    tokens: &[Option<u8>],
    harbors: &[HarborKind],
) -> Result<Board, String> {
    let topo = Layout::Base.topology();
    let (nh, nharbors) = (topo.hex_count(), topo.harbor_count());
    if terrain.len() != nh || tokens.len() != nh || harbors.len() != nharbors {
        return Err(format!(
            "this island has {nh} hexes and {nharbors} harbors, not {} terrains, {} tokens and {} harbors",
            terrain.len(),
            tokens.len(),
            harbors.len()
        ));
    }
    let sorted = |mut v: Vec<u8>| {
        v.sort_unstable();
        v
    };
    let mut want_terrain: Vec<u8> = COASTAL_TERRAIN
        .iter()
        .chain(INNER_TERRAIN.iter())
        .map(|&t| t as u8)
        .collect();
    want_terrain.extend([Terrain::Desert as u8; 2]);
    if sorted(terrain.iter().map(|&t| t as u8).collect()) != sorted(want_terrain) {
        return Err("the terrain is not Barbarian Invasion's (castle and desert as 2 deserts, 3 forest, 3 hills, 4 pasture, 3 mountains, 4 fields)".into());
    }
    for h in 0..nh {
        if (terrain[h] == Terrain::Desert) != tokens[h].is_none() {
            return Err(format!(
                "hex {h}: castle and desert have no number token, every other hex one"
            ));
        }
    }
    let want_tokens: Vec<u8> = COASTAL_TOKENS
        .iter()
        .chain(INNER_TOKENS.iter())
        .copied()
        .collect();
    if sorted(tokens.iter().flatten().copied().collect()) != sorted(want_tokens) {
        return Err("the number tokens are not Barbarian Invasion's".into());
    }
    if sorted(harbors.iter().map(|&k| k as u8).collect())
        != sorted(HARBORS.iter().map(|&k| k as u8).collect())
    {
        return Err("the harbors are not the base game's 9".into());
    }
    let board = Board::from_slices(Layout::Base, terrain, tokens, harbors);
    let Some((_, _, coastal)) = castle_of(&board) else {
        return Err("castle and desert must stand on opposite corners of the outer ring with the coastal tokens clockwise from the castle".into());
    };
    let mut coast: Vec<u8> = coastal.iter().map(|&h| terrain[h as usize] as u8).collect();
    coast.sort_unstable();
    if coast != sorted(COASTAL_TERRAIN.iter().map(|&t| t as u8).collect()) {
        return Err(
            "the coastal hexes' terrain is not 2 forest, 2 hills, 3 pasture, 1 mountains, 2 fields".into(),
        );
    }
    Ok(board)
}
