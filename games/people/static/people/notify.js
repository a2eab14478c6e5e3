// The friends' notices on every page of a signed-in player (games/people/notices.py): a friend
// started a rated match ("friend_rated"), a friend entered a tournament ("friend_tournament").
// No socket of its own: it listens to the site's notice socket (static/games/notices.js); each
// is a short notice linking to the table or the event. A link to a profile's "#challenge" (the
// lobby's friends online: "Other settings") opens its challenge form.
import {flash} from "../games/notices.js";
import {fmt} from "../games/live.js";

const L = {
  rated: gettext("Your friend %(name)s started a rated match: watch it."),
  tournament: gettext("Your friend %(name)s entered the tournament %(event)s."),
};

document.addEventListener("basra:notice", (event) => {
  const {kind, payload} = event.detail;
  if (kind === "friend_rated") {
    flash(fmt(L.rated, {name: payload.friend}), "people-notice", {url: payload.url, data: {peopleNotice: "rated"}});
  } else if (kind === "friend_tournament") {
    flash(fmt(L.tournament, {name: payload.friend, event: payload.tournament}), "people-notice",
      {url: payload.url, data: {peopleNotice: "tournament"}});
  }
});

function openChallenge() {
  if (window.location.hash !== "#challenge") return;
  const box = document.querySelector("#challenge details.challenge-box");
  if (box) {
    box.open = true;
    const send = document.getElementById("challenge-send");
    if (send) send.focus();
  }
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", openChallenge);
else openChallenge();
