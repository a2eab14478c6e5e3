/* The live table's clock and what it tells the reader besides the cards: the connection chip and
 * the banners (connection lost, logged out, watching), the countdowns, the notices (replaced, away,
 * timed out, resign offers, the claim), the resign, abort and more-time buttons, and the
 * first two's "are you sure?".
 * A view module of the table (main.js draws it after each state). */
import * as B from "../live.js";
import * as T from "./kit.js";
import {getState, provided, send, store} from "./store.js";
import {turnKey} from "./speak.js";

var el = B.el;
var cfg = T.cfg;
var L = T.L;
var root = T.root;
var $ = T.$;
var isBot = T.isBot, isMyTurn = T.isMyTurn, isSeated = T.isSeated, mySide = T.mySide,
    players = T.players, seatName = T.seatName, seatOf = T.seatOf;

var myTimeout = null;    // {card, round}: the server played this card for me (time ran out)

/** The states a reader must not have to guess: the connection lost (over the table, saying
 * why the cards do not answer), this tab logged out, and watching rather than playing. */
export function renderBanners() {
  var conn = $("conn-banner");
  var lost = store.socketStatus === "reconnecting" && !(getState() && getState().result);
  conn.hidden = !lost;
  if (lost) {
    conn.replaceChildren(el("strong", {text: L.connLost}), " ",
                         el("span", {text: isSeated() ? L.connLostCards : L.connLostWatch}));
  }
  root.dataset.connection = lost ? "lost" : store.socketStatus;
  var session = $("session-banner");
  session.hidden = !store.loggedOut;
  if (store.loggedOut) {
    session.replaceChildren(el("span", {text: L.loggedOut + " "}),
                            el("a", {class: "button primary", id: "login-link", href: loginUrl(), text: L.logIn}));
  }
  var watching = $("watching-banner");
  var watcher = !!getState() && !isSeated() && getState().match.status !== "open" && !store.loggedOut;
  watching.hidden = !watcher;
  // No "Log in to play" here: a table under way has no seat to take; the waiting room offers
  // it beside a free seat (waiting.js).
  if (watcher) watching.replaceChildren(el("span", {text: L.spectating}));
}

/** The log-in page, back to this table afterwards. */
export function loginUrl() {
  return cfg.urls.login + "?next=" + encodeURIComponent(window.location.pathname);
}

/** The connection chip: "Finished" once the match is over (nothing live is left to show),
 * otherwise the socket's state. */
export function renderLiveStatus() {
  B.showStatus($("live-status"), getState() && getState().result ? "finished" : store.socketStatus, L);
}

// --- the clock, notices, claim and resign ----------------------------------------------------

/** Milliseconds left to the deadline, in the server's time (null: no clock running). */
export function remaining() {
  if (!getState() || !getState().deadline || getState().result) return null;
  return Date.parse(getState().deadline) - (Date.now() + clockOffset);
}

/** Redraw the countdowns (every quarter second, and after every state). */
export function tick() {
  var left = remaining();
  var r = getState() && getState().round;
  var botTurn = r && r.turn !== null && isBot(r.turn);
  var text = "";
  if (left !== null && r && !r.over && !botTurn && getState().move_seconds) {
    // After a round ends the first play's clock starts a little later (the pause to read the
    // score, docs/protocol.md "The pause between rounds"): it stands at the full time till then.
    // Not for a turn given more time (speak.js notes it): that time is the player's.
    if (store.moreTimeTurn === null || store.moreTimeTurn !== turnKey()) {
      left = Math.min(left, getState().move_seconds * 1000);
    }
  }
  if (left !== null && r && !r.over) {
    text = botTurn ? L.thinking : B.fmt(L.secondsLeft, {seconds: Math.max(0, Math.ceil(left / 1000))});
  }
  var low = left !== null && left < 5000;
  document.querySelectorAll("#board .countdown").forEach(function (node) {
    write(node, text, !botTurn && low);
  });
  var mine = $("my-clock");
  write(mine, isMyTurn() && left !== null ? text : "", low);
  if (mine.hidden !== (mine.textContent === "")) mine.hidden = mine.textContent === "";
  var seconds = left === null ? "" : String(Math.max(0, Math.ceil(left / 1000)));
  if (root.dataset.remaining !== seconds) root.dataset.remaining = seconds;
}

