/* The live table's scores: the last round's breakdown over the table, every round played (and its dialog, the tools' "Scores"), and the match's result banner.
 * A view module of the table (main.js). */
import * as B from "../live.js";
import {remaining} from "./clock.js";
import * as T from "./kit.js";
import {getState, provided, refresh} from "./store.js";

var el = B.el;
var cfg = T.cfg;
var L = T.L;
var $ = T.$;
var mySide = T.mySide, players = T.players, seatName = T.seatName, sideNames = T.sideNames, sideNameNodes = T.sideNameNodes, url = T.url;

var shownRounds = null;  // how many round results the breakdown panel has seen
var breakdownOpen = false;
var closeTimer = null;

/** A basra row's cell: the count, as the scoreboard counts them, with its points beside
 * ("2 (20 points)"); the points alone when the rules give a basra none. */
function countCell(points, each) {
  if (!each) return String(points);
  return B.fmt(L.countPoints, {count: Math.round(points / each), points: points});
}

function breakdownTable(result, cumulative) {
  var rules = getState().match.rules;
  var row = function (label, values, key) {
    return el("tr", {dataset: {row: key}}, [el("th", {scope: "row", text: label})].concat(
      T.inSideOrder(values).map(function (v) { return el("td", {text: String(v)}); })));
  };
  var counted = function (values, each) { return values.map(function (v) { return countCell(v, each); }); };
  var rows = [
    row(L.cards, result.cards, "cards"),
    row(L.majority, result.majority, "majority"),
    row(L.basras, counted(result.basras, rules.basra_points), "basras"),
  ];
  if (rules.jack_basra_points) {
    rows.push(row(L.jackBasras, counted(result.jack_basras, rules.jack_basra_points), "jack-basras"));
  }
  if (rules.card_points) rows.push(row(L.cardPoints, result.card_points, "card-points"));
  rows.push(row(L.roundTotal, result.total, "total"));
  if (cumulative) rows.push(row(L.matchTotal, cumulative, "match-total"));
  return el("table", {class: "score-table"}, [sidesHead(), el("tbody", {}, rows)]);
}

/** The score table's head: each side's names, and its label ("Your side", "Opponents"),
 * which a tiny screen shows instead (games.css): two names a side wrapped letter by letter
 * in a 195 px column. */
function sidesHead() {
  var cell = function (side) {
    return el("th", {scope: "col"}, [
      el("span", {class: "score-side-names"}, sideNameNodes(side)),
      el("span", {class: "score-side-label", text: T.sideLabel(side)}),
    ]);
  };
  return el("thead", {}, [el("tr", {}, [el("td")].concat(T.sideOrder().map(cell)))]);
}

/** "The cards left on the floor (N) go to <side>", with the cards: the floor is empty at the
 * end of a round because the side that captured last took them (RULES.md "Basra"). */
function leftoverNote(leftover) {
  if (!leftover || leftover.side === null || leftover.side === undefined || !leftover.cards.length) return null;
  var text = leftover.side === mySide() ? B.fmt(L.leftoverMine, {count: leftover.cards.length})
    : B.fmt(L.leftover, {count: leftover.cards.length, side: sideNames(leftover.side)});
  return el("p", {class: "leftover", dataset: {side: leftover.side, count: leftover.cards.length}}, [
    el("span", {text: text}),
  ].concat(leftover.cards.map(function (code) { return B.cardNode(code, L, {size: "mini"}); })));
}

function cumulativeTotals(upTo) {
  var totals = [0, 0];
  getState().round_results.slice(0, upTo + 1).forEach(function (res) {
    totals[0] += res.total[0]; totals[1] += res.total[1];
  });
  return totals;
}

function closeBreakdown() {
  breakdownOpen = false;
  window.clearTimeout(closeTimer);
  // The whole table, not the score alone: the hand, held while the score was over the floor
  // (board.js renderHand), is drawn playable again.
  refresh();
}

/** The last round's score over the table. A round just ended: it opens over the seats and the
 * floor (the hand stays in sight) and stays through the pause before the next round's first
 * play (roundPauseSeconds, the server's BASRA_ROUND_PAUSE_SECONDS), then gets out of the way,
 * sooner when that play comes or "Continue" is pressed. At the match's end it stays. */
var justEnded = false;  // a round's end seen live, its score not yet brought into sight

