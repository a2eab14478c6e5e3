/* The live table. The server sends the full state on every change ({"type": "state", "seq": N, ...},
 * docs/protocol.md); this script only draws the latest one. It remembers the last seq: an older
 * state is ignored, a jump past seq + 1 means messages were missed, so it asks for a resync.
 * A card click sends one play and disables the hand until the next state or error arrives. */
(function () {
  "use strict";
  var B = window.Basra;
  var el = B.el;
  var cfg = B.config("table-config");
  var L = cfg.labels;
  var root = document.getElementById("table");
  var $ = function (id) { return document.getElementById(id); };

  var state = null;        // the latest state message
  var pending = false;     // a play was sent and not answered yet
  var live = false;        // the socket is open: a click can reach the server
  var firstState = false;  // the state drawn is the first one since the socket opened
  var myTimeout = null;    // {card, round}: the server played this card for me (time ran out)
  var shownRounds = null;  // how many round results the breakdown panel has seen
  var breakdownOpen = false;
  var errorTimer = null;
  var baseTitle = document.title;

  function url(name) {
    return cfg.urls[name].replace("{id}", cfg.matchId);
  }

  // --- reading the state -------------------------------------------------------------------

  function players() { return state.match.players; }

  function seatOf(seat) {
    return (state.seats || []).filter(function (s) { return s.seat === seat; })[0] || null;
  }

  /** 1, 2, … among the computer seats (no person) when the table has more than one, else null:
   * two computer seats never read the same ("Computer 1 (Greedy)", games.models.seat_display_names). */
  function botNumber(seat) {
    var bots = (state.seats || []).filter(function (s) { return !s.username && s.bot; })
      .map(function (s) { return s.seat; }).sort();
    return bots.length > 1 ? bots.indexOf(seat) + 1 : null;
  }

  /** A computer seat's level for narrow places, numbered when the table has several ("Greedy 2"). */
  function botShortName(seat) {
    var found = seatOf(seat);
    var level = L.botLevels[found.bot] || found.bot;
    var number = botNumber(seat);
    return number ? B.fmt(L.botShort, {level: level, number: number}) : level;
  }

  /** The name shown for a seat: the person's, or "Computer (level)" for a computer seat. */
  function seatName(seat) {
    var found = seatOf(seat);
    if (!found) return null;
    if (found.username) return found.username;
    if (!found.bot) return null;
    var number = botNumber(seat);
    return number ? B.fmt(L.botNumbered, {number: number, level: L.botLevels[found.bot] || found.bot})
                  : (L.bots[found.bot] || found.bot);
  }

  function isSeated() { return state.you !== null && state.you !== undefined; }

  /** The computer plays this seat now (a computer seat, or a person it replaced). */
  function isBot(seat) { var s = seatOf(seat); return !!(s && s.bot); }

  function sideNames(side) {
    var names = [];
    for (var seat = side; seat < players(); seat += 2) names.push(seatName(seat) || L.emptySeat);
    return names.length === 2 ? B.fmt(L.and, {a: names[0], b: names[1]}) : names[0];
  }

  /** The seat drawn at the bottom: mine, or seat 0 for a spectator. */
  function viewer() { return state.you === null || state.you === undefined ? 0 : state.you; }

  function mySide() { return state.you === null || state.you === undefined ? null : state.you % 2; }

  /** Screen position of a seat, turning the table so that the viewer sits at the bottom. */
  function position(seat) {
    var n = players();
    var rel = (seat - viewer() + n) % n;
    if (n === 2) return rel === 0 ? "bottom" : "top";
    return ["bottom", "right", "top", "left"][rel];
  }

  function isMyTurn() {
    var r = state && state.round;
    // A seat the computer took over is not the person's to play any more.
    return !!(r && !r.over && state.match.status === "playing" && state.you !== null &&
              state.you !== undefined && r.turn === state.you && !state.result &&
              !isBot(state.you));
  }

  // --- drawing -------------------------------------------------------------------------------

  function renderMeta() {
    var m = state.match;
    $("table-meta").replaceChildren(
      el("span", {class: "chip", text: B.fmt(L.players, {count: m.players})}),
      el("span", {class: "chip", text: B.fmt(L.target, {target: state.target})}),
      el("span", {class: "chip" + (m.rated ? " chip-rated" : ""), text: m.rated ? L.rated : L.casual}),
      el("span", {class: "chip", text: state.move_seconds ? B.fmt(L.perPlay, {seconds: state.move_seconds}) : L.noClock})
    );
  }

  var joinSeed = null;    // the client seed drawn here for joining this table (kept across redraws)
  var seedDraft = null;   // what the seated player typed in the seed box and did not send yet

  /** The client seed box (RULES.md, "Provably fair shuffle" 2): a labelled input inside form. */
  function seedField(value, onInput) {
    var input = el("input", {type: "text", name: "client_seed", id: "client-seed", class: "seed-input",
                             value: value, maxlength: 64, autocomplete: "off", spellcheck: "false",
                             required: true, dataset: {clientSeed: ""},
                             "aria-describedby": "client-seed-help",
                             on: onInput ? {input: onInput} : null});
    return el("div", {class: "field seed-field"}, [
      el("label", {for: "client-seed", text: L.yourSeed}),
      input,
      el("small", {class: "help", id: "client-seed-help", text: L.seedHelp}),
    ]);
  }

  /** A seat picker's form sends the client seed shown in the join box (the one the person may
   * have typed), not the one the form drew. */
  function useJoinSeed(event) {
    var input = event.target.querySelector('input[name="client_seed"]');
    if (input && joinSeed) input.value = joinSeed;
  }

  function renderWaiting() {
    var box = $("waiting");
    if (state.match.status !== "open") { box.hidden = true; return; }
    var n = players();
    var seated = state.you !== null && state.you !== undefined;
    var taken = 0;
    var chips = [];
    for (var seat = 0; seat < n; seat++) {
      var name = seatName(seat);
      var bot = isBot(seat);
      if (name) taken += 1;
      var chip = el("li", {class: "seat-chip" + (bot ? " bot" : name ? "" : " empty"),
                           title: !bot && name ? name : null,
                           dataset: {seat: seat, bot: bot ? seatOf(seat).bot : null}},
                    [bot ? botBadge() : null, name || L.emptySeat]);
      if (!seated && cfg.username && (bot || !name)) {
        // Choose a seat: an empty one, or a computer's (a person may take it before the start).
        var form = B.joinForm(url("join"), cfg.csrfToken, bot ? L.takeSeat : L.sitHere, "secondary");
        form.classList.add("seat-pick");
        form.appendChild(el("input", {type: "hidden", name: "seat", value: seat}));
        form.addEventListener("submit", useJoinSeed);
        chip.appendChild(form);
      }
      chips.push(chip);
    }
    // Four players: who partners whom ("Side 1: alice & carol"), partners sitting opposite.
    var sides = n === 4 ? el("ul", {class: "sides", id: "waiting-sides"}, [0, 1].map(function (side) {
      return el("li", {class: "side-line", dataset: {side: side},
                       text: B.fmt(L.sideOf, {number: side + 1, names: sideNames(side)})});
    })) : null;
    var actions = el("div", {class: "table-row-actions"});
    var seedBox = null;
    // A redraw (a state arriving) must not undo what is in the seed box now, typed or pasted.
    var typed = $("client-seed");
    if (typed && seated && typed.closest("#seed-form")) seedDraft = typed.value;
    else if (typed && !seated && typed.closest("#join-form")) joinSeed = typed.value;
    if (seated) {
      actions.appendChild(B.postForm(url("leave"), cfg.csrfToken, L.leave, "secondary"));
      // My client seed, mine to change until the start.
      var current = state.client_seed || "";
      seedBox = el("form", {method: "post", action: url("seed"), class: "seed-form", id: "seed-form"}, [
        el("input", {type: "hidden", name: "csrfmiddlewaretoken", value: cfg.csrfToken}),
        seedField(seedDraft !== null ? seedDraft : current, function (event) { seedDraft = event.target.value; }),
        el("button", {type: "submit", class: "button secondary", id: "seed-change", text: L.changeSeed}),
      ]);
    } else if (taken < n && cfg.username) {
      if (joinSeed === null) joinSeed = B.randomSeed();
      seedBox = el("form", {method: "post", action: url("join"), class: "seed-form", id: "join-form"}, [
        el("input", {type: "hidden", name: "csrfmiddlewaretoken", value: cfg.csrfToken}),
        seedField(joinSeed, function (event) { joinSeed = event.target.value; }),
        el("button", {type: "submit", class: "button primary", id: "join-button", text: L.join}),
      ]);
    } else if (taken < n) {
      actions.appendChild(B.postForm(url("join"), cfg.csrfToken, L.join, "primary"));
    }
    box.replaceChildren.apply(box, [
      el("p", {class: "waiting-title", text: B.fmt(L.waiting, {taken: taken, total: n})}),
      el("ol", {class: "seat-chips"}, chips),
      sides,
      el("p", {class: "help", text: L.waitingHint}),
      seedBox,
      actions,
    ].filter(Boolean));
    box.hidden = false;
  }

  // --- the fair shuffle ----------------------------------------------------------------------

  var fairKey = null;  // what the fairness panel was last drawn from (redrawn only when it changes)

  /** The fairness panel: the commitment from the creation on, the client seeds from the start,
   * the server seed once the match is over, and then the verifier (static/games/fair.js). */
  function renderFair() {
    var box = $("fairness");
    var fair = state.match.shuffle;
    if (!fair) { box.hidden = true; fairKey = null; return; }
    var key = JSON.stringify([fair, (state.seats || []).length]);
    if (key === fairKey) return;
    fairKey = key;
    var seeds = fair.client_seeds
      ? el("ol", {class: "seed-list", id: "fair-client-seeds"}, fair.client_seeds.map(function (seed, seat) {
          return el("li", {dataset: {seat: seat}}, [
            el("bdi", {class: "seed-owner", text: (seatName(seat) || L.emptySeat) + ": "}),
            seed ? el("code", {text: seed}) : el("span", {class: "help", text: L.computerSeed}),
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
    var shown = state.match.shuffle.commitment;
    summary.hidden = false;
    summary.dataset.ok = "";
    list.replaceChildren();
    if (!B.fair || !B.fair.available()) {
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
      .then(function (record) { return B.fair.verify(record, shown); })
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
        else summary.textContent = B.fmt(L.roundsDiffer, {rounds: failed.map(checkLabel).join(", ")});
      })
      .catch(function (error) {
        summary.dataset.ok = "false";
        summary.textContent = B.fmt(L.verifyFailed, {error: error.message || String(error)});
      })
      .then(function () { button.disabled = false; });
  }

  /** A seat's name for the narrow score boxes: a computer seat is its badge and level. */
  function shortSeatName(seat) {
    var found = seatOf(seat);
    if (found && !found.username && found.bot) {
      return el("bdi", {class: "side-member bot"}, [botBadge(), botShortName(seat)]);
    }
    var name = seatName(seat) || L.emptySeat;
    return el("bdi", {class: "side-member", title: name, text: name});
  }

  /** The side's names as nodes, "a & b" for partners, wrapping rather than cut. */
  function sideMembers(side) {
    var nodes = [];
    for (var seat = side; seat < players(); seat += 2) {
      if (nodes.length) nodes.push(" & ");
      nodes.push(shortSeatName(seat));
    }
    return nodes;
  }

  /** "Your side" / "Opponents" for a seated player, "Side 1" / "Side 2" for a spectator. */
  function sideLabel(side) {
    var mine = mySide();
    if (mine === null) return B.fmt(L.side, {number: side + 1});
    if (players() === 2) return side === mine ? L.youLabel : L.opponent;
    return side === mine ? L.yourSide : L.opponents;
  }

  function renderScoreboard() {
    var r = state.round;
    var board = $("scoreboard");
    if (state.match.status === "open") { board.replaceChildren(); return; }
    var sides = [0, 1].map(function (side) {
      var stat = function (label, value, key) {
        return el("div", {class: "stat", dataset: {stat: key}}, [
          el("span", {class: "stat-label", text: label}),
          el("span", {class: "stat-value", text: String(value)}),
        ]);
      };
      var onTurn = r && !r.over && !state.result && r.turn % 2 === side;
      return el("div", {
        class: "side" + (side === mySide() ? " mine" : "") + (onTurn ? " on-turn" : ""),
        dataset: {side: side},
      }, [
        el("div", {class: "side-label", text: sideLabel(side)}),
        el("div", {class: "side-name"}, sideMembers(side)),
        el("div", {class: "side-score", dataset: {score: state.scores[side]}, text: String(state.scores[side])}),
        el("div", {class: "side-stats"}, [
          stat(L.pile, r ? r.pile_sizes[side] : 0, "pile"),
          stat(L.basras, r ? r.basras[side] : 0, "basras"),
          state.match.rules.jack_basra_points ? stat(L.jackBasras, r ? r.jack_basras[side] : 0, "jack-basras") : null,
        ]),
      ]);
    });
    board.replaceChildren(sides[0], sides[1]);
  }

  function renderTurn() {
    var banner = $("turn-banner");
    var r = state.round;
    var text = "";
    var mine = false;
    if (state.result) text = L.matchOver;
    else if (state.match.status === "playing" && r && !r.over) {
      mine = isMyTurn();
      text = mine ? L.yourTurn : B.fmt(L.turnOf, {name: seatName(r.turn) || ""});
      text = B.fmt(L.round, {number: r.number}) + " · " + text;
    } else if (r && r.over) text = B.fmt(L.roundScore, {number: r.number});
    banner.textContent = text;
    banner.classList.toggle("mine", mine);
    banner.hidden = text === "";
    // A tab in the background says whose turn it is in its title (browsers show it on the tab).
    document.title = mine ? "\u25CF " + L.yourTurn + " \u00B7 " + baseTitle : baseTitle;
  }

  function seatBox(seat) {
    var r = state.round;
    var isViewer = seat === state.you;
    var found = seatOf(seat);
    // A computer seat shows its level next to the computer badge (the full name is long).
    var name = found && !found.username && found.bot ? botShortName(seat)
      : seatName(seat) || L.emptySeat;
    var size = r ? r.hand_sizes[seat] : 0;
    var badges = [];
    if (r && r.dealer === seat) badges.push(el("span", {class: "badge dealer", title: L.dealer, text: L.dealer}));
    var info = seatOf(seat) || {};
    if (info.absent && !info.bot) badges.push(el("span", {class: "badge absent", text: L.absent}));
    var onTurn = r && !r.over && r.turn === seat && !state.result;
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
        el("span", {class: "name", title: seatName(seat) || null, text: name}),
        isViewer ? el("span", {class: "you-tag", text: " (" + L.you + ")"}) : null,
      ]),
      backs,
      el("div", {class: "seat-info"}, [el("span", {class: "hand-count", text: B.fmt(L.cardsInHand, {count: size})})].concat(badges)),
      onTurn ? el("div", {class: "countdown", "aria-hidden": "true"}) : null,
    ]);
  }

  function renderBoard() {
    var board = $("board");
    var r = state.round;
    if (state.match.status === "open" || !r) { board.hidden = true; return; }
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
    B.talk.decorate();
  }

  function renderLastPlay(play) {
    var box = $("last-play");
    if (!play) { box.replaceChildren(); box.hidden = true; return; }
    box.hidden = false;
    var taken = play.taken || [];
    var parts = [
      el("span", {class: "last-label", text: B.fmt(L.played, {name: seatName(play.seat) || ""})}),
      B.cardNode(play.card, L, {size: "mini", extraClass: "played"}),
      el("span", {class: "last-label", text: taken.length ? L.took : L.tookNothing}),
    ];
    taken.forEach(function (code) { parts.push(B.cardNode(code, L, {size: "mini"})); });
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

  function renderHand() {
    var hand = $("hand");
    var r = state.round;
    var playing = r && state.match.status === "playing" && state.you !== null && state.you !== undefined;
    if (!playing) { hand.replaceChildren(); hand.hidden = true; root.dataset.myTurn = "false"; return; }
    hand.hidden = false;
    var canPlay = isMyTurn() && !pending && live;
    root.dataset.myTurn = String(isMyTurn());
    root.dataset.pending = String(pending);
    hand.classList.toggle("active", canPlay);
    hand.replaceChildren.apply(hand, (r.hand || []).map(function (code) {
      var button = B.cardNode(code, L, {tag: "button"});
      button.disabled = !canPlay;
      button.addEventListener("click", function () { play(code); });
      return button;
    }));
  }

  function breakdownTable(result, cumulative) {
    var rules = state.match.rules;
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
    state.round_results.slice(0, upTo + 1).forEach(function (res) {
      totals[0] += res.total[0]; totals[1] += res.total[1];
    });
    return totals;
  }

  function renderBreakdown() {
    var results = state.round_results || [];
    var box = $("breakdown");
    var r = state.round;
    if (shownRounds === null) {
      // First draw after loading: show the last round's score if the table is between rounds.
      breakdownOpen = results.length > 0 && (!r || r.over || !!state.result);
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
      if (!state.result) {
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
    var show = breakdownOpen && results.length > 0 && !state.result;
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
   * the target was reached): a claim (2 players only) or a resignation. */
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
    return null;
  }

  function renderResult() {
    var banner = $("result-banner");
    var result = state.result;
    if (!result) { banner.hidden = true; banner.replaceChildren(); return; }
    var side = mySide();
    if (result.winner === null) {  // aborted before the first play: nobody won
      banner.className = "result-banner";
      banner.dataset.winner = "";
      banner.dataset.reason = result.reason;
      banner.replaceChildren(
        el("strong", {class: "result-title", text: L.matchOver + " · " + L.matchAborted}),
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
      cfg.urls.replay ? el("a", {class: "button primary", id: "replay-link", href: url("replay"), text: L.watchReplay}) : null,
      el("a", {class: "button", href: url("lobby"), text: L.backToLobby})
    ].filter(Boolean));
    banner.hidden = false;
  }

  function render() {
    if (!state) return;
    root.dataset.seq = state.seq;
    root.dataset.status = state.match.status;
    root.dataset.you = state.you === null || state.you === undefined ? "" : state.you;
    root.dataset.finished = String(!!state.result);
    root.dataset.turn = state.round && state.round.turn !== null && !state.result ? state.round.turn : "";
    renderMeta();
    renderLiveStatus();
    renderWaiting();
    renderScoreboard();
    renderTurn();
    renderBoard();
    renderHand();
    B.talk.update(isSeated(), live);
    renderBreakdown();
    renderResult();
    renderFair();
    noteTimeout();
    renderNotices();
    renderActions();
    renderBanners();
    tick();
  }

  function openHistory() {
    var dialog = $("history-dialog");
    if (!dialog.open) dialog.showModal();
  }

  var loggedOut = false;  // this tab's session ended (a logout here or in another tab)

  /** The states a reader must not have to guess: the connection lost (over the table, saying
   * why the cards do not answer), this tab logged out, and watching rather than playing. */
  function renderBanners() {
    var conn = $("conn-banner");
    var lost = socketStatus === "reconnecting" && !(state && state.result);
    conn.hidden = !lost;
    if (lost) {
      conn.replaceChildren(el("strong", {text: L.connLost}), " ",
                           el("span", {text: isSeated() ? L.connLostCards : L.connLostWatch}));
    }
    root.dataset.connection = lost ? "lost" : socketStatus;
    var session = $("session-banner");
    session.hidden = !loggedOut;
    if (loggedOut) {
      session.replaceChildren(el("span", {text: L.loggedOut + " "}),
                              el("a", {class: "button primary", id: "login-link", href: loginUrl(), text: L.logIn}));
    }
    var watching = $("watching-banner");
    var watcher = !!state && !isSeated() && state.match.status !== "open" && !loggedOut;
    watching.hidden = !watcher;
    if (watcher) {
      watching.replaceChildren.apply(watching, [el("span", {text: L.spectating})].concat(
        cfg.username ? [] : [" ", el("a", {id: "login-link", href: loginUrl(), text: L.logInToPlay})]));
    }
  }

  function loginUrl() {
    return cfg.urls.login + "?next=" + encodeURIComponent(window.location.pathname);
  }

  /** The connection chip: "Finished" once the match is over (nothing live is left to show),
   * otherwise the socket's state. */
  var socketStatus = "connecting";
  function renderLiveStatus() {
    B.showStatus($("live-status"), state && state.result ? "finished" : socketStatus, L);
  }

  // --- the clock, notices, claim and resign ----------------------------------------------------

  function botBadge(title) {
    return B.botIcon(title || L.botBadge);
  }

  /** Milliseconds left to the deadline, in the server's time (null: no clock running). */
  function remaining() {
    if (!state || !state.deadline || state.result) return null;
    return Date.parse(state.deadline) - (Date.now() + clockOffset);
  }

  /** Redraw the countdowns (every quarter second, and after every state). */
  function tick() {
    var left = remaining();
    var r = state && state.round;
    var botTurn = r && r.turn !== null && isBot(r.turn);
    var text = "";
    if (left !== null && r && !r.over && !botTurn && state.move_seconds) {
      // After a round ends the first play's clock starts a little later (the pause to read the
      // score, docs/protocol.md "The pause between rounds"): it stands at the full time till then.
      left = Math.min(left, state.move_seconds * 1000);
    }
    if (left !== null && r && !r.over) {
      text = botTurn ? L.thinking : B.fmt(L.secondsLeft, {seconds: Math.max(0, Math.ceil(left / 1000))});
    }
    document.querySelectorAll("#board .countdown").forEach(function (node) {
      node.textContent = text;
      node.classList.toggle("low", !botTurn && left !== null && left < 5000);
    });
    var mine = $("my-clock");
    mine.textContent = isMyTurn() && left !== null ? text : "";
    mine.hidden = mine.textContent === "";
    mine.classList.toggle("low", left !== null && left < 5000);
    root.dataset.remaining = left === null ? "" : String(Math.max(0, Math.ceil(left / 1000)));
  }

  function opponentSeat() { return state.you === null ? null : (state.you + 1) % 2; }

  /** My partner's seat entry (4 players, seated), or null. */
  function partnerInfo() {
    if (!isSeated() || players() !== 4) return null;
    return seatOf((state.you + 2) % 4);
  }

  /** My partner cannot answer a resign offer (away, or played by the computer): the server
   * then takes my resignation at once (docs/protocol.md "Clock, absence, claim and resign"). */
  function partnerGone() {
    var partner = partnerInfo();
    return !!(partner && (partner.bot || partner.absent));
  }

  /** The question before resigning, saying what a click does now. */
  function resignQuestion() {
    if (players() !== 4) return L.resignConfirm;
    var partner = partnerInfo();
    if (partner && partner.resign_offer && !partner.bot) return L.resignConfirmPartnerOffered;
    if (partnerGone()) return L.resignConfirmPartnerGone;
    return L.resignConfirmPair;
  }

  function canClaim() {
    if (!isSeated() || players() !== 2 || state.match.status !== "playing" || state.result) return false;
    var other = seatOf(opponentSeat());
    var me = seatOf(state.you);
    return !!(other && other.absent && !other.bot && other.username && me && !me.bot);
  }

  /** Remember a card the server played for me when my time ran out, until my next own play
   * (or the next round, or the end): later plays by others replace last_play but not the news. */
  function noteTimeout() {
    var r = state.round;
    var play = r && r.last_play;
    if (!isSeated() || !r || state.result || state.match.status !== "playing" || isBot(state.you)) {
      myTimeout = null;
    } else if (play && play.seat === state.you) {
      myTimeout = play.timeout === true ? {card: play.card, round: r.number} : null;
    } else if (myTimeout && myTimeout.round !== r.number) {
      myTimeout = null;
    }
  }

  function renderNotices() {
    var box = $("notices");
    var items = [];
    var playing = state.match.status === "playing" && !state.result;
    if (playing) {
      (state.seats || []).forEach(function (s) {
        var mine = s.seat === state.you;
        var partner = isSeated() && players() === 4 && s.seat === (state.you + 2) % 4;
        if (s.bot && s.username) {
          items.push([mine ? L.youReplaced : B.fmt(partner ? L.partnerReplaced : L.seatReplaced, {name: s.username}),
                      "replaced", s.seat]);
        } else if (s.absent && mine && live) {
          // Opening the table brings an absent player back (a "returned" right after this
          // socket's first state); still absent later means only a play will.
          items.push([firstState ? L.youAbsentBack : L.youAbsent, "absent", s.seat]);
        } else if (s.absent && players() === 2 && isSeated()) {
          items.push([B.fmt(L.opponentLeft, {name: s.username}), "opponent-left", s.seat]);
        }
        // A player the computer replaced can no longer resign: their side's offers are not theirs.
        var replaced = isBot(state.you) && !!(seatOf(state.you) || {}).username;
        if (s.resign_offer && !(replaced && s.seat % 2 === mySide())) {
          items.push([mine ? (partnerGone() ? L.youOfferedPartnerGone : L.youOffered)
                      : partner ? L.partnerOffers : B.fmt(L.offerPending, {name: seatName(s.seat)}),
                      "resign-offer", s.seat]);
        }
      });
      if (myTimeout) {
        items.push([B.fmt(L.youTimedOut, {card: B.cardName(myTimeout.card, L)}), "timeout", state.you]);
      }
    }
    box.replaceChildren.apply(box, items.map(function (item) {
      var notice = el("p", {class: "notice", dataset: {notice: item[1], seat: item[2]}}, [item[0]]);
      if (item[1] === "opponent-left" && canClaim()) {
        notice.appendChild(el("button", {type: "button", class: "button primary", id: "claim-button",
          text: L.claim, on: {click: function () { confirmThen(L.claimConfirm, L.claimYes, "claim"); }}}));
      }
      return notice;
    }));
    box.hidden = items.length === 0;
  }

  function renderActions() {
    var me = isSeated() ? seatOf(state.you) : null;
    var show = !!(me && !me.bot && state.match.status === "playing" && !state.result);
    var button = $("resign-button");
    button.hidden = !show;
    // After an offer the button waits for the partner, unless the partner can no longer answer.
    button.disabled = !live || !!(me && me.resign_offer && !partnerGone());
    // Before the match's first play it can be called off instead (nobody wins, never rated).
    var r = state.round;
    var abort = $("abort-button");
    abort.hidden = !(show && r && r.number === 1 && !r.last_play && !state.round_results.length);
    abort.disabled = !live;
  }

  /** Ask "are you sure?" in the page's dialog, then send {"type": action}. */
  function confirmThen(question, yes, action) {
    var dialog = $("confirm-dialog");
    $("confirm-text").textContent = question;
    $("confirm-yes").textContent = yes;
    dialog.returnValue = "";
    dialog.onclose = function () {
      if (dialog.returnValue === "yes") socket.send({type: action});
    };
    dialog.showModal();
  }

  // --- talking to the server -----------------------------------------------------------------

  function showError(message) {
    var box = $("table-error");
    box.textContent = message;
    box.hidden = false;
    window.clearTimeout(errorTimer);
    errorTimer = window.setTimeout(function () { box.hidden = true; }, 6000);
  }

  /** The table was removed (its last player left before the start): nothing more will come. */
  function showClosed(message) {
    var box = $("result-banner");
    box.className = "result-banner";
    box.replaceChildren(
      el("strong", {class: "result-title", text: message || L.tableClosed}),
      el("a", {class: "button", href: url("lobby"), text: L.backToLobby})
    );
    box.hidden = false;
    ["waiting", "board", "hand", "breakdown"].forEach(function (id) { $(id).hidden = true; });
    root.dataset.status = "closed";
  }

  function play(code) {
    if (pending || !isMyTurn()) return;
    if (!socket.send({type: "play", card: code, seq: state.seq})) return;
    pending = true;
    renderHand();
    // Every play is answered by a state or an error; if the answer was lost (a server-side
    // channel can drop a message), ask for the state rather than keep the hand locked.
    var sentAt = state.seq;
    window.setTimeout(function () {
      if (pending && state.seq === sentAt) socket.send({type: "sync"});
    }, 5000);
  }

  var opening = false;  // the socket just opened and no state came through it yet

  /** What the new state brings that a person should see or hear happen: the card played
   * (moving), a basra (celebrated), a capture, their turn coming (a sound, and in a background
   * tab a notification). */
  function liven(before, old) {
    var r = state.round;
    var play = r && r.last_play;
    var oldPlay = old && old.round && old.round.last_play;
    var newRound = old && old.round && r && old.round.number !== r.number;
    var fresh = old && old.seq !== state.seq && play &&
                (!oldPlay || newRound || JSON.stringify(oldPlay) !== JSON.stringify(play));
    if (fresh) {
      B.fx.animatePlay(before, play, isSeated() ? state.you : null, L);
      if (play.basra) {
        B.fx.celebrate(play.basra, play.basra === "jack_basra" ? L.jackBasra : L.basra, seatName(play.seat));
        B.fx.sound("basra");
      } else {
        B.fx.sound(play.taken && play.taken.length ? "capture" : "play");
      }
    }
    if (!fresh && old && state.prev_seq === old.seq) lastOfRound(old);
    var wasMine = !!old && old.you === state.you && turnWasMine(old);
    if (isMyTurn() && !wasMine && old) {
      // After the card's own sound, when a play made it my turn.
      window.setTimeout(function () { B.fx.sound("turn"); }, fresh ? 450 : 0);
      B.fx.notifyTurn(L.yourTurn, B.fmt(L.tableNumber, {id: cfg.matchId}), "basra-turn-" + cfg.matchId);
    }
  }

  /** The round's last play is not in the new state (it shows the next round dealt), but a
   * basra made by it is: the round's result counts one more than the state before. */
  function lastOfRound(old) {
    var results = state.round_results || [];
    var result = results[results.length - 1];
    if (!result || !old.round || old.round.number !== result.number ||
        (old.round_results || []).length !== results.length - 1) return;
    var rules = state.match.rules;
    var made = null;
    [0, 1].forEach(function (side) {
      if (rules.jack_basra_points && result.jack_basras[side] / rules.jack_basra_points > old.round.jack_basras[side]) {
        made = {kind: "jack_basra", side: side};
      } else if (rules.basra_points && result.basras[side] / rules.basra_points > old.round.basras[side]) {
        made = {kind: "basra", side: side};
      }
    });
    if (made) {
      B.fx.celebrate(made.kind, made.kind === "jack_basra" ? L.jackBasra : L.basra, sideNames(made.side));
      B.fx.sound("basra");
    } else {
      B.fx.sound("capture");
    }
  }

  function turnWasMine(old) {
    var r = old.round;
    return !!(r && !r.over && !old.result && old.you !== null && r.turn === old.you);
  }

  function onMessage(msg) {
    // Other scripts of the page (static/games/rematch.js) see every message too.
    if (B.table) B.table.listeners.forEach(function (listener) { listener(msg); });
    if (msg.type === "phrase") {
      B.talk.receive(msg);
      return;
    }
    if (msg.type === "logged_out") {
      loggedOut = true;
      if (state) render();
      return;
    }
    if (msg.type === "state") {
      if (state !== null && msg.seq < state.seq) return;  // an older state arriving late
      // One change may add several events, so seq can jump; prev_seq (null in a snapshot) is
      // the seq the server had before this change. Any other value than ours means a message
      // was missed: this state is complete, but ask for the current one in case it was overtaken.
      var gap = state !== null && msg.prev_seq !== null && msg.prev_seq !== undefined &&
                msg.prev_seq !== state.seq;
      var old = state;
      var before = B.fx.snapshot();
      state = msg;
      firstState = opening;
      opening = false;
      noteServerTime(msg);
      pending = false;
      if (isSeated()) loggedOut = false;
      render();
      liven(before, old);
      if (gap) socket.send({type: "sync"});
    } else if (msg.type === "closed") {
      showClosed(msg.message);
    } else if (msg.type === "watchers") {
      var count = $("watcher-count");
      count.dataset.count = msg.count;
      count.textContent = B.fmt(L.watchersCount, {count: msg.count});
      count.hidden = false;
    } else if (msg.type === "error" && /^watch_/.test(msg.code)) {
      // Not seated, and this table does not let this viewer watch: the server closes the socket.
      showClosed(msg.message);
    } else if (msg.type === "error" && (msg.code === "bad_phrase" || msg.code === "phrase_too_soon")) {
      showError(msg.message || msg.code);  // about a phrase: the table itself is as it was
    } else if (msg.type === "error") {
      pending = false;
      if (msg.code === "login_required" && cfg.username) loggedOut = true;
      if (state) { renderHand(); renderBanners(); }
      // "stale": another tab (or a double click) played first; the fresh state that follows
      // is the whole answer, nothing went wrong.
      if (msg.code !== "stale") showError(msg.message || msg.code);
      // After "stale" and "timed_out" the server sends the fresh state by itself.
      if (msg.code !== "stale" && msg.code !== "timed_out") socket.send({type: "sync"});
    }
  }

  /** How far the server's clock is ahead of this browser's (ms), from a state's "now". */
  var clockOffset = 0;
  function noteServerTime(msg) {
    if (msg.now) clockOffset = Date.parse(msg.now) - Date.now();
  }

  $("resign-button").addEventListener("click", function () {
    confirmThen(resignQuestion(), L.resignYes, "resign");
  });
  $("abort-button").addEventListener("click", function () {
    confirmThen(L.abortConfirm, L.abortYes, "abort");
  });
  window.setInterval(function () { if (state) tick(); }, 250);
  $("rounds-button").addEventListener("click", openHistory);
  B.fx.toggleButton($("sound-button"), "sound");
  B.fx.toggleButton($("phrases-mute-button"), "phrases", function (on) { if (!on) B.talk.mutedNow(); });
  B.fx.notifyButton($("notify-button"));

  state = cfg.state;
  noteServerTime(state);
  render();
  var socket = new B.LiveSocket(cfg.wsPath, {
    onOpen: function (s) { opening = true; s.send({type: "sync"}); s.send({type: "watchers"}); },
    onMessage: onMessage,
    onStatus: function (status) {
      socketStatus = status;
      renderLiveStatus();
      if (status === "closed" && root.dataset.status !== "closed") showClosed(null);
      live = status === "live";
      if (!live) pending = false;
      if (state) { renderHand(); renderActions(); renderNotices(); renderBanners(); }
      B.talk.update(!!state && isSeated(), live);
    },
  });
  // Leaving a running match through the site's own links asks first (the seat is not given up:
  // the clock counts a seat gone after a while, and the computer may take it over).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
    if (link.getAttribute("href").charAt(0) === "#") return;
    if (!state || state.match.status !== "playing" || state.result || !isSeated() ||
        isBot(state.you)) return;
    if (!window.confirm(L.leaveConfirm)) event.preventDefault();
  });

  B.talk.init(cfg.talk, L, function (message) { return socket.send(message); });
  // For the browser tests and for debugging from the console.
  B.table = {socket: socket, state: function () { return state; }, listeners: []};
})();
