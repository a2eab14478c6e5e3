/* The strings the lobby and the table both show, and the cards' spoken names (the table, the
 * replay), from Django's JavaScript catalogue (/jsi18n/, a classic script base.html loads
 * before every module: its gettext and pgettext are globals). %(name)s marks a placeholder,
 * filled by live.js's fmt (Django's interpolate). */

/** The lobby's and the table's words. */
export var common = {
  connecting: gettext("Connecting…"),
  live: gettext("Live"),
  reconnecting: gettext("Connection lost, reconnecting…"),
  closed: gettext("Closed"),
  target: gettext("to %(target)s"),
  rated: gettext("Rated"),
  casual: gettext("Casual"),
  emptySeat: gettext("Empty seat"),
  join: gettext("Join"),
  leave: gettext("Leave"),
  open: gettext("Open"),
  watch: gettext("Watch"),
  tableNumber: gettext("Table %(id)s"),
  noTables: gettext("No open tables. Create one!"),
  createdBy: gettext("created by %(name)s"),
  botBadge: gettext("Computer player"),
  // A bot account's title beside its name (docs/protocol.md, the seats' "title").
  botTitle: gettext("BOT"),
  botTitleHint: gettext("A bot account: a program plays it"),
  takeSeat: gettext("Take this seat"),
  sitHere: gettext("Sit here"),
  sideOf: gettext("Side %(number)s: %(names)s"),
  and: gettext("%(a)s & %(b)s"),
  online: gettext("online"),
  offline: gettext("away"),
  yourTurn: gettext("Your turn"),
  noMatches: gettext("Nobody is playing a match you may watch right now."),
  perPlay: gettext("%(seconds)s s per play"),
  noClock: gettext("No clock"),
  commitment: gettext("Commitment"),
  commitmentTitle: gettext("SHA-256 of the site's secret seed for this table, published before anyone sits down; the seed itself is revealed when the match is over."),
};

/** What cardName (live.js) names a card code ("7D") with: "seven of diamonds", as a screen reader
 * says it and as players say it at the table; the court cards and the ace keep their capitals.
 * The same words as games/core/pages/cards.py, which names cards on the server (the rules page). */
export var cards = {
  cardName: gettext("%(rank)s of %(suit)s"),
  suits: {
    C: gettext("clubs"),
    D: gettext("diamonds"),
    H: gettext("hearts"),
    S: gettext("spades"),
  },
  ranks: {
    A: pgettext("card", "ace"),
    "2": pgettext("card", "two"),
    "3": pgettext("card", "three"),
    "4": pgettext("card", "four"),
    "5": pgettext("card", "five"),
    "6": pgettext("card", "six"),
    "7": pgettext("card", "seven"),
    "8": pgettext("card", "eight"),
    "9": pgettext("card", "nine"),
    "10": pgettext("card", "ten"),
    J: pgettext("card", "jack"),
    Q: pgettext("card", "queen"),
    K: pgettext("card", "king"),
  },
};
