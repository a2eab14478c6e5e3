// The create form shows the options of the chosen format only (each option's wrapper names its
// formats in data-formats); without this script every option shows, and the server ignores the
// ones of other formats. The create page's entry module.
import "./zone.js";

const form = document.getElementById("tournament-form");
const format = form && form.querySelector('select[name="format"]');
function show() {
  form.querySelectorAll(".format-option[data-formats]").forEach((option) => {
    option.hidden = !option.dataset.formats.split(" ").includes(format.value);
  });
}
if (format) {
  format.addEventListener("change", show);
  show();
}
