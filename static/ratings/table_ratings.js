/* The ratings at a rated table, from the state message's extras.ratings (docs/protocol.md
 * "state", games/ratings/table.py): each person's rating beside their name, the win chances once
 * the table is full, and at the end every name's new rating and change (1500? → 1512 +12), side
 * by side, or why the match was not rated. Live for every seat and spectator, on a rated table (the
 * page's rating-config, from the ratings app: games/ratings/slots.py, rating_config).
 * An app's module on the core's table: it imports the core's published modules (the store's
 * API, store.js) and gives its parts through provide(); the core imports nothing of it. */
import * as B from "../games/live.js";
import * as T from "../games/table/kit.js";
import {getState, provide, subscribe} from "../games/table/store.js";

var el = B.el;
var $ = T.$;
// The ratings' words, from the /jsi18n/ catalogue. notRated: why a rated match did not rate
// a person, by Unrated code (games/ratings/rating.py, NOT_RATED_MESSAGES, whose msgids these
// are); notRatedRow: the short reason in a person's row where it differs (one that says "for
// you").
var L = {
  winChances: gettext("Win chances:"),
  // The template's "{{ percent }}%" has this msgid; the script's formatting has no "%%".
  percent: gettext("%(percent)s%%").replace("%%", "%"),
  changes: gettext("Rating changes"),
  // A leaver is rated as having lost; their partner is not rated (partner_left); the others
  // are rated by the result (games/ratings/rating.py, seat_scores).
  partnerLeft: gettext("This match no longer counts for your rating."),
  opponentLeft: gettext("They are rated as having lost; you are rated by the result as usual."),
  resignPartnerLeft: gettext("Resigning changes nothing for your rating."),
  notRated: {
    aborted: gettext("Not rated: the match was aborted before its first play."),
    aborted_early: gettext("Not rated: the match was aborted, as a player did not play a card of the first deal themselves."),
    ended_early: gettext("Not rated: the match ended before every player had played a card of the first deal (its result stands for the tournament)."),
    abandoned: gettext("Not rated: everyone left before every player had played a card of the first deal."),
    decided: gettext("Not rated: the match was decided away from the table (a forfeit or a withdrawal)."),
    partner_left: gettext("Not rated for you: your partner left and the computer played for them."),
    voided: gettext("Not rated: staff voided this match's rating."),
  },
  notRatedRow: {partner_left: gettext("not rated: partner left")},
};
// The page's rating-config (games/ratings/slots.py, rating_config) is there on a rated table
// only: R is null on a casual one.
var R = document.getElementById("rating-config") ? L : null;

function ratings() {
  var extras = getState() && getState().extras;
  return extras && extras.ratings ? extras.ratings : null;
}

/** The ratings' entry of a seat ({seat, rating, change, not_rated}), or null. */
function ofSeat(seat) {
  var found = ratings();
  if (!found) return null;
  return found.seats.filter(function (s) { return s.seat === seat; })[0] || null;
}

/** "(1523?)" beside a seat's name, or null (a casual match once started, a computer seat). */
function seatRating(seat) {
  var entry = ofSeat(seat);
  return entry && entry.rating ? B.ratingNode(entry.rating) : null;
}

/** "+12", "−12" (a true minus sign), "±0": a rating change as lichess writes it. */
function signed(change) {
  if (change > 0) return "+" + change;
  if (change < 0) return "\u2212" + Math.abs(change);
  return "\u00B10";
}

/** The change of a seat as a node ("+12", classed up/down), or null before it is rated. */
function changeNode(seat) {
  var entry = ofSeat(seat);
  if (!entry || entry.change === null || entry.change === undefined) return null;
  var kind = entry.change > 0 ? "up" : entry.change < 0 ? "down" : "even";
  return el("bdi", {class: "rating-change " + kind, dir: "ltr", dataset: {seat: seat, change: entry.change},
                    text: signed(entry.change)});
}

/** "Win chances: alice (1523?) 53% · bob (1498) 47%", drawn again on every state: whoever sat
 * down before the table filled sees it once the last seat is taken; gone once the match is
 * over (a forecast: the result and the ratings' changes say what came of it). */
function renderChances() {
  var found = ratings();
  var line = $("win-chances");
  var over = !!(getState() || {}).result;
  if (!found || !found.chances || !R || over) { if (line) line.hidden = true; return; }
  if (!line) {
    line = el("p", {class: "win-chances", id: "win-chances"});
    $("play-area").parentNode.insertBefore(line, $("invite-link") || $("table-tools"));
  }
  var parts = [R.winChances, " "];
  // The sides in the table's order (kit.js sideOrder: the viewer's first).
  var order = T.sideOrder();
  order.forEach(function (side, i) {
    if (i) parts.push(" ");
    var members = [];
    var seats = found.seats.filter(function (s) { return s.seat % 2 === side; });
    seats.forEach(function (s, i) {
      if (i > 0) members.push(" & ");
      members.push(el("bdi", {text: T.seatName(s.seat) || ""}), " ");
      var rating = B.ratingNode(s.rating);
      if (i < seats.length - 1) { members.push(rating); return; }
      // The last rating, the colon and the percentage on one line (games.css): a phone's
      // line broke between them, leaving ": 50%" alone.
      members.push(el("span", {class: "chance-end"}, [rating, B.colon() + " ",
        el("strong", {}, [el("bdi", {text: B.fmt(R.percent, {percent: found.chances[side]})})])]));
    });
    // The dot between the sides ends the first one's box (an inline block), never starting a line.
    if (i < order.length - 1) members.push("\u00A0\u00B7");
    parts.push(el("span", {class: "side-chance", dataset: {side: side}}, members));
  });
  line.replaceChildren.apply(line, parts);
  line.hidden = false;
}

