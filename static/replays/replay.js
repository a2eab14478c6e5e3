/* The replay viewer (games/replays): steps through the positions the server computed with the
 * engine (games/replays/positions.py) and only displays them. Keys: ←/→ and j/k one play, ↑/↓
 * the start or end of a round, Home/End; autoplay with a speed; ?ply=N opens position N.
 * An ES module, the replay page's entry (live.js: el, fmt, cardNode; fair.js: the shuffle verifier). */
import {fair as shuffle} from "../games/fair.js";
import * as B from "../games/live.js";
import {L} from "./labels.js";

var el = B.el;
var config = B.config("replay-config");
var data = config.replay;
var P = data.positions;
var R = data.rounds;
var n = data.players;
var $ = function (id) { return document.getElementById(id); };
var root = $("replay");
var cur = 0;
var timer = null;
var analysis = config.analysis;
var byPlay = {};  // "round:play" -> the analysis of that play
var chanceCurve = null;  // the analysis's curve: side 0's chance before the first play and after each

function clamp(i) { return Math.max(0, Math.min(P.length - 1, i)); }

function initial() {
  var ply = parseInt(new URLSearchParams(window.location.search).get("ply"), 10);
  return isNaN(ply) ? 0 : clamp(ply);
}

function position(seat) {
  if (n === 2) return seat === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][seat];
}

function shareUrl(i) {
  var url = new URL(config.share);
  url.searchParams.set("ply", String(i));
  return url.toString();
}

function card(code, size, extra) { return B.cardNode(code, L, {size: size, extraClass: extra}); }

function seatBox(pos, seat) {
  var rnd = R[pos.round];
  var hand = pos.hands[seat];
  var onTurn = pos.turn === seat;
  var badges = [];
  if (rnd.dealer === seat) badges.push(el("span", {class: "badge dealer", text: L.dealer}));
  if (onTurn) badges.push(el("span", {class: "badge to-play", text: L.toPlay}));
  return el("div", {class: "seat-box replay-seat" + (onTurn ? " on-turn" : ""),
                    dataset: {seat: seat, handSize: hand.length}}, [
    el("div", {class: "seat-name"}, [
      el("bdi", {class: "name", text: config.seatNames[seat]}),
      B.titleMark((config.seatTitles || [])[seat], L),
    ]),
    el("div", {class: "open-hand", dataset: {hand: hand.join(" ")}}, hand.length
      ? hand.map(function (code) { return card(code, "mini"); })
      : [el("span", {class: "empty-note", text: L.handEmpty})]),
    el("div", {class: "seat-info"}, badges),
  ]);
}

function renderScoreboard(pos) {
  var box = $("scoreboard");
  box.replaceChildren.apply(box, [0, 1].map(function (side) {
    return el("div", {class: "side", dataset: {side: side}}, [
      el("bdi", {class: "side-name", text: config.sideNames[side]}),
      el("span", {class: "side-score", dataset: {score: pos.scores[side]}, text: String(pos.scores[side])}),
      el("span", {class: "side-stats"}, [
        el("span", {}, [L.pile, el("span", {class: "stat-value", dataset: {pile: pos.piles[side]},
                                            text: String(pos.piles[side])})]),
        el("span", {}, [L.basras, el("span", {class: "stat-value",
                                              text: String(pos.basras[side] + pos.jack_basras[side])})]),
      ]),
    ]);
  }));
}

function analysisNote(pos) {
  if (!pos.last) return null;
  var found = byPlay[pos.round + ":" + (pos.play - 1)];
  if (!found) return null;
  if (found.forced) return el("span", {class: "analysis-note", text: L.forced});
  if (found.loss <= 1 && !found.grade) return el("span", {class: "analysis-note good", text: L.botAgrees});
  var text = B.fmt(L.bestWas, {card: B.cardName(found.best, L), loss: B.number(found.loss, 1)});
  // Older analyses (the strong bot's) have no chance and no grade.
  if (found.chance_loss) text += L.partSeparator + B.fmt(L.chanceLost, {chance: B.number(found.chance_loss, 1)});
  if (found.grade) text = L.grade[found.grade] + " · " + text;
  if (found.labels && found.labels.length) text += " · " + mistakeText(found.labels);
  return el("span", {class: "analysis-note bad", dataset: {loss: found.loss}, text: text});
}

