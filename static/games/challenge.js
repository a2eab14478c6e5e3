/* The challenge form on a player's profile (templates/games/_challenge_form.html): the
 * challenger's client seed for the fair shuffle is drawn here, in the browser (live.js). A
 * refused challenge comes back open with its errors beside their fields: the first is brought
 * into view and its field focused, so the player reads why before anything else. The page's
 * entry module. */
import {fillSeeds} from "./live.js";

var form = document.getElementById("challenge-form");
if (form) {
  fillSeeds(form);
  showRefusal(form.querySelector(".field.has-error") || form.querySelector(".errorlist"));
}

function showRefusal(refused) {
  if (!refused) return;
  refused.scrollIntoView({block: "center", behavior: "instant"});
  var input = refused.querySelector("input:checked, input, select, textarea");
  if (input) input.focus({preventScroll: true});
}
