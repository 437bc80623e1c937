// Events and actions in words, for the game log and the buttons.

import { cards, goods, RESOURCES } from './ui.js';

const CARD_NAMES = {
  knight: 'Knight', victory_point: 'Victory Point', road_building: 'Road Building',
  year_of_plenty: 'Year of Plenty', monopoly: 'Monopoly',
};
export const cardName = (c) => CARD_NAMES[c] || words(c);
const GUILDS = ['traders', 'merchants', 'road builders', 'scholars', 'master builders'];
export const guildName = (g) => (typeof g === 'number' ? GUILDS[g] : words(g));
export const helperName = (x) => (x ? x[0].toUpperCase() + x.slice(1) : 'none');

/** snake_case → words. */
export function words(t) {
  return String(t ?? '').replace(/_/g, ' ');
}

/** The one-line description of an event, `name(seat)` giving player names. */
export function describeEvent(e, name) {
  const n = (s) => (s === null || s === undefined ? 'someone' : name(s));
  switch (e.type) {
    case 'settlement_built': return `${n(e.seat)} built a settlement.`;
    case 'city_built': return `${n(e.seat)} built a city.`;
    case 'road_built': return `${n(e.seat)} built a road.`;
    case 'starting_resources': return `${n(e.seat)} received ${cards(e.cards)} to start.`;
    case 'turn_started': return `Turn ${e.turn}: ${n(e.seat)} is up.`;
    case 'dice_rolled': return `${n(e.seat)} rolled ${e.dice[0] + e.dice[1]} (${e.dice[0]} + ${e.dice[1]}).`;
    case 'produced': return `${n(e.seat)} received ${cards(e.cards)}.`;
    case 'production_blocked': return `The bank ran out of ${e.resource}: nobody received any.`;
    case 'must_discard': return `${n(e.seat)} must discard ${e.count} cards.`;
    case 'discarded': return `${n(e.seat)} discarded ${cards(e.cards)}.`;
    case 'robber_moved': return `${n(e.seat)} moved the robber.`;
    case 'stole': return `${n(e.thief)} stole ${e.resource ? `1 ${e.resource}` : 'a card'} from ${n(e.victim)}.`;
    case 'development_card_bought': return `${n(e.seat)} bought a development card${e.card ? ` (${cardName(e.card)})` : ''}.`;
    case 'development_card_played': return `${n(e.seat)} played ${cardName(e.card)}.`;
    case 'year_of_plenty': return `${n(e.seat)} took ${cards(e.cards)} from the bank.`;
    case 'monopoly': {
      const got = (e.taken || []).reduce((a, b) => a + b, 0);
      return `${n(e.seat)} took all ${e.resource} (${got} cards).`;
    }
    case 'maritime_trade': return `${n(e.seat)} traded ${cards(e.gave)} to the bank for ${cards(e.got)}.`;
    case 'trade_offered': return `${n(e.seat)} offers ${goods(e.give, e.give_gold)} for ${goods(e.get, e.get_gold)}${e.to && e.to.length ? ` to ${e.to.map(n).join(', ')}` : ''}.`;
    case 'trade_accepted': return `${n(e.seat)} accepts the offer.`;
    case 'trade_declined': return `${n(e.seat)} declines the offer.`;
    case 'trade_countered': return `${n(e.seat)} counters: gives ${goods(e.give, e.give_gold)} for ${goods(e.get, e.get_gold)}.`;
    case 'trade_cancelled': return `${n(e.seat)} withdrew the offer.`;
    case 'trade_completed': return `${n(e.seat)} gave ${goods(e.gave, e.gave_gold)} to ${n(e.with)} for ${goods(e.got, e.got_gold)}.`;
    case 'longest_road': return e.holder === null ? 'Nobody holds Longest Road now.' : `${n(e.holder)} takes Longest Road (${e.length}).`;
    case 'largest_army': return e.holder === null ? 'Nobody holds Largest Army now.' : `${n(e.holder)} takes Largest Army (${e.knights} knights).`;
    case 'turn_ended': return `${n(e.seat)} ended the turn.`;
    case 'special_build_turn': return `${n(e.seat)} may build now (special building phase).`;
    case 'paired_turn': return `${n(e.seat)} takes the second part of ${n(e.partner)}'s turn.`;
    case 'game_over': return `Game over: ${n(e.winner)} wins with ${e.points[e.winner]} points.`;
    // The Helpers
    case 'helper_taken': return `${n(e.seat)} takes ${helperName(e.helper)}.`;
    case 'helper_used': return `${n(e.seat)} uses ${helperName(e.helper)}.`;
    case 'helper_flipped': return `${n(e.seat)} keeps ${helperName(e.helper)}, moon side up.`;
    case 'helper_exchanged': return `${n(e.seat)} returns ${helperName(e.returned)} and takes ${helperName(e.took)}.`;
    case 'helper_paid': return `${n(e.seat)} paid ${cards(e.cards)}.`;
    case 'helper_gained': return `${n(e.seat)} took ${cards(e.cards)} with ${helperName(e.helper)}.`;
    case 'discard_prevented': return `Thorolf spared ${n(e.seat)} the discard.`;
    case 'asla_gave': return `${n(e.from)} gave 1 ${e.resource} to ${n(e.to)} (Asla).`;
    case 'asla_returned': return `${n(e.seat)} gave 1 ${e.resource} back to ${n(e.to)}.`;
    case 'road_moved': return `${n(e.seat)} moved a road (Högni).`;
    case 'knight_removed': return `${n(e.seat)} removed a played knight (Gregor).`;
    case 'diara_looked': return `${n(e.seat)} looks at ${e.count} development cards (Diara).`;
    case 'ryan_took': return `${n(e.seat)} looked at ${n(e.target)}'s hand and took ${e.resource ? `1 ${e.resource}` : 'a card'} (Ryan).`;
    case 'carla_swapped': return `${n(e.seat)} swapped a development card${e.put ? ` (${cardName(e.put)} for ${cardName(e.drew)})` : ''} (Carla).`;
    // Frenemies
    case 'tokens_drawn': return `${n(e.seat)} drew ${e.count} favor token${e.count === 1 ? '' : 's'} (${words(e.reason)}).`;
    case 'token_returned': return `${n(e.seat)} returned a token${e.guild ? ` (${guildName(e.guild)})` : ''}.`;
    case 'favor_redeemed': return `${n(e.seat)} redeemed ${e.tokens} ${guildName(e.guild)} token${e.tokens === 1 ? '' : 's'}.`;
    case 'gift_offered': return `${n(e.from)} offers ${n(e.to)} 1 ${e.resource} as a gift.`;
    case 'gift_accepted': return `${n(e.to)} accepts ${n(e.from)}'s gift.`;
    case 'gift_rejected': return `${n(e.to)} rejects ${n(e.from)}'s gift.`;
    case 'gift_asked_other': return `${n(e.to)} would rather have 1 ${e.resource}.`;
    case 'networks_connected': return `${n(e.builder)}'s roads meet ${n(e.other)}'s.`;
    case 'vp_marker_taken': return `${n(e.seat)} takes a victory point marker.`;
    // Barbarian Invasion
    case 'barbarian_landing': return e.landed ? `A barbarian lands (die ${e.number}).` : `No barbarian lands (die ${e.number}).`;
    case 'hex_conquered': return 'The barbarians conquer a hex.';
    case 'hex_freed': return 'A hex is freed from the barbarians.';
    case 'card_drawn': return `${n(e.seat)} draws the event card ${words(e.card)}.`;
    case 'deck_reshuffled': return `The event deck is reshuffled (${e.size} cards).`;
    case 'card_without_effect': return `${words(e.card)} has no effect.`;
    case 'knight_placed': return `${n(e.seat)} places a knight.`;
    case 'knight_moved': return `${n(e.seat)} moves a knight${e.grain ? ' (paying 1 grain)' : ''}.`;
    case 'barbarian_moved': return 'A barbarian moves.';
    case 'gold_gained': return `${n(e.seat)} gains ${e.amount} gold.`;
    case 'bought_with_gold': return `${n(e.seat)} buys 1 ${e.resource} with gold.`;
    case 'traded_for_gold': return `${n(e.seat)} trades ${e.count} ${e.give} for gold.`;
    case 'battle': return `Battle: ${e.knights} knights against ${e.barbarians} barbarians — ${e.won ? 'the knights win' : 'the barbarians win'}.`;
    case 'roll_off': return `Roll-off: ${e.seats.map((x, i) => `${n(x)} ${e.rolls[i]}`).join(', ')}.`;
    case 'prisoners_taken': return `${n(e.seat)} takes ${e.count} prisoner${e.count === 1 ? '' : 's'}.`;
    case 'knight_loss_die': return `The knight loss die shows ${e.face}.`;
    case 'knight_lost': return `${n(e.seat)} loses a knight.`;
    default: {
      const who = e.seat ?? e.from;
      const rest = Object.entries(e).filter(([k]) => k !== 'type' && k !== 'seat')
        .map(([k, v]) => `${words(k)} ${typeof v === 'object' && v && !Array.isArray(v) ? cards(v) : JSON.stringify(v)}`);
      return `${who !== undefined ? n(who) + ': ' : ''}${words(e.type)}${rest.length ? ' (' + rest.join(', ') + ')' : ''}.`;
    }
  }
}

