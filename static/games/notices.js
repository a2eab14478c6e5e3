/* The notice socket of a signed-in player, open on every page (/ws/me/, games/core/state/notices.py,
 * docs/protocol.md "Notices"). It shows the challenges (sent and received) with their buttons,
 * goes to the table when a challenge is accepted, and passes every notice on to the page as a
 * "basra:notice" event on document (detail: {kind, payload}), so that any page script (the
 * tournaments' "your table is ready", say) can listen without a socket of its own:
 *
 *   document.addEventListener("basra:notice", function (e) { if (e.detail.kind === "x") ... });
 *
 * The pending list the socket sends when it (re)connects also goes first as a whole, as a
 * "basra:pending" event (detail: {notices: [{kind, payload}, ...]}), before each of its notices.
 * A page's module shows a short message with flash(text, kind, {url, data}), imported from
 * here (an app's module: ../games/notices.js).
 *
 * An ES module (the header's, site.js, imports it); it reconnects by itself (0.5 s, 1 s, 2 s, ... up to 15 s). */
import {el, fmt} from "./live.js";

var node = document.getElementById("notice-config");
var box = document.getElementById("site-notices");
var on = !!(node && box && window.WebSocket);  // a signed-in player's page
var cfg = on ? JSON.parse(node.textContent) : {};
// The notices' words, from the /jsi18n/ catalogue.
var L = {
  challengeFrom: gettext("%(name)s challenges you to a match."),
  challengeTo: gettext("You challenged %(name)s; waiting for the answer."),
  accept: gettext("Accept"),
  decline: gettext("Decline"),
  cancel: gettext("Cancel the challenge"),
  dismiss: gettext("Close"),
  declined: gettext("%(name)s declined your challenge."),
  cancelled: gettext("%(name)s cancelled the challenge."),
  expired: gettext("The challenge expired."),
  accepted: gettext("Challenge accepted: to the table…"),
  rated: gettext("Rated"),
  casual: gettext("Casual"),
  target: gettext("to %(target)s"),
  perPlay: gettext("%(seconds)s s per play"),
  noClock: gettext("No clock"),
  notices: gettext("Notices"),
};
var challenges = {};  // id -> {payload, mine}
var closed = false;

function seed() {
  var bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}

function terms(p) {
  return [p.rated ? L.rated : L.casual, fmt(L.target, {target: p.target}),
          p.move_seconds ? fmt(L.perPlay, {seconds: p.move_seconds}) : L.noClock].join(" · ");
}

/** One short message in the notice area, gone after 15 s or on "close": ``text``, a link to
 * ``options.url`` when given; ``kind`` its class; ``options.data`` its data attributes. The
 * apps' modules (tournaments/notify.js, queues/notify.js) show theirs with it too. */
export function flash(text, kind, options) {
  if (!on) return;
  var o = options || {};
  var item = el("div", {class: "site-notice " + (kind || ""), role: "status", dataset: o.data}, [
    o.url ? el("a", {href: o.url, text: text}) : el("span", {text: text}),
    el("button", {type: "button", class: "link", text: L.dismiss, on: {click: function () { item.remove(); }}}),
  ]);
  box.appendChild(item);
  window.setTimeout(function () { item.remove(); }, 15000);
}

function post(url, fields) {
  var body = new URLSearchParams(fields || {});
  return fetch(url, {method: "POST", body: body, credentials: "same-origin",
                     headers: {"X-CSRFToken": cfg.csrfToken, "Accept": "application/json"}})
    .then(function (response) { return response.json(); });
}

// The accepting browser hears of its new table twice (the answer to its own request and the
// pushed notice): a second assign would abort the first navigation mid-way, so go once.
var goingTo = null;
function go(url) {
  if (goingTo === url || window.location.pathname === url) return;
  goingTo = url;
  window.location.assign(url);
}

function act(name, id, fields) {
  post(cfg.urls[name].replace("{id}", id), fields).then(function (answer) {
    if (answer.error) { flash(answer.message || answer.error, "error"); drop(id); return; }
    if (answer.url) go(answer.url);
  }).catch(function () {});
}

