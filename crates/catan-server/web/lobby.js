// A room (`/r/CODE`): take a seat (or resume yours with the stored token), the lobby with
// the invite link and seats, then the game screen; a running game is shown at once to a
// visitor without a seat, as a spectator.

import { h, seatBadge } from './ui.js';
import { Connection, seats } from './net.js';
import { GameScreen } from './game.js';

export async function roomPage(root, code, setStatus) {
  const r = await fetch(`/api/rooms/${encodeURIComponent(code)}`).catch(() => null);
  if (!r || !r.ok) {
    root.replaceChildren(h('div', { class: 'card' }, h('h2', {}, `No room ${code}`),
      h('p', {}, 'The code may be mistyped, or the room has closed.'), h('a', { href: '/' }, 'Back to the start')));
    return;
  }
  const info = await r.json();
  code = info.code;
  const token = seats.get(code);
  if (token) return enter(root, code, { token }, info, setStatus);
  if (info.status !== 'lobby') return enter(root, code, { spectate: true }, info, setStatus);
  const name = h('input', { name: 'name', maxlength: 32, required: true, placeholder: 'Your name', 'aria-label': 'your name', autocomplete: 'nickname' });
  name.value = localStorage.getItem('catan.name') || '';
  root.replaceChildren(h('form', {
    class: 'card', 'data-form': 'seat',
    onsubmit: (e) => {
      e.preventDefault();
      const n = name.value.trim();
      if (!n) return;
      localStorage.setItem('catan.name', n);
      enter(root, code, { name: n }, info, setStatus);
    },
  }, h('h2', {}, `Room ${code}`), h('p', {}, `${info.seats.filter((s) => s.name).length} of ${info.seats.length} seats taken.`),
  name, h('button', { type: 'submit', 'data-take-seat': '1' }, 'Take a seat'),
  h('button', { type: 'button', class: 'secondary', 'data-watch': '1', onclick: () => enter(root, code, { spectate: true }, info, setStatus) }, 'Just watch')));
  name.focus();
}

function enter(root, code, join, info, setStatus) {
  let room = info;
  let seat = null;
  let screen = null;
  const chats = [];
  const name = (s) => {
    const st = room?.seats?.[s];
    const n = st?.name || `Seat ${s + 1}`;
    return s === seat ? `${n} (you)` : n;
  };
  const lobbyBox = h('div', { class: 'lobby' });
  root.replaceChildren(lobbyBox);
  const conn = new Connection(code, join, {
    status: setStatus,
    welcome: (m) => {
      seat = m.seat;
      room = m.room;
      if (!screen) renderLobby();
    },
    room: (ri) => {
      room = ri;
      if (screen) screen.render();
      else renderLobby();
    },
    view: (view, events, snapshot) => {
      if (!screen) {
        screen = new GameScreen(root, {
          send: (a) => conn.act(a), chat: (text) => conn.send({ type: 'chat', text }),
          seat, name, room: () => room, gameId: room?.room_id,
        });
        chats.forEach((c) => screen.chat(c));
      }
      screen.ctx.seat = seat;
      screen.update(view, events, snapshot);
    },
    chat: (m) => {
      chats.push(m);
      if (screen) screen.chat(m);
      else renderLobby();
    },
    error: (m) => {
      if (screen) screen.error(m.message);
      else lobbyBox.querySelector('.error')?.replaceChildren(m.message);
      if (m.request === 'join' && join.name) {
        // The game started or the room filled before we sat down: watch instead.
        setTimeout(() => { conn.close(); enter(root, code, { spectate: true }, room, setStatus); }, 50);
      }
    },
    closed: (c) => {
      const why = { 4000: 'This seat was opened in another window.', 4001: 'The room refused to let you in.', 4002: 'The room has closed.' }[c] || 'Disconnected.';
      setStatus(why);
      if (c === 4002 && screen) return;
      if (c === 4001 && join.token) { enter(root, code, { spectate: true }, room, setStatus); return; }
      if (!screen) lobbyBox.replaceChildren(h('div', { class: 'card' }, h('p', {}, why), h('a', { href: '/' }, 'Back to the start')));
    },
  });
  // For the browser tests and the curious: the live connection.
  window.catanConnection = conn;

  function renderLobby() {
    const link = `${location.origin}/r/${code}`;
    const copyMsg = h('span', { class: 'small', role: 'status' });
    const isHost = seat !== null && room.host === seat;
    const open = room.seats.filter((s) => !s.name && !s.bot).length;
    lobbyBox.replaceChildren(h('section', { class: 'card' },
      h('h2', {}, `Room ${code}`),
      h('p', {}, 'Invite others with this link:'),
      h('div', { class: 'invite' }, h('input', { readonly: true, value: link, 'data-invite': '1', 'aria-label': 'invite link' }),
        h('button', {
          'data-copy': '1',
          onclick: async () => {
            try { await navigator.clipboard.writeText(link); copyMsg.textContent = 'Copied.'; } catch {
              const i = lobbyBox.querySelector('[data-invite]'); i.select(); copyMsg.textContent = 'Selected: press Ctrl+C to copy.';
            }
          },
        }, 'Copy'), copyMsg),
      h('p', {}, `Options: ${room.options.players} players, ${room.options.victory_points} points, ${room.options.scenario || 'base game'}, tokens ${room.options.tokens}, bots ${room.options.bot_level}.`),
      h('ol', { class: 'seats' }, room.seats.map((s) => h('li', { 'data-seat-row': s.seat }, seatBadge(s.seat), ' ',
        s.name ? s.name : h('i', {}, 'open'), s.seat === seat ? ' (you)' : '', s.seat === room.host ? ' · host' : '',
        s.bot ? ' · bot' : s.name ? (s.connected ? ' · connected' : ' · not connected') : ''))),
      seat === null ? h('p', {}, 'You are watching; the game will appear here when it starts.') : '',
      isHost && open ? h('button', { 'data-add-bots': '1', onclick: () => conn.send({ type: 'add_bots' }) }, `Fill ${open} open seat${open === 1 ? '' : 's'} with bots`) : '',
      isHost ? h('button', { 'data-start': '1', disabled: open > 0, onclick: () => conn.send({ type: 'start' }) }, 'Start the game') : '',
      !isHost && seat !== null ? h('p', {}, 'Waiting for the host to start.') : '',
      h('p', { class: 'error', role: 'alert' }),
      chats.length ? h('ul', { class: 'chat-list' }, chats.map((c) => h('li', {}, `${c.from || 'spectator'}: ${c.text}`))) : ''));
  }
}
