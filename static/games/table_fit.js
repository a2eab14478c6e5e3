/* The table in one screen: tells the page's style sheet how far down the page the play area
 * starts (the site's header and the page's padding above it), as --play-top, so that while a
 * match is played the play area fills exactly the rest of the viewport (games.css, "In play").
 * Measured again whenever the header's size or the viewport changes (a phone rotated, the
 * header's menu opened, a window resized).
 *
 * On a short screen (a phone held sideways) the header would leave the table too little
 * height: there the play area is the viewport's full height, and the page is brought to it
 * when play starts and when the screen turns; the header is above it, a swipe away. */
(function () {
  "use strict";
  var area = document.getElementById("play-area");
  if (!area) return;
  var root = document.documentElement;
  var last = null;

  function measure() {
    var top = Math.max(0, Math.round(area.getBoundingClientRect().top + window.scrollY));
    if (top !== last) {
      last = top;
      root.style.setProperty("--play-top", top + "px");
    }
  }

  var short = window.matchMedia("(orientation: landscape) and (max-height: 560px)");
  var hand = document.getElementById("hand");
  var wasPlaying = false;

  function bringIntoView() {
    var playing = hand && !hand.hidden;
    if (playing && short.matches && (!wasPlaying || this === short)) {
      window.scrollTo({top: Math.max(0, last || 0), behavior: "instant"});
    } else if (playing && this === short && !short.matches) {
      window.scrollTo({top: 0, behavior: "instant"});  // tall again: the header fits above
    }
    wasPlaying = playing;
  }

  if (hand && window.MutationObserver) {
    new MutationObserver(bringIntoView).observe(hand, {attributes: true, attributeFilter: ["hidden"]});
  }
  if (short.addEventListener) short.addEventListener("change", bringIntoView.bind(short));

  var header = document.querySelector(".site-header");
  if (header && window.ResizeObserver) new ResizeObserver(measure).observe(header);
  if (window.ResizeObserver) new ResizeObserver(measure).observe(area);
  window.addEventListener("resize", measure);
  window.addEventListener("orientationchange", measure);
  measure();
  bringIntoView();
})();