/** A mistake's labels (games/replays/mistakes.py) in words; older analyses have none. */
function mistakeText(labels) {
  return (labels || []).map(function (label) {
    // A count of cards has the language's plural forms (Arabic's dual: "بورقتين").
    var template = label.code === "missed_capture"
      ? B.ngettext("missed a capture of %(cards)s more card", "missed a capture of %(cards)s more cards", label.cards)
      : L.mistakes[label.code];
    // A card is named as the table names it ("jack of hearts"), not by its code ("JH").
    var values = label.card ? Object.assign({}, label, {card: B.cardName(label.card, L)}) : label;
    return template ? B.fmt(template, values) : "";
  }).filter(Boolean).join(L.mistakeSeparator);
}

function renderLastPlay(pos) {
  var box = $("last-play");
  var play = pos.last;
  if (!play) { box.hidden = true; box.replaceChildren(); return; }
  var parts = [
    // A span, reading in the page's direction: as a <bdi> (direction from its first letter,
    // Chromium not skipping the name's isolate) an Arabic name put "played" before it.
    el("span", {class: "last-label", text: B.fmt(L.played, {name: B.isolate(config.seatNames[play.seat])})}),
    card(play.card, "mini", "played"),
    el("span", {class: "last-label", text: play.taken.length ? L.took : L.tookNothing}),
  ].concat(play.taken.map(function (code) { return card(code, "mini"); }));
  if (play.timeout) parts.push(el("span", {class: "last-label timed-out", text: L.timeout}));
  if (play.basra) parts.push(el("span", {class: "badge basra-badge", dataset: {basra: play.basra},
                                         text: play.basra === "jack_basra" ? L.jackBasra : L.basra}));
  parts.push(analysisNote(pos));
  box.replaceChildren.apply(box, parts.filter(Boolean));
  box.dataset.card = play.card;
  box.hidden = false;
}

function renderRoundEnd(pos) {
  var box = $("round-end");
  var rnd = R[pos.round];
  if (cur !== rnd.last || !rnd.score) { box.hidden = true; box.replaceChildren(); return; }
  var parts = [B.fmt(L.roundEnd, {number: rnd.number, a: rnd.score.total[0], b: rnd.score.total[1]})];
  if (rnd.leftover && rnd.leftover.side !== null) {
    parts.push(" " + B.fmt(L.leftover, {side: config.sideNames[rnd.leftover.side]}) + " ");
    rnd.leftover.cards.forEach(function (code) { parts.push(card(code, "mini")); });
  }
  box.replaceChildren.apply(box, parts);
  box.hidden = false;
}

function renderStock(pos) {
  var deals = R[pos.round].deals.filter(function (d) { return d.play <= pos.play; });
  var stock = deals[deals.length - 1].stock;
  $("stock-title").textContent = stock.length ? B.fmt(B.ngettext("Stock, top first (%(count)s card)", "Stock, top first (%(count)s cards)", stock.length),
                                                                  {count: stock.length}) : L.stockEmpty;
  var box = $("stock");
  box.dataset.stock = stock.join(" ");
  box.replaceChildren.apply(box, stock.map(function (code) { return card(code, "mini"); }));
}

function render() {
  var pos = P[cur];
  var rnd = R[pos.round];
  root.dataset.ply = cur;
  root.dataset.round = rnd.number;
  root.dataset.play = pos.play;
  renderScoreboard(pos);
  var board = $("board");
  board.dataset.players = n;
  board.querySelectorAll(".seat-slot").forEach(function (slot) { slot.replaceChildren(); });
  for (var seat = 0; seat < n; seat++) {
    board.querySelector('.seat-slot[data-pos="' + position(seat) + '"]').appendChild(seatBox(pos, seat));
  }
  var floor = $("floor");
  floor.dataset.floor = pos.floor.join(" ");
  floor.replaceChildren.apply(floor, pos.floor.length
    ? pos.floor.map(function (code) { return card(code, "small"); })
    : [el("p", {class: "empty-note", text: L.floorEmpty})]);
  renderLastPlay(pos);
  renderRoundEnd(pos);
  renderChance();
  renderStock(pos);
  $("position-label").textContent = pos.play === 0
    ? B.fmt(L.dealt, {round: rnd.number})
    : B.fmt(L.position, {round: rnd.number, play: pos.play, plays: rnd.last - rnd.first});
  $("scrub").value = String(cur);
  $("share-link").value = shareUrl(cur);
  document.querySelectorAll("#moves .move.current").forEach(function (node) { node.classList.remove("current"); });
  var move = document.querySelector('#moves .move[data-ply="' + cur + '"]');
  if (move) {
    move.classList.add("current");
    var details = move.closest("details");
    if (details && !details.open) details.open = true;
  }
  var url = new URL(window.location.href);
  url.searchParams.set("ply", String(cur));
  window.history.replaceState(null, "", url.toString());
}

