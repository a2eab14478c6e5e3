/* The live table page's one entry module (templates/games/table.html). The server sends the full
 * state on every change ({"type": "state", "seq": N, ...}, docs/protocol.md); this module takes
 * the socket's messages in, passes each state to the store's funnel (store.js: applyState, its
 * seq checks and resync) and, as the store's subscriber, has it drawn by the view modules
 * (board.js, waiting.js, fair.js, score.js, clock.js, over kit.js) and made alive (fx.js,
 * speak.js). An app's module subscribes to the store on its own (store.js, its API). */
import * as B from "../live.js";
import "./rematch.js";
import {renderBoard, renderHand, renderMeta, renderScoreboard, renderTurn} from "./board.js";
import {confirmThen, noteServerTime, noteTimeout, renderActions, renderBanners, renderLiveStatus,
  renderNotices, resignQuestion, tick} from "./clock.js";
import {renderFair} from "./fair.js";
import "./fit.js";
import * as fx from "./fx.js";
import "./keys.js";
import * as T from "./kit.js";
import {openHistory, renderBreakdown, renderResult} from "./score.js";
import * as speak from "./speak.js";
import {applyState, getState, heard, send, store, subscribe} from "./store.js";
import * as talk from "./talk.js";
import {renderWaiting} from "./waiting.js";

var el = B.el;
var cfg = T.cfg;
var L = T.L;
var root = T.root;
var $ = T.$;
var hideError = T.hideError, isBot = T.isBot, isMyTurn = T.isMyTurn, isSeated = T.isSeated,
    seatName = T.seatName, showError = T.showError, sideNames = T.sideNames, url = T.url;

function render() {
  if (!getState()) return;
  root.dataset.seq = getState().seq;
  root.dataset.status = getState().match.status;
  root.dataset.you = getState().you === null || getState().you === undefined ? "" : getState().you;
  root.dataset.finished = String(!!getState().result);
  root.dataset.turn = getState().round && getState().round.turn !== null && !getState().result ? getState().round.turn : "";
  renderMeta();
  renderLiveStatus();
  renderWaiting();
  renderScoreboard();
  renderTurn();
  renderBoard();
  // The round's score before the hand: the hand is held while the score is over the floor.
  renderBreakdown();
  renderHand();
  if (root.dataset.myTurn === "true" && $("table-error").dataset.untilTurn === "true") hideError();
  talk.update(isSeated(), store.live);
  offerNotices(isSeated());
  renderResult();
  renderFair();
  noteTimeout();
  renderNotices();
  renderActions();
  renderBanners();
  tick();
}

// --- talking to the server -----------------------------------------------------------------

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

var opening = false;  // the socket just opened and no state came through it yet
// This page's play was refused as stale, and the fresh state the server sends after it has not
// come yet. If that state leaves the turn the player's (a seat came back, the clock gave time:
// the table changed, not by a play of this seat), the card simply was not played: said at the
// hand, or the tap reads as lost.
var staleTap = false;
var snapshotBefore = null;  // fx.snapshot() taken before the state being applied

/** What the new state brings that a person should see or hear happen: the card played
 * (moving), a basra (celebrated), a capture, their turn coming (a sound, and in a background
 * tab a notification); the play and the turn are also said aloud (speak.js). */
function liven(before, old) {
  var r = getState().round;
  var play = r && r.last_play;
  var oldPlay = old && old.round && old.round.last_play;
  var newRound = old && old.round && r && old.round.number !== r.number;
  var fresh = old && old.seq !== getState().seq && play &&
              (!oldPlay || newRound || JSON.stringify(oldPlay) !== JSON.stringify(play));
  if (fresh) {
    fx.animatePlay(before, play, isSeated() ? getState().you : null, L);
    if (play.basra) {
      celebrateBasra(play.basra, seatName(play.seat), isMyTurn());
    } else {
      fx.sound(play.taken && play.taken.length ? "capture" : "play");
    }
  }
  if (!fresh && old && getState().prev_seq === old.seq) lastOfRound(old);
  if (isMyTurn()) fx.celebrationAside();  // never over the floor of the player to move
  var wasMine = !!old && old.you === getState().you && turnWasMine(old);
  var turnCame = isMyTurn() && !wasMine && !!old;
  speak.state(old, fresh ? play : null, turnCame);
  if (turnCame) {
    // After the card's own sound, when a play made it my turn.
    window.setTimeout(function () { fx.sound("turn"); }, fresh ? 450 : 0);
    fx.notifyTurn(L.yourTurn, B.fmt(L.tableNumber, {id: cfg.matchId}), "basra-turn-" + cfg.matchId);
  }
}

/** "Basra!" (or "Jack basra!") with ``who`` made it, and its sound; over the table unless the
 * match is over: the result and the last round's score are there then, count it, and must
 * not be covered. ``aside``: fx.celebrate's. */
function celebrateBasra(kind, who, aside) {
  if (!getState().result) fx.celebrate(kind, kind === "jack_basra" ? L.jackBasra : L.basra, who, aside);
  fx.sound("basra");
}

/** The round's last play is not in the new state (it shows the next round dealt), but a
 * basra made by it is: the round's result counts one more than the state before. */
function lastOfRound(old) {
  var results = getState().round_results || [];
  var result = results[results.length - 1];
  if (!result || !old.round || old.round.number !== result.number ||
      (old.round_results || []).length !== results.length - 1) return;
  var rules = getState().match.rules;
  var made = null;
  [0, 1].forEach(function (side) {
    if (rules.jack_basra_points && result.jack_basras[side] / rules.jack_basra_points > old.round.jack_basras[side]) {
      made = {kind: "jack_basra", side: side};
    } else if (rules.basra_points && result.basras[side] / rules.basra_points > old.round.basras[side]) {
      made = {kind: "basra", side: side};
    }
  });
  if (made) {
    // The new deal's floor is out and the round's score is over the table: beside them.
    celebrateBasra(made.kind, sideNames(made.side), true);
  } else {
    fx.sound("capture");
  }
}

