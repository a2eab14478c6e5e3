// The staff's action form (games/moderation/templates/moderation/player.html): the fields of
// one action (data-for-action) show only while that action is chosen. Without this script
// every field shows, and the server reads only those of the action sent.
const form = document.getElementById("moderation-act");
if (form) {
  const action = form.querySelector('select[name="action"]');
  const show = () => {
    form.querySelectorAll("[data-for-action]").forEach((part) => {
      part.hidden = part.dataset.forAction !== action.value;
    });
  };
  action.addEventListener("change", show);
  show();
}
