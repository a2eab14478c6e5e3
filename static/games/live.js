/* Shared helpers of the lobby, table and replay pages: a websocket that reconnects with backoff,
 * string formatting for the translated strings, and card drawing. An ES module (no build step):
 * a page's module imports what it uses, (from static/games/table/: ../live.js). */

/** Fill the %(name)s placeholders of a translated string: Django's interpolate(fmt, values,
 * true), a global of the /jsi18n/ catalogue (base.html loads it before every module). */
export function fmt(label, values) {
  return interpolate(String(label), values || {}, true);
}

/** What follows a label written on its own, before its value: ":" in English, a no-break
 * space and ":" in French, whose typography wants one before ":" (the catalogue's "%(label)s:"
 * in the context "a label before its value", the pages' {% colon %}:
 * games/core/pages/labels.py). Never a bare ": " between a label and its value. */
export function colon() {
  return fmt(pgettext("a label before its value", "%(label)s:"), {label: ""});
}

/** Django's JavaScript catalogue (/jsi18n/, base.html) picks the plural form of the page's
 * language (Arabic has six: zero, one, two, few, many, other); without it, English's two.
 * Call sites write ngettext(one, many, n) with literal strings, so that makemessages -d
 * djangojs finds them. */
export function ngettext(singular, plural, n) {
  if (window.django && window.django.ngettext) return window.django.ngettext(singular, plural, n);
  return n === 1 ? singular : plural;
}

/** The page's language's decimal or thousands separator (``"DECIMAL_SEPARATOR"``,
 * ``"THOUSAND_SEPARATOR"``) as the pages write them (basra_site/formats/, carried by the
 * /jsi18n/ catalogue's get_format), or ``fallback`` without the catalogue. */
function separator(name, fallback) {
  var found = typeof window.get_format === "function" ? window.get_format(name) : null;
  return typeof found === "string" && found !== name ? found : fallback;
}

/** ``value`` written as the page's language writes numbers (Intl.NumberFormat of
 * <html lang>: "88,4" in French, "88.4" in English, "88٫4" in Arabic), with ``digits``
 * decimals (0 when omitted); ``options``: Intl's (``signDisplay: "exceptZero"`` for "+3,5",
 * ``style: "percent"`` for a fraction as "50 %"). The separators are the pages' own (Chromium's
 * Arabic writes Western digits with the Latin "." and ",", which the pages do not), and every
 * minus is U+2212, the sign the site's labels write ("−2,8"), whatever the language's data
 * gives. */
export function number(value, digits, options) {
  var format = new Intl.NumberFormat(document.documentElement.lang || undefined, Object.assign(
    {minimumFractionDigits: digits || 0, maximumFractionDigits: digits || 0}, options || {}));
  return format.formatToParts(value).map(function (part) {
    if (part.type === "decimal") return separator("DECIMAL_SEPARATOR", part.value);
    if (part.type === "group") return separator("THOUSAND_SEPARATOR", part.value);
    return part.value;
  }).join("").replace(/[-\u2010\u2011\u2012]/g, "\u2212");
}

/** ``items`` (strings) joined as the page's language joins a list (Intl.ListFormat of
 * <html lang>, CLDR's data as the pages' ``listing``, games/core/pages/lists.py): "3, 5, and 7",
 * "3, 5 et 7", "3 و5 و7" (Arabic joins with "و", never the Latin comma). */
export function list(items) {
  return new Intl.ListFormat(document.documentElement.lang || undefined).format(items.map(String));
}

/** Create an element: el("div", {class: "x", text: "y"}, [children]). */
export function el(tag, attrs, children) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (key) {
    var value = attrs[key];
    if (value === null || value === undefined || value === false) return;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") Object.keys(value).forEach(function (ev) { node.addEventListener(ev, value[ev]); });
    else node.setAttribute(key, value === true ? "" : value);
  });
  (children || []).forEach(function (child) {
    if (child === null || child === undefined || child === false) return;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  });
  return node;
}

/** Read a json_script block. */
export function config(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

/** A POST form with the CSRF token, for join/leave buttons drawn by the scripts. */
export function postForm(action, csrfToken, label, buttonClass) {
  return el("form", {method: "post", action: action, class: "inline"}, [
    el("input", {type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken}),
    el("button", {type: "submit", class: "button " + (buttonClass || ""), text: label}),
  ]);
}

/** A fresh client seed for the fair shuffle (RULES.md, "Provably fair shuffle" 2), picked here
 * in the browser, not by the site: 16 bytes of crypto.getRandomValues as 32 hex digits. */
export function randomSeed() {
  var bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}

/** Give every empty client-seed input ([data-client-seed]) under root a random seed, and enable
 * the hidden ones (disabled in the page so that, without this script, the server draws one). */
export function fillSeeds(root) {
  (root || document).querySelectorAll("input[data-client-seed]").forEach(function (input) {
    if (!input.value) input.value = randomSeed();
    input.disabled = false;
  });
}

/** A join form: a POST form with a hidden client seed drawn here. */
export function joinForm(action, csrfToken, label, buttonClass) {
  var form = postForm(action, csrfToken, label, buttonClass);
  form.insertBefore(el("input", {type: "hidden", name: "client_seed", value: randomSeed(),
                                 dataset: {clientSeed: ""}}), form.lastChild);
  return form;
}

var SUIT_SYMBOLS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};

