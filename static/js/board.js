/* The game board refreshes itself every few seconds (htmx polling, see games/_board.html). A refresh
   waits while the player is filling in one of its forms, so a half-made choice is not swapped away.
   (Kept here rather than in an hx-trigger filter: the Content-Security-Policy allows no eval.) */
document.addEventListener("htmx:beforeRequest", function (event) {
  var board = event.detail.elt;
  if (!board || board.id !== "board" || event.detail.requestConfig.verb !== "get") {
    return;
  }
  if (board.querySelector("form :focus, input:checked")) {
    event.preventDefault();
  }
});
