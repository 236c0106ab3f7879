/* baogame: the expected duration of a game, said while its settings are chosen (the new-game form).
 *
 * An element with the class "estimate" and data-estimate-url inside a form.game-form shows the site's
 * estimate for the form's game (data-game-field of the form), seats (data-seats-field), length (the
 * chosen game's radio buttons "length_<game>", a custom length's values from data-length-keys: per
 * game, the names of its value fields) and time control (data-control-field, and a custom control's
 * values from data-control-keys, "<server key>=<form field in hours>,…"), and whether the table means to
 * meet at weekly sittings (the checkbox "estimate_sittings"), and whether bots take every seat nobody is
 * invited to (the radio buttons "opponents", the fields "bots" and "invite": then "solo", and the
 * sittings box is hidden, as a table of one person against bots has none). It asks the server again whenever they change; the server answers
 * from the site's finished games or from the pace model, and says which. Without this script the
 * element keeps the estimate of the form's initial settings. No inline script (Content-Security-Policy).
 */
(function () {
  "use strict";

  function field(form, name) {
    if (!name) return "";
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    if (checked) return checked.value;
    var el = form.querySelector('select[name="' + name + '"]:not(:disabled), input[name="' + name + '"]:not([type=radio]):not(:disabled)');
    return el ? el.value : "";
  }

  function query(form, out) {
    var game = field(form, form.dataset.gameField);
    var params = new URLSearchParams();
    params.set("game", game);
    var players = field(form, form.dataset.seatsField);
    if (players) params.set("players", players);
    var length = field(form, "length_" + game);
    if (length) params.set("length", length);
    var keys = {};
    try { keys = JSON.parse(out.dataset.lengthKeys || "{}"); } catch (e) { keys = {}; }
    if (length === "custom") {
      (keys[game] || []).forEach(function (key) {
        var value = field(form, key);
        if (value) params.set(key, value);
      });
    }
    var control = field(form, out.dataset.controlField);
    if (control) params.set("control", control);
    if (control === "custom") {  // "initial=control_initial_hours,…": the form asks hours, the server seconds
      (out.dataset.controlKeys || "").split(",").forEach(function (pair) {
        var names = pair.split("="), hours = parseFloat(field(form, names[1]));
        if (names[1] && hours > 0) params.set(names[0], String(Math.round(hours * 3600)));
      });
    }
    // Bots in every seat nobody is invited to (the new-game form): the game goes at the one person's pace,
    // and there is nobody to meet at a sitting: the "weekly sittings" box hides and is not read.
    var solo = alone(form, players);
    if (solo) params.set("solo", "1");
    var sittings = form.querySelector('input[name="estimate_sittings"]');
    var box = sittings && sittings.closest("label");
    if (box) box.hidden = solo;
    if (sittings && sittings.checked && !solo) params.set("sittings", "1");
    return params.toString();
  }

  // One person against bots: nobody invited, and bots in every other seat ("bots", or "some" bots as
  // many as the other seats).
  function alone(form, players) {
    var invited = field(form, "invite").split(",").filter(function (name) { return name.trim(); });
    if (invited.length) return false;
    var mode = field(form, "opponents");
    if (mode === "bots") return true;
    var bots = parseInt(field(form, "bots"), 10), seats = parseInt(players, 10);
    return mode === "some" && seats > 0 && bots >= seats - 1;
  }

  function watchEstimate(form, out) {
    var asked = "", timer = null;
    function ask() {
      var q = query(form, out);
      if (q === asked) return;
      asked = q;
      fetch(out.dataset.estimateUrl + "?" + q, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (reply) { return reply.json().then(function (body) { return { ok: reply.ok, body: body }; }); })
        .then(function (r) {
          if (q !== asked) return;  // a newer question is on its way
          var say = window.baogameWords ? window.baogameWords.say : function (k, v, english) {
            return english.replace(/%\((\w+)\)s/g, function (all, name) { return v[name]; });
          };
          out.textContent = r.ok ? say("expected", {text: r.body.text}, "Expected duration: %(text)s")
            : say("no_estimate", {detail: r.body.detail}, "No estimate for these settings: %(detail)s");
        })
        .catch(function () { /* keep the last estimate shown */ });
    }
    function later() { clearTimeout(timer); timer = setTimeout(ask, 250); }
    form.addEventListener("change", later);
    form.addEventListener("input", later);
    ask();
  }

  document.querySelectorAll("form.game-form .estimate[data-estimate-url]").forEach(function (out) {
    watchEstimate(out.closest("form"), out);
  });
})();
