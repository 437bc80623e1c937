// The start page: create a room with its options, or join one by its code; recent
// finished games link to their replays.

import { h } from './ui.js';

/** Scenarios this server offers (the room option `scenario`). */
export const SCENARIOS = [[null, 'Base game'], ['helpers', 'The Helpers'], ['frenemies', 'Frenemies'], ['barbarians', 'Barbarian Invasion']];

export function startPage(root) {
  const field = (label, input) => h('label', { class: 'field' }, h('span', {}, label), input);
  const players = h('select', { name: 'players' }, [3, 4, 5, 6].map((n) => h('option', { value: n, selected: n === 4 }, String(n))));
  const bots = h('input', { name: 'bots', type: 'number', min: 0, max: 6, value: 0 });
  const scenario = h('select', { name: 'scenario' }, SCENARIOS.map(([v, t]) => h('option', { value: v ?? '' }, t)));
  const vp = h('input', { name: 'victory_points', type: 'number', min: 3, max: 30, placeholder: 'default' });
  const tokens = h('select', { name: 'tokens' }, ['spiral', 'random', 'beginner'].map((t) => h('option', { value: t }, t)));
  const special = h('select', { name: 'special_building' }, [['', 'as the island says'], ['true', 'on'], ['false', 'off']].map(([v, t]) => h('option', { value: v }, t)));
  const level = h('select', { name: 'bot_level' }, [['heuristic', 'heuristic (plays to win)'], ['random', 'random']].map(([v, t]) => h('option', { value: v }, t)));
  const msg = h('p', { class: 'error', role: 'alert' });
  const create = h('form', {
    class: 'card', 'data-form': 'create',
    onsubmit: async (e) => {
      e.preventDefault();
      const opts = { players: Number(players.value), bots: Number(bots.value || 0), tokens: tokens.value, bot_level: level.value };
      if (scenario.value) opts.scenario = scenario.value;
      if (vp.value) opts.victory_points = Number(vp.value);
      if (special.value) opts.special_building = special.value === 'true';
      const r = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(opts) });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) {
        msg.textContent = body.error || `The server said ${r.status}.`;
        return;
      }
      location.href = `/r/${body.code}`;
    },
  },
  h('h2', {}, 'New game'),
  field('Players', players), field('Bots', bots), field('Scenario', scenario), field('Victory points', vp),
  field('Number tokens', tokens), field('Special building phase', special), field('Bots play', level),
  h('button', { type: 'submit', 'data-create': '1' }, 'Create room'), msg);
  const code = h('input', { name: 'code', placeholder: 'K7QF3MXA', autocomplete: 'off', 'aria-label': 'invite code' });
  const join = h('form', {
    class: 'card', 'data-form': 'join',
    onsubmit: (e) => {
      e.preventDefault();
      const c = code.value.toUpperCase().replace(/[^0-9A-Z]/g, '');
      if (c) location.href = `/r/${c}`;
    },
  }, h('h2', {}, 'Join a game'), field('Invite code', code), h('button', { type: 'submit' }, 'Join'));
  const games = h('ul', { class: 'recent' });
  root.replaceChildren(h('div', { class: 'start' }, create, join, h('section', { class: 'card' }, h('h2', {}, 'Finished games'), games)));
  fetch('/api/games?limit=10').then((r) => (r.ok ? r.json() : { games: [] })).then((page) => {
    games.replaceChildren(...(page.games.length ? page.games.map((g) => h('li', {}, h('a', { href: `/games/${g.id}` },
      `${g.variant}, ${g.players.map((p) => `${p.name} ${p.final_vp}`).join(', ')}`))) : [h('li', {}, 'none yet')]));
  }).catch(() => {});
}