/** Why a finished rated match did not rate the viewer (or anybody), said on the table. */
function renderNotRated() {
  var found = ratings();
  var box = $("not-rated");
  var code = null;
  if (found && getState().result && R) {
    var mine = ofSeat(getState().you);
    code = (mine && mine.not_rated) || found.not_rated;
  }
  if (!code) { if (box) box.hidden = true; return; }
  if (!box) {
    box = el("p", {class: "not-rated", id: "not-rated", role: "status"});
    $("play-area").parentNode.insertBefore(box, $("invite-link") || $("table-tools"));
  }
  box.dataset.reason = code;
  box.textContent = R.notRated[code] || code;
  box.hidden = false;
}

/** The arrow from a rating to the next, pointing the way the page reads: "→", or "←" on a
 * right-to-left page (as the match history's, templates/ratings/_history_table.html). */
function arrow() { return document.documentElement.dir === "rtl" ? "\u2190" : "\u2192"; }

/** One person's ratings at the end: "Amira 1500? → 1741 +241", the rating before, the one
 * after and the change, each number isolated left to right so that an Arabic line keeps its
 * digits and "?" in place while the name and the arrow follow the page; "Ahmed 1500? not
 * rated: partner left" when the match did not rate them (the reason, not a bare "–", which
 * says nothing of why), "Amira 1500? –" when no reason is known. */
function changeEntry(s) {
  var numbers = [el("bdi", {class: "rating rating-before", dir: "ltr", text: s.rating}), " "];
  if (s.rating_after !== null && s.rating_after !== undefined) {
    numbers.push(arrow() + " ", el("bdi", {class: "rating-after", dir: "ltr", text: s.rating_after}), " ");
  }
  var change = changeNode(s.seat);
  var reason = !change && s.not_rated && R ? (R.notRatedRow[s.not_rated] || R.notRated[s.not_rated]) : null;
  if (!reason) numbers.push(change || el("span", {class: "rating-change none", text: "\u2013"}));
  // The numbers on one line (games.css): the name may wrap before them on a phone, the
  // reason after them.
  var parts = [el("bdi", {text: T.seatName(s.seat) || ""}), " ", el("span", {class: "rating-move"}, numbers)];
  if (reason) parts.push(el("span", {class: "rating-unrated", dataset: {reason: s.not_rated}, text: reason}));
  return el("span", {class: "rating-entry", dataset: {seat: s.seat}}, parts);
}

/** What a person's leaving means for the reader's rating, said after the table's notice of
 * it (table/clock.js, renderNotices and resignQuestion): ``kind`` "partner" (my partner
 * left: the match no longer counts for me), "opponent" (an opponent left: rated as having
 * lost, I by the result) or "resign" (resigning, my partner gone, changes nothing for my
 * rating); null at a casual table. The rules: games/ratings/rating.py, seat_scores. */
function leavingNote(kind) {
  if (!R || !getState().match.rated) return null;
  return R[{partner: "partnerLeft", opponent: "opponentLeft", resign: "resignPartnerLeft"}[kind]] || null;
}

/** The result's ratings, side by side as the scoreboard labels them (T.sideLabel: "Your
 * side", "Opponents"; "Side 1", "Side 2" to a spectator; none where the label is the player's
 * name, a spectator's at two): "Rating changes: Your side: Amira 1500? → 1741 +241, Samir
 * 1500? → 1733 +233; Opponents: …" (games.css lays them out), or
 * null before anyone's is known. By side, not by seat: at four the seats take turns between
 * the sides, and partners read together. */
function changesLine() {
  var found = ratings();
  if (!found || !found.seats.some(function (s) { return s.change !== null; })) return null;
  // Said in words before the numbers: "+241" alone after the score read as points.
  var parts = R ? [el("span", {class: "result-ratings-label", text: R.changes + B.colon() + " "})] : [];
  T.sideOrder().forEach(function (side) {
    var entries = found.seats.filter(function (s) { return s.seat % 2 === side; }).map(changeEntry);
    if (!entries.length) return;
    // Where the side's label is its player's name (a spectator at two, kit.js sidesNamed) the
    // entry names them already: "alice: alice 1500? → …" said the name twice.
    var label = T.sidesNamed() ? [] :
      [el("span", {class: "result-ratings-side-label", text: T.sideLabel(side) + B.colon() + " "})];
    parts.push(el("span", {class: "result-ratings-side", dataset: {side: side}}, label.concat(entries)));
  });
  return el("span", {class: "result-ratings", id: "result-ratings"}, parts);
}

function renderRatings() {
  renderChances();
  renderNotRated();
}

provide("seatBadge", seatRating);
provide("resultLine", changesLine);
provide("leavingNote", leavingNote);
subscribe(renderRatings);
