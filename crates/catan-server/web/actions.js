// The view's `legal` sorted for the screen: actions tied to a place on the board (a
// corner, edge or hex: clicked there), the rest grouped by type (one button per type,
// with a chooser when the type has several variants), and the requirements (dialogs).
// Nothing here knows the rules: whatever the server lists is offered, and only that.

const PLACE_FIELDS = [['corner', 'corner'], ['edge', 'edge'], ['hex', 'hex'], ['desert', 'hex']];

/** The board place an action is tied to ("corner:12"), or null. */
export function placeOf(a) {
  for (const [field, kind] of PLACE_FIELDS) {
    if (typeof a[field] === 'number') return `${kind}:${a[field]}`;
  }
  return null;
}

/** Button order: the usual next steps first. */
const ORDER = [
  'roll_dice', 'accept_trade', 'decline_trade', 'confirm_trade', 'cancel_trade',
  'buy_development_card', 'play_knight', 'play_road_building', 'play_year_of_plenty', 'play_monopoly',
  'maritime_trade',
];

export function sortLegal(legal) {
  const places = new Map();
  const groups = new Map();
  for (const a of legal?.actions || []) {
    const p = placeOf(a);
    if (p) {
      if (!places.has(p)) places.set(p, []);
      places.get(p).push(a);
    } else {
      if (!groups.has(a.type)) groups.set(a.type, []);
      groups.get(a.type).push(a);
    }
  }
  const rank = (t) => (t === 'end_turn' ? 1000 : ORDER.includes(t) ? ORDER.indexOf(t) : 500);
  const types = [...groups.keys()].sort((x, y) => rank(x) - rank(y));
  return { places, groups, types, requirements: legal?.requirements || [] };
}
