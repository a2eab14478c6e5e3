/* The rematch panel of a finished table (games/core/actions/rematch.py, docs/protocol.md "Rematch").
 * A seated player asks for a rematch ({"type": "rematch", "client_seed"}); every socket of the
 * table is sent {"type": "rematch", "accepted", "waiting", "gone", "url"}; once url is set the
 * rematch has started and every browser on the table goes there. A rated match to fewer than
 * cfg.ratedTargetMin points has none: the panel says why. Listens to the table's socket through
 * the store (store.js, onMessage). */
import * as B from "../live.js";
import {cfg, L, seatName} from "./kit.js";
import {getState, onMessage, send} from "./store.js";

var box = document.getElementById("rematch");
var offer = null;  // the last "rematch" message
var asked = false;
// The refusal of this page's last ask, shown in the panel: the table's own notice (kit.js
// showError) lies under the finished table, off a phone's screen, and a button that stays as
// it was reads as a tap that did nothing.
var refusal = null;

/** The seats' names as the table gives them (kit.js, seatName), a computer's too, as a list
 * in the page's language (live.js, list). */
function names(seats) {
  return B.list(seats.map(function (seat) { return seatName(seat) || "?"; }));
}

function render() {
  var state = getState();
  var seated = state && state.you !== null && state.you !== undefined;
  if (!state || !state.result) { box.hidden = true; return; }
  if (offer && offer.url) {
    box.replaceChildren(B.el("span", {text: L.rematchStarting}));
    box.hidden = false;
    return;
  }
  // A rated match to fewer points than a rated table needs (made before that rule, or a
  // tournament's) has no rematch: the server refuses it (rated_target_too_low), so say so
  // in place of a button that could only be refused.
  if (state.match.rated && state.match.rules.target < cfg.ratedTargetMin) {
    box.dataset.state = "target-too-low";
    box.replaceChildren(B.el("span", {text: B.fmt(L.rematchTargetTooLow, {count: cfg.ratedTargetMin})}));
    box.hidden = !seated;
    return;
  }
  // No rematch at all: a match decided away from the table, or a table an app seats itself
  // (a tournament's: its event opens the next one).
  var none = state.result.reason === "decided" ? ["decided", L.rematchDecided]
    : cfg.rematchOffered === false ? ["not-offered", L.rematchNotOffered] : null;
  if (none) {
    box.dataset.state = none[0];
    box.replaceChildren(B.el("span", {text: none[1]}));
    box.hidden = !seated;
    return;
  }
  if (offer && offer.gone) {
    box.dataset.state = "gone";
    box.replaceChildren(B.el("span", {text: L.rematchGone}));
    box.hidden = !seated && !(offer.accepted || []).length;
    return;
  }
  var accepted = offer ? offer.accepted : [];
  var mine = seated && accepted.indexOf(state.you) >= 0;
  var parts = [];
  if (refusal) parts.push(B.el("span", {class: "rematch-refused", text: refusal}));
  if (mine) {
    box.dataset.state = "asked";
    parts.push(B.el("span", {text: B.fmt(L.rematchAsked, {names: names(offer.waiting)})}));
  } else if (accepted.length) {
    box.dataset.state = "offered";
    var offered = accepted.length > 1 ? L.rematchOfferedMany : L.rematchOffered;
    parts.push(B.el("span", {text: B.fmt(offered, {names: names(accepted)})}));
  } else {
    box.dataset.state = "none";
  }
  if (seated && !mine) {
    parts.push(B.el("button", {
      type: "button", class: "button primary", id: "rematch-button", disabled: asked,
      text: accepted.length ? L.rematchAccept : L.rematchAsk,
      on: {click: function () {
        if (send({type: "rematch", client_seed: B.randomSeed()})) {
          asked = true;
          refusal = null;
          render();
        }
      }},
    }));
  }
  box.replaceChildren.apply(box, parts);
  box.hidden = parts.length === 0;
}

var going = null;
onMessage(function (msg) {
  if (msg.type === "rematch") {
    offer = msg;
    asked = false;
    refusal = null;
    render();
    // Once: a second assign (the start told again) would abort the first navigation.
    if (msg.url && window.location.pathname !== msg.url && going !== msg.url) {
      going = msg.url;
      window.location.assign(msg.url);
    }
  } else if (msg.type === "state") {
    window.setTimeout(render, 0);  // after main.js has taken the new state
  } else if (msg.type === "error") {
    var mineToo = asked && !msg.frame && msg.code !== "bad_phrase" && msg.code !== "phrase_too_soon";
    if (mineToo && msg.code === "rematch_gone") {
      // A player left before the ask reached the table: no rematch, as its frame would say.
      offer = Object.assign({accepted: [], waiting: [], url: null}, offer, {gone: true});
    } else if (mineToo) {
      refusal = msg.message || msg.code;
    }
    asked = false;
    window.setTimeout(render, 0);
  }
});
render();
