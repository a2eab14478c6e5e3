/* The seat picker's sides at a four-player table (RULES.md "side": seats 0+2 and 1+3, partners
 * opposite): each seat chip of the waiting room says whose side it is on, and, to a seated
 * player, which seat is theirs, their partner's, or an opponent's; the player's side is marked
 * by its words and a solid border, never by colour alone; each side's line says who sits on
 * it. Read by waiting.js. */
import * as B from "../live.js";
import * as T from "./kit.js";
import {getState} from "./store.js";

var L = T.L;

/** The seat's side tag: {text, mine} for a chip at a table of n seats; null at two seats.
 * you: the viewer's seat number, or null/undefined when not seated. */
export function seatSide(seat, you, n) {
  if (n !== 4) return null;
  var side = seat % 2;
  var number = B.fmt(L.sideNumber, {number: side + 1});
  if (you === null || you === undefined) return {text: number, mine: false};
  if (seat === you) return {text: L.yourSeat + " · " + number, mine: true};
  if (side === you % 2) return {text: L.partnerSeat + " · " + number, mine: true};
  return {text: L.opponentSeat + " · " + number, mine: false};
}

/** Add the side tag to a seat chip (an <li>) and mark the viewer's side. */
export function tagChip(chip, seat) {
  var tag = seatSide(seat, getState().you, T.players());
  if (!tag) return;
  chip.dataset.side = String(seat % 2);
  if (tag.mine) chip.classList.add("your-side");
  chip.insertBefore(B.el("span", {class: "seat-side", text: tag.text}), chip.firstChild);
}

/** Who sits on a side of four in the waiting room: partners "alice & carol"; an empty seat is
 * said as one, "alice and an empty seat", "two empty seats", not joined to a partner's name as
 * if it were a name ("alice & Empty seat"). The lobby's open tables say the same
 * (games.core.state.lobby.side_names). */
export function waitingSideNames(side) {
  var names = [];
  for (var seat = side; seat < T.players(); seat += 2) {
    var name = T.seatName(seat);
    if (name) names.push(B.isolate(name));
  }
  if (names.length === 2) return T.sideNames(side);
  if (names.length === 1) return B.fmt(L.nameAndEmptySeat, {name: names[0]});
  return L.twoEmptySeats;
}
