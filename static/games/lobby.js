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

  /** Every seat in order, null username for a free one (the server may list only taken seats). */
  function seatList(row) {
    var byNumber = {};
    (row.seats || []).forEach(function (s) { byNumber[s.seat] = s.username; });
    var seats = [];
    for (var n = 0; n < row.players; n++) seats.push({seat: n, username: byNumber[n] || null});
    return seats;
  }

  function renderRow(row) {
    var seats = seatList(row);
    var taken = seats.filter(function (s) { return s.username; }).length;
    var mine = cfg.username !== null && seats.some(function (s) { return s.username === cfg.username; });
    var target = row.rules && row.rules.target;
    var actions = el("div", {class: "table-row-actions"});
    if (mine) {
      actions.appendChild(el("a", {class: "button", href: url("table", row.id), text: L.open}));
      actions.appendChild(B.postForm(url("leave", row.id), cfg.csrfToken, L.leave, "secondary"));
    } else {
      actions.appendChild(el("a", {class: "button secondary", href: url("table", row.id), text: L.watch}));
      if (cfg.username !== null && taken < row.players) {
        actions.appendChild(B.postForm(url("join", row.id), cfg.csrfToken, L.join));
      }
    }
    return el("li", {class: "table-row", dataset: {matchId: row.id}}, [
      el("div", {class: "table-row-head"}, [
        el("a", {class: "table-name", href: url("table", row.id), text: B.fmt(L.tableNumber, {id: row.id})}),
        el("span", {class: "chip", text: B.fmt(L.players, {count: row.players})}),
        el("span", {class: "chip", text: B.fmt(L.target, {target: target})}),
        el("span", {class: "chip" + (row.rated ? " chip-rated" : ""), text: row.rated ? L.rated : L.casual}),
      ]),
      el("ol", {class: "seat-chips"}, seats.map(function (s) {
        return el("li", {
          class: "seat-chip" + (s.username ? "" : " empty"),
          dataset: {seat: s.seat},
          text: s.username || L.emptySeat,
        });
      })),
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

  new B.LiveSocket(cfg.wsPath, {
    onMessage: function (msg) {
      if (msg.type === "tables") render(msg.tables || []);
    },
    onStatus: function (state) {
      B.showStatus(document.getElementById("live-status"), state, L);
    },
  });
})();