function go(i) {
  i = clamp(i);
  if (i === cur) return;
  cur = i;
  render();
}

function roundOf(i) { return R[P[i].round]; }
function roundStart() { var r = roundOf(cur); go(cur === r.first && P[cur].round > 0 ? R[P[cur].round - 1].first : r.first); }
function roundEnd() { var r = roundOf(cur); go(cur === r.last && P[cur].round + 1 < R.length ? R[P[cur].round + 1].last : r.last); }

function stopAutoplay() {
  if (timer !== null) window.clearInterval(timer);
  timer = null;
  var button = $("autoplay");
  button.textContent = L.play;
  button.setAttribute("aria-pressed", "false");
}

function startAutoplay() {
  stopAutoplay();
  if (cur >= P.length - 1) go(0);
  var button = $("autoplay");
  button.textContent = L.pause;
  button.setAttribute("aria-pressed", "true");
  timer = window.setInterval(function () {
    if (cur >= P.length - 1) { stopAutoplay(); return; }
    go(cur + 1);
  }, parseInt($("speed").value, 10));
}

/** Whether a play is marked a mistake in the list of plays: a graded one (inaccuracy, mistake
 * or blunder: games/replays/analysis.py grades on the chance of winning lost, on points once
 * the match is decided), so that the marks are exactly the plays the summary counts; an older
 * analysis, without grades, marks a loss above one point. */
function marked(found) {
  if (!found || found.forced) return false;
  return isGraded() ? Boolean(found.grade) : found.loss > 1;
}

function isGraded() {
  return Boolean(analysis && analysis.result && analysis.result.players.length &&
                 analysis.result.players[0].accuracy !== undefined);
}

function buildMoves() {
  var box = $("moves");
  box.replaceChildren.apply(box, R.map(function (rnd, index) {
    var items = [el("li", {}, [el("button", {type: "button", class: "move deal", dataset: {ply: rnd.first},
                                             text: B.fmt(L.dealt, {round: rnd.number})})])];
    for (var i = rnd.first + 1; i <= rnd.last; i++) {
      var last = P[i].last;
      var found = byPlay[index + ":" + (P[i].play - 1)];
      var classes = "move" + (last.basra ? " basra" : "") + (last.timeout ? " timeout" : "");
      if (marked(found)) classes += " mistake";
      items.push(el("li", {}, [el("button", {
        type: "button", class: classes, dataset: {ply: i, card: last.card},
        title: found && !found.forced ? B.fmt(L.bestWas, {card: B.cardName(found.best, L), loss: B.number(found.loss, 1)}) : null,
      }, [String(P[i].play) + ". ", el("bdi", {text: config.seatNames[last.seat]}), " ",
          // The card by its name in the page's language ("jack of clubs", "ولد سباتي").
          el("strong", {class: "move-card", text: B.cardName(last.card, L)}),
          last.taken.length ? " ×" + last.taken.length : "",
          last.basra ? " ★" : "", last.timeout ? " ⏱" : "",
          marked(found) ? " −" + B.number(found.loss, 1) : ""])]));
    }
    return el("details", {class: "round-moves", open: index === P[cur].round}, [
      el("summary", {text: B.fmt(L.round, {number: rnd.number}) + " · " + rnd.totals[0] + " – " + rnd.totals[1]}),
      el("ol", {class: "move-list"}, items),
    ]);
  }));
}

// --- analysis --------------------------------------------------------------------------------

function csrf() {
  var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : config.csrfToken;
}

