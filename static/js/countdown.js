/* baogame: tick every deadline on the page once a second.
 *
 * A deadline is an element with data-deadline (ISO 8601) and data-urgent (seconds): its .left child
 * gets the time left in the words the server writes ("4 min 12 s left", "2 days 3 h left", "due now",
 * apps/games/presenters/timeleft.py), in the page's language (static/js/words.js), and the element the class "urgent" once data-urgent seconds or fewer are
 * left. A deadline the server wrote in UTC (data-zone, for visitors and players who have not chosen a
 * zone) gets its absolute time rewritten in the browser's own zone, unless that is UTC too.
 * Elements swapped in by htmx are picked up at the next tick. No inline script: the page's
 * Content-Security-Policy allows scripts from the site's static files only.
 */
(function () {
  "use strict";
  var MINUTE = 60, HOUR = 3600, DAY = 86400;

  function say(key, values, english) {
    return window.baogameWords ? window.baogameWords.say(key, values, english)
      : english.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  }
  function unit(key, n, english) { return say(key, {n: n}, english); }

  function words(left) {
    if (left <= 0) return say("due_now", {}, "due now");
    var days = Math.floor(left / DAY), hours = Math.floor((left % DAY) / HOUR);
    var minutes = Math.floor((left % HOUR) / MINUTE), secs = left % MINUTE, out;
    if (days) out = unit(days === 1 ? "day" : "days", days, days === 1 ? "%(n)s day" : "%(n)s days")
      + (hours ? " " + unit("h", hours, "%(n)s h") : "");
    else if (hours) out = unit("h", hours, "%(n)s h") + (minutes ? " " + unit("min", minutes, "%(n)s min") : "");
    else if (minutes) out = unit("min", minutes, "%(n)s min") + (secs ? " " + unit("s", secs, "%(n)s s") : "");
    else out = unit("s", secs, "%(n)s s");
    return say("left", {time: out}, "%(time)s left");
  }

  var browserZone = "";
  try { browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { browserZone = ""; }
  var UTC_NAMES = {"UTC": 1, "Etc/UTC": 1, "Etc/GMT": 1, "GMT": 1};

  /* The zone as the page's language names it ("China Standard Time", "中国标准时间"), else its key. */
  function zoneName(zone, lang) {
    try {
      var parts = new Intl.DateTimeFormat(lang, {timeZone: zone, timeZoneName: "longGeneric"}).formatToParts(new Date());
      for (var i = 0; i < parts.length; i++) if (parts[i].type === "timeZoneName") return parts[i].value;
    } catch (e) { /* an older browser: the key */ }
    return zone;
  }

  /* The zone as its offset, "UTC+8", as the server writes it (apps/accounts/local_times.py): an
   * abbreviation such as "CST" names both China and US Central. Intl's shortOffset says "GMT+8". */
  function utc(text) { return text.replace(/\bGMT(?=[+\u2212-]|\b)/, "UTC").replace("\u2212", "-"); }

  function localise(el, at) {
    if (el.getAttribute("data-local") || !UTC_NAMES[el.getAttribute("data-zone")]) return;
    el.setAttribute("data-local", "1");
    if (!browserZone || UTC_NAMES[browserZone]) return;
    var time = el.querySelector(".at time");
    if (!time) return;
    var lang = document.documentElement.lang || "en";
    if (lang.indexOf("en") === 0) {
      var parts = new Intl.DateTimeFormat("en-GB", {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
        hourCycle: "h23", timeZoneName: "shortOffset"
      }).formatToParts(new Date(at));
      var p = {};
      for (var i = 0; i < parts.length; i++) p[parts[i].type] = parts[i].value;
      time.textContent = p.weekday + " " + p.day + " " + p.month + ", " + p.hour + ":" + p.minute + " " + utc(p.timeZoneName);
    } else {
      time.textContent = utc(new Intl.DateTimeFormat(lang, {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
        hourCycle: "h23", timeZoneName: "shortOffset"
      }).format(new Date(at)));
    }
    time.setAttribute("title", say("zone_title", {zone: zoneName(browserZone, lang)}, "your browser's time zone: %(zone)s"));
  }

  function tick() {
    var now = Date.now();
    var clocks = document.querySelectorAll("[data-deadline]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i], at = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(at)) continue;
      localise(el, at);
      var left = Math.max(0, Math.floor((at - now) / 1000));
      var text = el.querySelector(".left");
      var said = words(left);
      if (text && text.textContent !== said) text.textContent = said;
      var urgent = left <= parseInt(el.getAttribute("data-urgent") || "60", 10);
      el.classList.toggle("urgent", urgent);
      el.classList.toggle("due", left <= 0);
    }
  }

  tick();
  window.setInterval(tick, 1000);
})();
