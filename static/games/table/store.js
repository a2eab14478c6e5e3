/* The live table's one store: the state the server sent last (docs/protocol.md, "state") and
 * what the page knows beside it (a play sent and not answered, the socket live, this tab logged
 * out, a turn given more time). Every state goes in through applyState(), the one funnel that
 * checks its seq and asks for a resync; every view draws from the state it is given or from
 * getState(), and keeps no copy of its own.
 *
 * The API the table's modules and the apps' modules use (an app imports it by a relative path,
 * (from static/ratings/: ../games/table/store.js); the core imports no app module):
 *
 *   getState()             the latest state message, or null before the first.
 *   subscribe(fn)          fn(state, old) after every state applied (old: the state before it,
 *                          null at the first), and at once when a state is already there; also
 *                          after refresh(). Returns a function that unsubscribes.
 *   onMessage(fn)          fn(message) for every message of the table's socket, before it is
 *                          handled (the rematch offer, say).
 *   applyState(message)    the funnel (see below); true when the state was applied.
 *   send(message)          sends on the table's socket; false when it is not open.
 *   store                  the page's flags: pending, live, firstState, loggedOut,
 *                          socketStatus, moreTimeTurn, socket, connection; written only by
 *                          the table's modules (board.js sets pending, main.js the socket's).
 *   provide(name, fn)      an app's part of a view, drawn where the core asks for it (names:
 *                          "seatBadge" (seat) → node|null, beside a seat's name; "resultLine" ()
 *                          → node|null, under the result; "leavingNote" (kind) → text|null,
 *                          after a notice that a person left); draws the table again.
 *   provided(name, ...args) what the providers of name give, nulls dropped: an array.
 *   refresh()              tells every subscriber again (the state unchanged).
 */

export const store = {
  pending: false,      // a play was sent and not answered yet
  live: false,         // the socket is open: a click can reach the server
  firstState: false,   // the state drawn is the first one since the socket opened
  loggedOut: false,    // this tab's session ended (a logout here or in another tab)
  socketStatus: "connecting",  // the socket's state, for the connection chip and banner
  moreTimeTurn: null,  // turnKey() (kit.js) of the turn that was given more time (speak.js)
  socket: null,        // the table's LiveSocket (main.js)
  connection: 0,       // how many times the socket has opened (main.js): what an app asks for
                       // once a connection (the chat's lines) it asks again when this grows
  playedAt: -Infinity, // when this page last sent a play of its own (Date.now(), board.js)
};

let state = null;
const listeners = [];
const messageListeners = [];
const providers = {};

export function getState() { return state; }

export function subscribe(fn) {
  listeners.push(fn);
  if (state !== null) fn(state, null);
  return function () { listeners.splice(listeners.indexOf(fn), 1); };
}

export function onMessage(fn) { messageListeners.push(fn); }

/** Every listener of onMessage() is told of ``message`` (main.js, for each socket message). */
export function heard(message) {
  messageListeners.forEach(function (fn) { fn(message); });
}

function notify(old) {
  listeners.slice().forEach(function (fn) { fn(state, old); });
}

export function refresh() { if (state !== null) notify(state); }

/**
 * The one way a state comes in: the page's first (from table-config) and each "state" message.
 * A state older than the one held is dropped. One change may add several events, so seq can
 * jump; prev_seq (null in a snapshot) is the seq the server had before this change: any other
 * value than ours means a message was missed, so the state is applied (it is complete) and the
 * current one is asked for in case it was overtaken ({"type": "sync"}). Applying clears a
 * pending play; a seated state clears loggedOut. ``first``: the first state since the socket
 * opened (the notices do not repeat what was said before the page opened).
 */
export function applyState(message, first) {
  if (state !== null && message.seq < state.seq) return false;
  const gap = state !== null && message.prev_seq !== null && message.prev_seq !== undefined &&
              message.prev_seq !== state.seq;
  const old = state;
  state = message;
  store.firstState = !!first;
  store.pending = false;
  if (state.you !== null && state.you !== undefined) store.loggedOut = false;
  notify(old);
  if (gap) send({type: "sync"});
  return true;
}

export function send(message) {
  return !!store.socket && store.socket.send(message);
}

export function provide(name, fn) {
  (providers[name] = providers[name] || []).push(fn);
  refresh();
}

export function provided(name, ...args) {
  return (providers[name] || []).map(function (fn) { return fn(...args); }).filter(function (x) {
    return x !== null && x !== undefined;
  });
}
