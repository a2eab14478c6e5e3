// The queues' notices on every page of a signed-in player (games/queues/news.py): a wave seated
// the player ("queue_paired": go to the table at once, unless this page is it), their opponent
// did not come ("queue_requeued": back at the front of the queue), a partner's invitation
// ("queue_invite"). No socket of its own: it listens to the site's notice socket
// (static/games/notices.js, "basra:notice" and "basra:pending" on document). Labels come
// translated from the page (#queue-notice-config).
import {flash as siteFlash} from "../games/notices.js";

// Loaded only beside its config (templates/base.html).
const node = document.getElementById("queue-notice-config");
const L = JSON.parse(node.textContent).labels;
let going = null;

function fmt(label, values) {
  return String(label).replace(/%\((\w+)\)s/g, (whole, key) =>
    values && key in values ? String(values[key]) : whole);
}

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