// The countdowns are redrawn four times a second but change once a second: a node is written
// only when its text or colour changes, so the page is laid out again only then (a phone's
// battery, and the browser's CPU while a table stays open).
function write(node, text, low) {
  if (node.textContent !== text) node.textContent = text;
  if (node.classList.contains("low") !== low) node.classList.toggle("low", low);
}

/** How far the server's clock is ahead of this browser's (ms), from a state's "now". */
var clockOffset = 0;
export function noteServerTime(msg) {
  if (msg.now) clockOffset = Date.parse(msg.now) - Date.now();
}

function opponentSeat() { return getState().you === null ? null : (getState().you + 1) % 2; }

/** My partner's seat entry (4 players, seated), or null. */
function partnerInfo() {
  if (!isSeated() || players() !== 4) return null;
  return seatOf((getState().you + 2) % 4);
}

/** My partner cannot answer a resign offer (away, or played by the computer): the server
 * then takes my resignation at once (docs/protocol.md "Clock, absence, claim and resign"). */
function partnerGone() {
  var partner = partnerInfo();
  return !!(partner && (partner.bot || partner.absent));
}

/** The question before resigning, saying what a click does now. */
export function resignQuestion() {
  if (players() !== 4) return L.resignConfirm;
  var partner = partnerInfo();
  if (partner && partner.resign_offer && !partner.bot) return L.resignConfirmPartnerOffered;
  if (partnerGone()) return withNote(L.resignConfirmPartnerGone, provided("leavingNote", "resign")[0] || null);
  return L.resignConfirmPair;
}

/** ``text`` and, when there is one, the sentence after it. */
function withNote(text, note) { return note ? text + " " + note : text; }

function canClaim() {
  if (!isSeated() || players() !== 2 || getState().match.status !== "playing" || getState().result) return false;
  var other = seatOf(opponentSeat());
  var me = seatOf(getState().you);
  return !!(other && other.absent && !other.bot && other.username && me && !me.bot);
}

/** Remember a card the server played for me when my time ran out, until my next own play
 * (or the next round, or the end): later plays by others replace last_play but not the news. */
export function noteTimeout() {
  var r = getState().round;
  var play = r && r.last_play;
  if (!isSeated() || !r || getState().result || getState().match.status !== "playing" || isBot(getState().you)) {
    myTimeout = null;
  } else if (play && play.seat === getState().you) {
    myTimeout = play.timeout === true ? {card: play.card, round: r.number} : null;
  } else if (myTimeout && myTimeout.round !== r.number) {
    myTimeout = null;
  }
}

