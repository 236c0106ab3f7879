/* baogame: forms that fit the chosen game (the new-game form, the league and season forms).
 *
 * A form with the class "game-form" may name its game field (data-game-field: a menu), its seats
 * field (data-seats-field: a number) and a JSON block (data-data: the id of the json_script element
 * holding, per game, fixed_players, min_players, max_players and each length's label per table size).
 * An element with data-game="<game>" shows only while that game is chosen; one with
 * data-when="<field>=<value>" only while that field (radio buttons or a menu) has that value. The inputs
 * of a hidden element are disabled, so the server reads only what the person sees. A game with one
 * table size (Bao Huang's 5) sets the seats field to it, read-only. An element with the class
 * "seat-summary" says who will sit where.
 *
 * Without this script every field shows, each naming the game it is for, and the server checks the
 * combination and explains what does not fit. No inline script: the Content-Security-Policy allows
 * scripts from the site's static files only.
 */
(function () {
  "use strict";

  function valueOf(form, name) {
    if (!name) return "";
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    if (checked) return checked.value;
    var el = form.querySelector('select[name="' + name + '"], input[name="' + name + '"]:not([type=radio])');
    return el ? el.value : "";
  }

  function setShown(el, shown) {
    el.hidden = !shown;
    el.querySelectorAll("input, select, textarea").forEach(function (input) { input.disabled = !shown; });
  }

  function fitSeats(form, info, switched) {
    var seats = form.dataset.seatsField && form.querySelector('input[name="' + form.dataset.seatsField + '"]');
    if (!seats || !info.min_players) return null;
    if (info.fixed_players) {
      if (!seats.readOnly) seats.dataset.chosen = seats.value;
      seats.value = info.fixed_players;
      seats.readOnly = true;
    } else {
      if (seats.readOnly && seats.dataset.chosen) seats.value = seats.dataset.chosen;
      seats.readOnly = false;
      var n = parseInt(seats.value, 10);
      if (switched && !(n >= info.min_players && n <= info.max_players)) {  // not while typing
        seats.value = Math.min(Math.max(n || info.min_players, info.min_players), info.max_players);
      }
    }
    seats.min = info.min_players;
    seats.max = info.max_players;
    return parseInt(seats.value, 10);
  }

  function relabel(form, game, info, players) {
    var labels = info.lengths && info.lengths[String(players)];
    if (!labels) return;
    form.querySelectorAll('input[type=radio][name="length_' + game + '"]').forEach(function (input) {
      var label = input.closest("label"), text = labels[input.value];
      if (!label || !text) return;
      var last = label.lastChild;
      if (last && last.nodeType === Node.TEXT_NODE) last.textContent = " " + text;
    });
  }

  function summarise(form, players) {
    var out = form.querySelector(".seat-summary");
    if (!out) return;
    if (!players) { out.hidden = true; return; }
    var invite = form.querySelector('input[name="invite"]');
    var invited = invite ? invite.value.split(",").filter(function (n) { return n.trim(); }).length : 0;
    var mode = valueOf(form, "opponents") || "bots";
    var bots = mode === "bots" ? Math.max(players - 1 - invited, 0) : mode === "people" ? 0
      : parseInt(valueOf(form, "bots"), 10) || 0;
    var open = players - 1 - invited - bots;
    var say = window.baogameWords ? window.baogameWords.say : function (k, v, english) {
      return english.replace(/%\((\w+)\)s/g, function (all, name) { return v[name]; });
    };
    var parts = [say("you", {}, "you")];
    if (invited) parts.push(say("invited", {n: invited}, "%(n)s invited"));
    if (bots) parts.push(say(bots === 1 ? "bot" : "bots", {n: bots}, bots === 1 ? "%(n)s bot" : "%(n)s bots"));
    var listed = form.querySelector('input[name="open_table"]');
    var opened = Boolean(listed && listed.checked);
    if (open > 0 && opened) {
      parts.push(say(open === 1 ? "listed_seat" : "listed_seats", {n: open}, open === 1
        ? "%(n)s seat open for anybody from the open tables, or with the invitation link"
        : "%(n)s seats open for anybody from the open tables, or with the invitation link"));
    } else if (open > 0) {
      parts.push(say(open === 1 ? "open_seat" : "open_seats", {n: open}, open === 1
        ? "%(n)s seat open for players with the invitation link" : "%(n)s seats open for players with the invitation link"));
    }
    var text = say("seat_summary", {n: players, parts: parts.join(say("list_separator", {}, ", "))}, "%(n)s seats: %(parts)s.");
    if (open < 0) text += " " + say("too_many", {}, "That is more than the seats: fewer bots or invitations.");
    if (open === 0 && opened) {
      text += " " + say("table_full", {}, "An open table needs a free seat: choose people (or some bots) for the other seats.");
    }
    out.textContent = text;
    out.hidden = false;
  }

  function update(form, data) {
    var game = valueOf(form, form.dataset.gameField);
    var info = data[game] || {};
    var switched = form.dataset.shownGame !== game;
    form.dataset.shownGame = game;
    var players = fitSeats(form, info, switched);
    form.querySelectorAll("[data-game], [data-when]").forEach(function (el) {
      var shown = !el.dataset.game || !game || el.dataset.game === game;
      if (shown && el.dataset.when) {
        var rule = el.dataset.when.split("=");
        shown = valueOf(form, rule[0]) === rule[1];
      }
      setShown(el, shown);
    });
    if (players) relabel(form, game, info, players);
    summarise(form, players);
  }

  function init(form) {
    var block = form.dataset.data && document.getElementById(form.dataset.data);
    var data = {};
    try { data = block ? JSON.parse(block.textContent) : {}; } catch (e) { data = {}; }
    var again = function () { update(form, data); };
    form.addEventListener("change", again);
    form.addEventListener("input", again);
    again();
  }

  document.querySelectorAll("form.game-form").forEach(init);
})();
