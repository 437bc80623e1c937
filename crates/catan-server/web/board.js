// The board as SVG, from the snapshot's `board` (hex centres at x = col, y = 3·row; corner
// coordinates in the same units; see protocol.md), plus the pieces of the current view and
// the legal targets (corners, edges, hexes) the player may click.

import { s, seatColour, SEAT_TEXT } from './ui.js';

const R = 50; // hex radius in SVG units
const SX = R * Math.sqrt(3) / 2;
const SY = R / 2;
const px = ([x, y]) => [x * SX, y * SY];

const TERRAIN = {
  hills: ['#c8643b', 'brick'], forest: ['#3f7f3a', 'lumber'], pasture: ['#a6d46a', 'wool'],
  fields: ['#f0c93d', 'grain'], mountains: ['#9b9fa6', 'ore'], desert: ['#e6d3a3', 'desert'],
  gold: ['#e3b505', 'gold'], sea: ['#4c8fc4', 'sea'],
};
const PIPS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

function hexCentre(hex) {
  return px([hex.col, 3 * hex.row]);
}

/**
 * `view`: the current view; `board`: the snapshot's board; `targets`: Map of "corner:N" |
 * "edge:N" | "hex:N" to `{label, types}` (legal places to click and the action types
 * there); `onPick(key)`; `name(seat)`.
 */
