// The moderators' messages on every page of a signed-in player (games/moderation/told.py): a
// warning, rating points given back, a report acted on. No socket of its own: it listens to
// the site's notice socket (static/games/notices.js) and links to the messages page.
import {flash} from "../games/notices.js";

const L = {
  message: gettext("You have a message from the moderators."),
};

document.addEventListener("basra:notice", (event) => {
  const {kind, payload} = event.detail;
  if (kind === "mod_message") {
    flash(L.message, "moderation-notice", {url: payload.url, data: {moderationNotice: "message"}});
  }
});
