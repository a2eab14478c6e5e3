/* What makes the live table feel alive, apart from drawing the state (main.js): a played card
 * flying to the floor and a capture sweeping to the capturer's seat, the celebration of a basra,
 * short sounds made with the Web Audio API (no sound files), the reader's preferences kept in
 * this browser (localStorage), and the "your turn" notice of a tab in the background.
 * Motion follows prefers-reduced-motion: with "reduce", nothing flies and nothing bounces.
 * An ES module; the table's modules import it as a namespace (`import * as fx`). */
import * as B from "../live.js";

// --- preferences, per browser ----------------------------------------------------------------

var PREFIX = "basra.";

/** A stored on/off preference (default: on). localStorage may be refused (private mode). */
function pref(name) {
  try { return window.localStorage.getItem(PREFIX + name) !== "off"; } catch (e) { return true; }
}

export function setPref(name, on) {
  try { window.localStorage.setItem(PREFIX + name, on ? "on" : "off"); } catch (e) { /* kept for this page only */ }
  memory[name] = on;
}

var memory = {};
export function isOn(name) { return name in memory ? memory[name] : pref(name); }

export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// --- sounds --------------------------------------------------------------------------------

var audio = null;

/** The audio context, made (or resumed) on a user gesture: browsers keep it silent before. */
function wakeAudio() {
  var Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (audio === null) {
    try { audio = new Context(); } catch (e) { audio = null; return; }
  }
  if (audio.state === "suspended") audio.resume();
}
["pointerdown", "keydown"].forEach(function (kind) {
  document.addEventListener(kind, wakeAudio, {capture: true, passive: true});
});

/** Notes of each sound: [frequency Hz, start s, length s, wave]. */
var SOUNDS = {
  play: [[520, 0, 0.07, "triangle"]],
  capture: [[440, 0, 0.08, "triangle"], [660, 0.07, 0.1, "triangle"]],
  basra: [[523, 0, 0.12, "square"], [659, 0.1, 0.12, "square"], [784, 0.2, 0.12, "square"],
          [1047, 0.3, 0.3, "square"]],
  turn: [[880, 0, 0.12, "sine"], [1175, 0.13, 0.18, "sine"]],
};

/** Play one of SOUNDS unless sound is off. The table's root says which one was played last
 * (data-last-sound), which is how the browser tests hear it. */
export function sound(name) {
  if (!isOn("sound") || !SOUNDS[name]) return;
  var root = document.getElementById("table");
  if (root) root.dataset.lastSound = name;
  if (audio === null || audio.state !== "running") return;
  var now = audio.currentTime;
  SOUNDS[name].forEach(function (note) {
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.type = note[3];
    osc.frequency.value = note[0];
    var start = now + note[1];
    var end = start + note[2];
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, end);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(end + 0.02);
  });
}

// --- motion ----------------------------------------------------------------------------------

/** Where things are before a new state is drawn: each floor card and each card of my hand
 * (by code), and each seat box (by seat). */
export function snapshot() {
  var rects = {floor: {}, hand: {}, seats: {}};
  document.querySelectorAll("#floor .card[data-card]").forEach(function (node) {
    rects.floor[node.dataset.card] = node.getBoundingClientRect();
  });
  document.querySelectorAll("#hand .card[data-card]").forEach(function (node) {
    rects.hand[node.dataset.card] = node.getBoundingClientRect();
  });
  document.querySelectorAll("#board .seat-box[data-seat]").forEach(function (node) {
    rects.seats[node.dataset.seat] = node.getBoundingClientRect();
  });
  return rects;
}

function centre(rect) { return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2}; }

/** A card drawn over the page at rect's centre, moved to each point of path in turn (the
 * Web Animations API), then removed; then() runs when it has landed. */
function fly(code, labels, from, path, options) {
  var ghost = B.cardNode(code, labels, {size: "small", extraClass: "fly-card"});
  var root = document.getElementById("table");
  if (root) root.dataset.lastFlight = code;  // for the browser tests: what moved last
  ghost.setAttribute("aria-hidden", "true");
  ghost.removeAttribute("role");
  document.body.appendChild(ghost);
  var box = ghost.getBoundingClientRect();
  var start = centre(from);
  ghost.style.left = (start.x - box.width / 2) + "px";
  ghost.style.top = (start.y - box.height / 2) + "px";
  var frames = [{transform: "translate(0, 0) scale(1)", opacity: 1}].concat(path.map(function (point, i) {
    var last = i === path.length - 1;
    return {transform: "translate(" + (point.x - start.x) + "px, " + (point.y - start.y) + "px) scale(" +
                       (point.scale || 1) + ")", opacity: last && options.fade ? 0 : 1};
  }));
  var animation = ghost.animate(frames, {duration: options.duration, easing: "ease-in-out",
                                         delay: options.delay || 0, fill: "both"});
  var done = function () { ghost.remove(); if (options.then) options.then(); };
  animation.onfinish = done;
  animation.oncancel = done;
  return ghost;
}