export function renderBreakdown() {
  var results = getState().round_results || [];
  var box = $("breakdown");
  var r = getState().round;
  var last = results[results.length - 1];
  if (shownRounds === null) {
    // First draw after loading: show the last round's score if the table is between rounds,
    // or in the pause before the next round's first play (a reload there must not lose it):
    // for what is left of the pause, the deadline's time beyond the time per play.
    breakdownOpen = results.length > 0 && (!r || r.over || !!getState().result);
    var pauseLeft = getState().move_seconds && remaining() !== null
      ? remaining() - getState().move_seconds * 1000 : 0;
    if (!breakdownOpen && last && r && !r.last_play && r.number > last.number && pauseLeft > 0) {
      breakdownOpen = true;
      closeTimer = window.setTimeout(closeBreakdown, pauseLeft);
    }
  } else if (results.length > shownRounds) {
    breakdownOpen = true;
    justEnded = true;
    window.clearTimeout(closeTimer);
    if (!getState().result) closeTimer = window.setTimeout(closeBreakdown, (cfg.roundPauseSeconds || 0) * 1000);
  }
  // The next round's first play was made: the score has had its time.
  if (breakdownOpen && !getState().result && last && r && r.number > last.number && r.last_play) {
    breakdownOpen = false;
    window.clearTimeout(closeTimer);
  }
  if (getState().result && results.length) breakdownOpen = true;
  shownRounds = results.length;
  if (!breakdownOpen || !results.length) { box.hidden = true; box.replaceChildren(); }
  else {
    // The title and "Continue" first: in sight even when the table scrolls in its box.
    var head = el("div", {class: "breakdown-head"}, [
      el("h2", {id: "breakdown-title", text: B.fmt(L.roundScore, {number: last.number})}),
      getState().result ? null : el("button", {type: "button", class: "button", id: "breakdown-close",
        text: L["continue"], on: {click: closeBreakdown}}),
      !getState().result && results.length > 1 ? el("button", {type: "button", class: "button secondary",
        id: "breakdown-all", text: L.allRounds, on: {click: openHistory}}) : null,
    ]);
    var children = [head, breakdownTable(last, cumulativeTotals(results.length - 1)), leftoverNote(last.leftover)];
    // Drawn again only when it reads differently: every state (a presence, a clock) comes here,
    // and a score drawn anew would take the focus off "Continue" and move what a reader holds.
    var drawn = el("div", {}, children.filter(Boolean));
    if (box.hidden || drawn.innerHTML !== box.innerHTML) {
      // replaceChildren would write a null (no leftover cards) as the text "null".
      box.replaceChildren.apply(box, Array.prototype.slice.call(drawn.childNodes));
    }
    box.hidden = false;
  }
  // Over the table in play and at the match's end alike: it shares the board's cell of the
  // play area (games.css), and out of its "over-table" style the board would hide it. Only in
  // play does it hold the hand's cards back (data-score-over).
  var over = breakdownOpen && results.length > 0;
  box.classList.toggle("over-table", over);
  // A round or the match just ended: its score into sight if the page was scrolled away from
  // it (a landscape phone, scrolled down, has the score's head above the screen).
  if (justEnded && over) {
    justEnded = false;
    window.requestAnimationFrame(function () {
      var at = box.getBoundingClientRect();
      if (at.top < 0 || at.bottom > window.innerHeight) box.scrollIntoView({block: "nearest", behavior: "instant"});
    });
  }
  T.root.dataset.scoreOver = over && !getState().result ? "1" : "";
  var history = $("history");
  history.hidden = results.length === 0;
  // Every round's score, one tap away from anywhere on the page (the tools' "Scores").
  $("rounds-button").hidden = results.length === 0;
  var body = results.map(function (res, i) {
    var totals = cumulativeTotals(i);
    return el("tr", {}, [
      el("th", {scope: "row", text: B.fmt(L.round, {number: res.number})}),
    ].concat(T.sideOrder().map(function (side) {
      return el("td", {text: res.total[side] + " (" + totals[side] + ")"});
    })));
  });
  var historyTable = function (rows) {
    return el("table", {class: "score-table"}, [sidesHead(), el("tbody", {}, rows)]);
  };
  $("history-body").replaceChildren(historyTable(body));
  $("history-dialog-body").replaceChildren(historyTable(body.map(function (row) { return row.cloneNode(true); })));
}

/** Why the match ended early, naming the winner or the loser as the reader needs (null when
 * the target was reached): a claim (2 players only), a resignation, or a decision away from
 * the table (a tournament forfeit or withdrawal). */
function resultReason(result, side) {
  var winner = sideNames(result.winner);
  var loser = sideNames(1 - result.winner);
  var pair = players() === 4;
  if (result.reason === "claim") {
    if (side === result.winner) return B.fmt(L.reasonClaimMine, {loser: loser});
    if (side !== null) return B.fmt(L.reasonClaimAgainstMe, {winner: winner});
    return B.fmt(L.reasonClaim, {winner: winner, loser: loser});
  }
  if (result.reason === "resign") {
    if (side !== null && side !== result.winner) return pair ? L.reasonSideResigned : L.reasonYouResigned;
    return pair ? B.fmt(L.reasonResignPair, {names: loser}) : B.fmt(L.reasonResignOne, {name: loser});
  }
  if (result.reason === "decided") return L.reasonDecided;
  return null;
}

