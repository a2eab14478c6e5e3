// Live standings and tables: until the event is over, the page's live parts are fetched again
// every few seconds and swapped in (standings, bracket, rounds, the player's own table when the
// event starts or a new round is paired, the organiser's controls and the entrants' list with
// theirs, which change when it starts); at once when the site's notice socket brings news of
// this event ("basra:notice", static/tournaments/notify.js). The running event page's entry module.
import "./zone.js";

const EVERY_MS = 5000;
const eventNode = document.getElementById("event");
let timer = null;
let over = false;
// The page's version (its ETag) last swapped in: the page answers 304 while nothing it shows
// has changed (games/tournaments/views.py, event_etag), and the browser then hands back the
// copy it has, with the same ETag, which needs no swapping.
let version = null;
// What the organiser has chosen in a form of the old part (a forfeit's winner, a corrected
// result) goes into the same form of the fresh one: else a refresh would put every list back
// to its first entry, and a forfeit could go to the wrong player.
function keepChoices(old, fresh) {
  old.querySelectorAll("form[action]").forEach((form) => {
    const action = form.getAttribute("action");
    const twin = Array.from(fresh.querySelectorAll("form[action]"))
      .find((f) => f.getAttribute("action") === action);
    if (!twin) return;
    form.querySelectorAll("select[name], input[name], textarea[name]").forEach((control) => {
      if (control.type === "hidden") return;
      const other = twin.querySelector(`[name="${CSS.escape(control.name)}"]`);
      if (!other) return;
      if (control.type === "checkbox" || control.type === "radio") other.checked = control.checked;
      else other.value = control.value;
    });
  });
}
// A part the user is working in (a list open, a box being typed in) is left for the next turn.
function busy(node) {
  const active = document.activeElement;
  return !!active && active !== document.body && node.contains(active)
    && /^(SELECT|INPUT|TEXTAREA)$/.test(active.tagName);
}
async function refresh() {
  window.clearTimeout(timer);
  try {
    const response = await fetch(window.location.href, {
      headers: { "X-Requested-With": "fetch" }, cache: "no-cache",
    });
    if (!response.ok) return;
    const tag = response.headers.get("ETag");
    if (tag && tag === version) return;
    version = tag;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ["event-live", "my-tables", "event-status", "event-organiser", "event-entrants"]) {
      const fresh = doc.getElementById(id);
      const old = document.getElementById(id);
      if (fresh && old && busy(old)) continue;
      if (fresh && old) {
        keepChoices(old, fresh);
        old.replaceWith(fresh);
      }
      else if (fresh && id === "my-tables") document.querySelector(".actions").prepend(fresh);
      else if (old && !fresh) old.remove();
    }
    const event = doc.getElementById("event");
    if (event && ["finished", "cancelled"].includes(event.dataset.status)) {
      over = true;
      return;
    }
  } catch (error) {
    // The next try may work (a restart, a dropped connection).
  } finally {
    window.clearTimeout(timer);
    if (!over) timer = window.setTimeout(refresh, EVERY_MS);
  }
}
document.addEventListener("basra:notice", (e) => {
  const payload = (e.detail && e.detail.payload) || {};
  if (!over && eventNode && String(e.detail.kind).startsWith("tournament_")
      && String(payload.tournament_id) === eventNode.dataset.tournamentId) {
    // The settings changed: they sit outside the live parts, so the whole page is read again.
    if (payload.news === "edited") window.location.reload();
    else refresh();
  }
});
timer = window.setTimeout(refresh, EVERY_MS);
