// The create form shows the options of the chosen format only (each option's wrapper names its
// formats in data-formats); without this script every option shows, and the server ignores the
// ones of other formats.
(function () {
  "use strict";
  const form = document.getElementById("tournament-form");
  if (!form) return;
  const format = form.querySelector('select[name="format"]');
  if (!format) return;
  function show() {
    form.querySelectorAll(".format-option[data-formats]").forEach((option) => {
      option.hidden = !option.dataset.formats.split(" ").includes(format.value);
    });
  }
  format.addEventListener("change", show);
  show();
})();