function renderAnalysis() {
  var box = $("analysis-summary");
  var button = $("analyse");
  box.dataset.status = analysis ? analysis.status : "";
  if (!analysis || analysis.status === "failed") {
    button.hidden = false;
    button.disabled = false;
    box.replaceChildren(analysis ? el("p", {class: "table-error", text: B.fmt(L.analysisFailed, {error: analysis.error})}) : "");
    return;
  }
  button.hidden = true;
  if (analysis.status === "pending") { box.textContent = L.analysisWaiting; return; }
  if (analysis.status === "running") {
    box.replaceChildren(el("p", {text: B.fmt(L.analysisRunning, {done: analysis.done, total: analysis.total || "…"})}),
                        el("progress", {max: analysis.total || 1, value: analysis.done}));
    return;
  }
  var result = analysis.result;
  byPlay = {};
  result.plays.forEach(function (p) { byPlay[p.round + ":" + p.play] = p; });
  box.replaceChildren.apply(box, result.players.map(function (player) {
    var graded = player.accuracy !== undefined;
    return el("div", {class: "accuracy", dataset: {seat: player.seat, meanLoss: player.mean_loss, accuracy: graded ? player.accuracy : ""}}, [
      graded ? el("p", {class: "accuracy-line"}, [
        el("strong", {text: B.isolate(config.seatNames[player.seat]) + " · " + B.fmt(L.accuracy, {accuracy: B.number(player.accuracy, 1)})}),
        el("span", {text: L.partSeparator + B.fmt(L.grades, player)}),
      ]) : null,
      el("p", {text: B.fmt(L.meanLoss, {name: B.isolate(config.seatNames[player.seat]), loss: B.number(player.mean_loss, 2)}) +
                     (graded ? "" : L.partSeparator + B.fmt(B.ngettext("%(count)s mistake", "%(count)s mistakes", player.mistakes),
                                  {count: player.mistakes}))}),
      result.luck ? el("p", {class: "luck", dataset: {luck: result.luck[player.seat % 2]},
                             text: B.fmt(L.luck, {luck: B.number(result.luck[player.seat % 2], 1, {signDisplay: "exceptZero"})})}) : null,
      el("ul", {class: "worst"}, player.worst.map(function (index) {
        var p = result.plays[index];
        var ply = R[p.round].first + p.play + 1;
        var why = mistakeText(p.labels);
        // What was graded: the play's grade, or "not graded", with the chance it gave up.
        var verdict = isGraded() ? (p.grade ? L.grade[p.grade] : L.notGraded) : "";
        if (verdict && p.chance_loss !== undefined) {
          verdict += L.partSeparator + B.fmt(L.chanceLost, {chance: B.number(p.chance_loss, 1)});
        }
        return el("li", {dataset: {labels: (p.labels || []).map(function (l) { return l.code; }).join(" "),
                                   grade: p.grade || ""}}, [
          el("a", {href: "?ply=" + ply, dataset: {ply: ply},
            on: {click: function (event) { event.preventDefault(); go(ply); }},
            text: B.fmt(L.worst, {round: p.round + 1, play: p.play + 1, card: B.cardName(p.card, L),
                                  best: B.cardName(p.best, L),
                                  loss: B.number(p.loss, 1)})}),
          verdict ? el("span", {class: "grade-label" + (p.grade ? " graded" : ""), text: verdict}) : null,
          why ? el("span", {class: "mistake-label", text: why}) : null,
        ].filter(Boolean));
      })),
    ].filter(Boolean));
  }).concat(result.curve ? [chanceGraph(result.curve)] : []));
  chanceCurve = result.curve || null;
  renderLossBars(result);
  buildMoves();
  render();
}

/** The plays made up to position ``i`` of the replay, every round's: the curve's index there
 * (a deal position makes none, so it shares the index of the play before it). */
function playsBefore(i) {
  var round = P[i].round;
  var made = P[i].play;
  for (var r = 0; r < round; r++) made += R[r].last - R[r].first;
  return made;
}

/** Side 0's chance of winning (percent) before the first play and after each, as a line over
 * a 50% mid-line and a mark at the replay's play; it reads in the page's direction (mirrored
 * right to left). Its caption and mark follow the replay (renderChance). */
