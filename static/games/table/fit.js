/* The table in one screen: tells the page's style sheet how far down the page the play area
 * starts (the site's header and the page's padding above it), as --play-top, so that while a
 * match is played the play area fills exactly the rest of the viewport (games.css, "In play").
 * Measured again whenever the header's size or the viewport changes (a phone rotated, the
 * header's menu opened, a window resized).
 *
 * On a short screen (a phone held sideways) the header would leave the table too little
 * height: there the play area is the viewport's full height, and the page is brought to it
 * when play starts and when the screen turns or the page is zoomed (a new width), and kept there
 * when a resize moves it;
 * the header is above it, a swipe away.
 *
 * A large floor (up to 14 cards) on a small board: the floor's cards shrink until the floor,
 * the stock and the last play fit the board's centre (--card-w-small on the floor, set here),
 * down to readableFloorCard() px wide; below that they overlap instead, as a hand is fanned
 * (--floor-overlap), each still showing its rank; with room again they are the size games.css
 * gives. The cards a last play took overlap more when they would not fit its line. */
import {list} from "../live.js";

var area = document.getElementById("play-area");
var root = document.documentElement;
var last = null;
// The smallest floor card whose rank reads (px): games.css may lower it (--floor-card-min,
// "Tiny screens", where a CSS px is drawn twice as large).
function readableFloorCard() {
  var value = parseFloat(getComputedStyle(floor).getPropertyValue("--floor-card-min"));
  return value > 0 ? value : 34;
}

function measure() {
  var top = Math.max(0, Math.round(area.getBoundingClientRect().top + window.scrollY));
  if (top !== last) {
    // Was the page showing the play area alone (a short screen), not scrolled up to the header?
    var aligned = last !== null && Math.abs(window.scrollY - last) < 2;
    last = top;
    root.style.setProperty("--play-top", top + "px");
    if (aligned && short.matches && hand && !hand.hidden) window.scrollTo({top: top, behavior: "instant"});
  }
}

// A short screen, as games.css's "In play" and "Tiny screens" media queries have it.
var short = window.matchMedia("(orientation: landscape) and (max-height: 560px), (max-width: 260px), (max-height: 260px)");
var hand = document.getElementById("hand");
var wasPlaying = false;

// The page opens with the hand shown but empty: play has started once the first state dealt
// it cards (a table opened mid-match on a zoomed phone stayed at the header, its hand below
// the screen). After that an empty hand between two deals is still play.
function playingNow() {
  return !!hand && !hand.hidden && (hand.childElementCount > 0 || wasPlaying);
}

function bringIntoView() {
  var playing = playingNow();
  // Where the play area starts now: the waiting room above it has just gone, so the top
  // measured before (``last``) was the bottom of the page (a landscape phone would start its
  // match scrolled there, its turn and clock out of sight).
  var top = Math.max(0, Math.round(area.getBoundingClientRect().top + window.scrollY));
  if (playing && short.matches && (!wasPlaying || this === short)) {
    window.scrollTo({top: top, behavior: "instant"});
  } else if (playing && !short.matches && (!wasPlaying || this === short)) {
    window.scrollTo({top: 0, behavior: "instant"});  // tall: the header fits above the table
  }
  wasPlaying = playing;
}

// A phone turned, or the page zoomed: the layout is another one, so the play area is brought
// into view again (to the top of a short screen, the page's top on a tall one), wherever the
// page had been scrolled to. Turning between two short layouts (844×390 to a zoomed 195×422)
// changes no media query, and the header's new height had left the scores above the screen.
// A change of height alone is not one: a phone's address bar coming and going while the page
// is scrolled fires resize too, and must leave the scroll to the player.
var seenWidth = window.innerWidth;
function place() {
  var top = Math.max(0, Math.round(area.getBoundingClientRect().top + window.scrollY));
  window.scrollTo({top: short.matches ? top : 0, behavior: "instant"});
}
function afterResize() {
  if (window.innerWidth === seenWidth) return;
  seenWidth = window.innerWidth;
  if (!hand || hand.hidden) return;
  window.requestAnimationFrame(place);
}
window.addEventListener("resize", afterResize);

// The player's turn with the table scrolled out of view (a swipe, a tap that scrolled the
// page): it is brought back, the hand and the floor in view to play (on a turned phone the floor
// is otherwise above the screen on every turn). With both in view it is left where it is.
var table = document.getElementById("table");
function onTurn(records) {
  var began = records.some(function (record) { return record.oldValue !== "true"; });
  if (!began || table.dataset.myTurn !== "true" || !hand || hand.hidden) return;
  var view = {top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth};
  if (!inside(hand, view) || !inside(floor, view)) place();
}
if (table && window.MutationObserver) {
  new MutationObserver(onTurn).observe(table, {attributes: true, attributeFilter: ["data-my-turn"], attributeOldValue: true});
}

