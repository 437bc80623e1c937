// The game screen: board, dice, player panels, your hand, what you may do now, the log,
// chat, and the game-over screen. A spectator gets the same screen without hand or actions.

import { h, dialog, replaceIfChanged, cards, goods, total, RESOURCES, seatBadge, resourcePicker, goldPicker } from './ui.js';
import { renderBoard } from './board.js';
import { sortLegal } from './actions.js';
import { describeEvent, describeAction, groupLabel, cardName, helperName, guildName, words } from './words.js';
import { showStats } from './stats.js';

const DICE = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

export class GameScreen {
  /** `ctx`: `{send(action), chat(text), seat, name(seat), room(), gameId}` */
  constructor(root, ctx) {
    this.ctx = ctx;
    this.board = null;
    this.overShown = false;
    this.el = {
      banner: h('div', { class: 'banner', role: 'status', 'aria-live': 'polite' }),
      board: h('div', { class: 'board-holder' }),
      dice: h('div', { class: 'dice', 'aria-label': 'dice' }),
      players: h('div', { class: 'players' }),
      me: h('div', { class: 'me' }),
      offer: h('div', { class: 'offer' }),
      actions: h('div', { class: 'actions', role: 'group', 'aria-label': 'what you can do' }),
      log: h('ol', { class: 'log', 'aria-live': 'off' }),
      chatList: h('ol', { class: 'chat-list' }),
      error: h('div', { class: 'error', role: 'alert' }),
      over: h('div', { class: 'over' }),
    };
    const input = h('input', { name: 'chat', maxlength: 500, placeholder: 'Say something', 'aria-label': 'chat message', autocomplete: 'off' });
    const chatForm = h('form', {
      class: 'chat-form',
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text) ctx.chat(text);
        input.value = '';
      },
    }, input, h('button', { type: 'submit' }, 'Send'));
    root.replaceChildren(h('div', { class: 'game' },
      h('section', { class: 'table' }, this.el.banner, this.el.over, this.el.dice, this.el.board),
      h('aside', { class: 'side' },
        this.el.players, this.el.error, this.el.me, this.el.offer, this.el.actions,
        h('details', { class: 'log-box', open: true }, h('summary', {}, 'Game log'), this.el.log),
        h('section', { class: 'chat', 'aria-label': 'chat' }, h('h3', {}, 'Chat'), this.el.chatList, chatForm))));
  }

  name(seat) {
    return this.ctx.name(seat);
  }

  /** A new view (after a snapshot or an update with `events`). */
  update(view, events, snapshot) {
    if (view.board) this.board = view.board;
    this.view = view;
    for (const e of events) this.log(describeEvent(e, (s) => this.name(s)));
    if (snapshot && !this.started) this.log('You are watching the game as it is now.');
    this.started = true;
    this.el.error.textContent = '';
    this.render();
  }

  log(text) {
    this.el.log.append(h('li', {}, text));
    while (this.el.log.children.length > 300) this.el.log.firstChild.remove();
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  chat(m) {
    const who = m.seat === null || m.seat === undefined ? `${m.from || 'spectator'} (watching)` : this.name(m.seat);
    this.el.chatList.append(h('li', {}, h('b', {}, `${who}: `), m.text));
    this.el.chatList.scrollTop = this.el.chatList.scrollHeight;
  }

  error(message) {
    this.el.error.textContent = message;
  }

  render() {
    const v = this.view;
    if (!v || !this.board) return;
    const focused = document.activeElement?.getAttribute?.('data-key');
    const sorted = sortLegal(v.legal);
    this.sorted = sorted;
    this.renderBanner(v);
    const targets = new Map();
    for (const [key, acts] of sorted.places) {
      targets.set(key, {
        label: acts.length === 1 ? describeAction(acts[0], this.ctxWords()) : `${acts.length} choices: ${[...new Set(acts.map((a) => a.type.replace(/_/g, ' ')))].join(', ')}`,
        types: [...new Set(acts.map((a) => a.type))],
      });
    }
    replaceIfChanged(this.el.board, renderBoard(v, this.board, targets, (key) => this.pickPlace(key), (s) => this.name(s)));
    this.el.dice.replaceChildren(...(v.dice
      ? [h('span', { class: 'die', 'data-die': v.dice[0] }, DICE[v.dice[0]]), h('span', { class: 'die', 'data-die': v.dice[1] }, DICE[v.dice[1]]),
        h('span', { class: 'dice-sum' }, `= ${v.dice[0] + v.dice[1]}`)]
      : [h('span', { class: 'dice-sum' }, 'not rolled yet')]));
    this.renderPlayers(v);
    this.renderMe(v);
    this.renderOffer(v);
    this.renderActions(v, sorted);
    this.maybeDiscard(sorted);
    if (v.winner !== null && v.winner !== undefined) this.gameOver(v);
    document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
    if (focused) document.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  ctxWords() {
    return { name: (s) => this.name(s), rate: (r) => this.rate(r), view: this.view };
  }

  /** Your bank rate for `r` (4, 3 with a 3:1 harbor, 2 with its own), from the board. */
  rate(r) {
    const mine = new Set(this.view.buildings.filter((b) => b.seat === this.ctx.seat).map((b) => b.corner));
    let best = 4;
    for (const hb of this.board.harbors) {
      if (!hb.corners.some((c) => mine.has(c))) continue;
      if (hb.kind === 'generic') best = Math.min(best, 3);
      else if (hb.kind === r) best = 2;
    }
    return best;
  }

  renderBanner(v) {
    const phase = v.phase?.phase || 'unknown';
    const mine = v.legal && (v.legal.actions.length || v.legal.requirements.length);
    let text;
    if (v.winner !== null && v.winner !== undefined) text = `${this.name(v.winner)} has won!`;
    else if (phase === 'setup_settlement' || phase === 'setup_road') text = `Set-up: ${this.name(v.current)} places a ${phase === 'setup_road' ? 'road' : 'settlement'}.`;
    else text = `Turn ${v.turn}: ${this.name(v.current)} — ${phase.replace(/_/g, ' ')}.`;
    if (mine && this.ctx.seat !== null) text += ' Your move.';
    this.deadline = v.deadline_ms || v.turn_deadline_ms || null;
    this.el.banner.replaceChildren(h('span', {}, text), this.countdown(v));
    this.el.banner.classList.toggle('your-move', Boolean(mine));
  }

  /** A turn timer, if the server gives one (`deadline_ms`). */
  countdown() {
    const at = this.deadline;
    clearInterval(this.timer);
    if (!at) return '';
    const el = h('span', { class: 'countdown', 'data-countdown': '1' });
    const tick = () => {
      const left = Math.max(0, Math.round((at - Date.now()) / 1000));
      el.textContent = ` time left ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    };
    tick();
    clearInterval(this.timer);
    this.timer = setInterval(tick, 1000);
    return el;
  }

  renderPlayers(v) {
    const room = this.ctx.room();
    this.el.players.replaceChildren(...v.players.map((p) => {
      const seatInfo = room?.seats?.[p.seat] || {};
      // The view says who is away and who a bot plays (each list absent when empty), in
      // step with the game; room info only says whether a seat is a bot seat and, after
      // the game, whether its player is still connected.
      const away = (v.away || []).includes(p.seat);
      const botPlays = seatInfo.bot || (v.bot_controlled || []).includes(p.seat);
      const conn = botPlays ? 'bot' : away || seatInfo.connected === false ? 'away' : 'connected';
      // A person's seat a bot plays while they are away shows both.
      const label = away && botPlays ? 'away · bot plays' : conn;
      const vp = p.victory_points ?? p.public_victory_points;
      const titles = [];
      if (v.longest_road === p.seat) titles.push('Longest Road');
      if (v.largest_army === p.seat) titles.push('Largest Army');
      const helper = v.helpers?.held?.[p.seat];
      const fr = v.frenemies?.holders?.[p.seat];
      const waiting = (v.waiting_on || []).includes(p.seat);
      return h('div', {
        class: `player${v.current === p.seat ? ' current' : ''}${p.seat === this.ctx.seat ? ' you' : ''}`,
        'data-player': p.seat,
        style: `border-left-color: var(--seat${p.seat})`,
      },
      h('div', { class: 'player-head' }, seatBadge(p.seat), h('b', {}, this.name(p.seat)),
        h('span', { class: `conn conn-${conn}`, title: label }, label),
        waiting ? h('span', { class: 'waiting', title: 'the game waits on this player' }, 'to act') : ''),
      h('div', { class: 'player-stats' },
        h('span', { 'data-vp': p.seat }, `${vp} VP`),
        h('span', {}, `${p.resource_count} cards`),
        h('span', {}, `${p.development_count} dev`),
        h('span', {}, `${p.knights_played} knights`),
        h('span', {}, `road ${p.road_length}`),
        p.discard_pending ? h('span', { class: 'alert' }, `discards ${p.discard_pending}`) : '',
        fr ? h('span', {}, `${fr.token_count} tokens, ${fr.vp_markers} markers`) : '',
        v.barbarians ? h('span', {}, `${v.barbarians.gold[p.seat]} gold, ${v.barbarians.prisoners[p.seat]} prisoners, ${v.barbarians.knights_left[p.seat]} knights left`) : ''),
      titles.length ? h('div', { class: 'titles' }, titles.join(' · ')) : '',
      helper?.helper ? h('div', { class: 'helper' }, `Helper: ${helperName(helper.helper)}${helper.moon ? ' (moon)' : ''}${helper.used ? ', used' : ''}`) : '');
    }));
  }

  renderMe(v) {
    const seat = this.ctx.seat;
    if (seat === null || seat === undefined) {
      const bv = v.barbarians;
    if (bv) {
      extra.push(h('p', { class: 'small' }, `Barbarians: ${bv.supply} in supply, ${bv.conquered_hexes.length} hexes conquered; event deck ${bv.deck_size}${bv.card ? `; card in play: ${words(bv.card)}` : ''}; gold buys left ${bv.gold_buys_left}.`));
    }
    this.el.me.replaceChildren(h('p', { class: 'spectating' }, 'You are watching this game.'));
      return;
    }
    const p = v.players[seat];
    const hand = p.hand || {};
    const dev = p.development_cards || {};
    const fresh = p.new_development_cards || {};
    const devList = Object.entries(dev).filter(([, n]) => n > 0)
      .map(([k, n]) => h('li', { class: 'devcard', 'data-devcard': k }, `${cardName(k)} ×${n}${fresh[k] ? ` (${fresh[k]} new)` : ''}`));
    const extra = [];
    const hv = v.helpers;
    if (hv?.looked_at) extra.push(h('p', {}, `Diara shows: ${hv.looked_at.map(cardName).join(', ')}`));
    if (hv?.revealed_hand) extra.push(h('p', {}, `Ryan shows: ${cards(hv.revealed_hand)}`));
    if (hv?.display?.length) extra.push(h('p', { class: 'small' }, `Helpers on display: ${hv.display.map(helperName).join(', ')}`));
    const fr = v.frenemies?.holders?.[seat];
    if (fr?.tokens) {
      extra.push(h('p', { class: 'small' }, 'Favor tokens: ' + fr.tokens.map((n, i) => `${guildName(i)} ${n}${fr.fresh_tokens?.[i] ? ` (${fr.fresh_tokens[i]} new)` : ''}`).join(', ')));
    }
    if (v.frenemies?.gift) {
      const g = v.frenemies.gift;
      extra.push(h('p', {}, `Gift: ${this.name(g.from)} offers ${this.name(g.to)} 1 ${g.resource}.`));
    }
    this.el.me.replaceChildren(
      h('h3', {}, `Your hand (${total(hand)})`),
      h('ul', { class: 'hand' }, RESOURCES.map((r) => h('li', { class: `res res-${r}`, 'data-hand': r }, `${r} ${hand[r] || 0}`))),
      devList.length ? h('ul', { class: 'devcards' }, devList) : h('p', { class: 'small' }, 'No development cards.'),
      h('p', { class: 'small' }, `Pieces left: ${p.roads_left} roads, ${p.settlements_left} settlements, ${p.cities_left} cities · bank ${RESOURCES.map((r) => v.bank[r]).join('/')} · deck ${v.deck_size}`),
      ...extra);
  }

  renderOffer(v) {
    const o = v.offer;
    if (!o) {
      this.el.offer.replaceChildren();
      return;
    }
    const answers = (o.responses || []).map((r, seat) => (seat === v.current || r.answer === 'pending' && o.to.length && !o.to.includes(seat) ? null
      : h('li', {}, `${this.name(seat)}: ${r.answer}${r.answer === 'countered' ? ` (gives ${goods(r.give, r.give_gold)} for ${goods(r.get, r.get_gold)})` : ''}`)));
    this.el.offer.replaceChildren(h('div', { class: 'offer-box', 'data-offer': '1' },
      h('b', {}, `${this.name(v.current)} offers ${goods(o.give, o.give_gold)} for ${goods(o.get, o.get_gold)}`),
      h('ul', {}, answers)));
  }

  renderActions(v, sorted) {
    const buttons = [];
    const key = (t) => `act-${t}`;
    for (const type of sorted.types) {
      const acts = sorted.groups.get(type);
      const label = acts.length === 1 && !/…$/.test(groupLabel(type)) ? groupLabel(type) : groupLabel(type).replace(/…$/, '') + '…';
      // The handlers look the actions up when they fire (the button may outlive this
      // render: see replaceIfChanged).
      buttons.push(h('button', {
        'data-do': type, 'data-key': key(type), class: type === 'end_turn' ? 'end-turn' : '',
        onclick: () => this.doGroup(type),
      }, label));
    }
    const req = (type) => this.sorted?.requirements.find((r) => r.type === type);
    for (const r of sorted.requirements) {
      if (r.type === 'offer_trade') {
        buttons.push(h('button', { 'data-do': 'offer_trade', 'data-key': key('offer_trade'), onclick: () => this.tradeDialog('offer') }, 'Offer a trade…'));
      } else if (r.type === 'counter_offer') {
        buttons.push(h('button', { 'data-do': 'counter_offer', 'data-key': key('counter_offer'), onclick: () => this.tradeDialog('counter') }, 'Counter-offer…'));
      } else if (r.type === 'use_stina') {
        buttons.push(h('button', { 'data-do': 'use_stina', 'data-key': key('use_stina'), onclick: () => { const now = req('use_stina'); if (now) this.stinaDialog(now); } }, `Use Stina (2 ${r.resource} each)…`));
      } else if (r.type === 'discard') {
        buttons.push(h('button', { 'data-do': 'discard', 'data-key': key('discard'), onclick: () => { const now = req('discard'); if (now) this.discardDialog(now.count); } }, `Discard ${r.count}…`));
      }
    }
    const hints = [];
    const kinds = new Set([...sorted.places.values()].flat().map((a) => a.type));
    if (kinds.size) hints.push(h('p', { class: 'hint' }, `Click a highlighted place on the board: ${[...kinds].map((t) => t.replace(/_/g, ' ')).join(', ')}.`));
    if (!hints.length && !buttons.length && this.ctx.seat !== null && this.ctx.seat !== undefined) {
      const on = (v.waiting_on || []).map((s) => this.name(s));
      hints.push(h('p', { class: 'hint' }, on.length ? `Waiting for ${on.join(', ')}…` : 'Nothing to do right now.'));
    }
    replaceIfChanged(this.el.actions, ...hints, ...buttons);
  }

  /** A click on the button of an action type: the one action at once, or a choice. */
  doGroup(type) {
    const acts = this.sorted?.groups.get(type) || [];
    const label = groupLabel(type);
    if (acts.length === 1 && !/…$/.test(label)) this.send(acts[0]);
    else if (acts.length) this.choose(label.replace(/…$/, ''), acts);
  }

  send(action) {
    document.querySelector('.modal')?.remove();
    this.ctx.send(action);
  }

  pickPlace(key) {
    const acts = this.sorted?.places.get(key) || [];
    if (acts.length === 1) this.send(acts[0]);
    else if (acts.length > 1) this.choose('Choose', acts);
  }

  /** A dialog with one button per action. */
  choose(title, acts) {
    dialog(title, () => h('div', { class: 'choices' }, acts.map((a, i) => h('button', {
      'data-choice': i, onclick: () => this.send(a),
    }, describeAction(a, this.ctxWords())))));
  }

  maybeDiscard(sorted) {
    const req = sorted.requirements.find((r) => r.type === 'discard');
    const open = document.getElementById('discard-dialog');
    if (!req) {
      open?.closest('.modal')?.remove();
      return;
    }
    if (!open) this.discardDialog(req.count);
  }

  discardDialog(count) {
    const hand = this.view.players[this.ctx.seat].hand;
    dialog(`Discard ${count} cards`, () => {
      const submit = h('button', { 'data-submit': 'discard', disabled: true }, `Discard (0 of ${count})`);
      const picker = resourcePicker('discard', hand, (val) => {
        const n = total(val);
        submit.disabled = n !== count;
        submit.textContent = `Discard (${n} of ${count})`;
      });
      submit.addEventListener('click', () => this.send({ type: 'discard', cards: picker.value() }));
      return h('div', {}, h('p', {}, `You hold ${cards(hand)}.`), picker.el, submit);
    }, { closable: false, id: 'discard-dialog' });
  }

  tradeDialog(kind) {
    const v = this.view;
    const hand = v.players[this.ctx.seat].hand;
    // Barbarian Invasion: gold may be on either side (one side at a time).
    const gold = v.barbarians ? v.barbarians.gold[this.ctx.seat] : null;
    dialog(kind === 'offer' ? 'Offer a trade' : 'Counter-offer', () => {
      const give = resourcePicker('give', hand);
      const get = resourcePicker('get', null);
      const giveGold = gold === null ? null : goldPicker('give', gold);
      const getGold = gold === null ? null : goldPicker('get', 99);
      const others = v.players.map((p) => p.seat).filter((s) => s !== this.ctx.seat);
      const boxes = others.map((s) => h('label', {}, h('input', { type: 'checkbox', value: s, checked: true, 'data-to': s }), ` ${this.name(s)}`));
      const submit = h('button', {
        'data-submit': kind,
        onclick: () => {
          const g = give.value();
          const w = get.value();
          const gold = {};
          if (giveGold && giveGold.value()) gold.give_gold = giveGold.value();
          if (getGold && getGold.value()) gold.get_gold = getGold.value();
          if (kind === 'offer') {
            const to = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => Number(i.value));
            this.send({ type: 'offer_trade', give: g, get: w, ...gold, to: to.length === others.length ? [] : to });
          } else {
            this.send({ type: 'counter_offer', give: g, get: w, ...gold });
          }
        },
      }, kind === 'offer' ? 'Offer' : 'Counter');
      return h('div', {}, h('h3', {}, 'You give'), give.el, giveGold ? giveGold.el : '', h('h3', {}, 'You get'), get.el,
        getGold ? getGold.el : '',
        kind === 'offer' ? h('fieldset', {}, h('legend', {}, 'To'), boxes) : '', submit);
    });
  }

  stinaDialog(req) {
    dialog(`Stina: 2 ${req.resource} for each card`, () => {
      const max = Object.fromEntries(RESOURCES.map((r) => [r, r === req.resource ? 0 : Math.min(req.max, this.view.bank[r])]));
      const get = resourcePicker('stina', max);
      return h('div', {}, get.el, h('button', {
        'data-submit': 'stina', onclick: () => this.send({ type: 'use_stina', give: req.resource, get: get.value() }),
      }, 'Trade'));
    });
  }

  gameOver(v) {
    if (this.overShown) return;
    this.overShown = true;
    clearInterval(this.timer);
    const rows = v.players.map((p) => h('tr', { 'data-final': p.seat },
      h('td', {}, seatBadge(p.seat), ' ', this.name(p.seat)),
      h('td', {}, String(p.victory_points ?? p.public_victory_points)),
      h('td', {}, String(p.victory_point_cards ?? 0)),
      h('td', {}, p.seat === v.winner ? 'winner' : '')));
    const statsBox = h('div', { class: 'stats' }, h('p', {}, 'Loading the statistics…'));
    this.el.over.replaceChildren(h('section', { class: 'game-over', 'aria-label': 'game over' },
      h('h2', {}, `${this.name(v.winner)} wins!`),
      h('table', { class: 'final' }, h('thead', {}, h('tr', {}, h('th', {}, 'player'), h('th', {}, 'points'), h('th', {}, 'VP cards'), h('th', {}, ''))), h('tbody', {}, rows)),
      statsBox,
      this.ctx.gameId ? h('p', {}, h('a', { href: `/games/${this.ctx.gameId}`, 'data-replay-link': '1' }, 'Replay this game step by step')) : '',
      h('p', {}, h('a', { href: '/' }, 'Start a new game'))));
    this.el.over.scrollIntoView({ block: 'start' });
    if (this.ctx.gameId) showStats(statsBox, this.ctx.gameId, (s) => this.name(s));
  }
}