/**
 * The last play, shown moving: from the player's seat (or my hand) to the floor; when it
 * took cards, the card and what it took then sweep to the capturer's seat. Nothing moves
 * with prefers-reduced-motion: reduce, for a play already seen, or with no snapshot.
 *
 * before: snapshot() taken before the new state was drawn; play: round.last_play;
 * mine: the viewer's seat (null for a spectator); labels: the page's translated labels.
 */
export function animatePlay(before, play, mine, labels) {
  if (!before || !play || reducedMotion()) return;
  var seatBox = document.querySelector('#board .seat-box[data-seat="' + play.seat + '"]');
  var from = (play.seat === mine && before.hand[play.card]) || before.seats[play.seat] ||
             (seatBox && seatBox.getBoundingClientRect());
  var floor = document.getElementById("floor");
  if (!from || !floor) return;
  var taken = play.taken || [];
  if (!taken.length) {
    // The card stays on the floor: it lands on its own place there.
    var landed = floor.querySelector('.card[data-card="' + play.card + '"]');
    if (!landed) return;
    landed.classList.add("landing");
    fly(play.card, labels, from, [centre(landed.getBoundingClientRect())],
        {duration: 320, then: function () { landed.classList.remove("landing"); }});
    return;
  }
  var target = seatBox ? centre(seatBox.getBoundingClientRect()) : centre(floor.getBoundingClientRect());
  target.scale = 0.4;
  var onFloor = centre(floor.getBoundingClientRect());
  fly(play.card, labels, from, [onFloor, target], {duration: 700, fade: true});
  taken.forEach(function (code, i) {
    var was = before.floor[code];
    if (was) fly(code, labels, was, [target], {duration: 420, delay: 300 + 30 * i, fade: true});
  });
}

// --- celebrations ----------------------------------------------------------------------------

var celebrationTimer = null;

/** Show "Basra!" (or "Jack basra!") over the board with who made it, for a couple of seconds;
 * with motion allowed it bursts in (CSS, .celebration). ``aside``: the viewer is to move (or a
 * round's score is over the table), so it is a one-line pill at the board's top edge, over the
 * seat there, never over the floor or the hand. */
export function celebrate(kind, text, who, aside) {
  var box = document.getElementById("celebration");
  if (!box) return;
  box.dataset.kind = kind;
  box.classList.toggle("still", reducedMotion());
  box.classList.toggle("aside", !!aside);
  box.replaceChildren(B.el("strong", {class: "celebration-title", text: text}),
                      who ? B.el("bdi", {class: "celebration-who", text: who}) : null);
  // Restart the CSS animation when two basras come in a row.
  box.hidden = true;
  void box.offsetWidth;
  box.hidden = false;
  window.clearTimeout(celebrationTimer);
  celebrationTimer = window.setTimeout(function () { box.hidden = true; }, 2600);
}

/** The viewer's turn came while "Basra!" is still up over the floor (their own basra, and
 * the next seat played quickly): it moves aside to the board's top edge at once. */
export function celebrationAside() {
  var box = document.getElementById("celebration");
  if (box && !box.hidden) box.classList.add("aside");
}

// --- the tab in the background -------------------------------------------------------------

export function pageHidden() { return document.visibilityState === "hidden"; }

function canNotify() { return "Notification" in window; }

/** A browser notification that it is my turn, only when this tab is in the background and
 * the person allowed them (asked on a click: notifyButton). */
export function notifyTurn(title, body, tag) {
  if (!pageHidden() || !canNotify() || window.Notification.permission !== "granted") return null;
  try {
    var note = new window.Notification(title, {body: body, tag: tag});
    note.onclick = function () { window.focus(); note.close(); };
    return note;
  } catch (e) {
    return null;  // e.g. Chrome on Android only notifies through a service worker
  }
}

/** The "tell me when it is my turn" button: shown to a seated player while the browser has
 * not been answered (permission "default"); a click asks (a user gesture, as browsers
 * require). Returns ``offer(seated)``, for the table to call with each state: a spectator
 * has no turn to be told of, so the button stays hidden until the viewer is seated. */
export function notifyButton(button) {
  if (!button) return function () {};
  var seated = false;
  var update = function () {
    button.hidden = !seated || !canNotify() || window.Notification.permission !== "default";
  };
  button.addEventListener("click", function () {
    var asked = window.Notification.requestPermission(update);
    if (asked && asked.then) asked.then(update);
  });
  update();
  return function (isSeated) { seated = isSeated; update(); };
}

/** A two-state switch button (aria-pressed) bound to the preference name. */
export function toggleButton(button, name, onChange) {
  if (!button) return;
  var draw = function () {
    var on = isOn(name);
    button.setAttribute("aria-pressed", String(on));
    button.dataset.on = String(on);
  };
  button.addEventListener("click", function () {
    setPref(name, !isOn(name));
    draw();
    if (onChange) onChange(isOn(name));
  });
  draw();
}