if (hand && window.MutationObserver) {
  new MutationObserver(bringIntoView).observe(hand, {attributes: true, attributeFilter: ["hidden"], childList: true});
}
// This page puts itself where play is: a reload must not put back where it was scrolled
// before (a reload would reopen below the scores and whose turn it is).
if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
if (short.addEventListener) short.addEventListener("change", bringIntoView.bind(short));

var floor = document.getElementById("floor");
var centre = floor && floor.closest(".centre");
var fitting = false;

function inside(part, box) {
  if (!part.getClientRects().length) return true;
  var r = part.getBoundingClientRect();
  // Within half a pixel, as the layout test measures (tests/e2e/test_table_layout.py).
  return r.top >= box.top - .5 && r.bottom <= box.bottom + .5 && r.left >= box.left - .5 && r.right <= box.right + .5;
}

// Every part of the centre (the floor, the stock, the last play) inside the centre's box, and
// every floor card inside the floor's: the centre's content is centred, so an overflow spills
// over both edges (which scrollHeight misses), and the board's grid may squeeze the floor's
// own box below its cards.
function centreFits() {
  var box = centre.getBoundingClientRect(), floorBox = floor.getBoundingClientRect();
  return Array.prototype.every.call(centre.children, function (part) { return inside(part, box); }) &&
    Array.prototype.every.call(floor.children, function (card) { return inside(card, floorBox); });
}

// Tries each size of the floor's cards: ``fits(value)`` sets it and says whether it fits;
// the largest (``largest``) or smallest value in [lo, hi] that fits, else the far end.
function search(lo, hi, largest, fits) {
  if (fits(largest ? hi : lo)) return largest ? hi : lo;
  var good = null;
  while (hi - lo > 1) {  // halving the range: each try is one layout
    var mid = (lo + hi) / 2;
    if (fits(mid) === largest) { lo = mid; good = largest ? mid : good; } else { hi = mid; good = largest ? good : mid; }
  }
  return good !== null ? good : (largest ? lo : hi);
}

// The cards the last play took, on its one line in play (games.css, "In play"): overlapped
// more than games.css's 40 % when they would not fit (the Seven of Diamonds taking a floor of
// 14 ran past a phone's edge), up to 70 %, each still showing its left edge with its rank;
// past that the last ones fold into a "+N" that names them to a screen reader.
var lastPlay = document.getElementById("last-play");
// The width (in the name's em) up to which the last play's name is kept whole.
var NAME_EMS = 6;
// Whether the last play's name shows less of itself than ``cap`` px (all of it, without one).
function nameCut(who, cap) {
  return who.clientWidth + 1 < (cap ? Math.min(who.scrollWidth, cap) : who.scrollWidth);
}
function nameCap(who) {
  return NAME_EMS * parseFloat(getComputedStyle(who).fontSize);
}
function fitLastPlay() {
  if (!lastPlay) return;
  lastPlay.style.removeProperty("--taken-overlap");
  // A card that took nothing stays on the floor, where it shows: when the name needs the
  // room, "took nothing" is left to screen readers (the live region says the play too).
  var nothing = lastPlay.querySelector(".took-nothing");
  if (nothing) {
    nothing.classList.remove("visually-hidden");
    var cut = lastPlay.querySelector(".last-who .cut-name");
    if (cut && nameCut(cut, nameCap(cut))) nothing.classList.add("visually-hidden");
  }
  var taken = lastPlay.querySelector(".taken");
  if (!taken) return;
  var more = taken.querySelector(".taken-more");
  if (more) more.remove();
  var cards = Array.prototype.slice.call(taken.children);
  cards.forEach(function (card) { card.style.removeProperty("display"); });
  if (lastPlay.hidden || !cards.length) return;
  // Who played comes before what was taken: the name shows whole up to NAME_EMS (about ten
  // letters) while taken cards can still overlap or fold; a longer one is cut at its end.
  var who = lastPlay.querySelector(".last-who .cut-name");
  var cap = who ? nameCap(who) : 0;
  var named = function () { return !who || !nameCut(who, cap); };
  var fits = function () {
    var box = lastPlay.getBoundingClientRect();
    return named() && Array.prototype.every.call(lastPlay.children, function (part) { return inside(part, box); });
  };
  if (fits()) return;
  var width = cards[0].getBoundingClientRect().width;
  var overlap = search(width * .4, width * .7, false, function (o) {
    lastPlay.style.setProperty("--taken-overlap", o + "px");
    return fits();
  });
  lastPlay.style.setProperty("--taken-overlap", Math.ceil(overlap) + "px");
  if (fits()) return;
  more = document.createElement("span");
  more.className = "taken-more";
  more.dir = "ltr";
  more.setAttribute("role", "img");
  taken.appendChild(more);
  var folded = [];
  // The first taken card folds too only when the name still needs its room: "took +6".
  for (var k = cards.length - 1; k >= 0 && (!folded.length || !fits()) && (k > 0 || !named()); k--) {
    cards[k].style.display = "none";
    folded.unshift(cards[k].getAttribute("aria-label"));
    more.textContent = "+" + folded.length;
    more.setAttribute("aria-label", list(folded));
  }
}