export function renderNotices() {
  var box = $("notices");
  var items = [];
  var playing = getState().match.status === "playing" && !getState().result;
  if (playing) {
    // A table against the computer whose player left waits for them (state "paused"): told
    // to everyone else; the player's own page brings them back as it connects.
    var paused = getState().paused;
    if (paused !== null && paused !== undefined && paused !== getState().you) {
      items.push([B.fmt(L.pausedFor, {name: B.isolate(seatName(paused))}), "paused", paused]);
    }
    (getState().seats || []).forEach(function (s) {
      var mine = s.seat === getState().you;
      var partner = isSeated() && players() === 4 && s.seat === (getState().you + 2) % 4;
      if (s.bot && s.username) {
        // What it means for my rating (table_ratings.js; null at a casual table), when I
        // still play my seat: the partner of a leaver plays on for nothing. An opponent's
        // leaving says nothing new to one whose own partner is gone.
        var kind = partner ? "partner" : partnerGone() ? null : "opponent";
        var note = kind && !mine && isSeated() && !isBot(getState().you) ? provided("leavingNote", kind)[0] || null : null;
        var said = mine ? L.youReplaced
          : withNote(B.fmt(partner ? L.partnerReplaced : L.seatReplaced, {name: s.username}), note);
        items.push([said, "replaced", s.seat]);
        // Said over the screen too when it happens: in play the page is scrolled to the
        // table, and on a phone this box above it is out of sight (the partner must learn
        // that the match no longer counts for them).
        if (!replacedSaid[s.seat] && !store.firstState && isSeated()) T.showError(said, true);
        replacedSaid[s.seat] = true;
      } else if (s.absent && mine && store.live) {
        // Opening the table brings an absent player back (a "returned" right after this
        // socket's first state); still absent later means only a play will.
        items.push([store.firstState ? L.youAbsentBack : L.youAbsent, "absent", s.seat]);
      } else if (s.absent && players() === 2 && isSeated()) {
        items.push([B.fmt(L.opponentLeft, {name: B.isolate(s.username)}), "opponent-left", s.seat]);
      }
      // A player the computer replaced can no longer resign: their side's offers are not theirs.
      var replaced = isBot(getState().you) && !!(seatOf(getState().you) || {}).username;
      if (mine) {
        // My offer just made: said over the screen too, where the player looks; its notice
        // above the table, among others, would leave the tap seeming to do nothing.
        if (s.resign_offer && !offered && !store.firstState) T.showError(L.youOffered, true);
        offered = !!s.resign_offer;
      }
      if (s.resign_offer && !(replaced && s.seat % 2 === mySide())) {
        items.push([mine ? (partnerGone() ? L.youOfferedPartnerGone : L.youOffered)
                    : partner ? L.partnerOffers : B.fmt(L.offerPending, {name: B.isolate(seatName(s.seat))}),
                    "resign-offer", s.seat]);
      }
    });
    if (myTimeout) {
      items.push([B.fmt(L.youTimedOut, {card: B.cardName(myTimeout.card, L)}), "timeout", getState().you]);
    }
  }
  // An opponent who left, with the Claim button, is said in the play area's bar, in the first
  // screen: under the board and the hand it is out of sight, and the player plays on a won match.
  var now = items.filter(function (item) { return OVER_THE_TABLE.indexOf(item[1]) >= 0; });
  fill(box, items.filter(function (item) { return now.indexOf(item) < 0; }));
  fill($("play-notices"), now);
}

/** The notices' kinds shown in the play area (#play-notices) rather than above it. */
var OVER_THE_TABLE = ["opponent-left"];

/** Draw the notices [text, kind, seat] into ``box``; hidden when there are none. */
function fill(box, items) {
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

var replacedSaid = {};  // seats whose takeover by the computer was said over the screen
var offered = false;  // my resign offer stands (renderNotices: said once when made)

export function renderActions() {
  var me = isSeated() ? seatOf(getState().you) : null;
  var show = !!(me && !me.bot && getState().match.status === "playing" && !getState().result);
  var button = $("resign-button");
  button.hidden = !show;
  // After an offer the button waits for the partner, unless the partner can no longer answer.
  button.disabled = !store.live || !!(me && me.resign_offer && !partnerGone());
  // Before the match's first play it can be called off instead (nobody wins, never rated).
  var r = getState().round;
  var abort = $("abort-button");
  abort.hidden = !(show && r && r.number === 1 && !r.last_play && !getState().round_results.length);
  abort.disabled = !store.live;
  // More time, on my turn at a casual table with a clock (games/core/actions/more_time.py).
  var more = $("more-time-button");
  more.hidden = !(show && isMyTurn() && !getState().match.rated && getState().move_seconds);
  more.disabled = !store.live;
}

/** Ask "are you sure?" in the page's dialog, then send {"type": action}. */
export function confirmThen(question, yes, action) {
  var dialog = $("confirm-dialog");
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  dialog.onclose = function () {
    if (dialog.returnValue === "yes") send({type: action});
  };
  dialog.showModal();
}
