/* The live table's shared reading of the state: the page's config (table-config), whose seat,
 * whose turn, the names shown, the sides' labels, and the table's short notice (showError).
 * An ES module; the state itself is the store's (store.js): these read getState(). */
import * as B from "../live.js";
import {L} from "./labels.js";
import {getState} from "./store.js";

var el = B.el;
export var cfg = B.config("table-config");
export {L};
export var root = document.getElementById("table");
export var $ = function (id) { return document.getElementById(id); };

export function url(name) {
  return cfg.urls[name].replace("{id}", cfg.matchId);
}

// --- reading the state -------------------------------------------------------------------

export function players() { return getState().match.players; }

export function seatOf(seat) {
  return (getState().seats || []).filter(function (s) { return s.seat === seat; })[0] || null;
}

/** 1, 2, … among the computer seats (no person) when the table has more than one, else null:
 * two computer seats never read the same ("Greedy 1", "Greedy 2"), numbered in seat order as
 * the lobby numbers them (games.core.models.seat_display_names). */
function botNumber(seat) {
  var bots = (getState().seats || []).filter(function (s) { return !s.username && !s.closed && s.bot; })
    .map(function (s) { return s.seat; }).sort();
  return bots.length > 1 ? bots.indexOf(seat) + 1 : null;
}

/** A computer seat's name, the one the whole table gives it (its seat, the turn line, the last
 * play, the score boxes, the result, what the screen reader says): its level, numbered when
 * the table has several ("Random 1", "Expert 3"), short enough for a phone's side seat, as
 * [{part, text}], the catalogue's words between in the
 * catalogue's order. ``part``: "level", "number" or "joint". */
function botName(seat) {
  var found = seatOf(seat);
  var level = cfg.botLevels[found.bot] || found.bot;
  var number = botNumber(seat);
  if (!number) return [{part: "level", text: level}];
  return String(L.botShort).split(/(%\((?:level|number)\)s)/).filter(Boolean).map(function (part) {
    if (part === "%(level)s") return {part: "level", text: level};
    if (part === "%(number)s") return {part: "number", text: String(number)};
    return {part: "joint", text: part};
  });
}

/** botName() as nodes, for the seats and the score boxes: a <span class="bot-level">, the
 * words between, a <span class="bot-number">, so that where the name must be cut (a tiny
 * screen) the level gives way and the number, which tells two computers apart, stays
 * (games.css, "Compact seats"). */
export function botNameParts(seat) {
  return botName(seat).map(function (part) { return el("span", {class: "bot-" + part.part, text: part.text}); });
}

/** The name shown for a seat: the person's, "Closed account" for a closed account's (``closed``:
 * its ``username`` is null, docs/protocol.md "state"), or a computer seat's (botName). */
export function seatName(seat) {
  var found = seatOf(seat);
  if (!found) return null;
  if (found.closed) return L.closedAccount;
  if (found.username) return found.username;
  if (!found.bot) return null;
  return botName(seat).map(function (part) { return part.text; }).join("");
}

export function isSeated() { return getState().you !== null && getState().you !== undefined; }

/** The computer plays this seat now (a computer seat, or a person it replaced). */
export function isBot(seat) { var s = seatOf(seat); return !!(s && s.bot); }

/** A side's names as text, "a & b" for partners (``L.and``): each name isolated (U+2068 …
 * U+2069, Unicode's first-strong isolate) wherever the text goes, a title, a reason, a table
 * head, so that a name mixing Arabic and Latin keeps to itself (else an English sentence reads
 * "& سارة عبدالرحمنAbdelrah man_123 resigned."). */
export function sideNames(side) {
  var names = [];
  for (var seat = side; seat < players(); seat += 2) names.push(B.isolate(seatName(seat) || L.emptySeat));
  return names.length === 2 ? B.fmt(L.and, {a: names[0], b: names[1]}) : names[0];
}

/** A seat's name for narrow places (the score boxes, the score table's head): a <bdi> of
 * ``botClass`` holding a computer seat's badge and name (botNameParts: a ``botClass`` with
 * "bot-parts" cuts the level, not the number), else one of ``nameClass`` holding the person's
 * name; either titled with the name, and its seat in ``data-seat``. */
export function shortSeatName(seat, nameClass, botClass) {
  var found = seatOf(seat);
  if (found && !found.username && !found.closed && found.bot) {
    return el("bdi", {class: botClass, title: seatName(seat), dataset: {seat: seat}},
              [botBadge()].concat(botNameParts(seat)));
  }
  var name = seatName(seat) || L.emptySeat;
  return el("bdi", {class: nameClass, title: name, text: name, dataset: {seat: seat}});
}

/** sideNames() as nodes for the score table's head: one <span class="name-unit"> a seat,
 * each kept on one line (games.css), so that partners wrap between their names, never word
 * by word ("Amira / & / Omar"). The words of ``L.and`` between the names go with the name
 * they are written against: "Amira &" then "Omar"; Arabic "Amira" then "وOmar". The score
 * boxes (board.js) give their own classes for a person's name and a computer's. */
