/* baogame: give a signed-in player's profile the browser's time zone while it has none of its own.
 *
 * The page includes this script only while the profile's zone is still UTC (the default). It posts
 * Intl.DateTimeFormat().resolvedOptions().timeZone once per browser to data-url; the server takes it
 * only while the profile is still in UTC (apps/accounts/time_zone.py), then reloads nothing: the
 * next page shows its dates and times in that zone.
 */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !window.fetch) return;
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  if (!zone || zone === "UTC" || zone === "Etc/UTC") return;
  try { if (window.localStorage.getItem("baogame-zone-sent") === zone) return; } catch (e) { /* no storage */ }
  function csrf() {  // the page's token, as htmx sends it (the body's hx-headers)
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }
  var body = new URLSearchParams();
  body.set("zone", zone);
  fetch(me.getAttribute("data-url"), {
    method: "POST", credentials: "same-origin", body: body,
    headers: {"X-CSRFToken": csrf()}
  }).then(function () {
    try { window.localStorage.setItem("baogame-zone-sent", zone); } catch (e) { /* no storage */ }
  }).catch(function () { /* try again on the next page */ });
})();