const BUTTON = {
  roll_dice: 'Roll dice', end_turn: 'End turn', buy_development_card: 'Buy development card',
  play_knight: 'Play Knight', play_road_building: 'Play Road Building',
  play_year_of_plenty: 'Play Year of Plenty…', play_monopoly: 'Play Monopoly…',
  maritime_trade: 'Trade with the bank…', accept_trade: 'Accept offer', decline_trade: 'Decline offer',
  confirm_trade: 'Confirm trade…', cancel_trade: 'Withdraw offer',
  use_asla: 'Use Asla…', asla_return: 'Give a card back (Asla)…', use_hilda: 'Take a card (Hilda)…',
  decline_hilda: 'Decline Hilda', use_hogni: 'Move a road (Högni)…', thorolf_take: 'Take a card (Thorolf)…',
  buy_development_card_with_diara: 'Buy a card with Diara…', diara_keep: 'Keep a card (Diara)…',
  use_ryan: 'Look at a hand (Ryan)…', ryan_take: 'Take a card (Ryan)…', use_kaja: 'Take a card (Kaja)…',
  use_carla: 'Swap a card (Carla)…', helper_flip: 'Keep helper (moon side up)', helper_exchange: 'Exchange helper…',
  offer_gift: 'Offer a gift…', accept_gift: 'Accept gift', reject_gift: 'Reject gift',
  ask_other_gift: 'Ask for another card…', redeem_traders: 'Redeem traders (1:1 with the bank)…',
  redeem_merchants: 'Redeem merchants (1 card)…', redeem_scholars: 'Redeem scholars (development card)',
  redeem_master_builders: 'Redeem master builders (VP marker)', exchange_token: 'Exchange a token',
  return_token: 'Return a token…',
  move_knight: 'Move a knight…', treason: 'Treason…', buy_with_gold: 'Buy with gold…',
  trade_for_gold: 'Trade for gold…', steal_from: 'Steal from…',
};

