/* The table's chat panel (games/chat/templates/chat/_table_chat.html; docs/protocol.md, "Chat"):
 * the rooms this reader may read now, the lines as plain text (textContent: markup and links
 * are shown as written, never made live), a Report link on every other player's line, the
 * form to write. It asks the server for the room's lines ({"type": "chat_history"}) once a
 * connection of the socket (store.connection) and whenever the reader's rooms change (a seat
 * taken, the match over), and takes every {"type": "chat"} line and chat refusal the socket
 * brings.
 * An app's module on the core's table: it imports the core's published modules (store.js) and
 * the core imports nothing of it. */
import * as B from "../games/live.js";
import {getState, onMessage, send, store, subscribe} from "../games/table/store.js";

var L = {
  players: gettext("Players"),
  spectators: gettext("Spectators"),
  report: gettext("Report"),
  reportTitle: gettext("Report this line to the moderators"),
  off: gettext("Your chat is off: you neither read nor write chat lines."),
  four: gettext("At a table of four only the quick phrases go between seats while the match runs."),
  login: gettext("Log in to chat."),
  empty: gettext("No chat lines yet."),
  unread: gettext("Unread: %(count)s"),
  chat_timeout: gettext("You may not chat for a while: a moderator timed your chat out."),
  chat_timeout_until: gettext("You may not chat until %(until)s: a moderator timed your chat out."),
  chat_banned: gettext("You may not chat: a moderator took your chat away."),
};

var cfg = B.config("chat-config");
var $ = function (id) { return document.getElementById(id); };
var panel = $("chat-panel");
var list = $("chat-lines");
var form = $("chat-form");
var input = $("chat-text");
var note = $("chat-note");
var errorBox = $("chat-error");
var tabs = $("chat-rooms");
var MAX_SHOWN = 200;

var rooms = [];        // the rooms this reader may read now
var writable = [];     // the rooms they may write in now
var room = null;       // the room the form writes in and the list shows
var key = null;        // what the rooms were computed from, to ask again when it changes
var asked = 0;         // the connection (store.connection) the lines were last asked on
var lines = [];        // the lines of the readable rooms, oldest first
var unread = 0;        // the lines of the shown room come while the panel was closed
var sanction = null;   // the moderators' sanction on this reader's chat (its code), if any
var sanctionUntil = null;  // when a chat timeout ends (a Date), if the server said
var lastSent = "";

$("chat-settings").href = cfg.settings + "?next=" + encodeURIComponent(location.pathname);
if (window.matchMedia("(min-width: 900px)").matches) panel.open = true;
panel.addEventListener("toggle", function () { if (panel.open) { unread = 0; drawUnread(); } });

