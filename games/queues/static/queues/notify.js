// The queues' notices on every page of a signed-in player (games/queues/news.py): a wave seated
// the player ("queue_paired": go to the table at once, unless this page is it), their opponent
// did not come ("queue_requeued": back at the front of the queue), a partner's invitation
// ("queue_invite"). No socket of its own: it listens to the site's notice socket
// (static/games/notices.js, "basra:notice" and "basra:pending" on document).
import {flash as siteFlash} from "../games/notices.js";
import {fmt} from "../games/live.js";

// The notices' words, from the /jsi18n/ catalogue.
const L = {
  paired: gettext("Paired: to your table…"),
  requeued: gettext("Your opponent did not come to the table: you are back at the front of the queue."),
  invite: gettext("%(inviter)s invites you to wait together in the partnership queue (%(seconds)s s per play): answer on the Play now page."),
};
let going = null;

// The site's short notice (static/games/notices.js), a link to url.
function flash(text, url, kind) {
  siteFlash(text, "queue-notice", {url: url, data: {queueNotice: kind}});
}

function paired(p) {
  if (going === p.url || window.location.pathname === p.url) return;
  going = p.url;
  flash(L.paired, p.url, "paired");
  window.location.assign(p.url);
}

document.addEventListener("basra:notice", (event) => {
  const {kind, payload} = event.detail;
  if (kind === "queue_paired") paired(payload);
  else if (kind === "queue_requeued") flash(L.requeued, payload.url, "requeued");
  else if (kind === "queue_invite") flash(fmt(L.invite, {inviter: payload.inviter, seconds: payload.move_seconds}), payload.url, "invite");
});
