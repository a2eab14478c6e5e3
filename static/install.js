// Registers the site's service worker (basra_site/install.py, /sw.js), which shows an offline
// page when a page cannot be loaded. One worker for every language: each page tells it the
// page's language, and it shows the offline page in that of the page opened last, so a language
// switch installs no new worker.
// After the page's load, so that the worker's first install never delays the page's own files.
// The worker's address is the site module's data-worker (templates/base.html): a module has no
// document.currentScript.
var script = document.querySelector("script[data-worker]");
var url = script && script.dataset.worker;
function register() {
  navigator.serviceWorker.register(url, {scope: "/"}).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    // This page's language, for the offline page, and when the page was opened: the worker
    // keeps the language of the page opened last, whichever message comes last.
    registration.active.postMessage({
      language: document.documentElement.lang, at: performance.timeOrigin,
    });
  }).catch(function () {
    // No worker (a private window, an http origin other than localhost): the site works as
    // before, without its offline page.
  });
}
if ("serviceWorker" in navigator && url) {
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}
