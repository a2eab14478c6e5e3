/* The live table's drawing of a state (main.js calls these after each state): the chips of the
 * table, the scoreboard, whose turn it is, the seats round the floor, the last play and my hand.
 * A card click sends one play and disables the hand (aria-disabled) until the next state or
 * error arrives; keys.js keeps the hand's focus across the redraws.
 * A view module of the table (main.js). */
import * as B from "../live.js";
import * as T from "./kit.js";
import {getState, provided, send, store} from "./store.js";
import * as keys from "./keys.js";
import {closeScore, scoreOverTable} from "./score.js";
import * as talk from "./talk.js";

var el = B.el;
var L = T.L;
var root = T.root;
var $ = T.$;
var botBadge = T.botBadge, titleMark = T.titleMark, isMyTurn = T.isMyTurn, mySide = T.mySide,
    players = T.players, position = T.position, seatName = T.seatName, seatOf = T.seatOf;

var baseTitle = document.title;

// --- drawing -------------------------------------------------------------------------------

export function renderMeta() {
  var m = getState().match;
  $("table-meta").replaceChildren(
    el("span", {class: "chip", text: B.fmt(B.ngettext("%(count)s player", "%(count)s players", m.players), {count: m.players})}),
    el("span", {class: "chip", text: B.fmt(L.target, {target: getState().target})}),
    el("span", {class: "chip" + (m.rated ? " chip-rated" : ""), text: m.rated ? L.rated : L.casual}),
    el("span", {class: "chip", text: getState().move_seconds ? B.fmt(L.perPlay, {seconds: getState().move_seconds}) : L.noClock})
  );
}

/** The side's names as nodes for the narrow score boxes: one unit a seat, partners joined by
 * the catalogue's words (``L.and``, "و" in Arabic, as the result says), each name cut at its
 * own end in play (games.css) so that both partners show; a computer seat is its badge, level
 * and number, the level the part cut (bot-parts) so that the number, which tells two
 * computers apart, stays. */
function sideMembers(side) {
  var nodes = [];
  T.sideNameNodes(side, "side-member", "side-member bot bot-parts").forEach(function (unit, i) {
    // The catalogue's space between the units, for the box's text (a screen reader's "carl &
    // dina"); a flex box draws none, its gap does.
    if (i) nodes.push(" ");
    nodes.push(unit);
  });
  return nodes;
}

/** The score box's names of ``side`` (sideMembers), in the page's direction, the joining
 * words with it; each name a <bdi> of its own direction, so that cut short in play a Latin
 * name loses its end, not its start, on an Arabic page. */
function sideNameBox(side) {
  return el("div", {class: "side-name"}, sideMembers(side));
}

export function renderScoreboard() {
  var r = getState().round;
  var board = $("scoreboard");
  if (getState().match.status === "open") { board.replaceChildren(); return; }
  var sides = T.sideOrder().map(function (side) {
    var stat = function (label, value, key) {
      return el("div", {class: "stat", dataset: {stat: key}}, [
        el("span", {class: "stat-label", text: label}),
        el("span", {class: "stat-value", text: String(value)}),
      ]);
    };
    var onTurn = r && !r.over && !getState().result && r.turn % 2 === side;
    // A spectator of two players reads each box by its player's name (sideLabel): the names'
    // line alone says it, without a label above it repeating the name.
    var named = T.sidesNamed();
    return el("div", {
      class: "side" + (side === mySide() ? " mine" : "") + (onTurn ? " on-turn" : "") + (named ? " named" : ""),
      dataset: {side: side},
    }, [
      named ? null : el("div", {class: "side-label", text: T.sideLabel(side)}),
      sideNameBox(side),
      el("div", {class: "side-score", dataset: {score: getState().scores[side]}, text: String(getState().scores[side])}),
      el("div", {class: "side-stats"}, [
        stat(L.pile, r ? r.pile_sizes[side] : 0, "pile"),
        stat(L.basras, r ? r.basras[side] : 0, "basras"),
        getState().match.rules.jack_basra_points ? stat(L.jackBasras, r ? r.jack_basras[side] : 0, "jack-basras") : null,
      ]),
    ]);
  });
  board.replaceChildren(sides[0], sides[1]);
}