/** The label of a button that stands for every legal action of type `type`. */
export function groupLabel(type) {
  return BUTTON[type] || words(type)[0].toUpperCase() + words(type).slice(1);
}

/** One specific action in words (for choosers). `ctx`: `{name, rate, view}`. */
export function describeAction(a, ctx) {
  const n = (s) => (s === null || s === undefined ? 'nobody' : ctx.name(s));
  switch (a.type) {
    case 'build_settlement': return 'Build a settlement here';
    case 'build_city': return 'Upgrade to a city here';
    case 'build_road': return 'Build a road here';
    case 'move_robber': return a.victim === null ? 'Move the robber here (rob nobody)' : `Move the robber here and rob ${n(a.victim)}`;
    case 'play_year_of_plenty': return a.first === a.second ? `Take 2 ${a.first}` : `Take 1 ${a.first} and 1 ${a.second}`;
    case 'play_monopoly': return `Take everyone's ${a.resource}`;
    case 'maritime_trade': return `Give ${ctx.rate ? ctx.rate(a.give) : '?'} ${a.give} for 1 ${a.get}`;
    case 'confirm_trade': return `Trade with ${n(a.with)}`;
    case 'use_asla': return `Ask ${n(a.first)}${a.second !== null ? ` and ${n(a.second)}` : ''} for 1 ${a.resource}`;
    case 'asla_return': case 'use_hilda': case 'thorolf_take': case 'ryan_take': case 'use_kaja':
    case 'redeem_merchants': case 'ask_other_gift':
      return `1 ${a.resource}`;
    case 'build_road_with_yngvi': return `Build a road here with Yngvi (${a.with} instead of ${a.replace})`;
    case 'use_hogni': return `Move the road on edge ${a.from} to edge ${a.to}`;
    case 'buy_development_card_with_diara': return a.replace ? `Pay ${a.with} instead of ${a.replace}` : 'Pay the usual price';
    case 'diara_keep': {
      const seen = ctx.view?.helpers?.looked_at;
      return `Keep card ${a.index + 1}${seen && seen[a.index] ? ` (${cardName(seen[a.index])})` : ''}`;
    }
    case 'use_ryan': return `Look at ${n(a.target)}'s hand`;
    case 'use_gregor': return a.city ? 'Build a city here with Gregor' : 'Build a settlement here with Gregor';
    case 'use_digur': return 'Chase the robber to this desert (Digur)';
    case 'use_carla': return `Put ${cardName(a.card)} under the deck`;
    case 'helper_exchange': return `Take ${helperName(a.helper)}`;
    case 'offer_gift': return `Give 1 ${a.resource} to ${n(a.to)}`;
    case 'redeem_traders': return `Give 1 ${a.give} for 1 ${a.get}`;
    case 'redeem_road_builders': return 'Build a free road here (road builders)';
    case 'return_token': return `Return a ${guildName(a.guild)} token`;
    case 'place_knight': return 'Place a knight here';
    case 'intrigue': return 'Intrigue: chase the barbarians from this hex';
    case 'move_knight': return `Move the knight on edge ${a.from} to edge ${a.to}${a.grain ? ' (1 grain)' : ''}`;
    case 'buy_with_gold': return `Buy 1 ${a.resource} with gold`;
    case 'trade_for_gold': return `Trade ${a.give} for gold`;
    case 'steal_from': return `Steal from ${n(a.victim)}`;
    default: {
      const rest = Object.entries(a).filter(([k]) => k !== 'type')
        .map(([k, v]) => `${words(k)}: ${typeof v === 'object' && v && !Array.isArray(v) ? cards(v) : (typeof v === 'number' && ['seat', 'to', 'with', 'target', 'victim'].includes(k) ? n(v) : words(v))}`);
      return groupLabel(a.type).replace(/…$/, '') + (rest.length ? ` (${rest.join(', ')})` : '');
    }
  }
}

export { RESOURCES };
