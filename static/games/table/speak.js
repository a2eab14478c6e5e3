/* The live table read aloud: one polite live region (#table-speech, visually hidden) that a
 * screen reader speaks without moving the reader's focus. main.js tells it of each new state
 * (speak.state: the play just made, with its capture and basra, the round's end, the cards
 * just dealt, and "Your turn" when it came);
 * keys.js asks it to read the floor, the hands' sizes, the scores and whose turn it is.
 * Every sentence is a translated label (games/core/pages/table_keys.py) and cards are named as
 * the replay names them (B.cardName: "10 of hearts"). A module of the table (main.js, keys.js). */
import * as B from "../live.js";
import * as T from "./kit.js";
import {getState, store} from "./store.js";

var el = B.el;
var L = T.L;
var $ = T.$;

/** Put one sentence in the region. A new node each time (not new text in the same node):
 * screen readers speak an added node even when its words are the ones said last. */
export function say(text) {
  var region = $("table-speech");
  if (!region || !text) return;
  region.replaceChildren(el("p", {text: text}));
}

function names(codes) {
  return codes.map(function (code) { return B.cardName(code, L); }).join(L.listSeparator);
}

/** "Greedy played 5 of clubs and took 5 of hearts. Basra!" for a play of the state
 * (``round.last_play``: {seat, card, taken: [codes], basra: null|"basra"|"jack_basra"}). */
function playSentence(play) {
  var taken = play.taken || [];
  var card = B.cardName(play.card, L);
  var mine = play.seat === getState().you;
  var label = mine ? (taken.length ? L.saidYouPlayedTook : L.saidYouPlayedStays)
                   : (taken.length ? L.saidPlayedTook : L.saidPlayedStays);
  var text = B.fmt(label, {name: T.seatName(play.seat) || "", card: card, cards: names(taken)});
  if (play.basra) text += " " + (play.basra === "jack_basra" ? L.jackBasra : L.basra);
  return text;
}

/** "Round 1 over. You: 30 points. Opponent: 10 points." when old had one round result fewer
 * (docs/protocol.md: the last element of round_results appearing is the round's end). */
function roundSentence(old) {
  var results = getState().round_results || [];
  if (!old || results.length !== (old.round_results || []).length + 1) return null;
  var result = results[results.length - 1];
  return [B.fmt(L.saidRoundOver, {number: result.number})].concat(T.sideOrder().map(function (side) {
    return B.fmt(L.saidScore, {side: T.sideLabel(side), score: result.total[side]});
  })).join(" ");
}

/** "Your cards: …" when a deal has just filled the viewer's hand. */
function dealtSentence(old) {
  var hand = (getState().round && getState().round.hand) || [];
  var before = (old && old.round && old.round.hand) || [];
  var newRound = old && old.round && getState().round && old.round.number !== getState().round.number;
  if (!old || !hand.length || (hand.length <= before.length && !newRound)) return null;
  return B.fmt(L.saidYourCards, {cards: names(hand)});
}

/** One turn of the match: its round and how many cards are still to be played in it. */
export function turnKey() {
  var r = getState().round;
  if (!r) return null;
  return r.number + ":" + (r.stock_size + r.hand_sizes.reduce(function (a, b) { return a + b; }, 0));
}

/** "You have 30 more seconds." when a state of a new seq moved the same turn's deadline on
 * (a more_time event; the clock's own correction after an outage keeps the seq). */
function moreTimeSentence(old, play) {
  var r = getState().round;
  if (!old || play || !r || !old.round || old.seq === getState().seq || !old.deadline ||
      !getState().deadline || old.round.number !== r.number || old.round.turn !== r.turn) return null;
  var added = Math.round((Date.parse(getState().deadline) - Date.parse(old.deadline)) / 1000);
  if (added <= 0) return null;
  store.moreTimeTurn = turnKey();
  return r.turn === getState().you ? B.fmt(L.saidYouMoreTime, {seconds: added})
    : B.fmt(L.saidMoreTime, {name: T.seatName(r.turn) || "", seconds: added});
}

/** Called by main.js after a new state (the viewer's: getState()) is drawn: old is the state
 * before it (null at the first), play the play it brought (null when none), turnCame true
 * when it made it this viewer's turn. Says, in this order, the play, the round's end, the
 * cards just dealt to the viewer, more time given and "Your turn", as one announcement. */
export function state(old, play, turnCame) {
  var parts = [play ? playSentence(play) : null, roundSentence(old), dealtSentence(old),
               moreTimeSentence(old, play), turnCame ? L.yourTurn : null];
  say(parts.filter(Boolean).join(" "));
}

export function floor() {
  var r = getState().round;
  if (!r) return say(L.saidNoRound);
  say(r.floor.length ? B.fmt(L.saidFloor, {cards: names(r.floor)}) : L.floorEmpty);
}

export function hands() {
  var r = getState().round;
  if (!r) return say(L.saidNoRound);
  var parts = [];
  for (var seat = 0; seat < T.players(); seat++) {
    var name = seat === getState().you ? L.youLabel : T.seatName(seat) || L.emptySeat;
    parts.push(B.fmt(L.saidHand, {name: name, count: r.hand_sizes[seat]}));
  }
  parts.push(B.fmt(L.stock, {count: r.stock_size}) + ".");
  say(parts.join(" "));
}

export function scores() {
  var parts = T.sideOrder().map(function (side) {
    return B.fmt(L.saidScore, {side: T.sideLabel(side), score: getState().scores[side]});
  });
  parts.push(B.fmt(L.saidTarget, {target: getState().target}));
  say(parts.join(" "));
}

/** Whose turn, as the turn banner words it (renderTurn), and the viewer's time left. */
export function turn() {
  var text = $("turn-banner").textContent;
  var clock = $("my-clock");
  if (clock && !clock.hidden && clock.textContent) text += " · " + clock.textContent;
  say(text || L.saidNoRound);
}

export function notYourTurn() { say(L.saidNotYourTurn); }