/** Split a card code ("10H", "7D") into {rank, suit}. */
export function parseCard(code) {
  return {rank: code.slice(0, -1), suit: code.slice(-1)};
}

/** Spoken name of a card from the translated labels ("10 of hearts"). */
export function cardName(code, labels) {
  var card = parseCard(code);
  return fmt(labels.cardName, {
    rank: (labels.ranks && labels.ranks[card.rank]) || card.rank,
    suit: (labels.suits && labels.suits[card.suit]) || card.suit,
  });
}

/** Draw a face-up card. tag "button" makes it playable; size is "", "small" or "mini". */
export function cardNode(code, labels, options) {
  options = options || {};
  var card = parseCard(code);
  var symbol = SUIT_SYMBOLS[card.suit] || "?";
  var court = card.rank === "J" || card.rank === "Q" || card.rank === "K";
  var classes = ["card", "suit-" + card.suit];
  if (card.suit === "D" || card.suit === "H") classes.push("red");
  if (court) classes.push("court");
  if (options.size) classes.push(options.size);
  if (options.extraClass) classes.push(options.extraClass);
  var corner = function (where) {
    return el("span", {class: "corner " + where, "aria-hidden": "true"}, [
      el("span", {class: "rank", text: card.rank}),
      el("span", {class: "suit", text: symbol}),
    ]);
  };
  var centre = court
    ? el("span", {class: "face", "aria-hidden": "true"}, [
        el("span", {class: "face-rank", text: card.rank}),
        el("span", {class: "face-suit", text: symbol}),
      ])
    : el("span", {class: "pip", "aria-hidden": "true", text: symbol});
  var attrs = {class: classes.join(" "), dataset: {card: code}, title: cardName(code, labels)};
  if (options.tag === "button") {
    attrs.type = "button";
    attrs["aria-label"] = cardName(code, labels);
  } else {
    attrs.role = "img";
    attrs["aria-label"] = cardName(code, labels);
  }
  return el(options.tag || "div", attrs, [corner("top"), centre, corner("bottom")]);
}

/** The computer-player badge: a small robot head drawn in SVG (no emoji font needed). */
export function botIcon(label) {
  var ns = "http://www.w3.org/2000/svg";
  var svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "bot-badge");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  var title = document.createElementNS(ns, "title");
  title.textContent = label;
  svg.appendChild(title);
  [["rect", {x: 2, y: 4, width: 12, height: 10, rx: 2, fill: "currentColor"}],
   ["line", {x1: 8, y1: 1.5, x2: 8, y2: 4, stroke: "currentColor", "stroke-width": 1.5}],
   ["circle", {cx: 8, cy: 1.5, r: 1.3, fill: "currentColor"}],
   ["circle", {cx: 5.5, cy: 8.5, r: 1.5, fill: "#fff"}],
   ["circle", {cx: 10.5, cy: 8.5, r: 1.5, fill: "#fff"}],
   ["rect", {x: 5, y: 11.2, width: 6, height: 1.3, rx: .6, fill: "#fff"}]].forEach(function (part) {
    var node = document.createElementNS(ns, part[0]);
    Object.keys(part[1]).forEach(function (key) { node.setAttribute(key, part[1][key]); });
    svg.appendChild(node);
  });
  return svg;
}

/** A face-down card (another seat's hand). */
export function cardBack(size) {
  return el("div", {class: "card back " + (size || ""), "aria-hidden": "true"});
}

/**
 * A websocket to a same-origin path that reconnects after a close, waiting 0.5 s, 1 s, 2 s,
 * then 4 s at most (with jitter, half to all of it, so a restarted server is not hit by every
 * client at once). Not longer: a player's clock runs again as soon as the server is back (it
 * gives BASRA_RECONNECT_SECONDS for the page to return), and a 15-second wait would lose a
 * 10-second turn.
 * handlers: onOpen(socket), onMessage(data),
 * onStatus("connecting"|"live"|"reconnecting"|"closed"); "closed" (close code 4404, the table is
 * gone, 4403, watching it is not allowed, or 4429, too many of the viewer's pages are open) is
 * final. A socket that was open and is closed with 1001 "going away" (the server stops
 * gracefully, docs/protocol.md) reconnects at once, without the wait; if that fails, the
 * waits above follow.
 */
