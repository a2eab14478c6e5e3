/* The live table's shared part: the state drawn and what the table's scripts share about it
 * (the socket, a play pending, the socket live, this tab logged out), and the functions that read
 * the state (whose seat, whose turn, the names shown). Loaded first of them; they hang it off
 * window.Basra.tableKit. Other scripts of the page use window.Basra.table (table.js). */
(function () {
  "use strict";
  var B = window.Basra;
  var el = B.el;
  var cfg = B.config("table-config");
  var L = cfg.labels;
  var root = document.getElementById("table");
  var $ = function (id) { return document.getElementById(id); };

  var T = B.tableKit = {
    cfg: cfg, L: L, root: root, $: $,
    state: null,        // the latest state message
    pending: false,     // a play was sent and not answered yet
    live: false,        // the socket is open: a click can reach the server
    firstState: false,  // the state drawn is the first one since the socket opened
    loggedOut: false,   // this tab's session ended (a logout here or in another tab)
    socketStatus: "connecting",  // the socket's state, for the connection chip and banner
    socket: null,       // the table's B.LiveSocket (table.js)
  };

  function url(name) {
    return cfg.urls[name].replace("{id}", cfg.matchId);
  }

  // --- reading the state -------------------------------------------------------------------

  function players() { return T.state.match.players; }

  function seatOf(seat) {
    return (T.state.seats || []).filter(function (s) { return s.seat === seat; })[0] || null;
  }

  /** 1, 2, … among the computer seats (no person) when the table has more than one, else null:
   * two computer seats never read the same ("Computer 1 (Greedy)", games.core.models.seat_display_names). */
  function botNumber(seat) {
    var bots = (T.state.seats || []).filter(function (s) { return !s.username && s.bot; })
      .map(function (s) { return s.seat; }).sort();
    return bots.length > 1 ? bots.indexOf(seat) + 1 : null;
  }

  /** A computer seat's level for narrow places, numbered when the table has several ("Greedy 2"). */
  function botShortName(seat) {
    var found = seatOf(seat);
    var level = L.botLevels[found.bot] || found.bot;
    var number = botNumber(seat);
    return number ? B.fmt(L.botShort, {level: level, number: number}) : level;
  }

  /** The name shown for a seat: the person's, or "Computer (level)" for a computer seat. */
  function seatName(seat) {
    var found = seatOf(seat);
    if (!found) return null;
    if (found.username) return found.username;
    if (!found.bot) return null;
    var number = botNumber(seat);
    return number ? B.fmt(L.botNumbered, {number: number, level: L.botLevels[found.bot] || found.bot})
                  : (L.bots[found.bot] || found.bot);
  }

  function isSeated() { return T.state.you !== null && T.state.you !== undefined; }

  /** The computer plays this seat now (a computer seat, or a person it replaced). */
  function isBot(seat) { var s = seatOf(seat); return !!(s && s.bot); }

  /** A side's names as text, "a & b" for partners (``L.and``): each name isolated (U+2068 …
   * U+2069, Unicode's first-strong isolate) wherever the text goes, a title, a reason, a table
   * head, so that a name mixing Arabic and Latin keeps to itself (a tester's English result
   * read "& سارة عبدالرحمنAbdelrah man_123 resigned."). */
  function sideNames(side) {
    var names = [];
    for (var seat = side; seat < players(); seat += 2) names.push(B.isolate(seatName(seat) || L.emptySeat));
    return names.length === 2 ? B.fmt(L.and, {a: names[0], b: names[1]}) : names[0];
  }

  /** A seat's name for narrow places (the score boxes, the score table's head): a <bdi> of
   * ``botClass`` holding a computer seat's badge and level, short enough to stay whole (the
   * head's "Computer (Greedy)" was cut to "Compute…"), else one of ``nameClass`` holding the
   * person's name, titled with it. */
  function shortSeatName(seat, nameClass, botClass) {
    var found = seatOf(seat);
    if (found && !found.username && found.bot) {
      return el("bdi", {class: botClass}, [botBadge(), botShortName(seat)]);
    }
    var name = seatName(seat) || L.emptySeat;
    return el("bdi", {class: nameClass, title: name, text: name});
  }

  /** sideNames() as nodes for the score table's head: one <span class="name-unit"> a seat,
   * each kept on one line (games.css), so that partners wrap between their names, never word
   * by word ("Amira / & / Omar"). The words of ``L.and`` between the names go with the name
   * they are written against: "Amira &" then "Omar"; Arabic "Amira" then "وOmar". */
  function sideNameNodes(side) {
    var seats = [];
    for (var seat = side; seat < players(); seat += 2) seats.push(seat);
    var unit = function (before, seat, after) {
      var joint = function (text) { return text ? el("span", {class: "name-joint", text: text}) : null; };
      // A person's name is a cut-name (live.js named()): cut at its own end in a narrow column.
      var name = shortSeatName(seat, "cut-name", "bot-name");
      return el("span", {class: "name-unit"}, [joint(before), name, joint(after)].filter(Boolean));
    };
    if (seats.length === 1) return [unit("", seats[0], "")];
    var label = String(L.and);
    if (label.indexOf("%(b)s") < label.indexOf("%(a)s")) seats.reverse();
    var parts = label.split(/%\((?:a|b)\)s/);  // [before the first, between, after the second]
    var between = parts[1] || " ";
    var cut = between.search(/\s\S*$/);  // the last space: words after it touch the second name
    var withFirst = cut < 0 ? between : between.slice(0, cut);
    var withSecond = cut < 0 ? "" : between.slice(cut + 1);
    return [unit(parts[0], seats[0], withFirst), unit(withSecond, seats[1], parts[2])];
  }

  /** The seat drawn at the bottom: mine, or seat 0 for a spectator. */
  function viewer() { return T.state.you === null || T.state.you === undefined ? 0 : T.state.you; }

  function mySide() { return T.state.you === null || T.state.you === undefined ? null : T.state.you % 2; }

  /** Screen position of a seat, turning the table so that the viewer sits at the bottom. */
  function position(seat) {
    var n = players();
    var rel = (seat - viewer() + n) % n;
    if (n === 2) return rel === 0 ? "bottom" : "top";
    return ["bottom", "right", "top", "left"][rel];
  }

  function isMyTurn() {
    var r = T.state && T.state.round;
    // A seat the computer took over is not the person's to play any more.
    return !!(r && !r.over && T.state.match.status === "playing" && T.state.you !== null &&
              T.state.you !== undefined && r.turn === T.state.you && !T.state.result &&
              !isBot(T.state.you));
  }

  function botBadge(title) {
    return B.botIcon(title || L.botBadge);
  }

  Object.assign(T, {botBadge: botBadge, botShortName: botShortName, isBot: isBot, isMyTurn: isMyTurn,
    isSeated: isSeated, mySide: mySide, players: players, position: position, seatName: seatName,
    shortSeatName: shortSeatName,
    seatOf: seatOf, sideNames: sideNames, sideNameNodes: sideNameNodes, url: url});
})();
