/* Quick phrases at the live table (docs/protocol.md "Quick phrases"): a seated player picks a
 * phrase or an emoji from a fixed list ({"type": "phrase", "id"}); everyone at the table sees it
 * for a few seconds by that seat, in their own language, unless they muted phrases (a
 * preference kept in this browser). No free text. An ES module; main.js calls
 * init once, update after each state, decorate after each redraw of the seats, receive for each
 * phrase message. */
import * as B from "../live.js";
import * as fx from "./fx.js";

var el = B.el;

/** How long a phrase stays by the seat (ms). */
var SHOW_MS = 4000;

var texts = {phrases: {}, emoji: {}};
var labels = {};
var send = null;        // function(message) -> bool: the table socket's send
var cooldownMs = 3000;  // the server's BASRA_PHRASE_SECONDS, as the page was told
var shown = {};         // seat -> {id, until}
var timers = {};
var coolUntil = 0;

function text(id) {
  return texts.phrases[id] || texts.emoji[id] || null;
}

function menu() { return document.getElementById("talk-menu"); }
function button() { return document.getElementById("talk-button"); }

function setOpen(open) {
  var box = menu();
  if (!box) return;
  box.hidden = !open;
  button().setAttribute("aria-expanded", String(open));
}

function pick(id) {
  if (Date.now() < coolUntil) return;
  if (send && send({type: "phrase", id: id})) {
    coolUntil = Date.now() + cooldownMs;
    cool();
  }
  setOpen(false);
}

/** Keep the phrase buttons disabled until the limit allows the next one, and say why: greyed
 * without a word, the phrases look broken. */
function cool() {
  var wait = coolUntil - Date.now();
  var items = document.querySelectorAll("#talk-menu button");
  items.forEach(function (item) { item.disabled = wait > 0; });
  var note = document.querySelector("#talk-menu .talk-wait");
  if (note) note.hidden = !(wait > 0);
  if (wait > 0) window.setTimeout(cool, wait + 20);
}

function drawMenu() {
  var box = menu();
  var phrases = Object.keys(texts.phrases).map(function (id) {
    return el("button", {type: "button", class: "talk-phrase", role: "menuitem", dataset: {phrase: id},
                         text: texts.phrases[id], on: {click: function () { pick(id); }}});
  });
  var emoji = Object.keys(texts.emoji).map(function (id) {
    return el("button", {type: "button", class: "talk-emoji", role: "menuitem", dataset: {phrase: id},
                         text: texts.emoji[id], on: {click: function () { pick(id); }}});
  });
  box.replaceChildren(el("p", {class: "talk-wait", role: "status", hidden: true, text: labels.phraseWait || ""}),
                      el("div", {class: "talk-phrases"}, phrases), el("div", {class: "talk-emojis"}, emoji));
}

/** Set up the menu: config is the page's {phrases, emoji, seconds}; sender sends a message. */
export function init(config, pageLabels, sender) {
  texts = {phrases: (config && config.phrases) || {}, emoji: (config && config.emoji) || {}};
  if (config && config.seconds !== undefined) cooldownMs = config.seconds * 1000;
  labels = pageLabels || {};
  send = sender;
  if (!menu()) return;
  drawMenu();
  button().addEventListener("click", function () { setOpen(menu().hidden); });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") setOpen(false); });
  document.addEventListener("click", function (event) {
    var talk = document.getElementById("talk");
    if (talk && !talk.contains(event.target)) setOpen(false);
  });
}

/** Show the menu only to a seated person with a live socket. */
export function update(seated, live) {
  var talk = document.getElementById("talk");
  if (!talk) return;
  talk.hidden = !seated;
  button().disabled = !live;
  if (!seated || !live) setOpen(false);
}

function muted() { return !fx.isOn("phrases"); }

/** Put the phrases still showing next to their seats (after the seats were drawn again). */
export function decorate() {
  var now = Date.now();
  Object.keys(shown).forEach(function (seat) {
    var item = shown[seat];
    var box = document.querySelector('#board .seat-box[data-seat="' + seat + '"]');
    if (!box || item.until <= now || muted()) return;
    var bubble = box.querySelector(".phrase-bubble");
    if (!bubble) {
      bubble = el("div", {class: "phrase-bubble", role: "status"});
      box.appendChild(bubble);
    }
    bubble.dataset.phrase = item.id;
    bubble.classList.toggle("emoji", item.id in texts.emoji);
    bubble.textContent = text(item.id);
  });
}

function clear(seat) {
  delete shown[seat];
  var bubble = document.querySelector('#board .seat-box[data-seat="' + seat + '"] .phrase-bubble');
  if (bubble) bubble.remove();
}

/** A {"type": "phrase", "seat", "id"} from the server. */
export function receive(msg) {
  if (muted() || text(msg.id) === null) return;
  var seat = String(msg.seat);
  shown[seat] = {id: msg.id, until: Date.now() + SHOW_MS};
  window.clearTimeout(timers[seat]);
  timers[seat] = window.setTimeout(function () { clear(seat); }, SHOW_MS);
  decorate();
}

/** Muting hides what is showing now too. */
export function mutedNow() {
  Object.keys(shown).forEach(clear);
}