function drop(id) {
  delete challenges[id];
  var item = box.querySelector('[data-challenge="' + id + '"]');
  if (item) item.remove();
}

function show(payload, mine) {
  drop(payload.id);
  challenges[payload.id] = {payload: payload, mine: mine};
  var id = payload.id;
  var buttons = mine
    ? [el("button", {type: "button", class: "button secondary challenge-cancel", text: L.cancel,
                     on: {click: function () { act("cancel", id); }}})]
    : [el("button", {type: "button", class: "button primary challenge-accept", text: L.accept,
                     on: {click: function (e) { e.target.disabled = true; act("accept", id, {client_seed: seed()}); }}}),
       el("button", {type: "button", class: "button secondary challenge-decline", text: L.decline,
                     on: {click: function () { act("decline", id); }}})];
  var item = el("div", {class: "site-notice challenge-notice" + (mine ? " sent" : " received"),
                        dataset: {challenge: id}}, [
    el("strong", {text: fmt(mine ? L.challengeTo : L.challengeFrom, {name: mine ? payload.to : payload.from})}),
    el("span", {class: "challenge-terms", text: terms(payload)}),
    el("span", {class: "challenge-actions"}, buttons),
  ]);
  box.appendChild(item);
  var left = Date.parse(payload.expires_at) - Date.now();
  window.setTimeout(function () {
    if (challenges[id]) { drop(id); flash(L.expired); }
  }, Math.max(0, left));
}

function answered(p) {
  var mine = challenges[p.id] ? challenges[p.id].mine : null;
  drop(p.id);
  if (p.status === "accepted" && p.url) {
    flash(L.accepted);
    go(p.url);
  } else if (p.status === "declined" && mine !== false) {
    flash(fmt(L.declined, {name: p.to}));
  } else if (p.status === "cancelled" && mine !== true) {
    flash(fmt(L.cancelled, {name: p.from}));
  }
}

function handle(kind, payload) {
  if (kind === "challenge") show(payload, false);
  else if (kind === "challenge_sent") show(payload, true);
  else if (kind === "challenge_answer") answered(payload);
  document.dispatchEvent(new CustomEvent("basra:notice", {detail: {kind: kind, payload: payload}}));
}

var attempt = 0;
function connect() {
  var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  var ws = new WebSocket(scheme + window.location.host + cfg.wsPath);
  ws.addEventListener("open", function () { attempt = 0; box.dataset.live = "true"; });
  ws.addEventListener("message", function (event) {
    var msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    if (msg.type === "pending") {
      // The whole list of what still waits (a page script may start over from it), then each.
      document.dispatchEvent(new CustomEvent("basra:pending", {detail: {notices: msg.notices}}));
      Object.keys(challenges).forEach(drop);
      msg.notices.forEach(function (n) { handle(n.kind, n.payload); });
    } else if (msg.type === "notice") {
      handle(msg.kind, msg.payload);
    } else if (msg.type === "error" && msg.code === "unavailable") {
      // The server's database cannot answer now: the list again in a moment.
      window.setTimeout(function () {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({type: "sync"}));
      }, 2000 + Math.random() * 1000);
    }
  });
  ws.addEventListener("close", function (event) {
    box.dataset.live = "false";
    // 4401: not signed in (any more); 4429: too many of this player's sockets are open.
    // Reconnecting on its own cannot help.
    if (closed || event.code === 4401 || event.code === 4429) return;
    // 1001: the server stops gracefully; another takes the page at once (live.js, LiveSocket).
    if (event.code === 1001 && attempt === 0) { attempt = 1; connect(); return; }
    var delay = Math.min(15000, 500 * Math.pow(2, attempt));
    attempt += 1;
    window.setTimeout(connect, delay / 2 + Math.random() * delay / 2);
  });
}
if (on) {
  window.addEventListener("pagehide", function () { closed = true; });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { closed = false; connect(); }
  });
  // After every module of the page has run (they run before DOMContentLoaded): the apps'
  // modules listen for "basra:pending" and "basra:notice" before the socket opens.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", connect);
  else connect();
}
