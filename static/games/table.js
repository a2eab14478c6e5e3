/* The live table. The server sends the full state on every change ({"type": "state", "seq": N, ...},
 * docs/protocol.md); this script takes the socket's messages in and has the latest state drawn
 * (table_board.js, table_waiting.js, table_fair.js, table_score.js, table_clock.js, all over
 * table_state.js). It remembers the last seq: an older state is ignored, a jump past seq + 1 means
 * messages were missed, so it asks for a resync. */
(function () {
  "use strict";
  var B = window.Basra;
  var T = B.tableKit;
  var el = B.el;
  var cfg = T.cfg;
  var L = T.L;
  var root = T.root;
  var $ = T.$;
  var confirmThen = T.confirmThen, isBot = T.isBot, isMyTurn = T.isMyTurn, isSeated = T.isSeated,
      noteServerTime = T.noteServerTime, noteTimeout = T.noteTimeout, openHistory = T.openHistory,
      renderActions = T.renderActions, renderBanners = T.renderBanners, renderBoard = T.renderBoard,
      renderBreakdown = T.renderBreakdown, renderFair = T.renderFair, renderHand = T.renderHand,
      renderLiveStatus = T.renderLiveStatus, renderMeta = T.renderMeta, renderNotices = T.renderNotices,
      renderResult = T.renderResult, renderScoreboard = T.renderScoreboard, renderTurn = T.renderTurn,
      renderWaiting = T.renderWaiting, resignQuestion = T.resignQuestion, seatName = T.seatName,
      sideNames = T.sideNames, tick = T.tick, url = T.url;

  var errorTimer = null;

  function render() {
    if (!T.state) return;
    root.dataset.seq = T.state.seq;
    root.dataset.status = T.state.match.status;
    root.dataset.you = T.state.you === null || T.state.you === undefined ? "" : T.state.you;
    root.dataset.finished = String(!!T.state.result);
    root.dataset.turn = T.state.round && T.state.round.turn !== null && !T.state.result ? T.state.round.turn : "";
    renderMeta();
    renderLiveStatus();
    renderWaiting();
    renderScoreboard();
    renderTurn();
    renderBoard();
    renderHand();
    if (root.dataset.myTurn === "true" && $("table-error").dataset.untilTurn === "true") hideError();
    B.talk.update(isSeated(), T.live);
    offerNotices(isSeated());
    renderBreakdown();
    renderResult();
    T.renderRatings();
    renderFair();
    noteTimeout();
    renderNotices();
    renderActions();
    renderBanners();
    tick();
  }

  // --- talking to the server -----------------------------------------------------------------

  /** A refusal for 6 s, or with ``notice`` a word on what a tap did for 3 s: in play over the
   * top of the screen (games.css), where the player looks, not under the table. It covers the
   * scores or a seat meanwhile, so a tap on it puts it away, and a notice given while another
   * seat was to play ("Not your turn yet") goes as soon as the turn is the player's. */
  function showError(message, notice) {
    var box = $("table-error");
    box.textContent = message;
    box.classList.toggle("notice", !!notice);
    box.dataset.untilTurn = String(!!notice && root.dataset.myTurn !== "true");
    box.hidden = false;
    window.clearTimeout(errorTimer);
    errorTimer = window.setTimeout(hideError, notice ? 3000 : 6000);
  }

  function hideError() {
    window.clearTimeout(errorTimer);
    $("table-error").hidden = true;
  }
  $("table-error").addEventListener("click", hideError);

  /** The table was removed (its last player left before the start): nothing more will come. */
  function showClosed(message) {
    var box = $("result-banner");
    box.className = "result-banner";
    box.replaceChildren(
      el("strong", {class: "result-title", text: message || L.tableClosed}),
      el("a", {class: "button", href: url("lobby"), text: L.backToLobby})
    );
    box.hidden = false;
    ["waiting", "board", "hand", "breakdown"].forEach(function (id) { $(id).hidden = true; });
    root.dataset.status = "closed";
  }

  var opening = false;  // the socket just opened and no state came through it yet

  /** What the new state brings that a person should see or hear happen: the card played
   * (moving), a basra (celebrated), a capture, their turn coming (a sound, and in a background
   * tab a notification); the play and the turn are also said aloud (table_speak.js). */
  function liven(before, old) {
    var r = T.state.round;
    var play = r && r.last_play;
    var oldPlay = old && old.round && old.round.last_play;
    var newRound = old && old.round && r && old.round.number !== r.number;
    var fresh = old && old.seq !== T.state.seq && play &&
                (!oldPlay || newRound || JSON.stringify(oldPlay) !== JSON.stringify(play));
    if (fresh) {
      B.fx.animatePlay(before, play, isSeated() ? T.state.you : null, L);
      if (play.basra) {
        celebrateBasra(play.basra, seatName(play.seat), isMyTurn());
      } else {
        B.fx.sound(play.taken && play.taken.length ? "capture" : "play");
      }
    }
    if (!fresh && old && T.state.prev_seq === old.seq) lastOfRound(old);
    if (isMyTurn()) B.fx.celebrationAside();  // never over the floor of the player to move
    var wasMine = !!old && old.you === T.state.you && turnWasMine(old);
    var turnCame = isMyTurn() && !wasMine && !!old;
    T.speak.state(old, fresh ? play : null, turnCame);
    if (turnCame) {
      // After the card's own sound, when a play made it my turn.
      window.setTimeout(function () { B.fx.sound("turn"); }, fresh ? 450 : 0);
      B.fx.notifyTurn(L.yourTurn, B.fmt(L.tableNumber, {id: cfg.matchId}), "basra-turn-" + cfg.matchId);
    }
  }

  /** "Basra!" (or "Jack basra!") with ``who`` made it, and its sound; over the table unless the
   * match is over: the result and the last round's score are there then, and count it (a
   * tester's "Jack basra!" covered them). ``aside``: B.fx.celebrate's. */
  function celebrateBasra(kind, who, aside) {
    if (!T.state.result) B.fx.celebrate(kind, kind === "jack_basra" ? L.jackBasra : L.basra, who, aside);
    B.fx.sound("basra");
  }

  /** The round's last play is not in the new state (it shows the next round dealt), but a
   * basra made by it is: the round's result counts one more than the state before. */
  function lastOfRound(old) {
    var results = T.state.round_results || [];
    var result = results[results.length - 1];
    if (!result || !old.round || old.round.number !== result.number ||
        (old.round_results || []).length !== results.length - 1) return;
    var rules = T.state.match.rules;
    var made = null;
    [0, 1].forEach(function (side) {
      if (rules.jack_basra_points && result.jack_basras[side] / rules.jack_basra_points > old.round.jack_basras[side]) {
        made = {kind: "jack_basra", side: side};
      } else if (rules.basra_points && result.basras[side] / rules.basra_points > old.round.basras[side]) {
        made = {kind: "basra", side: side};
      }
    });
    if (made) {
      // The new deal's floor is out and the round's score is over the table: beside them.
      celebrateBasra(made.kind, sideNames(made.side), true);
    } else {
      B.fx.sound("capture");
    }
  }

  function turnWasMine(old) {
    var r = old.round;
    return !!(r && !r.over && !old.result && old.you !== null && r.turn === old.you);
  }

  function onMessage(msg) {
    // Other scripts of the page (static/games/rematch.js) see every message too.
    if (B.table) B.table.listeners.forEach(function (listener) { listener(msg); });
    if (msg.type === "phrase") {
      B.talk.receive(msg);
      return;
    }
    if (msg.type === "logged_out") {
      T.loggedOut = true;
      // The header too: this page's session has ended (a logout or a password change elsewhere).
      document.querySelectorAll("[data-account-in]").forEach(function (el) { el.hidden = true; });
      document.querySelectorAll("[data-account-out]").forEach(function (el) { el.hidden = false; });
      if (T.state) render();
      return;
    }
    if (msg.type === "state") {
      if (T.state !== null && msg.seq < T.state.seq) return;  // an older state arriving late
      // One change may add several events, so seq can jump; prev_seq (null in a snapshot) is
      // the seq the server had before this change. Any other value than ours means a message
      // was missed: this state is complete, but ask for the current one in case it was overtaken.
      var gap = T.state !== null && msg.prev_seq !== null && msg.prev_seq !== undefined &&
                msg.prev_seq !== T.state.seq;
      var old = T.state;
      var before = B.fx.snapshot();
      T.state = msg;
      T.firstState = opening;
      opening = false;
      noteServerTime(msg);
      T.pending = false;
      if (isSeated()) T.loggedOut = false;
      render();
      liven(before, old);
      if (gap) T.socket.send({type: "sync"});
    } else if (msg.type === "closed") {
      showClosed(msg.message);
    } else if (msg.type === "watchers") {
      var count = $("watcher-count");
      count.dataset.count = msg.count;
      count.textContent = B.fmt(B.ngettext("%(count)s watching", "%(count)s watching", msg.count), {count: msg.count});
      count.hidden = false;
    } else if (msg.type === "error" && /^watch_/.test(msg.code)) {
      // Not seated, and this table does not let this viewer watch: the server closes the socket.
      showClosed(msg.message);
    } else if (msg.type === "error" && (msg.code === "bad_phrase" || msg.code === "phrase_too_soon")) {
      showError(msg.message || msg.code);  // about a phrase: the table itself is as it was
    } else if (msg.type === "error") {
      T.pending = false;
      if (msg.code === "login_required" && cfg.username) T.loggedOut = true;
      if (T.state) { renderHand(); renderBanners(); }
      // "stale": another tab (or a double click) played first; the fresh state that follows
      // is the whole answer, nothing went wrong.
      if (msg.code !== "stale") showError(msg.message || msg.code);
      // After "stale" and "timed_out" the server sends the fresh state by itself; after
      // "unavailable" (the server's database cannot answer now) the page asks in a moment.
      if (msg.code === "unavailable") T.socket.sendSoon({type: "sync"});
      else if (msg.code !== "stale" && msg.code !== "timed_out") T.socket.send({type: "sync"});
    }
  }

  $("resign-button").addEventListener("click", function () {
    confirmThen(resignQuestion(), L.resignYes, "resign");
  });
  $("more-time-button").addEventListener("click", function () { T.socket.send({type: "more_time"}); });
  $("abort-button").addEventListener("click", function () {
    confirmThen(L.abortConfirm, L.abortYes, "abort");
  });
  window.setInterval(function () { if (T.state) tick(); }, 250);
  $("rounds-button").addEventListener("click", openHistory);
  B.fx.toggleButton($("sound-button"), "sound");
  B.fx.toggleButton($("phrases-mute-button"), "phrases", function (on) { if (!on) B.talk.mutedNow(); });
  var offerNotices = B.fx.notifyButton($("notify-button"));

  T.state = cfg.state;
  noteServerTime(T.state);
  render();
  T.socket = new B.LiveSocket(cfg.wsPath, {
    onOpen: function (s) { opening = true; s.send({type: "sync"}); s.send({type: "watchers"}); },
    onMessage: onMessage,
    onStatus: function (status) {
      T.socketStatus = status;
      renderLiveStatus();
      if (status === "closed" && root.dataset.status !== "closed") showClosed(null);
      T.live = status === "live";
      if (!T.live) T.pending = false;
      if (T.state) { renderHand(); renderActions(); renderNotices(); renderBanners(); }
      B.talk.update(!!T.state && isSeated(), T.live);
    },
  });
  // Leaving a running match through the site's own links, or the header's log-out, asks first
  // (the seat is not given up: the clock counts a seat gone after a while, and the computer may
  // take it over). The language form does not leave: it comes back to this table (its "next").
  function leavingAsks(event) {
    if (!T.state || T.state.match.status !== "playing" || T.state.result || !isSeated() ||
        isBot(T.state.you)) return;
    var question = T.state.move_seconds ? L.leaveConfirm : L.leaveConfirmNoClock;
    if (!window.confirm(question)) event.preventDefault();
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
    if (link.getAttribute("href").charAt(0) === "#") return;
    leavingAsks(event);
  });
  document.querySelectorAll(".site-header form:not(.lang)").forEach(function (form) {
    form.addEventListener("submit", leavingAsks);
  });

  T.showError = showError;
  B.talk.init(cfg.talk, L, function (message) { return T.socket.send(message); });
  // For the browser tests and for debugging from the console.
  B.table = {socket: T.socket, state: function () { return T.state; }, listeners: []};
})();