// Whether the last play's line gave something up: its name cut, taken cards folded into "+N",
// or "took nothing" left to screen readers.
function lastPlayShort() {
  if (!lastPlay || lastPlay.hidden) return false;
  var who = lastPlay.querySelector(".last-who .cut-name");
  return !!lastPlay.querySelector(".taken-more, .took-nothing.visually-hidden") ||
    (!!who && nameCut(who));
}

// A line that gave something up takes two lines: who played what, then what it took; where
// the centre's column is too narrow for the name and the card played together (four players
// on a phone), who played on the first line, which wraps between the name and its words, and
// the card played with what it took on the second. The centre's height comes from the
// floor's cards made smaller when it must, down to readableFloorCard() (their rank still
// reads); a floor that needs more than that keeps the one line.
function twoLines(card) {
  lastPlay.classList.add("two-lines");
  fitLastPlay();
  if (lastPlayShort()) {
    lastPlay.classList.add("who-line");
    fitLastPlay();
  }
  if (centreFits()) return true;
  if (card) {
    var full = card.getBoundingClientRect().width;
    var least = Math.min(readableFloorCard(), full);
    floor.style.setProperty("--card-w-small", least + "px");
    if (centreFits()) {
      var width = search(least, full, true, function (w) {
        floor.style.setProperty("--card-w-small", w + "px");
        return centreFits();
      });
      floor.style.setProperty("--card-w-small", Math.floor(width) + "px");
      return true;
    }
    floor.style.removeProperty("--card-w-small");
  }
  lastPlay.classList.remove("two-lines", "who-line");
  fitLastPlay();
  return false;
}

function fitFloor() {
  if (!centre || fitting) return;
  fitting = true;  // our own changes below must not start another fit
  if (lastPlay) lastPlay.classList.remove("two-lines", "who-line");
  fitLastPlay();
  floor.style.removeProperty("--card-w-small");
  floor.style.removeProperty("--floor-overlap");
  floor.classList.remove("fanned");
  var card = floor.querySelector(".card");
  if (lastPlayShort()) twoLines(card);
  if (card && !centreFits()) {
    // First smaller cards, down to a size whose rank still reads; then the cards overlap,
    // each showing its left edge with the rank and suit (games.css, .floor.fanned).
    var width = search(Math.min(readableFloorCard(), card.getBoundingClientRect().width), card.getBoundingClientRect().width, true, function (w) {
      floor.style.setProperty("--card-w-small", w + "px");
      return centreFits();
    });
    floor.style.setProperty("--card-w-small", Math.floor(width) + "px");
    if (!centreFits()) {
      floor.classList.add("fanned");
      var overlap = search(0, Math.floor(width * .55), false, function (o) {
        floor.style.setProperty("--floor-overlap", o + "px");
        return centreFits();
      });
      floor.style.setProperty("--floor-overlap", Math.ceil(overlap) + "px");
    }
  }
  fitting = false;
}

if (centre && window.MutationObserver) {
  new MutationObserver(fitFloor).observe(floor, {childList: true});
  if (lastPlay) new MutationObserver(fitFloor).observe(lastPlay, {childList: true});
}
if (centre && window.ResizeObserver) new ResizeObserver(fitFloor).observe(centre);

// The actions' menu of a tiny screen (games.css, "Tiny screens"): an action taken closes it
// (the phrases' button opens the phrases instead), and so does a screen no longer tiny, where
// the actions stand in the bar again.
var actions = document.getElementById("table-actions");
var tiny = window.matchMedia("(max-width: 260px), (max-height: 260px)");
function closeActions() {
  if (actions && actions.hidePopover && actions.matches(":popover-open")) actions.hidePopover();
}
if (actions) {
  actions.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (button && button.id !== "talk-button") closeActions();
  });
  if (tiny.addEventListener) tiny.addEventListener("change", function () { if (!tiny.matches) closeActions(); });
}

var header = document.querySelector(".site-header");
if (header && window.ResizeObserver) new ResizeObserver(measure).observe(header);
// Something an app puts between the header and the table (the moderators' notice bar) moves
// the play area down without resizing the header or the area: the page's height changes.
if (window.ResizeObserver) new ResizeObserver(measure).observe(document.body);
if (window.ResizeObserver) new ResizeObserver(measure).observe(area);
window.addEventListener("resize", measure);
window.addEventListener("orientationchange", measure);
measure();
bringIntoView();
fitFloor();
