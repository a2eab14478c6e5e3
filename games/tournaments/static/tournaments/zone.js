// The browser's time zone (its IANA name, e.g. Africa/Cairo), kept in a cookie so that the
// tournament pages show times in the viewer's own zone (games/tournaments/zones.py), and put in
// a fresh create form's time-zone list (the organiser may choose another).
const zone = browserZone();
if (zone) remember(zone);

/** The browser's IANA zone, or "" (no Intl: the pages keep the event's zone). */
function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return "";
  }
}

function remember(zone) {
  const cookie = "basra_tz=" + encodeURIComponent(zone);
  if (!document.cookie.split("; ").includes(cookie)) {
    document.cookie = cookie + "; path=/; max-age=31536000; SameSite=Lax";
  }
  const form = document.querySelector("form[data-browser-zone]");
  const list = form && form.querySelector('select[name="time_zone"]');
  if (list && Array.from(list.options).some((o) => o.value === zone)) list.value = zone;
}