/** Why a rated match was aborted early, naming who never played a card of the first deal
 * (``result.missed``, issue 35), each name isolated as sideNames() isolates them; null when
 * the result names nobody (an abort before the first play, or one kept before names were). */
function abortedEarly(result) {
  var missed = result.missed || [];
  if (result.reason !== "abort" || !missed.length) return null;
  var names = missed.map(function (seat) { return B.isolate(seatName(seat) || L.emptySeat); });
  var joined = names.reduce(function (a, b) { return B.fmt(L.and, {a: a, b: b}); });
  return names.length === 1 ? B.fmt(L.matchAbortedEarlyOne, {name: joined})
    : B.fmt(L.matchAbortedEarlyMany, {names: joined});
}

/** Who called the match off before its first play (``result.by``, a seat), or null. */
function abortedBy(result) {
  if (result.reason !== "abort" || result.by === null || result.by === undefined) return null;
  return B.fmt(L.matchAbortedBy, {name: B.isolate(seatName(result.by) || L.emptySeat)});
}

export function renderResult() {
  var banner = $("result-banner");
  var result = getState().result;
  if (!result) { banner.hidden = true; banner.replaceChildren(); return; }
  var side = mySide();
  if (result.winner === null) {  // aborted, abandoned by everyone, or decided: nobody won
    banner.className = "result-banner";
    banner.dataset.winner = "";
    banner.dataset.reason = result.reason;
    var nobody = {decided: L.matchDecidedNobody, abandoned: L.matchAbandoned}[result.reason] ||
      abortedEarly(result) || abortedBy(result) || L.matchAborted;
    banner.replaceChildren(
      el("strong", {class: "result-title", text: L.matchOver + " · " + nobody}),
      el("a", {class: "button", href: url("lobby"), text: L.backToLobby}));
    banner.hidden = false;
    noticesUnderResult();
    return;
  }
  var winners = players() === 4 ? B.fmt(L.winsPair, {names: sideNames(result.winner)})
    : B.fmt(L.winsOne, {name: sideNames(result.winner)});
  var headline = side === null ? winners : (side === result.winner ? L.youWon : L.youLost);
  banner.className = "result-banner" + (side === null ? "" : side === result.winner ? " won" : " lost");
  banner.dataset.winner = result.winner;
  var reason = resultReason(result, side);
  var order = T.sideOrder();
  banner.dataset.reason = result.reason || "target";
  banner.replaceChildren.apply(banner, [
    el("strong", {class: "result-title", text: L.matchOver + " · " + headline}),
    reason ? el("span", {class: "result-reason", text: reason}) : null,
    // Each name a unit of its own, whole on one line, the words joining partners ("&", "و")
    // outside the names (sideNameNodes): one <bdi> of "a & b" let an Arabic line carry the
    // "و" into "فاطمة-Z" and break the name at its hyphen.
    el("span", {class: "result-line"}, sideNameNodes(order[0]).concat(
      // The score a box of its own, apart from the names, so that a number in a name
      // ("Greedy 2") never reads as part of it; each side's number a flex item of its own, so
      // that it sits beside its side's name whichever way the line runs (one text "0 – 30" in an
      // Arabic line keeps its left-to-right order and puts each number beside the other side).
      el("strong", {class: "result-score"}, [
        el("span", {text: String(result.scores[order[0]])}),
        el("span", {text: " – "}),
        el("span", {text: String(result.scores[order[1]])}),
      ]),
      sideNameNodes(order[1]))),
    provided("resultLine")[0] || null,  // an app's line (the ratings' changes)
    cfg.urls.replay ? el("a", {class: "button primary", id: "replay-link", href: url("replay"), text: L.watchReplay}) : null,
    el("a", {class: "button", href: url("lobby"), text: L.backToLobby})
  ].filter(Boolean));
  banner.hidden = false;
  noticesUnderResult();
}

/** The site's notices (static/games/notices.js) moved into the page's flow under the result
 * and its rematch panel, once the result shows: fixed in their corner, they covered the result
 * of a phone held sideways, a banner taller than its screen, and the result comes first. */
function noticesUnderResult() {
  var notices = document.getElementById("site-notices");
  var rematch = $("rematch");
  if (!notices || rematch.nextElementSibling === notices) return;
  notices.classList.add("under-result");
  rematch.after(notices);
}

export function openHistory() {
  var dialog = $("history-dialog");
  if (!dialog.open) dialog.showModal();
}

/** Whether the round's score covers the floor now (board.js waits for it to go). */
export function scoreOverTable() { return T.root.dataset.scoreOver === "1"; }
export {closeBreakdown as closeScore};
