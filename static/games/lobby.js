/* Lobby: keeps its lists live from /ws/lobby/: the open tables ({"type": "tables", "tables": [...]})
 * and the matches being played ({"type": "matches", "mine": [...], "live": [...]}), docs/protocol.md. */
import {common as L} from "./labels.js";
import * as B from "./live.js";

var cfg = B.config("lobby-config");
var el = B.el;
var ngettext = B.ngettext;
var list = document.getElementById("open-tables");

function url(name, id) {
  return cfg.urls[name].replace("{id}", id);
}

/** A seat chip; the server sends every seat in order, with its name ("Greedy 2", as the table names it). */
function seatChip(s) {
  if (s.closed) return el("li", {class: "seat-chip", dataset: {seat: s.seat}}, [el("bdi", {text: s.name})]);
  if (s.bot && !s.username) {
    return el("li", {class: "seat-chip bot", dataset: {seat: s.seat, bot: s.bot}}, [
      B.botIcon(L.botBadge),
      " " + s.name,
    ]);
  }
  if (!s.username) return el("li", {class: "seat-chip empty", dataset: {seat: s.seat}, text: L.emptySeat});
  return el("li", {class: "seat-chip", dataset: {seat: s.seat}, title: s.username}, [
    el("bdi", {text: s.username}), B.titleMark(s.title, L), s.rating ? " " : null, s.rating ? B.ratingNode(s.rating) : null,
  ]);
}

function renderRow(row) {
  var seats = row.seats;
  var taken = row.taken;
  var mine = row.mine;
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
  var who = el("p", {class: "table-row-who"}, [
    el("span", {class: "creator", dataset: {online: row.created_by_online ? "1" : "0"}}, [
      el("span", {class: "presence-dot", "aria-hidden": "true"}),
      B.fmt(L.createdBy, {name: row.created_by}) + " · " + (row.created_by_online ? L.online : L.offline),
    ]),
    " · ",
    el("span", {class: "age", text: row.age}),
  ]);
  var sides = row.players === 4 ? el("ul", {class: "sides"}, row.sides.map(function (side) {
    return el("li", {class: "side-line", dataset: {side: side.side}, text: side.label});
  })) : null;
  return el("li", {class: "table-row", dataset: {matchId: row.id}}, [
    el("div", {class: "table-row-head"}, [
      el("a", {class: "table-name", href: url("table", row.id), text: B.fmt(L.tableNumber, {id: row.id})}),
      el("span", {class: "chip", text: B.fmt(ngettext("%(count)s player", "%(count)s players", row.players), {count: row.players})}),
      el("span", {class: "chip", text: B.fmt(L.target, {target: target})}),
      el("span", {class: "chip" + (row.rated ? " chip-rated" : ""), text: row.rated ? L.rated : L.casual}),
      el("span", {class: "chip", text: row.move_seconds ? B.fmt(L.perPlay, {seconds: row.move_seconds}) : L.noClock}),
    ]),
    who,
    el("ol", {class: "seat-chips"}, seats.map(seatChip)),
    sides,
    row.commitment ? el("p", {class: "commitment", title: L.commitmentTitle}, [
      L.commitment + " ", el("code", {class: "commitment-hex", text: row.commitment}),
    ]) : null,
    actions,
  ]);
}

/** What a row's actions do: each link's or form's address and words, in order. */
function actionsKey(actions) {
  return Array.prototype.map.call(actions.querySelectorAll("a, form"), function (node) {
    return (node.getAttribute("href") || node.getAttribute("action")) + " " + node.textContent.trim();
  }).join("|");
}

/** The open tables, updated in place: a row already shown stays the same element, and so do
 * its buttons while they do the same thing. The server sends the list whenever a table changes
 * (and once as the socket opens, over the rows the page came with), and a tap on "Join" lands
 * between its press and its release: a button replaced in between receives no click, and a
 * focused one loses its focus. */
function render(tables) {
  if (!tables.length) {
    list.replaceChildren(el("p", {class: "empty-note", text: L.noTables}));
    return;
  }
  var ul = list.querySelector(".table-list");
  if (!ul) {
    ul = el("ul", {class: "table-list"});
    list.replaceChildren(ul);
  }
  // The rows that went first: a row moved (taken out and put back) would lose its focus, and
  // rows still there keep their order when the ones between them go.
  var wanted = {};
  tables.forEach(function (row) { wanted[String(row.id)] = true; });
  var shown = {};
  Array.prototype.slice.call(ul.children).forEach(function (li) {
    if (wanted[li.dataset.matchId]) shown[li.dataset.matchId] = li;
    else li.remove();
  });
  var focused = ul.contains(document.activeElement) ? document.activeElement : null;
  tables.forEach(function (row, i) {
    var fresh = renderRow(row);
    var li = shown[String(row.id)] || fresh;
    if (li !== fresh) {
      var kept = li.querySelector(":scope > .table-row-actions");
      var made = fresh.querySelector(":scope > .table-row-actions");
      if (kept && actionsKey(kept) === actionsKey(made)) {
        while (li.firstChild !== kept) li.removeChild(li.firstChild);
        while (kept.nextSibling) li.removeChild(kept.nextSibling);
        made.remove();
        while (fresh.firstChild) li.insertBefore(fresh.firstChild, kept);
      } else {
        li.replaceChildren.apply(li, Array.prototype.slice.call(fresh.childNodes));
      }
    }
    if (ul.children[i] !== li) ul.insertBefore(li, ul.children[i] || null);
  });
  // A row the new order moved takes its focused button with it.
  if (focused && focused.isConnected && document.activeElement !== focused) focused.focus({preventScroll: true});
}

