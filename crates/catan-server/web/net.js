// The WebSocket connection to a room: join (by name, seat token or as a spectator), keep the
// view current from snapshots and JSON Patch updates, and reconnect by itself with back-off,
// resyncing from a fresh snapshot (protocol.md: "Join and reconnect", "Versions, patches").

/** Applies an RFC 6902 JSON Patch to `doc` in place; returns the (possibly new) root. */
export function applyPatch(doc, patch) {
  for (const op of patch) {
    if (op.op === 'test') {
      if (JSON.stringify(get(doc, op.path)) !== JSON.stringify(op.value)) throw new Error('patch test failed at ' + op.path);
    } else if (op.op === 'add' || op.op === 'replace') {
      doc = put(doc, op.path, clone(op.value), op.op === 'add');
    } else if (op.op === 'remove') {
      doc = del(doc, op.path);
    } else if (op.op === 'move') {
      const v = get(doc, op.from);
      doc = del(doc, op.from);
      doc = put(doc, op.path, v, true);
    } else if (op.op === 'copy') {
      doc = put(doc, op.path, clone(get(doc, op.from)), true);
    } else {
      throw new Error('unknown patch op ' + op.op);
    }
  }
  return doc;
}

const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

function tokens(path) {
  if (path === '') return [];
  if (path[0] !== '/') throw new Error('bad JSON pointer ' + path);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(doc, path) {
  let cur = doc;
  for (const t of tokens(path)) {
    if (cur === null || typeof cur !== 'object' || !(t in cur)) throw new Error('no value at ' + path);
    cur = cur[t];
  }
  return cur;
}

function parentOf(doc, path) {
  const ts = tokens(path);
  const last = ts.pop();
  let cur = doc;
  for (const t of ts) {
    if (cur === null || typeof cur !== 'object' || !(t in cur)) throw new Error('no parent for ' + path);
    cur = cur[t];
  }
  return [cur, last];
}

function put(doc, path, value, insert) {
  if (path === '') return value;
  const [p, k] = parentOf(doc, path);
  if (Array.isArray(p)) {
    if (k === '-') p.push(value);
    else {
      const i = Number(k);
      if (!Number.isInteger(i) || i < 0 || i > p.length) throw new Error('bad index ' + path);
      if (insert) p.splice(i, 0, value);
      else p[i] = value;
    }
  } else {
    p[k] = value;
  }
  return doc;
}

function del(doc, path) {
  const [p, k] = parentOf(doc, path);
  if (Array.isArray(p)) p.splice(Number(k), 1);
  else delete p[k];
  return doc;
}

const TOKENS_KEY = 'catan.tokens';

/** Seat tokens by room code, kept in localStorage so a reload keeps the seat. */
export const seats = {
  get(code) {
    try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}')[code] || null; } catch { return null; }
  },
  set(code, token) {
    let all = {};
    try { all = JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}'); } catch { /* start over */ }
    if (token) all[code] = token; else delete all[code];
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
};

/**
 * A room connection. `handlers`: `room(info)`, `welcome(msg)`, `view(view, events)`,
 * `chat(msg)`, `error(msg)`, `status(text)`, `closed(code, reason)` (for closes that end it).
 */
export class Connection {
  constructor(code, join, handlers) {
    this.code = code;
    this.join = join; // {name} | {token} | {spectate: true}
    this.h = handlers;
    this.view = null;
    this.v = -1;
    this.attempt = 0;
    this.done = false;
    this.open();
  }

  open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    this.h.status?.(this.attempt ? 'reconnecting…' : 'connecting…');
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'join', code: this.code, ...this.join }));
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => this.lost(e.code, e.reason);
  }

  receive(m) {
    switch (m.type) {
      case 'welcome':
        this.attempt = 0;
        if (m.token) {
          seats.set(this.code, m.token);
          this.join = { token: m.token };
        }
        this.h.status?.('connected');
        this.h.welcome?.(m);
        break;
      case 'room':
        this.h.room?.(m.room);
        break;
      case 'snapshot':
        this.view = m.view;
        this.v = m.v;
        this.h.view?.(this.view, [], true);
        break;
      case 'update':
        if (!this.view || m.v !== this.v + 1) {
          this.resync();
          return;
        }
        try {
          this.view = applyPatch(this.view, m.patch);
          this.v = m.v;
        } catch (err) {
          this.resync();
          return;
        }
        this.h.view?.(this.view, m.events || [], false);
        break;
      case 'chat':
        this.h.chat?.(m);
        break;
      case 'error':
        this.h.error?.(m);
        break;
      default:
        break;
    }
  }

  resync() {
    this.resyncs = (this.resyncs || 0) + 1;
    this.view = null;
    this.send({ type: 'resync' });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  act(action) {
    return this.send({ type: 'action', action });
  }

  lost(code, reason) {
    if (this.done) return;
    // 4000: another tab took this seat; 4001: join refused; 4002: the room closed.
    if (code === 4000 || code === 4001 || code === 4002) {
      this.done = true;
      if (code === 4001 && this.join.token) seats.set(this.code, null);
      this.h.closed?.(code, reason);
      return;
    }
    this.attempt += 1;
    const delay = Math.min(10000, 250 * 2 ** Math.min(this.attempt, 6)) * (0.75 + Math.random() / 2);
    this.h.status?.(`connection lost; retrying in ${Math.round(delay / 100) / 10} s`);
    this.timer = setTimeout(() => this.open(), delay);
  }

  close() {
    this.done = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }
}
