/* The live table's scores: the last round's breakdown under the hand and its one line above the
 * table, every round played (and its dialog, the tools' "Scores"), and the match's result banner.
 * Built on window.Basra.tableKit (table_state.js). */
(function () {
  "use strict";
  var B = window.Basra;
  var T = B.tableKit;
  var el = B.el;
  var cfg = T.cfg;
  var L = T.L;
  var $ = T.$;
  var mySide = T.mySide, players = T.players, sideNames = T.sideNames, url = T.url;

  var shownRounds = null;  // how many round results the breakdown panel has seen
  var breakdownOpen = false;

  function breakdownTable(result, cumulative) {
    var rules = T.state.match.rules;
    var row = function (label, values, key) {
      return el("tr", {dataset: {row: key}}, [el("th", {scope: "row", text: label})].concat(
        values.map(function (v) { return el("td", {text: String(v)}); })));
    };
    var rows = [
      row(L.cards, result.cards, "cards"),
      row(L.majority, result.majority, "majority"),
      row(L.basras, result.basras, "basras"),
    ];
    if (rules.jack_basra_points) rows.push(row(L.jackBasras, result.jack_basras, "jack-basras"));
    if (rules.card_points) rows.push(row(L.cardPoints, result.card_points, "card-points"));
    rows.push(row(L.roundTotal, result.total, "total"));
    if (cumulative) rows.push(row(L.matchTotal, cumulative, "match-total"));
    return el("table", {class: "score-table"}, [
      el("thead", {}, [el("tr", {}, [el("td"), el("th", {scope: "col", text: sideNames(0)}),
                                     el("th", {scope: "col", text: sideNames(1)})])]),
      el("tbody", {}, rows),
    ]);
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
    T.state.round_results.slice(0, upTo + 1).forEach(function (res) {
      totals[0] += res.total[0]; totals[1] += res.total[1];
    });
    return totals;
  }

  function renderBreakdown() {
    var results = T.state.round_results || [];
    var box = $("breakdown");
    var r = T.state.round;
    if (shownRounds === null) {
      // First draw after loading: show the last round's score if the table is between rounds.
      breakdownOpen = results.length > 0 && (!r || r.over || !!T.state.result);
    } else if (results.length > shownRounds) {
      breakdownOpen = true;
    }
    shownRounds = results.length;
    renderRoundSummary(results);
    if (!breakdownOpen || !results.length) { box.hidden = true; box.replaceChildren(); }
    else {
      var last = results[results.length - 1];
      var children = [
        el("h2", {text: B.fmt(L.roundScore, {number: last.number})}),
        breakdownTable(last, cumulativeTotals(results.length - 1)),
        leftoverNote(last.leftover),
      ];
      if (!T.state.result) {
        children.push(el("div", {class: "table-row-actions"}, [
          el("button", {type: "button", class: "button", id: "breakdown-close", text: L["continue"],
            on: {click: function () { breakdownOpen = false; renderBreakdown(); }}}),
          results.length > 1 ? el("button", {type: "button", class: "button secondary", id: "breakdown-all",
            text: L.allRounds, on: {click: openHistory}}) : null,
        ]));
      }
      // replaceChildren would write a null (no leftover cards) as the text "null".
      box.replaceChildren.apply(box, children.filter(Boolean));
      box.hidden = false;
    }
    var history = $("history");
    history.hidden = results.length === 0;
    // Every round's score, one tap away from anywhere on the page (the tools' "Scores").
    $("rounds-button").hidden = results.length === 0;
    var body = results.map(function (res, i) {
      var totals = cumulativeTotals(i);
      return el("tr", {}, [
        el("th", {scope: "row", text: B.fmt(L.round, {number: res.number})}),
        el("td", {text: res.total[0] + " (" + totals[0] + ")"}),
        el("td", {text: res.total[1] + " (" + totals[1] + ")"}),
      ]);
    });
    var historyTable = function (rows) {
      return el("table", {class: "score-table"}, [
        el("thead", {}, [el("tr", {}, [el("td"), el("th", {scope: "col", text: sideNames(0)}),
                                       el("th", {scope: "col", text: sideNames(1)})])]),
        el("tbody", {}, rows),
      ]);
    };
    $("history-body").replaceChildren(historyTable(body));
    $("history-dialog-body").replaceChildren(historyTable(body.map(function (row) { return row.cloneNode(true); })));
  }

  /** One line above the table while the last round's score is open: the round's points, and
   * a link down to the whole breakdown (under the hand, so that the new hand stays in sight). */
  function renderRoundSummary(results) {
    var line = $("round-summary");
    var show = breakdownOpen && results.length > 0 && !T.state.result;
    line.hidden = !show;
    if (!show) { line.replaceChildren(); return; }
    var last = results[results.length - 1];
    line.replaceChildren(
      el("span", {text: B.fmt(L.roundPoints, {number: last.number}) + " "}),
      el("bdi", {text: sideNames(0)}), " +" + last.total[0] + " \u00B7 ",
      el("bdi", {text: sideNames(1)}), " +" + last.total[1] + " ",
      el("a", {href: "#breakdown", id: "round-summary-link", text: L.seeScore,
               on: {click: function (event) {
                 event.preventDefault();
                 $("breakdown").scrollIntoView({behavior: B.fx.reducedMotion() ? "auto" : "smooth", block: "nearest"});
               }}}));
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

  function renderResult() {
    var banner = $("result-banner");
    var result = T.state.result;
    if (!result) { banner.hidden = true; banner.replaceChildren(); return; }
    var side = mySide();
    if (result.winner === null) {  // aborted, abandoned by everyone, or decided: nobody won
      banner.className = "result-banner";
      banner.dataset.winner = "";
      banner.dataset.reason = result.reason;
      var nobody = {decided: L.matchDecidedNobody, abandoned: L.matchAbandoned}[result.reason] ||
        L.matchAborted;
      banner.replaceChildren(
        el("strong", {class: "result-title", text: L.matchOver + " · " + nobody}),
        el("a", {class: "button", href: url("lobby"), text: L.backToLobby}));
      banner.hidden = false;
      return;
    }
    var winners = players() === 4 ? B.fmt(L.winsPair, {names: sideNames(result.winner)})
      : B.fmt(L.winsOne, {name: sideNames(result.winner)});
    var headline = side === null ? winners : (side === result.winner ? L.youWon : L.youLost);
    banner.className = "result-banner" + (side === null ? "" : side === result.winner ? " won" : " lost");
    banner.dataset.winner = result.winner;
    var reason = resultReason(result, side);
    banner.dataset.reason = result.reason || "target";
    banner.replaceChildren.apply(banner, [
      el("strong", {class: "result-title", text: L.matchOver + " · " + headline}),
      reason ? el("span", {class: "result-reason", text: reason}) : null,
      el("span", {class: "result-line"}, [
        el("bdi", {text: sideNames(0)}), " " + result.scores[0] + " – " + result.scores[1] + " ",
        el("bdi", {text: sideNames(1)}),
      ]),
      T.changesLine(),  // a rated match's changes (table_ratings.js)
      cfg.urls.replay ? el("a", {class: "button primary", id: "replay-link", href: url("replay"), text: L.watchReplay}) : null,
      el("a", {class: "button", href: url("lobby"), text: L.backToLobby})
    ].filter(Boolean));
    banner.hidden = false;
  }

  function openHistory() {
    var dialog = $("history-dialog");
    if (!dialog.open) dialog.showModal();
  }

  Object.assign(T, {openHistory: openHistory, renderBreakdown: renderBreakdown,
    renderResult: renderResult});
})();
