/* baogame: the game board's small helpers (no inline script: the Content-Security-Policy allows none).
 *
 * 1. The board refreshes itself every few seconds (htmx polling, see games/_board.html). A refresh
 *    waits while the player is filling in one of its forms, so a half-made choice is not swapped away.
 *    (Kept here rather than in an hx-trigger filter: the Content-Security-Policy allows no eval.)
 * 2. Keep the keyboard where the player is after a move. A form on the board posts with htmx and the
 *    answer replaces the whole board, so the button that had the focus is gone. Put the focus on the
 *    "Your move" heading (or, when nothing is left to decide, on the status line) so that Tab goes on
 *    from the next decision instead of from the top of the page.
 */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeRequest", function (event) {
    var board = event.detail.elt;
    if (!board || board.id !== "board" || event.detail.requestConfig.verb !== "get") {
      return;
    }
    if (board.querySelector("form :focus, input:checked")) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || config.verb !== "post") return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var target = document.querySelector("#decision h2") || document.querySelector("#board .status-line");
    if (target) target.focus();
  });
})();
