// Behaviour every page shares, kept out of the markup: the site's Content-Security-Policy
// allows no inline script or handler (script-src 'self', basra_site/settings.py). The header's
// one entry module (templates/base.html): the service worker and the notice socket come with it.
import "./install.js";
import "./games/notices.js";

// The header's language list sends its form as soon as a language is chosen.
document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
  select.addEventListener("change", function () { select.form.requestSubmit(); });
});
// A read-only box meant for copying (an invite link) selects its text when focused.
document.querySelectorAll("input[data-select-on-focus]").forEach(function (input) {
  input.addEventListener("focus", function () { input.select(); });
});
// The phone menu: a disclosure button (aria-expanded, aria-controls) that folds the header's
// navigation away on narrow screens (static/css/site.css); Escape closes it and gives the
// focus back to the button. The WAI-ARIA Authoring Practices' "Disclosure" pattern.
var toggle = document.querySelector(".nav-toggle[aria-controls]");
if (toggle) {
  var header = toggle.closest(".site-header");
  var menu = document.getElementById(toggle.getAttribute("aria-controls"));
  var setOpen = function (open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    header.classList.toggle("menu-open", open);
  };
  header.classList.add("menu-ready");
  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    setOpen(toggle.getAttribute("aria-expanded") !== "true");
  });
  header.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || toggle.getAttribute("aria-expanded") !== "true") return;
    setOpen(false);
    toggle.focus();
  });
  // A tap outside the open menu closes it, as the platform's own menus do.
  document.addEventListener("click", function (event) {
    if (!header.contains(event.target) && menu) setOpen(false);
  });
}
// Copy a link (an invite) to the clipboard, saying so in the status beside the button.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  var box = document.querySelector(button.dataset.copy);
  var status = button.parentElement.querySelector("[role=status]");
  var say = function (text) { if (status) status.textContent = text; };
  button.addEventListener("click", function () {
    if (!box) return;
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      box.focus(); box.select();
      say(button.dataset.failed);
      return;
    }
    navigator.clipboard.writeText(box.value).then(
      function () { say(button.dataset.done); },
      function () { box.focus(); box.select(); say(button.dataset.failed); }
    );
  });
});
// The platform's share sheet (the Web Share API), only where the browser has one.
document.querySelectorAll("button[data-share]").forEach(function (button) {
  var box = document.querySelector(button.dataset.share);
  if (!box || typeof navigator.share !== "function") return;
  button.hidden = false;
  button.addEventListener("click", function () {
    // A dismissed sheet rejects; there is nothing to say about it.
    navigator.share({ title: button.dataset.title, url: box.value }).catch(function () {});
  });
});
// A form that undoes something asks first (its data-confirm is the question): this is the
// site's one handler for it, so each submission asks once. Answered yes, the form says so in
// its hidden "confirmed" field (the server refuses what cannot be undone without it,
// games/tournaments/views.py) and is not sent again until the next page (a double click posts
// once). Listened for on the document, so forms swapped in later (tournaments/live.js) ask too.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (form.dataset.sent || !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "yes";
  var field = form.querySelector('input[name="confirmed"]');
  if (field) field.value = "yes";
});
// Back to a page kept in the browser's memory: its forms may be sent again.
window.addEventListener("pageshow", function (event) {
  if (!event.persisted) return;
  document.querySelectorAll("form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
});
