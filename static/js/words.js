/* baogame: the words the page's scripts write, in the page's language.
 *
 * The page carries them as JSON in <meta name="baogame-words" content="…"> (written by the server from
 * its catalogue); baogameWords.say("left", {time: "4 min"}) fills a phrase's %(name)s
 * placeholders. A page without the block (or a missing word) falls back to the English the scripts
 * were written with. No inline script: the page's Content-Security-Policy allows static files only.
 */
(function () {
  "use strict";
  var words = null;
  function load() {
    if (words !== null) return words;
    words = {};
    var meta = document.querySelector('meta[name="baogame-words"]');
    try { if (meta) words = JSON.parse(meta.getAttribute("content")) || {}; } catch (e) { words = {}; }
    return words;
  }
  function fill(phrase, values) {
    return phrase.replace(/%\((\w+)\)s/g, function (all, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }
  window.baogameWords = {
    say: function (key, values, english) {
      var phrase = load()[key];
      return fill(typeof phrase === "string" ? phrase : (english || key), values || {});
    }
  };
})();
