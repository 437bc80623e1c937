// The game-over statistics (`GET /api/games/{id}/stats`) drawn as SVG bar charts: dice
// rolled against their expected counts, and resource cards gained and lost per player by
// source.

import { h, s, seatColour } from './ui.js';

const SOURCES = ['production', 'trade', 'robber', 'cards', 'other'];
const SOURCE_COLOURS = { production: '#009E73', trade: '#0072B2', robber: '#D55E00', cards: '#CC79A7', other: '#999999' };

/** Fetches the statistics (retrying while the finished game is being stored) and draws them. */
export async function showStats(box, id, name) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const r = await fetch(`/api/games/${encodeURIComponent(id)}/stats`).catch(() => null);
    if (r && r.ok) {
      drawStats(box, await r.json(), name);
      return;
    }
    await new Promise((ok) => setTimeout(ok, 300 + attempt * 200));
  }
  box.replaceChildren(h('p', {}, 'The statistics are not available.'));
}

export function drawStats(box, st, name) {
  box.replaceChildren(
    h('h3', {}, `Dice: ${st.dice.rolls} rolls against the expected counts`), diceChart(st.dice),
    h('h3', {}, 'Resource cards gained (right) and lost (left) by source'), resourceChart(st.players, name),
    legend());
}

function diceChart(d) {
  const W = 360;
  const H = 150;
  const max = Math.max(1, ...d.counts, ...d.expected);
  const bw = W / 11;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H + 20}`, class: 'chart', 'data-chart': 'dice', role: 'img', 'aria-label': 'dice rolled against expected counts' });
  d.counts.forEach((c, i) => {
    const x = i * bw;
    const bh = (c / max) * H;
    const eh = (d.expected[i] / max) * H;
    svg.append(s('rect', { x: x + 3, y: H - bh, width: bw - 6, height: bh, fill: '#0072B2' }, s('title', {}, `${i + 2}: rolled ${c}, expected ${d.expected[i].toFixed(1)}`)));
    svg.append(s('line', { x1: x + 1, x2: x + bw - 1, y1: H - eh, y2: H - eh, stroke: '#E69F00', 'stroke-width': 3 }));
    svg.append(s('text', { x: x + bw / 2, y: H + 14, class: 'axis' }, String(i + 2)));
  });
  return h('figure', {}, svg, h('figcaption', {}, 'bars: rolled · orange lines: expected'));
}

function resourceChart(players, name) {
  const W = 360;
  const rowH = 26;
  const mid = W / 2;
  const tot = (m) => SOURCES.reduce((n, k) => n + (m[k] || 0), 0);
  const max = Math.max(1, ...players.map((p) => Math.max(tot(p.gained), tot(p.lost))));
  const scale = (mid - 60) / max;
  const svg = s('svg', { viewBox: `0 0 ${W} ${players.length * rowH + 6}`, class: 'chart', 'data-chart': 'resources', role: 'img', 'aria-label': 'resource cards gained and lost per player by source' });
  players.forEach((p, row) => {
    const y = row * rowH + 4;
    svg.append(s('rect', { x: 0, y, width: 6, height: rowH - 8, fill: seatColour(p.seat) }));
    svg.append(s('text', { x: 10, y: y + 13, class: 'axis-left' }, name(p.seat)));
    let right = mid;
    let left = mid;
    for (const k of SOURCES) {
      const g = (p.gained[k] || 0) * scale;
      const l = (p.lost[k] || 0) * scale;
      if (g) svg.append(s('rect', { x: right, y, width: g, height: rowH - 8, fill: SOURCE_COLOURS[k] }, s('title', {}, `${name(p.seat)} gained ${p.gained[k]} by ${k}`)));
      if (l) svg.append(s('rect', { x: left - l, y, width: l, height: rowH - 8, fill: SOURCE_COLOURS[k], opacity: 0.65 }, s('title', {}, `${name(p.seat)} lost ${p.lost[k]} by ${k}`)));
      right += g;
      left -= l;
    }
    svg.append(s('text', { x: right + 3, y: y + 14, class: 'axis-left' }, `+${tot(p.gained)}`));
  });
  svg.append(s('line', { x1: mid, x2: mid, y1: 0, y2: players.length * rowH + 6, stroke: '#333' }));
  return h('figure', {}, svg);
}

function legend() {
  return h('ul', { class: 'legend' }, SOURCES.map((k) => h('li', {}, h('span', { class: 'swatch', style: `background:${SOURCE_COLOURS[k]}` }), k)));
}
