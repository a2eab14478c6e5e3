// The moderators' messages on every page of a signed-in player (games/moderation/told.py): a
// warning, rating points given back, a report acted on. No socket of its own: it listens to
// the site's notice socket (static/games/notices.js). It says so in one short bar right below
// the site's header (.site-bar, static/css/site.css: in the page's flow, so it never covers the
// header's links or Menu button), linking to the messages page, where the messages stay to be
// read; the bar hides by itself after SHOWN_MS, so that it never takes a table's room for long
// (a phone held sideways has 390 px of height).
const L = {
  message: gettext("You have a message from the moderators."),
  dismiss: gettext("Close"),
};
const SHOWN_MS = 8000;
let bar = null;
let timer = 0;

function show(url) {
  if (!bar) {
    bar = document.createElement("div");
    bar.className = "site-bar moderation-notice";
    bar.setAttribute("role", "status");
    bar.dataset.moderationNotice = "message";
    const link = document.createElement("a");
    link.textContent = L.message;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "link";
    close.textContent = L.dismiss;
    close.addEventListener("click", () => { bar.hidden = true; });
    bar.append(link, close);
    const header = document.querySelector(".site-header");
    if (header) header.after(bar);
    else document.body.prepend(bar);
  }
  bar.querySelector("a").href = url;
  bar.hidden = false;
  window.clearTimeout(timer);
  timer = window.setTimeout(() => { bar.hidden = true; }, SHOWN_MS);
}

document.addEventListener("basra:notice", (event) => {
  const {kind, payload} = event.detail;
  if (kind === "mod_message") show(payload.url);
});