export function renderBoard(view, board, targets, onPick, name) {
  const corners = board.corners.map(px);
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const pad = R * 0.9;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - minX + pad;
  const hgt = Math.max(...ys) - minY + pad;
  const svg = s('svg', {
    viewBox: `${minX} ${minY} ${w} ${hgt}`, class: 'board', role: 'group',
    'aria-label': `the board: ${board.hexes.length} hexes`,
  });
  svg.append(s('rect', { x: minX, y: minY, width: w, height: hgt, fill: '#3b7fb6', rx: 16 }));

  // Terrain and number tokens.
  for (const hex of board.hexes) {
    const [cx, cy] = hexCentre(hex);
    const [fill, label] = TERRAIN[hex.terrain] || ['#bbb', hex.terrain];
    const pts = hex.corners.map((c) => corners[c].join(',')).join(' ');
    const g = s('g', { class: 'hex', 'data-hex-id': hex.id });
    g.append(s('polygon', { points: pts, fill, stroke: '#f5ecd7', 'stroke-width': 3 }));
    g.append(s('text', { x: cx, y: cy + R * 0.62, class: 'terrain-label' }, label));
    if (hex.token) {
      const hot = hex.token === 6 || hex.token === 8;
      g.append(s('circle', { cx, cy, r: R * 0.34, fill: '#fff8e7', stroke: '#5b3a12', 'stroke-width': 1.5 }));
      g.append(s('text', { x: cx, y: cy + 2, class: `token${hot ? ' hot' : ''}` }, String(hex.token)));
      const n = PIPS[hex.token] || 0;
      for (let i = 0; i < n; i++) {
        g.append(s('circle', { cx: cx + (i - (n - 1) / 2) * 4.2, cy: cy + 11, r: 1.6, fill: hot ? '#b3261e' : '#222' }));
      }
    }
    svg.append(g);
  }

  // Harbors: a marker off the coast, pointing at its two corners.
  for (const hb of board.harbors) {
    const [a, b] = hb.corners.map((c) => corners[c]);
    const mx = (a[0] + b[0]) / 2;
    const my = (a[1] + b[1]) / 2;
    const land = board.hexes.find((hx) => hx.edges.includes(hb.edge));
    const [lx, ly] = land ? hexCentre(land) : [0, 0];
    const dx = mx - lx;
    const dy = my - ly;
    const d = Math.hypot(dx, dy) || 1;
    const hx = mx + (dx / d) * R * 0.55;
    const hy = my + (dy / d) * R * 0.55;
    const text = hb.kind === 'generic' ? '3:1' : `2:1 ${hb.kind}`;
    const g = s('g', { class: 'harbor', 'data-harbor': hb.kind });
    g.append(s('line', { x1: a[0], y1: a[1], x2: hx, y2: hy, stroke: '#f5ecd7', 'stroke-width': 2 }));
    g.append(s('line', { x1: b[0], y1: b[1], x2: hx, y2: hy, stroke: '#f5ecd7', 'stroke-width': 2 }));
    g.append(s('rect', { x: hx - 22, y: hy - 9, width: 44, height: 18, rx: 5, fill: '#fff8e7', stroke: '#5b3a12' }));
    g.append(s('text', { x: hx, y: hy + 1, class: 'harbor-label' }, text));
    svg.append(g);
  }

  // Roads.
  for (const road of view.roads) {
    const [a, b] = board.edges[road.edge].map((c) => corners[c]);
    svg.append(s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: '#222', 'stroke-width': 11, 'stroke-linecap': 'round' }));
    svg.append(s('line', {
      x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: seatColour(road.seat), 'stroke-width': 7,
      'stroke-linecap': 'round', 'data-road': road.edge, 'data-seat': road.seat,
    }, s('title', {}, `${name(road.seat)}'s road`)));
  }

  // Settlements and cities, each with its seat number.
  for (const b of view.buildings) {
    const [x, y] = corners[b.corner];
    const c = seatColour(b.seat);
    const shape = b.city
      ? `${x - 13},${y + 10} ${x - 13},${y - 4} ${x - 4},${y - 4} ${x - 4},${y - 13} ${x + 4},${y - 19} ${x + 13},${y - 13} ${x + 13},${y + 10}`
      : `${x - 9},${y + 8} ${x - 9},${y - 3} ${x},${y - 12} ${x + 9},${y - 3} ${x + 9},${y + 8}`;
    const g = s('g', { class: b.city ? 'city' : 'settlement', 'data-building': b.corner, 'data-seat': b.seat });
    g.append(s('title', {}, `${name(b.seat)}'s ${b.city ? 'city' : 'settlement'}`));
    g.append(s('polygon', { points: shape, fill: c, stroke: '#111', 'stroke-width': 2 }));
    g.append(s('text', { x, y: y + 3, class: 'piece-label', fill: SEAT_TEXT[b.seat % 6] }, String(b.seat + 1)));
    svg.append(g);
  }

  // Barbarian Invasion: the castle, barbarians on the coast, conquered hexes and
  // buildings, knights on their edges.
  const bv = view.barbarians;
  if (bv) {
    const label = (hexId, text, cls) => {
      const hx = board.hexes[hexId];
      if (!hx) return;
      const [cx, cy] = hexCentre(hx);
      svg.append(s('text', { x: cx, y: cy - R * 0.52, class: cls }, text));
    };
    label(bv.castle, 'castle', 'castle-label');
    bv.coastal.forEach((hexId, i) => {
      if (bv.barbarians[i]) label(hexId, `${bv.barbarians[i]} barbarian${bv.barbarians[i] === 1 ? '' : 's'}`, 'barbarian-label');
    });
    for (const hexId of bv.conquered_hexes) {
      const hx = board.hexes[hexId];
      if (hx) svg.append(s('polygon', { points: hx.corners.map((c) => corners[c].join(',')).join(' '), class: 'conquered', 'data-conquered': hexId }, s('title', {}, 'conquered by the barbarians')));
    }
    for (const c of bv.conquered_buildings) {
      const [x, y] = corners[c];
      svg.append(s('path', { d: `M${x - 9} ${y - 9}L${x + 9} ${y + 9}M${x + 9} ${y - 9}L${x - 9} ${y + 9}`, class: 'conquered-building' }));
    }
    for (const k of bv.knights) {
      const [a, b] = board.edges[k.edge].map((c) => corners[c]);
      const x = (a[0] + b[0]) / 2;
      const y = (a[1] + b[1]) / 2;
      const g = s('g', { class: 'knight', 'data-knight': k.edge, 'data-seat': k.seat });
      g.append(s('title', {}, `${name(k.seat)}'s knight${k.moved ? ' (moved this turn)' : ''}`));
      g.append(s('path', { d: `M${x - 8} ${y - 8}H${x + 8}V${y + 1}L${x} ${y + 10}L${x - 8} ${y + 1}Z`, fill: seatColour(k.seat), stroke: '#111', 'stroke-width': 2 }));
      g.append(s('text', { x, y: y - 1, class: 'piece-label', fill: SEAT_TEXT[k.seat % 6] }, String(k.seat + 1)));
      svg.append(g);
    }
  }

  // The robber (not in Barbarian Invasion).
  const rh = bv ? null : board.hexes[view.robber];
  if (rh) {
    const [cx, cy] = hexCentre(rh);
    const g = s('g', { class: 'robber', 'data-robber': rh.id });
    g.append(s('title', {}, 'the robber'));
    g.append(s('ellipse', { cx: cx - R * 0.45, cy: cy + 2, rx: 8, ry: 13, fill: '#222', stroke: '#eee', 'stroke-width': 1.5 }));
    g.append(s('circle', { cx: cx - R * 0.45, cy: cy - 13, r: 6.5, fill: '#222', stroke: '#eee', 'stroke-width': 1.5 }));
    svg.append(g);
  }

  // Legal targets, last so they are on top; keyboard users reach them with Tab.
  const activate = (key) => (e) => {
    if (e.type === 'keydown' && e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onPick(key);
  };
  for (const [key, { label, types }] of targets) {
    const [kind, idStr] = key.split(':');
    const id = Number(idStr);
    let el;
    if (kind === 'edge') {
      const [a, b] = board.edges[id].map((c) => corners[c]);
      el = s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'target target-edge' });
    } else if (kind === 'corner') {
      const [x, y] = corners[id];
      el = s('circle', { cx: x, cy: y, r: 10, class: 'target target-corner' });
    } else if (kind === 'hex') {
      const [cx, cy] = hexCentre(board.hexes[id]);
      el = s('circle', { cx, cy, r: R * 0.5, class: 'target target-hex' });
    } else continue;
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', label);
    el.setAttribute(`data-${kind}`, String(id));
    el.setAttribute('data-types', types.join(' '));
    el.setAttribute('data-key', key);
    el.append(s('title', {}, label));
    el.addEventListener('click', activate(key));
    el.addEventListener('keydown', activate(key));
    svg.append(el);
  }
  return svg;
}