// A time as the site's pages write one (basra_site/formats: the 24-hour clock, in UTC), with
// its day and month when it is not today.
function timeText(when) {
  var lang = document.documentElement.lang || undefined;
  var options = {hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC"};
  if (when.toISOString().slice(0, 10) !== new Date().toISOString().slice(0, 10)) {
    options.day = "numeric";
    options.month = "short";
  }
  return new Intl.DateTimeFormat(lang, options).format(when);
}

function sanctionNote() {
  if (sanction === "chat_timeout" && sanctionUntil) return B.fmt(L.chat_timeout_until, {until: timeText(sanctionUntil)});
  return L[sanction];
}

function showNote(text) { note.textContent = text || ""; note.hidden = !text; }
function showError(text) { errorBox.textContent = text || ""; errorBox.hidden = !text; }

function drawUnread() {
  var badge = $("chat-unread");
  badge.hidden = unread === 0;
  badge.textContent = unread ? B.fmt(L.unread, {count: B.number(unread)}) : "";
}

/** What the reader may read and write, from the table's state (services.py's rules). */
function roomsOf(state) {
  var over = state.match.status === "finished";
  var seated = state.you !== null && state.you !== undefined;
  var both = ["player", "spectator"];
  if (over && seated) return {rooms: both, write: both, four: false};
  if (over) return {rooms: cfg.loggedIn ? both : ["spectator"], write: cfg.loggedIn ? ["spectator"] : [], four: false};
  var four = seated && state.match.players === 4 && state.match.status === "playing";
  var mine = seated ? "player" : "spectator";
  return {rooms: [mine], write: cfg.loggedIn && !four ? [mine] : [], four: four};
}

function lineNode(line) {
  var own = cfg.username !== null && line.username === cfg.username;
  return B.el("li", {class: "chat-line", dataset: {room: line.room, id: String(line.id)}}, [
    B.el("bdi", {class: "chat-name", text: line.username}), ": ",
    B.el("bdi", {class: "chat-text", dir: "auto", text: line.text}),
    own ? null : B.el("a", {class: "chat-report", href: line.report, target: "_blank",
                            rel: "noopener", title: L.reportTitle, text: L.report}),
  ]);
}

function drawLines() {
  var shown = lines.filter(function (line) { return line.room === room; }).slice(-MAX_SHOWN);
  list.replaceChildren.apply(list, shown.map(lineNode));
  if (!shown.length) list.appendChild(B.el("li", {class: "chat-empty", text: L.empty}));
  list.scrollTop = list.scrollHeight;
}

function drawTabs() {
  tabs.hidden = rooms.length < 2;
  tabs.replaceChildren.apply(tabs, rooms.map(function (name) {
    return B.el("button", {type: "button", class: "button chat-tab", role: "tab",
                           "aria-selected": String(name === room), dataset: {room: name},
                           text: name === "player" ? L.players : L.spectators,
                           on: {click: function () { room = name; drawTabs(); drawForm(); drawLines(); }}});
  }));
}

function drawForm() {
  form.hidden = !cfg.on || writable.indexOf(room) < 0;
}

function draw(state) {
  var now = roomsOf(state);
  rooms = now.rooms;
  writable = now.write;
  if (rooms.indexOf(room) < 0) room = rooms[0];
  panel.dataset.rooms = rooms.join(" ");
  showNote(!cfg.on ? L.off : sanction ? sanctionNote() : now.four ? L.four : !cfg.loggedIn ? L.login : "");
  drawForm();
  drawTabs();
  drawLines();
}

subscribe(function (state) {
  if (!cfg.on) { draw(state); return; }
  var next = [state.match.status === "finished", state.you].join(":");
  // A connection's first state asks unless this connection has asked already: this module
  // may come after the socket opened (its first draw asked then), and the first state stays
  // "first" through redraws of it (refresh(): an app's provide(), the round's score put away).
  var fresh = store.firstState && asked !== store.connection;
  if (next !== key || fresh) {
    key = next;
    if (send({type: "chat_history"})) asked = store.connection;
  }
  draw(state);
});

onMessage(function (msg) {
  if (!cfg.on) return;
  if (msg.type === "chat_lines") {
    lines = msg.lines;
    sanction = L[msg.sanction] ? msg.sanction : null;
    var until = msg.sanction_until ? new Date(msg.sanction_until) : null;
    sanctionUntil = until && !isNaN(until.getTime()) ? until : null;
    if (sanction) panel.dataset.sanction = sanction; else delete panel.dataset.sanction;
    if (getState()) draw(getState());
  } else if (msg.type === "chat" && msg.line && rooms.indexOf(msg.line.room) >= 0) {
    if (lines.some(function (line) { return line.id === msg.line.id; })) return;
    lines.push(msg.line);
    if (msg.line.username === cfg.username) showError("");
    // Counted only when the panel shows it: a line of the other room is not in the list.
    if (!panel.open && msg.line.username !== cfg.username && msg.line.room === room) {
      unread += 1;
      drawUnread();
    }
    drawLines();
  } else if (msg.type === "error" && (msg.frame === "chat" || msg.frame === "chat_history")) {
    showError(msg.message || msg.code);
    panel.dataset.refused = msg.code;
    if (lastSent && !input.value) input.value = lastSent;
  }
});

form.addEventListener("submit", function (event) {
  event.preventDefault();
  var text = input.value.trim();
  if (!text || !room) return;
  showError("");
  delete panel.dataset.refused;
  if (send({type: "chat", room: room, text: text})) {
    lastSent = text;
    input.value = "";
  }
});
