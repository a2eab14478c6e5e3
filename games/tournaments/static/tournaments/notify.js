// Tells a signed-in player, on any page of the site, that a tournament table is waiting for
// them (the pairing's table was created with them seated): a notice with the table's link,
// unless this page is that table already. It asks every few seconds (the site has no
// site-wide socket yet).
(function () {
  "use strict";
  const EVERY_MS = 10000;
  const script = document.currentScript;
  const url = script && script.dataset.url;
  if (!url) return;
  let box = null;
  async function check() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) show((await response.json()).tables || []);
    } catch (error) {
      // Try again at the next turn.
    }
    window.setTimeout(check, EVERY_MS);
  }
  function show(tables) {
    const others = tables.filter((t) => t.url !== window.location.pathname);
    if (!others.length) {
      if (box) box.remove();
      box = null;
      return;
    }
    if (!box) {
      box = document.createElement("div");
      box.id = "tournament-notice";
      box.className = "tournament-notice";
      box.setAttribute("role", "status");
      // Styled here: the site's stylesheet is shared, and this script is all the notice needs.
      Object.assign(box.style, {
        padding: ".5rem 1rem", background: "#e3f2e6", display: "flex", gap: "1rem",
        flexWrap: "wrap", justifyContent: "center", fontWeight: "bold",
      });
      document.body.prepend(box);
    }
    box.replaceChildren(...others.map((t) => {
      const link = document.createElement("a");
      link.href = t.url;
      link.textContent = t.label;
      return link;
    }));
  }
  check();
})();
