// Confirmations without inline script (the site's Content-Security-Policy allows none): a form
// marked data-confirm="question" asks it before it is sent and, once answered yes, says so in its
// hidden "confirmed" field. The server refuses what cannot be undone (ending a table being
// played) without that field, so a double click or a forged post cannot do it either
// (games/tournaments/views.py, forms.CONFIRMED).
(function () {
  "use strict";
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    const field = form.querySelector('input[name="confirmed"]');
    if (field) field.value = "yes";
  });
})();
