// Small DOM helpers shared by every page.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** `h('button', {class: 'x', onclick}, 'text', child…)`: an HTML element. */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  setAttrs(e, attrs);
  append(e, children);
  return e;
}

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  setAttrs(e, attrs);
  append(e, children);
  return e;
}

function setAttrs(e, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(e, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * `parent.replaceChildren(...children)`, unless they would come out exactly as the
 * children it has: then the elements on the page stay. Every update renders the page
 * anew, and an element replaced between a mouse press and its release takes the click
 * with it (it lands on neither the old button nor the new one): a player clicking while
 * someone else's move arrives lost the click. So the parts people click are kept when an
 * update leaves them the same; their handlers read the current view when they fire, not
 * the one they were made with.
 */
export function replaceIfChanged(parent, ...children) {
  const next = parent.cloneNode(false);
  append(next, children);
  if (next.innerHTML !== parent.innerHTML) parent.replaceChildren(...next.childNodes);
}

export const RESOURCES = ['brick', 'lumber', 'wool', 'grain', 'ore'];

/** Okabe–Ito colours (distinguishable with the common colour-vision deficiencies); every
 *  piece also carries its seat number, so colour is never the only cue. */
export const SEAT_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9'];
export const SEAT_TEXT = ['#fff', '#000', '#fff', '#000', '#fff', '#000'];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** A small coloured badge with the seat number (1-based, as people count). */
export function seatBadge(seat) {
  return h('span', {
    class: 'badge',
    style: `background:${seatColour(seat)};color:${SEAT_TEXT[seat % 6]}`,
    'aria-hidden': 'true',
  }, String(seat + 1));
}

/** A modal dialog; `build(close)` returns its content. Escape closes it. */
export function dialog(title, build, { closable = true, id } = {}) {
  document.querySelector('.modal')?.remove();
  const close = () => wrap.remove();
  const box = h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': title, id });
  const wrap = h('div', { class: 'modal' }, box);
  box.append(h('h2', {}, title), build(close));
  if (closable) {
    box.append(h('button', { class: 'secondary', 'data-close': '1', onclick: close }, 'Close'));
    wrap.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(); });
  }
  document.body.append(wrap);
  (box.querySelector('button, input, select') || box).focus();
  return close;
}

/** A resource map (`{brick: 1, …}`) in words: "1 brick, 2 ore". */
export function cards(map) {
  if (!map) return 'nothing';
  const parts = RESOURCES.filter((r) => map[r] > 0).map((r) => `${map[r]} ${r}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

/** Cards and gold (Barbarian Invasion trades) in words: "1 ore and 2 gold", "2 gold". */
export function goods(map, gold) {
  if (!gold) return cards(map);
  return total(map) ? `${cards(map)} and ${gold} gold` : `${gold} gold`;
}

/** A stepper for gold, 0 to `max`; `value()` gives the count. */
export function goldPicker(name, max) {
  let val = 0;
  const out = h('output', { 'data-count': 'gold' }, '0');
  const set = (d) => {
    val = Math.max(0, Math.min(max, val + d));
    out.textContent = String(val);
  };
  const el = h('div', { class: 'picker-row', 'data-picker': `${name}-gold` },
    h('span', { class: 'res res-gold' }, 'gold'),
    h('button', { 'data-minus': 'gold', 'aria-label': 'one gold less', onclick: () => set(-1) }, '−'),
    out,
    h('button', { 'data-plus': 'gold', 'aria-label': 'one gold more', onclick: () => set(1) }, '+'));
  return { el, value: () => val };
}

export function total(map) {
  return map ? RESOURCES.reduce((n, r) => n + (map[r] || 0), 0) : 0;
}

/** Steppers for a resource map, `max[r]` per resource; `onchange(map)`. */
export function resourcePicker(name, max, onchange) {
  const val = Object.fromEntries(RESOURCES.map((r) => [r, 0]));
  const rows = RESOURCES.map((r) => {
    const out = h('output', { 'data-count': r }, '0');
    const set = (d) => {
      const n = Math.max(0, Math.min(max?.[r] ?? 19, val[r] + d));
      val[r] = n;
      out.textContent = String(n);
      onchange?.({ ...val });
    };
    return h('div', { class: 'picker-row', 'data-picker': `${name}-${r}` },
      h('span', { class: `res res-${r}` }, r),
      h('button', { 'data-minus': r, 'aria-label': `one ${r} less`, onclick: () => set(-1) }, '−'),
      out,
      h('button', { 'data-plus': r, 'aria-label': `one ${r} more`, onclick: () => set(1) }, '+'));
  });
  const el = h('div', { class: 'picker', 'data-picker-name': name }, rows);
  return { el, value: () => ({ ...val }) };
}
