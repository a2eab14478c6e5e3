// The lobby's friends online (people/_friends_online.html), kept current: every
// REFRESH_SECONDS while the page is in view, and at once when it comes back into view, the
// block is drawn again from the people app's small endpoint (games.people.views.friends_online,
// the same template), so who is online and what each is doing follow the friends without a
// reload. Each "Challenge" form gets the client seed drawn here (live.js fillSeeds).
import {fillSeeds} from "../games/live.js";

const REFRESH_SECONDS = 30;

function block() { return document.getElementById("friends-online"); }

async function refresh() {
  if (!block() || document.visibilityState !== "visible") return;
  // A form being used (a button pressed, focus inside) is not replaced under the finger.
  if (block().contains(document.activeElement) && document.activeElement !== document.body) return;
  let response;
  try {
    response = await fetch(block().dataset.refresh, {credentials: "same-origin", headers: {Accept: "text/html"}});
  } catch (error) {
    return;  // offline for now: the next round tries again
  }
  if (!response.ok) return;
  const found = new DOMParser().parseFromString(await response.text(), "text/html")
    .getElementById("friends-online");
  const now = block();
  if (!found || !now) return;
  now.replaceChildren(...Array.from(found.childNodes).map((node) => document.importNode(node, true)));
  fillSeeds(now);
  now.dispatchEvent(new CustomEvent("people:friends-online", {bubbles: true}));
}

if (block()) {
  fillSeeds(block());
  window.setInterval(refresh, REFRESH_SECONDS * 1000);
  document.addEventListener("visibilitychange", refresh);
}
