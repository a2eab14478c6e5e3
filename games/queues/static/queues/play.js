// The "Play now" page (games/queues/views.py): the queue buttons, the Leave button and the
// partner forms post through fetch and redraw from the answer (the player's status,
// services.status); the counts and the wait are refreshed every few seconds; the table a wave
// made is reached by static/queues/notify.js (the "queue_paired" notice). Without script the
// forms post plainly and the page reloads.
import {fmt} from "../games/live.js";

const node = document.getElementById("queues-config");  // always on the page (queues/play.html)
const cfg = JSON.parse(node.textContent);
// The page's words, from the /jsi18n/ catalogue.
const L = {
  what2: gettext("1v1, %(seconds)s s per play"),
  what4: gettext("Partnership, %(seconds)s s per play"),
  whatPair: gettext("Partnership with %(partner)s, %(seconds)s s per play"),
  invited: gettext("Waiting for %(partner)s to accept."),
  invitation: gettext("%(inviter)s invites you to wait together (%(seconds)s s per play)."),
  accept: gettext("Accept"),
  seatedPlaying: gettext("You are playing at table %(id)s."),
  seatedOpen: gettext("You are seated at table %(id)s, which waits for its players."),
  backToTable: gettext("Back to the table"),
  failed: gettext("The server did not answer: try again."),
};
const $ = (id) => document.getElementById(id);
let waitedFrom = null; // Date.now() less the seconds waited, while waiting
let cooldownUntil = null;

function csrf(form) {
  const input = form.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function draw(state) {
  for (const q of state.queues) {
    const key = q.players + "-" + q.move_seconds;
    const counts = document.querySelector('[data-counts="' + key + '"]');
    if (counts) {
      const ngettext = window.django ? window.django.ngettext : (one, many, n) => (n === 1 ? one : many);
      counts.textContent = fmt(ngettext("%(count)s waiting", "%(count)s waiting", q.waiting), {count: q.waiting}) +
        " \u00b7 " + fmt(ngettext("%(count)s playing", "%(count)s playing", q.playing), {count: q.playing});
    }
    const button = document.querySelector('[data-queue="' + key + '"]');
    if (button) {
      const mine = state.mine && !state.mine.partner && state.mine.players === q.players
        && state.mine.move_seconds === q.move_seconds;
      button.setAttribute("aria-pressed", mine ? "true" : "false");
    }
  }
  const waiting = $("queues-waiting");
  if (state.mine) {
    const m = state.mine;
    $("queues-waiting-what").textContent = m.partner
      ? fmt(L.whatPair, {partner: m.partner, seconds: m.move_seconds})
      : fmt(m.players === 2 ? L.what2 : L.what4, {seconds: m.move_seconds});
    waitedFrom = Date.now() - m.waited * 1000;
    waiting.hidden = false;
  } else {
    waitedFrom = null;
    waiting.hidden = true;
  }
  showTable(state.table);
  cooldownUntil = state.cooldown ? Date.now() + state.cooldown * 1000 : null;
  $("queues-cooldown").hidden = !state.cooldown;
  const invited = $("queues-invited");
  if (invited) {
    invited.hidden = !state.invited;
    invited.textContent = state.invited ? fmt(L.invited, state.invited) : "";
  }
  const list = $("queues-invitations");
  if (list) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    list.replaceChildren(...state.invitations.map((inv) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = cfg.urls.accept;
      form.dataset.queueForm = "";
      form.innerHTML = '<input type="hidden" name="csrfmiddlewaretoken"><input type="hidden" name="inviter">';
      form.elements.csrfmiddlewaretoken.value = token ? token.value : "";
      form.elements.inviter.value = inv.inviter;
      const text = document.createElement("span");
      text.textContent = fmt(L.invitation, {inviter: inv.inviter, seconds: inv.move_seconds}) + " ";
      const button = document.createElement("button");
      button.type = "submit";
      button.className = "button";
      button.textContent = L.accept;
      form.append(text, button);
      const item = document.createElement("li");
      item.append(form);
      return item;
    }));
  }
  tickClock();
}

function tickClock() {
  if (waitedFrom !== null) $("queues-waited").textContent = String(Math.max(0, Math.floor((Date.now() - waitedFrom) / 1000)));
  const left = document.querySelector("[data-cooldown]");
  if (cooldownUntil !== null && left) left.textContent = String(Math.max(0, Math.ceil((cooldownUntil - Date.now()) / 1000)));
}

// The table the player sits at that is not over (services.status "table", or a
// queue_seated refusal's): said near the buttons, with the way back to it.
function showTable(table) {
  const box = $("queues-seated");
  box.hidden = !table;
  if (!table) return;
  $("queues-seated-text").textContent = fmt(table.playing ? L.seatedPlaying : L.seatedOpen, {id: table.match_id});
  $("queues-seated-link").href = table.url;
}

// A refusal is said where the press was: under the pressed button's row of buttons (or the
// form), not at the page's foot out of a phone's view; a refusal naming the table the
// player sits at links to it.
function showError(message, form, table) {
  const box = $("queues-error");
  box.hidden = !message;
  if (!message) { box.replaceChildren(); return; }
  const anchor = form && (form.closest(".queues-buttons") || form);
  if (anchor) anchor.after(box);
  const text = document.createElement("span");
  text.textContent = message;
  box.replaceChildren(text);
  if (table) {
    const link = document.createElement("a");
    link.href = table.url;
    link.className = "queues-error-link";
    link.textContent = L.backToTable;
    box.append(" ", link);
    showTable(table);
  }
  box.scrollIntoView({block: "nearest"});
}

// One request at a time: a second click while the first is on its way is dropped.
let busy = false;
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches("[data-queue-form]")) return;
  event.preventDefault();
  if (busy) return;
  busy = true;
  fetch(form.action, {method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
                      headers: {"X-CSRFToken": csrf(form), "Accept": "application/json"}})
    .then((response) => response.json())
    .then((answer) => {
      if (answer.error) { showError(answer.message, form, answer.table); return; }
      showError("");
      draw(answer);
    })
    .catch(() => showError(L.failed, form))
    .finally(() => { busy = false; });
});

function refresh() {
  fetch(cfg.urls.status, {credentials: "same-origin", headers: {"Accept": "application/json"}})
    .then((response) => response.json()).then(draw).catch(() => {});
}
window.setInterval(refresh, 3000);
window.setInterval(tickClock, 1000);
// Told it is back in the queue (its opponent did not come): show it at once.
document.addEventListener("basra:notice", (event) => {
  if (event.detail.kind === "queue_requeued" || event.detail.kind === "queue_invite") refresh();
});
