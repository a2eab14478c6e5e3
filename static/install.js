// Registers the site's service worker (basra_site/install.py, /sw.js), which shows an offline
// page when a page cannot be loaded; its script's URL names the page's language, so that the
// offline page it keeps is in the language the reader chose (a new language, a new worker).
// After the page's load, so that the worker's first install never delays the page's own files.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script || !script.dataset.worker) return;
  var url = script.dataset.worker + "?lang=" + encodeURIComponent(document.documentElement.lang || "");
  function register() {
    navigator.serviceWorker.register(url, {scope: "/"}).catch(function () {
      // No worker (a private window, an http origin other than localhost): the site works as
      // before, without its offline page.
    });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