function chanceGraph(curve) {
  var ns = "http://www.w3.org/2000/svg";
  var svg = document.createElementNS(ns, "svg");
  var last = Math.max(1, curve.length - 1);
  svg.setAttribute("viewBox", "0 0 " + last + " 100");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  var mid = document.createElementNS(ns, "line");
  [["x1", 0], ["y1", 50], ["x2", last], ["y2", 50], ["class", "chance-mid"]].forEach(function (a) { mid.setAttribute(a[0], a[1]); });
  var line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", curve.map(function (c, i) { return i + "," + (100 - c).toFixed(2); }).join(" "));
  line.setAttribute("class", "chance-line");
  line.setAttribute("vector-effect", "non-scaling-stroke");
  mid.setAttribute("vector-effect", "non-scaling-stroke");
  var now = document.createElementNS(ns, "line");
  [["y1", 0], ["y2", 100], ["class", "chance-now"], ["vector-effect", "non-scaling-stroke"]].forEach(function (a) { now.setAttribute(a[0], a[1]); });
  svg.append(mid, line, now);
  return el("figure", {class: "chance-graph", dataset: {points: curve.length}}, [el("figcaption"), svg]);
}

/** The chance graph's caption and mark at the replay's current position: the chance after the
 * last play made there (50% before the first). */
function renderChance() {
  var graph = document.querySelector("#analysis-summary .chance-graph");
  if (!graph || !chanceCurve) return;
  var index = Math.min(playsBefore(cur), chanceCurve.length - 1);
  var chance = chanceCurve[index];
  var caption = B.fmt(config.seatNames.length === 2 ? L.chanceGraphOne : L.chanceGraph, {name: B.isolate(config.seatNames[0])});
  graph.dataset.play = index;
  graph.dataset.chance = chance;
  graph.querySelector("figcaption").textContent = B.fmt(L.chanceNow, {graph: caption, chance: B.number(chance / 100, 0, {style: "percent"})});
  var now = graph.querySelector(".chance-now");
  now.setAttribute("x1", index);
  now.setAttribute("x2", index);
}

/** Points lost per round by each side, as bars under the chart. */
function renderLossBars(result) {
  var loss = R.map(function () { return [0, 0]; });
  result.plays.forEach(function (p) { loss[p.round][p.seat % 2] += p.loss; });
  var top = Math.max.apply(null, loss.map(function (l) { return Math.max(l[0], l[1]); }).concat([1]));
  var box = $("loss-bars");
  box.replaceChildren.apply(box, [el("p", {class: "help", text: L.lossBar})].concat(loss.map(function (l, i) {
    return el("div", {class: "loss-row"}, [
      el("span", {class: "loss-round", text: String(i + 1)}),
      el("span", {class: "loss-bar side-0", style: "inline-size:" + (100 * l[0] / top).toFixed(1) + "%",
                  title: B.number(l[0], 1)}),
      el("span", {class: "loss-bar side-1", style: "inline-size:" + (100 * l[1] / top).toFixed(1) + "%",
                  title: B.number(l[1], 1)}),
    ]);
  })));
  box.hidden = false;
}

function poll() {
  fetch(config.urls.analysis, {credentials: "same-origin"})
    .then(function (response) { return response.json(); })
    .then(function (body) {
      analysis = body.status ? body : null;
      renderAnalysis();
      if (analysis && (analysis.status === "pending" || analysis.status === "running")) window.setTimeout(poll, 1000);
    });
}

// A visitor who is not logged in has a log-in link there instead of the button (replay.html).
if (!("login" in $("analyse").dataset)) $("analyse").addEventListener("click", function () {
  $("analyse").disabled = true;
  fetch(config.urls.analysis, {method: "POST", credentials: "same-origin", headers: {"X-CSRFToken": csrf()}})
    .then(function (response) { return response.json(); })
    .then(function (body) {
      if (body.code) {  // refused (games.core.errors): say why, keep the button
        $("analyse").disabled = false;
        var box = $("analysis-summary");
        box.dataset.status = "refused";
        box.dataset.code = body.code;
        box.replaceChildren(el("p", {class: "table-error", text: body.message}));
        return;
      }
      analysis = body; renderAnalysis(); window.setTimeout(poll, 1000);
    });
});

// --- the fair shuffle ------------------------------------------------------------------------

