/* Lobby: keeps the list of open tables live from /ws/lobby/ ({"type": "tables", "tables": [...]}). */
(function () {
  "use strict";
  var B = window.Basra;
  var cfg = B.config("lobby-config");
  var L = cfg.labels;
  var el = B.el;
  var list = document.getElementById("open-tables");

  function url(name, id) {
    return cfg.urls[name].replace("{id}", id);
  }

  /** Every seat in order, null username and bot for a free one (the server lists taken seats). */
  function seatList(row) {
    var byNumber = {};
    (row.seats || []).forEach(function (s) { byNumber[s.seat] = s; });
    var seats = [];
    for (var n = 0; n < row.players; n++) {
      var s = byNumber[n] || {};
      seats.push({seat: n, username: s.username || null, bot: s.bot || null});
    }
    return seats;
  }

  function seatChip(s) {
    if (s.bot) {
      return el("li", {class: "seat-chip bot", dataset: {seat: s.seat, bot: s.bot}}, [
        B.botIcon(L.botBadge),
        " " + (L.bots[s.bot] || s.bot),
      ]);
    }
    return el("li", {class: "seat-chip" + (s.username ? "" : " empty"), dataset: {seat: s.seat},
                     title: s.username || null, text: s.username || L.emptySeat});
  }

  function renderRow(row) {
    var seats = seatList(row);
    var taken = seats.filter(function (s) { return s.username || s.bot; }).length;
    var mine = cfg.username !== null && seats.some(function (s) { return s.username === cfg.username; });
    var target = row.rules && row.rules.target;
    var actions = el("div", {class: "table-row-actions"});
    if (mine) {
      actions.appendChild(el("a", {class: "button", href: url("table", row.id), text: L.open}));
      actions.appendChild(B.postForm(url("leave", row.id), cfg.csrfToken, L.leave, "secondary"));
    } else {
      actions.appendChild(el("a", {class: "button secondary", href: url("table", row.id), text: L.watch}));
      if (cfg.username !== null && taken < row.players) {
        actions.appendChild(B.joinForm(url("join", row.id), cfg.csrfToken, L.join));
      }
    }
    return el("li", {class: "table-row", dataset: {matchId: row.id}}, [
      el("div", {class: "table-row-head"}, [
        el("a", {class: "table-name", href: url("table", row.id), text: B.fmt(L.tableNumber, {id: row.id})}),
        el("span", {class: "chip", text: B.fmt(L.players, {count: row.players})}),
        el("span", {class: "chip", text: B.fmt(L.target, {target: target})}),
        el("span", {class: "chip" + (row.rated ? " chip-rated" : ""), text: row.rated ? L.rated : L.casual}),
        el("span", {class: "chip", text: row.move_seconds ? B.fmt(L.perPlay, {seconds: row.move_seconds}) : L.noClock}),
      ]),
      el("ol", {class: "seat-chips"}, seats.map(seatChip)),
      row.commitment ? el("p", {class: "commitment", title: L.commitmentTitle}, [
        L.commitment + " ", el("code", {class: "commitment-hex", text: row.commitment}),
      ]) : null,
      actions,
    ]);
  }

  function render(tables) {
    list.replaceChildren(
      tables.length
        ? el("ul", {class: "table-list"}, tables.map(renderRow))
        : el("p", {class: "empty-note", text: L.noTables})
    );
  }

  // The client seeds of the create forms and of the join buttons drawn in the page.
  B.fillSeeds(document);

  // "Play the computer": show the seat choices of the chosen number of players only.
  var computerForm = document.getElementById("computer-form");
  if (computerForm) {
    var showSeats = function () {
      var checked = computerForm.querySelector('input[name$="players"]:checked');
      var players = checked ? checked.value : "2";
      computerForm.querySelectorAll(".bot-seats").forEach(function (box) {
        box.hidden = box.dataset.players !== players;
      });
    };
    computerForm.addEventListener("change", showSeats);
    showSeats();
  }

  new B.LiveSocket(cfg.wsPath, {
    onMessage: function (msg) {
      if (msg.type === "tables") render(msg.tables || []);
    },
    onStatus: function (state) {
      B.showStatus(document.getElementById("live-status"), state, L);
    },
  });
})();
