// Live standings and tables: until the event is over, the page's live parts are fetched again
// every few seconds and swapped in (standings, bracket, rounds, the player's own table when the
// event starts or a new round is paired); at once when the site's notice socket brings news of
// this event ("basra:notice", static/tournaments/notify.js).
(function () {
  "use strict";
  const EVERY_MS = 5000;
  const eventNode = document.getElementById("event");
  let timer = null;
  let over = false;
  async function refresh() {
    window.clearTimeout(timer);
    try {
      const response = await fetch(window.location.href, { headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const id of ["event-live", "my-tables", "event-status"]) {
        const fresh = doc.getElementById(id);
        const old = document.getElementById(id);
        if (fresh && old) old.replaceWith(fresh);
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
      refresh();
    }
  });
  timer = window.setTimeout(refresh, EVERY_MS);
})();