export function LiveSocket(path, handlers) {
  this.path = path;
  this.handlers = handlers;
  this.attempt = 0;
  this.timer = null;
  this.ws = null;
  this.stopped = false;
  var self = this;
  window.addEventListener("online", function () { self.reconnectNow(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") self.reconnectNow();
  });
  this.connect();
}

LiveSocket.prototype.url = function () {
  var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  return scheme + window.location.host + this.path;
};

LiveSocket.prototype.connect = function () {
  var self = this;
  this.timer = null;
  this.status(this.attempt === 0 ? "connecting" : "reconnecting");
  var ws = new WebSocket(this.url());
  this.ws = ws;
  ws.addEventListener("open", function () {
    self.attempt = 0;
    self.status("live");
    if (self.handlers.onOpen) self.handlers.onOpen(self);
  });
  ws.addEventListener("message", function (event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    self.handlers.onMessage(data);
  });
  ws.addEventListener("close", function (event) {
    if (self.ws !== ws) return;
    self.ws = null;
    // 4404: the table does not exist (any more); 4403: this viewer may not watch it
    // (Match.watchers); 4429: too many of the viewer's sockets are open (its error said so).
    // Reconnecting on its own cannot change any of them.
    if (event.code === 4404 || event.code === 4403 || event.code === 4429) {
      self.stopped = true;
      self.status("closed");
      return;
    }
    if (event.code === 1001 && self.attempt === 0) {
      self.attempt = 1;
      self.connect();
      return;
    }
    self.schedule();
  });
};

LiveSocket.prototype.schedule = function () {
  if (this.timer !== null) return;
  this.status("reconnecting");
  var delay = Math.min(4000, 500 * Math.pow(2, Math.min(this.attempt, 3)));
  delay = delay / 2 + Math.random() * delay / 2;
  this.attempt += 1;
  this.timer = window.setTimeout(this.connect.bind(this), delay);
};

/** Skip the wait when the browser says the network or the tab is back. */
LiveSocket.prototype.reconnectNow = function () {
  if (this.stopped || this.ws !== null || this.timer === null) return;
  window.clearTimeout(this.timer);
  this.connect();
};

LiveSocket.prototype.isOpen = function () {
  return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
};

/** Send a message; false when the socket is not open (the caller keeps its state). */
LiveSocket.prototype.send = function (message) {
  if (!this.isOpen()) return false;
  this.ws.send(JSON.stringify(message));
  return true;
};

/** Send ``message`` in a moment (2 to 3 s), once however often asked meanwhile: the answer
 * to the server's error "unavailable" (its database cannot answer now; nothing was done),
 * where asking again at once would only meet the same outage. */
LiveSocket.prototype.sendSoon = function (message) {
  if (this.soon) return;
  var self = this;
  this.soon = window.setTimeout(function () {
    self.soon = null;
    self.send(message);
  }, 2000 + Math.random() * 1000);
};

LiveSocket.prototype.status = function (state) {
  if (this.handlers.onStatus) this.handlers.onStatus(state);
};

/** The mark beside an account's name for its ``title`` ("BOT": docs/protocol.md, a seat's
 * "title"), with ``labels``' botTitle and botTitleHint (labels.js ``common``); null without one. */
export function titleMark(title, labels) {
  if (title !== "BOT") return null;
  return el("span", {class: "chip bot-title", title: labels.botTitleHint, text: labels.botTitle});
}

/** A person's rating as shown beside their name ("(1523?)": "?" while provisional), isolated
 * from the text around it so that an Arabic line keeps the digits and the "?" in place. */
export function ratingNode(text) {
  return el("bdi", {class: "rating", dir: "ltr", text: "(" + text + ")"});
}

/** Show the connection state in a [data-state] badge, with the translated labels. */
export function showStatus(node, state, labels) {
  if (!node) return;
  node.dataset.state = state;
  node.textContent = labels[state] || state;
}

/** ``text`` isolated as Unicode's first-strong isolate (U+2068 … U+2069) for a string that
 * goes into a sentence: a name mixing Arabic and Latin keeps to itself (an element would use
 * <bdi>; a formatted label has only text). */
export function isolate(text) { return "\u2068" + text + "\u2069"; }

/** ``label``'s words around its ``%(name)s``, the name a <bdi class="cut-name"> of its own
 * (games.css): its direction its own, and a name too long for its line cut at its own end,
 * "Zeinab_El…", where the page's words broke it mid-word or cut a Latin name's start in
 * Arabic. An array of nodes, for el()'s children or replaceChildren(). */
export function named(label, name) { return namedAll(label, {name: name}); }

/** ``label``'s words around the nodes ``parts`` gives for each of its ``%(key)s`` (an array of
 * nodes each): the words joining partners ("%(a)s & %(b)s", "%(a)s و%(b)s") around richer
 * nodes than a name. */
export function joined(label, parts) {
  var nodes = [];
  var at = 0;
  String(label).replace(/%\((\w+)\)s/g, function (whole, key, offset) {
    if (!(key in parts)) return whole;
    if (offset > at) nodes.push(document.createTextNode(label.slice(at, offset)));
    nodes.push.apply(nodes, parts[key]);
    at = offset + whole.length;
    return whole;
  });
  if (at < label.length) nodes.push(document.createTextNode(label.slice(at)));
  return nodes;
}

/** named() for every ``%(key)s`` of ``label`` that ``names`` gives ("%(a)s & %(b)s"). */
export function namedAll(label, names) {
  var parts = {};
  Object.keys(names).forEach(function (key) {
    parts[key] = [el("bdi", {class: "cut-name", title: names[key], text: names[key]})];
  });
  return joined(label, parts);
}