export function renderTurn() {
  var banner = $("turn-banner");
  var r = getState().round;
  var text = "";
  var mine = false;
  var name = null;  // whose turn it is, another's: a <bdi> of its own (B.named)
  if (getState().result) text = L.matchOver;
  else if (getState().match.status === "playing" && r && !r.over) {
    mine = isMyTurn();
    text = B.fmt(L.round, {number: r.number}) + " · " + (mine ? L.yourTurn : L.turnOf);
    if (!mine) name = seatName(r.turn) || "";
  } else if (r && r.over) text = B.fmt(L.roundScore, {number: r.number});
  if (name === null) banner.textContent = text;
  else banner.replaceChildren.apply(banner, B.named(text, name));
  banner.classList.toggle("mine", mine);
  banner.hidden = text === "";
  // A tab in the background says whose turn it is in its title (browsers show it on the tab).
  document.title = mine ? "\u25CF " + L.yourTurn + " \u00B7 " + baseTitle : baseTitle;
}

function seatBox(seat) {
  var r = getState().round;
  var isViewer = seat === getState().you;
  var found = seatOf(seat);
  // A computer seat shows its name (kit.js, botNameParts) next to the computer badge, in parts:
  // cut short, the level gives way and the number stays.
  var computer = !!(found && !found.username && !found.closed && found.bot);
  var size = r ? r.hand_sizes[seat] : 0;
  var badges = [];
  // At four, the viewer's partner is named as such (seats 0+2 and 1+3 are partners).
  if (players() === 4 && !isViewer && mySide() !== null && seat % 2 === mySide()) {
    badges.push(el("span", {class: "badge partner", text: L.partner}));
  }
  if (r && r.dealer === seat) badges.push(el("span", {class: "badge dealer", title: L.dealer, text: L.dealer}));
  var info = seatOf(seat) || {};
  if (info.absent && !info.bot) badges.push(el("span", {class: "badge absent", text: L.absent}));
  var onTurn = r && !r.over && r.turn === seat && !getState().result;
  var backs = null;
  if (!isViewer) {
    backs = el("div", {class: "backs"}, []);
    for (var i = 0; i < size; i++) backs.appendChild(B.cardBack("mini"));
  }
  return el("div", {
    class: "seat-box" + (onTurn ? " on-turn" : "") +
           (isViewer ? " me" : "") + (seat % 2 === mySide() ? " partner-side" : "") +
           (info.bot ? " bot" : "") + (info.absent ? " absent" : ""),
    dataset: {seat: seat, handSize: size, bot: info.bot || null},
  }, [
    el("div", {class: "seat-name"}, [
      info.bot ? botBadge(info.username ? B.fmt(L.replaced, {name: info.username}) : null) : null,
      computer ? el("bdi", {class: "name bot-parts", title: seatName(seat)}, T.botNameParts(seat))
        : el("bdi", {class: "name", title: seatName(seat) || null, text: seatName(seat) || L.emptySeat}),
      titleMark(info),
      provided("seatBadge", seat)[0] || null,  // an app's badge (the ratings': "(1523?)")
      isViewer ? el("span", {class: "you-tag", text: " (" + L.you + ")"}) : null,
    ]),
    backs,
    el("div", {class: "seat-info"}, [el("span", {class: "hand-count", text: B.fmt(L.cardsInHand, {count: size})})].concat(badges)),
    onTurn ? el("div", {class: "countdown", "aria-hidden": "true"}) : null,
  ]);
}

export function renderBoard() {
  var board = $("board");
  var r = getState().round;
  if (getState().match.status === "open" || !r) { board.hidden = true; return; }
  board.hidden = false;
  board.dataset.players = players();
  board.querySelectorAll(".seat-slot").forEach(function (slot) { slot.replaceChildren(); });
  for (var seat = 0; seat < players(); seat++) {
    board.querySelector('.seat-slot[data-pos="' + position(seat) + '"]').appendChild(seatBox(seat));
  }
  var floor = $("floor");
  floor.replaceChildren.apply(floor, r.floor.length
    ? r.floor.map(function (code) { return B.cardNode(code, L, {size: "small"}); })
    : [el("p", {class: "empty-note", text: L.floorEmpty})]);
  $("stock-info").textContent = B.fmt(L.stock, {count: r.stock_size});
  renderLastPlay(r.last_play);
  talk.decorate();
}

