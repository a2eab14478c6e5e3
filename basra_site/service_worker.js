/* The site's service worker (served as /sw.js by basra_site/install.py, which puts its settings,
 * CONFIG, on the line above).
 *
 * What it keeps: the offline page in each of the site's languages (CONFIG.offlineUrls) and the
 * few files it loads, nothing else, in one cache per CONFIG.version; a new version removes the
 * old caches when it takes over. Beside them, the language of the last page the reader opened
 * (each page posts its own, static/install.js), so that the offline page is in the reader's
 * language: the worker is the same for every language, and a language switch installs no new
 * worker.
 * What it answers:
 *   - a navigation (a page): from the network, always; only when the network fails, the offline
 *     page in that language. A page is never stored, so a table, the lobby or a score is never
 *     shown from a cache as if it were live.
 *   - a static file, when the site versions their names (a new file is a new name): from the
 *     cache, else from the network, then kept. Unversioned names (DEBUG) go to the network.
 *   - a file the offline page uses: the network first, the cache when it fails.
 *   - anything else (JSON, posts, the sockets, which a worker never sees): not touched.
 * Sources: W3C "Service Workers" (install, activate, clients.claim, FetchEvent.respondWith);
 * web.dev "Offline fallback page" (network first for navigations, a cached page on failure). */
"use strict";

var CACHE = "basra-" + CONFIG.version;
var KEPT = CONFIG.precache.map(function (path) { return new URL(path, self.location.origin).href; });

// The reader's language, {language, at}: that of the page opened last ("at", the page's
// performance.timeOrigin, ms since 1970). Two pages' messages may arrive in either order (a page
// left as the next one opens, two tabs): the later page's wins, whichever comes last. Kept in
// the cache too, because a browser stops an idle worker and a new start forgets its variables;
// the key is an address the site never serves.
var LANGUAGE_KEY = new URL("/offline/language", self.location.origin).href;
var chosen = null;
var remembering = Promise.resolve();

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // "reload": the page and files as the server serves them now, not the HTTP cache's copy.
    return cache.addAll(CONFIG.precache.map(function (path) { return new Request(path, {cache: "reload"}); }))
      .then(function () {
        // The reader's language, from the worker this one replaces, before its cache goes.
        return caches.match(LANGUAGE_KEY).then(function (kept) {
          return kept && cache.put(LANGUAGE_KEY, kept);
        });
      });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("basra-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function knownChoice() {
  if (chosen) return Promise.resolve(chosen);
  return caches.match(LANGUAGE_KEY, {cacheName: CACHE}).then(function (kept) {
    return kept ? kept.json() : null;
  }).then(function (kept) {
    chosen = chosen || kept;
    return chosen;
  }, function () { return null; });
}

/** Keep ``language`` unless a page opened after ``at`` told another; one message at a time. */
function rememberLanguage(language, at) {
  remembering = remembering.then(knownChoice).then(function (kept) {
    if (kept && (kept.at > at || (kept.at === at && kept.language === language))) return undefined;
    chosen = {language: language, at: at};
    return caches.open(CACHE).then(function (cache) {
      return cache.put(LANGUAGE_KEY, new Response(JSON.stringify(chosen),
                                                  {headers: {"Content-Type": "application/json"}}));
    });
  }).catch(function () {});
  return remembering;
}

// {language: "ar", at: 1796410987123.4} from a page of the site (only the site's own pages can
// reach its worker); anything else is ignored.
self.addEventListener("message", function (event) {
  var data = event.data;
  if (!data || typeof data.language !== "string" || typeof data.at !== "number" ||
      !isFinite(data.at) ||
      !Object.prototype.hasOwnProperty.call(CONFIG.offlineUrls, data.language)) return;
  event.waitUntil(rememberLanguage(data.language, data.at));
});

// The language the reader chose on the site (Django's language cookie), where the worker can
// read cookies (the Cookie Store API; Chromium): it is what the next page would be in, whoever
// told the worker last. Elsewhere, or with no such cookie, the page opened last's.
function chosenCookie() {
  if (!self.cookieStore) return Promise.resolve(null);
  return self.cookieStore.get(CONFIG.languageCookie).then(function (cookie) {
    var code = cookie && cookie.value;
    return code && Object.prototype.hasOwnProperty.call(CONFIG.offlineUrls, code) ? code : null;
  }, function () { return null; });
}

function knownLanguage() {
  return chosenCookie().then(function (code) {
    return code || knownChoice().then(function (kept) {
      return kept ? kept.language : CONFIG.defaultLanguage;
    });
  });
}

function offlinePage() {
  return knownLanguage().then(function (code) {
    var url = CONFIG.offlineUrls[code] || CONFIG.offlineUrls[CONFIG.defaultLanguage];
    return caches.match(url, {cacheName: CACHE});
  }).then(function (page) {
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
