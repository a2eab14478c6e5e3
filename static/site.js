// Behaviour every page shares, kept out of the markup: the site's Content-Security-Policy
// allows no inline script or handler (script-src 'self', basra_site/settings.py).
(function () {
  "use strict";
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
  // A form that undoes something asks first (its data-confirm is the question).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
})();
