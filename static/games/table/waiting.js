/* The live table's waiting room, while the table is open: the seat chips with their seat
 * pickers, the sides of a four-player table, the client seed box (RULES.md, "Provably fair
 * shuffle") and the join and leave buttons. A view module of the table (main.js). */
import * as B from "../live.js";
import {loginUrl} from "./clock.js";
import * as T from "./kit.js";
import {tagChip, waitingSideNames} from "./sides.js";
import {getState, provided, send, store} from "./store.js";

var el = B.el;
var cfg = T.cfg;
var L = T.L;
var $ = T.$;
var botBadge = T.botBadge, isBot = T.isBot, players = T.players, seatName = T.seatName,
    seatOf = T.seatOf, url = T.url;

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

export function renderWaiting() {
  var box = $("waiting");
  if (getState().match.status !== "open") { box.hidden = true; return; }
  var n = players();
  var seated = getState().you !== null && getState().you !== undefined;
  var taken = 0;
  var chips = [];
  // One way to take a seat: with one to take (the second seat of a table for two) the join
  // box's "Join" takes it; with two or more (empty or a computer's) each has its own "Sit
  // here" or "Take this seat", saying whose side it is (sides.js), and no "Join" beside them,
  // which would be a second button doing what one of them does, without saying which seat.
  var free = 0;
  for (var s = 0; s < n; s++) if (isBot(s) || !seatName(s)) free += 1;
  var picking = !seated && !!cfg.username && free > 1;
  for (var seat = 0; seat < n; seat++) {
    var name = seatName(seat);
    var bot = isBot(seat);
    // "Amira (1500?)": the rating a left-to-right isolate of its own (live.js ratingNode),
    // a space from the name ("محمد(1500?)" read as one word).
    var rated = bot ? null : provided("seatBadge", seat)[0] || null;
    if (name) taken += 1;
    var chip = el("li", {class: "seat-chip" + (bot ? " bot" : name ? "" : " empty"),
                         title: !bot && name ? name : null,
                         dataset: {seat: seat, bot: bot ? seatOf(seat).bot : null}},
                  [bot ? botBadge() : null, name ? el("bdi", {text: name}) : L.emptySeat].concat(
                    rated ? [" ", rated] : []));
    if (picking && (bot || !name)) {
      // Choose a seat: an empty one, or a computer's (a person may take it before the start).
      var form = B.joinForm(url("join"), cfg.csrfToken, bot ? L.takeSeat : L.sitHere, "secondary");
      form.classList.add("seat-pick");
      form.appendChild(el("input", {type: "hidden", name: "seat", value: seat}));
      form.addEventListener("submit", useJoinSeed);
      chip.appendChild(form);
    }
    tagChip(chip, seat);  // four players: whose side (sides.js)
    chips.push(chip);
  }
  // Four players: who partners whom ("Side 1: alice & carol"), partners sitting opposite.
  var sides = n === 4 ? el("ul", {class: "sides", id: "waiting-sides"}, [0, 1].map(function (side) {
    return el("li", {class: "side-line", dataset: {side: side},
                     text: B.fmt(L.sideOf, {number: side + 1, names: waitingSideNames(side)})});
  })) : null;
  var actions = el("div", {class: "table-row-actions"});
  var seedBox = null;
  // A redraw (a state arriving) must not undo what is in the seed box now, typed or pasted.
  var typed = $("client-seed");
  if (typed && seated && typed.closest("#seed-form")) seedDraft = typed.value;
  else if (typed && !seated && typed.closest("#join-form, #join-seed")) joinSeed = typed.value;
  if (seated) {
    actions.appendChild(B.postForm(url("leave"), cfg.csrfToken, L.leave, "secondary"));
    // My client seed, mine to change until the start.
    var current = getState().client_seed || "";
    seedBox = el("form", {method: "post", action: url("seed"), class: "seed-form", id: "seed-form"}, [
      el("input", {type: "hidden", name: "csrfmiddlewaretoken", value: cfg.csrfToken}),
      seedField(seedDraft !== null ? seedDraft : current, function (event) { seedDraft = event.target.value; }),
      el("button", {type: "submit", class: "button secondary", id: "seed-change", text: L.changeSeed}),
    ]);
  } else if (picking) {
    // The seed the seat pickers send (useJoinSeed), in no form of its own: Enter in it would
    // join at whichever seat the server gives.
    if (joinSeed === null) joinSeed = B.randomSeed();
    seedBox = el("div", {class: "seed-form", id: "join-seed"}, [
      seedField(joinSeed, function (event) { joinSeed = event.target.value; }),
    ]);
  } else if (taken < n && cfg.username) {
    if (joinSeed === null) joinSeed = B.randomSeed();
    seedBox = el("form", {method: "post", action: url("join"), class: "seed-form", id: "join-form"}, [
      el("input", {type: "hidden", name: "csrfmiddlewaretoken", value: cfg.csrfToken}),
      seedField(joinSeed, function (event) { joinSeed = event.target.value; }),
      el("button", {type: "submit", class: "button primary", id: "join-button", text: L.join}),
    ]);
  } else if (taken < n) {
    // Logged out, beside a free seat: the log-in, back here, where a join would only be
    // refused (the only place a visitor is offered to play, clock.js renderBanners).
    actions.appendChild(el("a", {class: "button primary", id: "login-link", href: loginUrl(), text: L.logInToPlay}));
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
