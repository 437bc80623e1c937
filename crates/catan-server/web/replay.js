// A finished game, step by step: `GET /api/games/{id}` for who played, then the spectator
// view after action k from `GET /api/games/{id}/replay?at=k`, chosen with a slider.

import { h } from './ui.js';
import { renderBoard } from './board.js';
import { drawStats } from './stats.js';

export async function replayPage(root, id) {
  const r = await fetch(`/api/games/${encodeURIComponent(id)}`);
  if (!r.ok) {
    root.replaceChildren(h('p', { class: 'error' }, `No finished game ${id}.`), h('a', { href: '/' }, 'Back to the start'));
    return;
  }
  const game = await r.json();
  const name = (s) => game.players[s]?.name || `Seat ${s + 1}`;
  const n = game.action_count;
  const slider = h('input', { type: 'range', min: 0, max: n, value: n, 'aria-label': 'action number', 'data-slider': '1' });
  const label = h('output', { 'data-at': '' });
  const boardBox = h('div', { class: 'board-holder' });
  const info = h('div', { class: 'replay-info' });
  let board = null;
  let want = n;
  let busy = false;
  const show = async () => {
    if (busy) return;
    busy = true;
    try {
      while (true) {
        const at = want;
        const res = await fetch(`/api/games/${encodeURIComponent(id)}/replay?at=${at}`);
        const body = await res.json();
        if (res.ok) {
          if (body.view.board) board = body.view.board;
          const v = body.view;
          boardBox.replaceChildren(renderBoard(v, board, new Map(), () => {}, name));
          label.textContent = `after action ${at} of ${n}`;
          label.setAttribute('data-at', String(at));
          info.replaceChildren(h('p', {}, `Turn ${v.turn}, ${name(v.current)} to act (${(v.phase?.phase || '').replace(/_/g, ' ')})${v.dice ? `, dice ${v.dice[0] + v.dice[1]}` : ''}.`),
            h('ul', {}, v.players.map((p) => h('li', {}, `${name(p.seat)}: ${p.victory_points ?? p.public_victory_points} VP, ${p.resource_count} cards`))));
        }
        if (want === at) break;
      }
    } finally {
      busy = false;
    }
  };
  slider.addEventListener('input', () => { want = Number(slider.value); show(); });
  const step = (d) => () => { slider.value = String(Math.max(0, Math.min(n, Number(slider.value) + d))); want = Number(slider.value); show(); };
  const statsBox = h('div', { class: 'stats' });
  root.replaceChildren(h('section', { class: 'replay' },
    h('h1', {}, `Game ${game.code}: ${game.players.map((p) => `${p.name} ${p.final_vp}`).join(', ')}`),
    h('p', {}, game.winner !== null ? `${name(game.winner)} won.` : 'Nobody won.'),
    h('div', { class: 'replay-controls' },
      h('button', { 'data-step': '-1', onclick: step(-1), 'aria-label': 'one action back' }, '◀'), slider,
      h('button', { 'data-step': '1', onclick: step(1), 'aria-label': 'one action forward' }, '▶'), label),
    boardBox, info, statsBox));
  show();
  fetch(`/api/games/${encodeURIComponent(id)}/stats`).then((r2) => (r2.ok ? r2.json() : null)).then((st) => { if (st) drawStats(statsBox, st, name); });
}
