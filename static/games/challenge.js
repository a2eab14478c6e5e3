/* The challenge form on a player's profile (templates/games/_challenge_form.html): the
 * challenger's client seed for the fair shuffle is drawn here, in the browser (live.js). */
(function () {
  "use strict";
  var form = document.getElementById("challenge-form");
  if (form && window.Basra) window.Basra.fillSeeds(form);
})();
