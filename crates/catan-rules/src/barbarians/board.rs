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