/** "alice (1520?) & carol (1498)" for one side of a match being played: names, and ratings
 * where known; partners joined by the catalogue's words (``L.and``, "و" in Arabic), as the
 * table and the result join them. */
function sideNode(side) {
  var member = function (seat) {
    var nodes = [el("bdi", {class: "player", text: seat.name}), B.titleMark(seat.title, L)];
    if (seat.rating) nodes.push(" ", B.ratingNode(seat.rating));
    return nodes.filter(Boolean);
  };
  var parts = side.members.length === 2 ? B.joined(L.and, {a: member(side.members[0]), b: member(side.members[1])})
                                        : side.members.length ? member(side.members[0]) : [];
  return el("span", {class: "match-side", dataset: {side: side.side}}, parts);
}

function scoreNode(row) {
  return el("strong", {class: "score", text: row.scores[0] + " \u2013 " + row.scores[1]});
}

function renderMine(rows) {
  var box = document.getElementById("your-matches");
  var section = document.getElementById("your-matches-section");
  if (!box || !section) return;
  section.hidden = rows.length === 0;
  box.replaceChildren(el("ul", {class: "match-list"}, rows.map(function (row) {
    // A table against the computer waiting for this player says "Paused" instead of the turn.
    var turn = row.paused ? null : row.turn;
    return el("li", {class: "match-row" + (row.paused ? " paused" : turn && turn.mine ? " my-turn" : ""),
                     dataset: {matchId: row.id}}, [
      el("a", {class: "match-link", href: url("table", row.id)}, [
        el("span", {class: "match-title", text: B.fmt(L.tableNumber, {id: row.id})}),
        el("span", {class: "match-score"}, [sideNode(row.sides[0]), " ", scoreNode(row), " ", sideNode(row.sides[1])]),
        row.paused ? el("span", {class: "chip chip-paused", text: row.paused}) : null,
        turn ? el("span", {class: "chip turn" + (turn.mine ? " chip-turn-mine" : ""),
                           dataset: {turnSeat: turn.seat}, text: turn.text}) : null,
      ]),
    ]);
  })));
}

function renderLive(rows) {
  var box = document.getElementById("live-matches");
  if (!box) return;
  if (!rows.length) {
    box.replaceChildren(el("p", {class: "empty-note", text: L.noMatches}));
    return;
  }
  box.replaceChildren(el("ul", {class: "match-list"}, rows.map(function (row) {
    return el("li", {class: "match-row", dataset: {matchId: row.id}}, [
      el("div", {class: "match-score"}, [sideNode(row.sides[0]), " ", scoreNode(row), " ", sideNode(row.sides[1])]),
      el("div", {class: "table-row-actions"}, [
        el("span", {class: "chip", text: B.fmt(L.target, {target: row.target})}),
        row.rated ? el("span", {class: "chip chip-rated", text: L.rated}) : null,
        el("span", {class: "chip watchers", dataset: {count: row.watchers},
                    text: B.fmt(ngettext("%(count)s watching", "%(count)s watching", row.watchers), {count: row.watchers})}),
        el("a", {class: "button secondary", href: url("table", row.id), text: L.watch}),
      ]),
    ]);
  })));
}

// On a phone (one column, games.css) the two forms start folded to their headings, so that
// "Play the computer" is not under the whole "Create a table" form, nor both over the lists;
// a form the server sent back with its errors stays open.
if (window.matchMedia("(max-width: 759.98px)").matches) {
  document.querySelectorAll(".lobby-fold").forEach(function (fold) {
    if (!fold.querySelector(".errorlist")) fold.open = false;
  });
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

var live = new B.LiveSocket(cfg.wsPath, {
  onOpen: function (socket) { socket.send({type: "matches"}); },
  onMessage: function (msg) {
    if (msg.type === "tables") render(msg.tables || []);
    else if (msg.type === "matches") { renderMine(msg.mine || []); renderLive(msg.live || []); }
    // The server's database cannot answer now: the lists again in a moment.
    else if (msg.type === "error" && msg.code === "unavailable") live.sendSoon({type: "sync"});
  },
  onStatus: function (state) {
    B.showStatus(document.getElementById("live-status"), state, L);
  },
});
