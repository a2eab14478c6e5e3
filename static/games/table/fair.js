/* The live table's fairness panel (RULES.md, "Provably fair shuffle"): the commitment, the client
 * seeds, the server seed once the match is over, and then the check of every deck in this browser
 * (static/games/fair.js). A view module of the table (main.js). */
import {fair as shuffle} from "../fair.js";
import * as B from "../live.js";
import * as T from "./kit.js";
import {getState} from "./store.js";

var el = B.el;
var L = T.L;
var $ = T.$;
var seatName = T.seatName, url = T.url;

// --- the fair shuffle ----------------------------------------------------------------------

var fairKey = null;  // what the fairness panel was last drawn from (redrawn only when it changes)

/** The fairness panel: the commitment from the creation on, the client seeds from the start,
 * the server seed once the match is over, and then the verifier (static/games/fair.js). */
export function renderFair() {
  var box = $("fairness");
  var fair = getState().match.shuffle;
  if (!fair) { box.hidden = true; fairKey = null; return; }
  var key = JSON.stringify([fair, (getState().seats || []).length]);
  if (key === fairKey) return;
  fairKey = key;
  var seeds = fair.client_seeds
    ? el("ol", {class: "seed-list", id: "fair-client-seeds"}, fair.client_seeds.map(function (seed, seat) {
        return el("li", {dataset: {seat: seat}}, [
          // The name isolated and the colon outside it: inside, a name that starts in Arabic
          // put the colon before it in an English list ("3. :Sara_98سارة").
          el("bdi", {class: "seed-owner", text: seatName(seat) || L.emptySeat}), B.colon() + " ",
          seed ? el("code", {dir: "ltr", text: seed}) : el("span", {class: "help", text: L.computerSeed}),
        ]);
      }))
    : el("p", {class: "help", text: L.seedsAtStart});
  var parts = [
    el("h2", {id: "fairness-title", text: L.fairTitle}),
    el("p", {class: "help", text: B.fmt(L.fairIntro, {algorithm: fair.algorithm})}),
    el("dl", {class: "fair-data"}, [
      el("dt", {text: L.commitment, title: L.commitmentTitle}),
      el("dd", {}, [el("code", {id: "fair-commitment", class: "commitment-hex", text: fair.commitment})]),
      el("dt", {text: L.clientSeeds}),
      el("dd", {}, [seeds]),
      el("dt", {text: L.serverSeed}),
      el("dd", {}, [fair.server_seed
        ? el("code", {id: "fair-server-seed", class: "commitment-hex", text: fair.server_seed})
        : el("span", {class: "help", text: L.serverSeedHidden})]),
    ]),
  ];
  if (fair.server_seed) {
    parts.push(el("div", {class: "table-row-actions"}, [
      el("button", {type: "button", class: "button primary", id: "verify-button", text: L.verify,
                    on: {click: runVerify}}),
      el("a", {class: "button secondary", id: "record-link", href: url("record"), download: "",
               text: L.downloadRecord}),
    ]));
    parts.push(el("p", {id: "verify-summary", class: "verify-summary", role: "status", hidden: true}));
    parts.push(el("ol", {id: "verify-results", class: "verify-results"}));
  }
  box.replaceChildren.apply(box, parts);
  box.hidden = false;
}

function checkLabel(check) {
  if (check.what === "commitment") return L.checkCommitment;
  return B.fmt(check.what === "deck" ? L.checkDeck : L.checkDealer, {number: check.round});
}

/** Fetch the record, recompute everything in this browser, and list each check. */
function runVerify() {
  var button = $("verify-button");
  var summary = $("verify-summary");
  var list = $("verify-results");
  var shown = getState().match.shuffle.commitment;
  summary.hidden = false;
  summary.dataset.ok = "";
  list.replaceChildren();
  if (!shuffle.available()) {
    summary.textContent = L.noWebCrypto;
    summary.dataset.ok = "false";
    return;
  }
  button.disabled = true;
  summary.textContent = L.verifying;
  fetch(url("record"), {credentials: "same-origin"})
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    })
    .then(function (record) { return shuffle.verify(record, shown); })
    .then(function (checks) {
      list.replaceChildren.apply(list, checks.map(function (check) {
        return el("li", {class: check.ok ? "ok" : "bad",
                         dataset: {check: check.what, round: check.round === null ? "" : check.round,
                                   ok: String(check.ok)}},
                  [checkLabel(check) + " ", el("strong", {text: check.ok ? L.matches : L.doesNotMatch})]);
      }));
      var failed = checks.filter(function (check) { return !check.ok; });
      summary.dataset.ok = String(failed.length === 0);
      summary.dataset.failedRounds = failed.filter(function (c) { return c.round !== null; })
        .map(function (c) { return c.round; })
        .filter(function (r, i, all) { return all.indexOf(r) === i; }).join(",");
      if (!failed.length) summary.textContent = L.allMatch;
      else if (failed.length === 1 && failed[0].what === "commitment") summary.textContent = L.commitmentDiffers;
      else summary.textContent = B.fmt(L.roundsDiffer, {rounds: B.list(failed.map(checkLabel))});
    })
    .catch(function (error) {
      summary.dataset.ok = "false";
      summary.textContent = B.fmt(L.verifyFailed, {error: error.message || String(error)});
    })
    .then(function () { button.disabled = false; });
}
