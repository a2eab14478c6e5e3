// Tells a signed-in player, on any page of the site, that a tournament table is waiting for
// them (a pairing's table was created with them seated): a bar with the table's link, unless
// this page is that table already; and the event's other news (it started, a bye, it is over),
// a partner's invitation and its refusal, as a short notice. No socket or polling of its own:
// it listens to the site's notice socket (static/games/notices.js, which dispatches
// "basra:notice" on document; the kinds and payloads are in games/tournaments/news.py), and is
// told on connect of the tables still being played (the pending provider). Beside each table, how
// long a player has to come to it before losing by default (the payload's wait_seconds).
import {flash} from "../games/notices.js";
import {fmt, list, ngettext} from "../games/live.js";

// Loaded only beside its config (templates/base.html).
const node = document.getElementById("tournament-notice-config");
// The changed settings' names are the model's fields' (verbose names), from the page.
const fields = JSON.parse(node.textContent).fields;
// The notices' words, from the /jsi18n/ catalogue.
const L = {
  table: gettext("Your table in %(event)s is waiting: go to table %(id)s"),
  tableRound: gettext("Your table in %(event)s (round %(round)s) is waiting: go to table %(id)s"),
  started: gettext("%(event)s has started."),
  bye: gettext("%(event)s, round %(round)s: you have a bye, a win."),
  finished: gettext("%(event)s is over: see the final standings."),
  cancelled: gettext("%(event)s was cancelled by its organiser."),
  removed: gettext("The organiser of %(event)s removed you from its entrants."),
  invite: gettext("%(inviter)s invites you as a partner in %(event)s: answer on the event page."),
  declined: gettext("%(partner)s declined your invitation to play %(event)s together."),
  arbiter: gettext("The organiser of %(event)s named you an arbiter of it."),
  edited: gettext("The organiser of %(event)s changed %(changes)s. It starts at %(start)s."),
};
// How long a player has to come to a table (the payload's wait_seconds), as a whole sentence per
// unit so that each language words its plural: in minutes when whole, else in seconds.
function waitText(seconds) {
  const whole = Math.floor(seconds);
  if (whole && whole % 60 === 0) {
    const count = whole / 60;
    return fmt(ngettext(
      "Come within %(count)s minute of its opening, or you lose by default.",
      "Come within %(count)s minutes of its opening, or you lose by default.", count), {count});
  }
  return fmt(ngettext(
    "Come within %(count)s second of its opening, or you lose by default.",
    "Come within %(count)s seconds of its opening, or you lose by default.", whole), {count: whole});
}
const tables = new Map(); // match id -> payload of a "tournament_table" notice
let box = null;

function render() {
  const others = [...tables.values()].filter((t) => t.url !== window.location.pathname);
  if (!others.length) {
    if (box) box.remove();
    box = null;
    return;
  }
  if (!box) {
    box = document.createElement("div");
    box.id = "tournament-notice";
    box.className = "tournament-notice";
    box.setAttribute("role", "status");
    // Styled here: the site's stylesheet is shared, and this script is all the notice needs.
    Object.assign(box.style, {
      padding: ".5rem 1rem", background: "#e3f2e6", display: "flex", gap: "1rem",
      flexWrap: "wrap", justifyContent: "center", fontWeight: "bold",
    });
    document.body.prepend(box);
  }
  box.replaceChildren(...others.map((t) => {
    const item = document.createElement("span");
    const link = document.createElement("a");
    link.href = t.url;
    link.dataset.matchId = t.match_id;
    link.textContent = fmt(t.round ? L.tableRound : L.table, {event: t.event, round: t.round, id: t.match_id});
    item.append(link);
    if (t.wait_seconds) {
      const wait = document.createElement("span");
      wait.className = "tournament-wait";
      wait.style.fontWeight = "normal";
      wait.textContent = " " + waitText(t.wait_seconds);
      item.append(wait);
    }
    return item;
  }));
}

// A short notice linking to the event page (the site's, static/games/notices.js): its news
// ("started", "bye", "finished", "cancelled", "removed", "edited": the settings changed,
// "arbiter": the reader is named an arbiter),
// a partner's invitation ("invite") or its refusal ("declined").
// A moment as the pages write one (SHORT_DATETIME_FORMAT, basra_site/formats/): "5 Dec 2026,
// 19:30" in English, "5 ديسمبر 2026، 19:30" in Arabic; in the reader's zone.
function moment(date, lang) {
  const arabic = /^ar/.test(lang || "");
  const parts = {};
  new Intl.DateTimeFormat(lang, {
    day: "numeric", month: arabic ? "long" : "short", year: "numeric", hour: "2-digit",
    minute: "2-digit", hourCycle: "h23", numberingSystem: "latn",
  }).formatToParts(date).forEach((part) => { parts[part.type] = part.value; });
  return `${parts.day} ${parts.month} ${parts.year}${arabic ? "،" : ","} ${parts.hour}:${parts.minute}`;
}
function news(p, what) {
  const label = L[what];
  if (!label) return;
  let values = p;
  if (what === "edited") {
    // The changed settings by their labels, and the start in the reader's own zone.
    const lang = document.documentElement.lang || undefined;
    values = Object.assign({}, p, {
      changes: list((p.changes || []).map((f) => fields[f] || f)),
      start: moment(new Date(p.starts_at), lang),
    });
  }
  flash(fmt(label, values), "tournament-news", {url: p.event_url, data: {news: what}});
}

// The socket (re)connected: its pending list holds every table still waiting; start over.
document.addEventListener("basra:pending", (event) => {
  tables.clear();
  for (const n of event.detail.notices) {
    if (n.kind === "tournament_table") tables.set(n.payload.match_id, n.payload);
  }
  render();
});

document.addEventListener("basra:notice", (event) => {
  const {kind, payload} = event.detail || {};
  if (kind === "tournament_table") {
    tables.set(payload.match_id, payload);
    render();
  } else if (kind === "tournament_table_over") {
    if (tables.delete(payload.match_id)) render();
  } else if (kind === "tournament_news") {
    news(payload, payload.news);
  } else if (kind === "tournament_invite") {
    news(payload, "invite");
  } else if (kind === "tournament_declined") {
    news(payload, "declined");
  }
});