function turnWasMine(old) {
  var r = old.round;
  return !!(r && !r.over && !old.result && old.you !== null && r.turn === old.you);
}

function onMessage(msg) {
  heard(msg);  // the page's other modules (rematch.js) see every message too
  if (msg.type === "phrase") {
    talk.receive(msg);
    return;
  }
  if (msg.type === "logged_out") {
    store.loggedOut = true;
    // The header too: this page's session has ended (a logout or a password change elsewhere).
    document.querySelectorAll("[data-account-in]").forEach(function (el) { el.hidden = true; });
    document.querySelectorAll("[data-account-out]").forEach(function (el) { el.hidden = false; });
    if (getState()) render();
    return;
  }
  if (msg.type === "state") {
    snapshotBefore = fx.snapshot();  // where the cards were, for the play's flight (liven)
    var first = opening;
    opening = false;
    applyState(msg, first);  // drawn and livened by the subscriber below
  } else if (msg.type === "closed") {
    showClosed(msg.message);
  } else if (msg.type === "watchers") {
    var count = $("watcher-count");
    count.dataset.count = msg.count;
    count.textContent = B.fmt(B.ngettext("%(count)s watching", "%(count)s watching", msg.count), {count: msg.count});
    count.hidden = false;
  } else if (msg.type === "error" && /^watch_/.test(msg.code)) {
    // Not seated, and this table does not let this viewer watch: the server closes the socket.
    showClosed(msg.message);
  } else if (msg.type === "error" && msg.frame) {
    // The refusal of an app's frame (docs/protocol.md, "Apps' frames"): the app's module,
    // which sent it, shows it (onMessage); the table itself is as it was.
  } else if (msg.type === "error" && (msg.code === "bad_phrase" || msg.code === "phrase_too_soon")) {
    showError(msg.message || msg.code);  // about a phrase: the table itself is as it was
  } else if (msg.type === "error") {
    var played = store.pending;  // this page's play was waiting for its answer
    store.pending = false;
    if (msg.code === "login_required" && cfg.username) store.loggedOut = true;
    if (getState()) { renderHand(); renderBanners(); }
    // "stale": the table moved on before the card reached it; the fresh state that follows
    // says the rest (staleTap). Another tab having played, it is the whole answer.
    if (msg.code === "stale") staleTap = played;
    else showError(msg.message || msg.code);
    // After "stale" and "timed_out" the server sends the fresh state by itself; after
    // "unavailable" (the server's database cannot answer now) the page asks in a moment.
    if (msg.code === "unavailable") store.socket.sendSoon({type: "sync"});
    else if (msg.code !== "stale" && msg.code !== "timed_out") send({type: "sync"});
  }
}

$("resign-button").addEventListener("click", function () {
  confirmThen(resignQuestion(), L.resignYes, "resign");
});
$("more-time-button").addEventListener("click", function () { send({type: "more_time"}); });
$("abort-button").addEventListener("click", function () {
  confirmThen(L.abortConfirm, L.abortYes, "abort");
});
window.setInterval(function () { if (getState()) tick(); }, 250);
$("rounds-button").addEventListener("click", openHistory);
$("table-error").addEventListener("click", hideError);
fx.toggleButton($("sound-button"), "sound");
fx.toggleButton($("phrases-mute-button"), "phrases", function (on) { if (!on) talk.mutedNow(); });
var offerNotices = fx.notifyButton($("notify-button"));

// The store's one subscriber of the core: every state applied is drawn, then made alive.
subscribe(function (state, old) {
  // A state's "now" was the server's time when it came: a redraw of the same state (refresh(),
  // an app's provide(), the round's score put away) must not take it for the time now.
  if (old !== state) noteServerTime(state);
  render();
  if (old && old !== state) liven(snapshotBefore, old);
  if (staleTap && old !== state) {
    staleTap = false;
    if (isMyTurn()) showError(L.playStale, true, $("hand"));
  }
});
applyState(cfg.state);
store.socket = new B.LiveSocket(cfg.wsPath, {
  onOpen: function (s) {
    store.connection += 1;
    opening = true;
    s.send({type: "sync"});
    s.send({type: "watchers"});
  },
  onMessage: onMessage,
  onStatus: function (status) {
    store.socketStatus = status;
    renderLiveStatus();
    if (status === "closed" && root.dataset.status !== "closed") showClosed(null);
    store.live = status === "live";
    if (!store.live) store.pending = false;
    if (getState()) { renderHand(); renderActions(); renderNotices(); renderBanners(); }
    talk.update(!!getState() && isSeated(), store.live);
  },
});
// Leaving a running match through the site's own links, or the header's log-out, asks first
// (the seat is not given up: the clock counts a seat gone after a while, and the computer may
// take it over). The language form does not leave: it comes back to this table (its "next").
function leavingAsks(event) {
  if (!getState() || getState().match.status !== "playing" || getState().result || !isSeated() ||
      isBot(getState().you)) return;
  var question = getState().move_seconds ? L.leaveConfirm : L.leaveConfirmNoClock;
  if (!window.confirm(question)) event.preventDefault();
}
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[href]");
  if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
  if (link.getAttribute("href").charAt(0) === "#") return;
  leavingAsks(event);
});
document.querySelectorAll(".site-header form:not(.lang)").forEach(function (form) {
  form.addEventListener("submit", leavingAsks);
});

talk.init(cfg.talk, L, send);