export function sideNameNodes(side, nameClass, botClass) {
  var seats = [];
  for (var seat = side; seat < players(); seat += 2) seats.push(seat);
  var unit = function (before, seat, after) {
    var joint = function (text) { return text ? el("span", {class: "name-joint", text: text}) : null; };
    // A person's name is a cut-name (live.js named()): cut at its own end in a narrow column.
    var name = shortSeatName(seat, nameClass || "cut-name", botClass || "bot-name");
    return el("span", {class: "name-unit"}, [joint(before), name, joint(after)].filter(Boolean));
  };
  if (seats.length === 1) return [unit("", seats[0], "")];
  var label = String(L.and);
  if (label.indexOf("%(b)s") < label.indexOf("%(a)s")) seats.reverse();
  var parts = label.split(/%\((?:a|b)\)s/);  // [before the first, between, after the second]
  var between = parts[1] || " ";
  var cut = between.search(/\s\S*$/);  // the last space: words after it touch the second name
  var withFirst = cut < 0 ? between : between.slice(0, cut);
  var withSecond = cut < 0 ? "" : between.slice(cut + 1);
  return [unit(parts[0], seats[0], withFirst), unit(withSecond, seats[1], parts[2])];
}

/** The seat drawn at the bottom: mine, or seat 0 for a spectator. */
export function viewer() { return getState().you === null || getState().you === undefined ? 0 : getState().you; }

export function mySide() { return getState().you === null || getState().you === undefined ? null : getState().you % 2; }

/** Screen position of a seat, turning the table so that the viewer sits at the bottom. */
export function position(seat) {
  var n = players();
  var rel = (seat - viewer() + n) % n;
  if (n === 2) return rel === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][rel];
}

export function isMyTurn() {
  var r = getState() && getState().round;
  // A seat the computer took over is not the person's to play any more.
  return !!(r && !r.over && getState().match.status === "playing" && getState().you !== null &&
            getState().you !== undefined && r.turn === getState().you && !getState().result &&
            !isBot(getState().you));
}

/** The title mark beside a seat's name (``seat.title``: "BOT" for a bot account), or null. */
export function titleMark(info) {
  return B.titleMark(info && info.title, L);
}

export function botBadge(title) {
  return B.botIcon(title || L.botBadge);
}

/** The order in which every score of the table lists the sides (the boxes, the round's and
 * every round's score, the result, the ratings' lines, what the screen reader says): a
 * player's own side first, as the board puts their seat at the bottom, each side labelled
 * (sideLabel: "You", "Your side"); a spectator's in seat order, side 0 (the table's creator's)
 * first. */
export function sideOrder() { return mySide() === 1 ? [1, 0] : [0, 1]; }

/** ``values`` (one per side, side 0's first) in :func:`sideOrder`. */
export function inSideOrder(values) {
  return sideOrder().map(function (side) { return values[side]; });
}

/** Whether each side's label is its player's name (sideLabel: a spectator at two, where a
 * lone player is no side to number), so that a place naming the player beside the label says
 * the name once (the score boxes, the ratings' changes). */
export function sidesNamed() { return mySide() === null && players() === 2; }

/** "Your side" / "Opponents" for a seated player, "Side 1" / "Side 2" for a spectator; at two
 * the spectator's label is the player's name (sidesNamed). */
export function sideLabel(side) {
  var mine = mySide();
  if (sidesNamed()) return seatName(side) || L.emptySeat;
  if (mine === null) return B.fmt(L.side, {number: side + 1});
  if (players() === 2) return side === mine ? L.youLabel : L.opponent;
  return side === mine ? L.yourSide : L.opponents;
}

var errorTimer = null;

/** A refusal for 6 s, or with ``notice`` a word on what a tap did for 3 s: in play over the
 * top of the screen (games.css), where the player looks, not under the table; with ``above``
 * (the hand, for a tap on a card) just above that element instead, where the finger is. It
 * covers the scores or a seat meanwhile, so a tap on it puts it away, and a notice given while
 * another seat was to play ("Not your turn yet") goes as soon as the turn is the player's. */
export function showError(message, notice, above) {
  var box = $("table-error");
  box.textContent = message;
  box.classList.toggle("notice", !!notice);
  box.dataset.untilTurn = String(!!notice && root.dataset.myTurn !== "true");
  box.style.top = "";
  box.hidden = false;
  if (above && getComputedStyle(box).position === "fixed") {
    var gap = 8;
    box.style.top = Math.max(gap, above.getBoundingClientRect().top - box.offsetHeight - gap) + "px";
  }
  window.clearTimeout(errorTimer);
  errorTimer = window.setTimeout(hideError, notice ? 3000 : 6000);
}

export function hideError() {
  window.clearTimeout(errorTimer);
  $("table-error").hidden = true;
}
