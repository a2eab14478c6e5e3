/* The live table by keyboard (WCAG 2.2: 2.1.1 Keyboard, 2.1.4 Character Key Shortcuts,
 * 2.4.3 Focus Order), as lichess's blind mode plays chess:
 * - the hand is one tab stop (a roving tabindex, WAI-ARIA APG "Toolbar"): the arrow keys, Home
 *   and End move between its cards, Enter or Space plays the focused one (its own click);
 * - single keys read aloud through speak.js: F the floor, H the hands' sizes, S the
 *   scores, T whose turn it is; the "Keys" help's checkbox turns them off, kept in this
 *   browser (fx.js's preferences, key "shortcuts");
 * - the hand is drawn anew on every state, so renderHand (board.js) asks this module to
 *   remember which card had focus before and to give focus back after: to the same card, or
 *   when it was played to the card now at its place (the next one), or to the hand itself. */
import * as fx from "./fx.js";
import * as T from "./kit.js";
import {getState} from "./store.js";
import * as speak from "./speak.js";

var $ = T.$;

// The reading keys by KeyboardEvent.code: the same physical keys on an Arabic layout.
var READERS = {KeyF: "floor", KeyH: "hands", KeyS: "scores", KeyT: "turn"};
var PREF = "shortcuts";

var current = {code: null, index: 0};  // the hand's tab stop, kept across redraws

function cards(hand) { return Array.prototype.slice.call(hand.querySelectorAll("button.card")); }

/** Before the hand is redrawn: {focused: the focus was in the hand}. */
export function remember(hand) {
  var active = document.activeElement;
  var focused = !!active && hand.contains(active);
  if (focused && active.dataset.card) {
    current = {code: active.dataset.card, index: cards(hand).indexOf(active)};
  }
  return {focused: focused};
}

/** After the hand is redrawn: one card is the tab stop; focus goes back if it was here. */
export function restore(hand, before) {
  var list = cards(hand);
  var stop = null;
  list.forEach(function (card) { if (card.dataset.card === current.code) stop = card; });
  if (!stop && list.length) stop = list[Math.min(current.index, list.length - 1)];
  list.forEach(function (card) { card.tabIndex = card === stop ? 0 : -1; });
  if (stop) current = {code: stop.dataset.card, index: list.indexOf(stop)};
  if (!before || !before.focused) return;
  if (stop) stop.focus();
  else if (!hand.hidden) hand.focus();
  // The result banner is drawn after the hand (main.js render): focus it once drawn.
  else window.setTimeout(focusResult, 0);
}

/** The match is over and the hand gone: the result is where the reader goes on. */
function focusResult() {
  var banner = $("result-banner");
  if (!banner || banner.hidden) return;
  banner.tabIndex = -1;
  banner.focus();
}

function move(hand, event) {
  var list = cards(hand);
  var at = list.indexOf(event.target);
  if (at < 0) return;
  var rtl = window.getComputedStyle(hand).direction === "rtl";
  var next = {
    ArrowRight: rtl ? at - 1 : at + 1, ArrowLeft: rtl ? at + 1 : at - 1,
    ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1,
  }[event.key];
  if (next === undefined) return;
  event.preventDefault();  // the arrows would scroll the page
  next = Math.max(0, Math.min(list.length - 1, next));
  list[at].tabIndex = -1;
  list[next].tabIndex = 0;
  list[next].focus();
  current = {code: list[next].dataset.card, index: next};
}

/** A key typed into a field, or with a modifier, or behind an open dialog, is not ours. */
function forUs(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.repeat) return false;
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return false;
  return !document.querySelector("dialog[open]");
}

function shortcutsOn() { return fx.isOn(PREF); }

function onKey(event) {
  var reader = READERS[event.code];
  if (!reader || !shortcutsOn() || !forUs(event) || !getState()) return;
  event.preventDefault();
  speak[reader]();
}

function init() {
  var hand = $("hand");
  hand.tabIndex = -1;  // focus falls back here when the hand has no card
  hand.addEventListener("keydown", function (event) { move(hand, event); });
  // Enter or Space on a card that may not be played now: say why, rather than nothing.
  hand.addEventListener("click", function (event) {
    var card = event.target.closest && event.target.closest("button.card");
    if (card && card.getAttribute("aria-disabled") === "true" && !T.isMyTurn()) speak.notYourTurn();
  });
  document.addEventListener("keydown", onKey);
  // Escape closes the keys' help, as it closes a dialog, back on its summary (a <details>
  // does not close on Escape by itself).
  var help = $("keys-help");
  if (help) {
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !help.open || document.querySelector("dialog[open]")) return;
      help.open = false;
      help.querySelector("summary").focus();
    });
  }
  var box = $("shortcuts-on");
  if (box) {
    box.checked = shortcutsOn();
    box.addEventListener("change", function () { fx.setPref(PREF, box.checked); });
  }
}

init();
