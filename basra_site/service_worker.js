/* The site's service worker (served as /sw.js by basra_site/install.py, which puts its settings,
 * CONFIG, on the line above).
 *
 * What it keeps: the offline page and the few files that page loads, nothing else, in one cache
 * per CONFIG.version; a new version removes the old caches when it takes over.
 * What it answers:
 *   - a navigation (a page): from the network, always; only when the network fails, the offline
 *     page. A page is never stored, so a table, the lobby or a score is never shown from a cache
 *     as if it were live.
 *   - a static file, when the site versions their names (a new file is a new name): from the
 *     cache, else from the network, then kept. Unversioned names (DEBUG) go to the network.
 *   - a file the offline page uses: the network first, the cache when it fails.
 *   - anything else (JSON, posts, the sockets, which a worker never sees): not touched.
 * Sources: W3C "Service Workers" (install, activate, clients.claim, FetchEvent.respondWith);
 * web.dev "Offline fallback page" (network first for navigations, a cached page on failure). */
"use strict";

var CACHE = "basra-" + CONFIG.version;
var KEPT = CONFIG.precache.map(function (path) { return new URL(path, self.location.origin).href; });

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // "reload": the page and files as the server serves them now, not the HTTP cache's copy.
    return cache.addAll(CONFIG.precache.map(function (path) { return new Request(path, {cache: "reload"}); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("basra-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function offlinePage() {
  return caches.match(CONFIG.offlineUrl, {cacheName: CACHE}).then(function (page) {
    return page || Response.error();
  });
}

function cacheFirst(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (kept) {
      if (kept) return kept;
      return fetch(request).then(function (response) {
        if (response.ok && response.type === "basic") cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function networkFirst(request) {
  return fetch(request).catch(function () {
    return caches.match(request, {cacheName: CACHE}).then(function (kept) { return kept || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  } else if (CONFIG.staticVersioned && url.pathname.indexOf(CONFIG.staticPrefix) === 0) {
    event.respondWith(cacheFirst(request));
  } else if (KEPT.indexOf(url.href) !== -1) {
    event.respondWith(networkFirst(request));
  }
});