function renderFair() {
  var fair = config.shuffle;
  var box = $("fairness");
  if (!fair) return;
  var summary = el("p", {id: "verify-summary", class: "verify-summary", role: "status", hidden: true});
  var list = el("ol", {id: "verify-results", class: "verify-results"});
  var button = el("button", {type: "button", class: "button primary", id: "verify-button", text: L.verify});
  box.replaceChildren(
    el("h2", {id: "fairness-title", text: L.fairTitle}),
    el("dl", {class: "fair-data"}, [
      el("dt", {text: L.commitment}), el("dd", {}, [el("code", {class: "commitment-hex", text: fair.commitment})]),
      el("dt", {text: L.serverSeed}), el("dd", {}, [el("code", {class: "commitment-hex", text: fair.server_seed})]),
    ]),
    button, summary, list);
  box.hidden = false;
  button.addEventListener("click", function () {
    summary.hidden = false;
    if (!shuffle.available()) { summary.textContent = L.noWebCrypto; summary.dataset.ok = "false"; return; }
    button.disabled = true;
    summary.textContent = L.verifying;
    var record = {shuffle: fair, rounds: R.map(function (r) { return {dealer: r.dealer, deck: r.deck}; })};
    shuffle.verify(record).then(function (checks) {
      var label = function (c) {
        return c.what === "commitment" ? L.checkCommitment : B.fmt(c.what === "deck" ? L.checkDeck : L.checkDealer, {number: c.round});
      };
      list.replaceChildren.apply(list, checks.map(function (c) {
        return el("li", {class: c.ok ? "ok" : "bad", dataset: {ok: String(c.ok)}},
                  [label(c) + " ", el("strong", {text: c.ok ? L.matches : L.doesNotMatch})]);
      }));
      var failed = checks.filter(function (c) { return !c.ok; });
      summary.dataset.ok = String(!failed.length);
      summary.textContent = failed.length ? B.fmt(L.someDiffer, {rounds: B.list(failed.map(label))}) : L.allMatch;
    }).catch(function (error) {
      summary.dataset.ok = "false";
      summary.textContent = B.fmt(L.verifyFailed, {error: error.message || String(error)});
    }).then(function () { button.disabled = false; });
  });
}

// --- wiring ----------------------------------------------------------------------------------

$("go-first").addEventListener("click", function () { stopAutoplay(); go(0); });
$("go-last").addEventListener("click", function () { stopAutoplay(); go(P.length - 1); });
$("go-back").addEventListener("click", function () { stopAutoplay(); go(cur - 1); });
$("go-forward").addEventListener("click", function () { stopAutoplay(); go(cur + 1); });
$("go-round-start").addEventListener("click", function () { stopAutoplay(); roundStart(); });
$("go-round-end").addEventListener("click", function () { stopAutoplay(); roundEnd(); });
$("autoplay").addEventListener("click", function () { if (timer === null) startAutoplay(); else stopAutoplay(); });
$("speed").addEventListener("change", function () { if (timer !== null) startAutoplay(); });
var scrub = $("scrub");
scrub.max = String(P.length - 1);
scrub.addEventListener("input", function () { stopAutoplay(); go(parseInt(scrub.value, 10)); });
$("moves").addEventListener("click", function (event) {
  var move = event.target.closest(".move");
  if (move) { stopAutoplay(); go(parseInt(move.dataset.ply, 10)); }
});
$("share").addEventListener("click", function () {
  var link = $("share-link");
  link.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(function () {});
  $("share").dataset.copied = "true";
});
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  var tag = event.target && event.target.tagName;
  if (tag === "INPUT" && event.target.type !== "range" || tag === "TEXTAREA" || tag === "SELECT") return;
  var actions = {
    ArrowLeft: function () { go(cur - 1); }, j: function () { go(cur - 1); },
    ArrowRight: function () { go(cur + 1); }, k: function () { go(cur + 1); },
    ArrowUp: roundStart, ArrowDown: roundEnd,
    Home: function () { go(0); }, End: function () { go(P.length - 1); },
  };
  var action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  stopAutoplay();
  action();
});

cur = initial();
buildMoves();
render();
renderAnalysis();
if (analysis && (analysis.status === "pending" || analysis.status === "running")) window.setTimeout(poll, 1000);
renderFair();
root.dataset.ready = "true";