function renderLastPlay(play) {
  var box = $("last-play");
  if (!play) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  var taken = play.taken || [];
  var parts = [
    // Cut short in play: the name, at its own end (games.css, .last-who).
    el("span", {class: "last-label last-who"}, B.named(L.played, seatName(play.seat) || "")),
    B.cardNode(play.card, L, {size: "mini", extraClass: "played"}),
    el("span", {class: taken.length ? "last-label" : "last-label took-nothing", text: taken.length ? L.took : L.tookNothing}),
  ];
  // The cards taken, one group: in play they overlap, left to right in either
  // language as the floor's cards do, each showing its rank (games.css, "In play").
  if (taken.length) {
    parts.push(el("span", {class: "taken"}, taken.map(function (code) { return B.cardNode(code, L, {size: "mini"}); })));
  }
  // The server played this card because the seat's time ran out (absent field: not told).
  if (play.timeout === true) parts.push(el("span", {class: "last-label timed-out", text: L.timedOutMark}));
  if (play.basra) {
    parts.push(el("span", {
      class: "badge basra-badge", dataset: {basra: play.basra},
      text: play.basra === "jack_basra" ? L.jackBasra : L.basra,
    }));
  }
  box.replaceChildren.apply(box, parts);
}

export function renderHand() {
  var hand = $("hand");
  var r = getState().round;
  var playing = r && getState().match.status === "playing" && getState().you !== null && getState().you !== undefined;
  var focus = keys.remember(hand);
  if (!playing) {
    hand.replaceChildren(); hand.hidden = true; root.dataset.myTurn = "false";
    keys.restore(hand, focus);
    return;
  }
  hand.hidden = false;
  // Under the round's score (the pause between rounds) a tap shows the floor and plays
  // nothing (play()): the hand is not drawn playable then, or its first tap reads as lost.
  var canPlay = isMyTurn() && !store.pending && store.live && !scoreOverTable();
  root.dataset.myTurn = String(isMyTurn());
  root.dataset.pending = String(store.pending);
  hand.classList.toggle("active", canPlay);
  hand.replaceChildren.apply(hand, (r.hand || []).map(function (code) {
    var button = B.cardNode(code, L, {tag: "button"});
    // aria-disabled, not disabled: a disabled button cannot hold focus, and a keyboard or
    // screen-reader player reads the hand while the others play (play() checks the turn).
    button.setAttribute("aria-disabled", String(!canPlay));
    button.addEventListener("click", function () { play(code); });
    return button;
  }));
  keys.restore(hand, focus);
}

/** How long after a play of one's own a tap on the hand is taken for the second half of a
 * double tap (ms): phones' double-tap interval is about 300 ms, a slow one under 600. */
var DOUBLE_TAP_MS = 600;

function play(code) {
  if (store.pending || !store.live) return;
  if (!isMyTurn()) {
    // The second tap of a double tap on a card: its first played, and the answer has made it
    // another seat's turn. The same gesture, so nothing to say.
    if (Date.now() - store.playedAt < DOUBLE_TAP_MS) return;
    // Another seat to play: said, not a dead tap (a dimmed hand alone looks stuck).
    var r = getState().round;
    if (r && !r.over && !getState().result) T.showError(B.fmt(L.waitTurn, {name: B.isolate(seatName(r.turn) || "")}), true, $("hand"));
    return;
  }
  // The round's score is over the floor (the pause between rounds): the first tap shows the
  // floor again; the card is played only once the player can see what it takes, and the
  // player is told so (an unplayed card alone reads as a lost click).
  if (scoreOverTable()) {
    closeScore();  // the hand is drawn playable again
    // Said just above the hand, where the finger and the eyes are, so the tap does not read
    // as lost.
    T.showError(L.scoreClosed, true, $("hand"));
    return;
  }
  if (!send({type: "play", card: code, seq: getState().seq})) return;
  store.pending = true;
  store.playedAt = Date.now();
  renderHand();
  // Every play is answered by a state or an error; if the answer was lost (a server-side
  // channel can drop a message), ask for the state rather than keep the hand locked.
  var sentAt = getState().seq;
  window.setTimeout(function () {
    if (store.pending && getState().seq === sentAt) send({type: "sync"});
  }, 5000);
}
