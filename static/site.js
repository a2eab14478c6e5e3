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
  // A form that undoes something asks first (its data-confirm is the question).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
})();
