// The replay page without a mouse: arrow keys step, Home and End jump, the slider jumps to any step.
// Everything it does is a link or a form of the server-rendered page, which works without it.
(function () {
  "use strict";
  var controls = document.getElementById("replay");
  if (!controls) {
    return;
  }
  var form = controls.querySelector(".replay-form");
  var slider = controls.querySelector(".replay-slider");
  var seat = controls.getAttribute("data-seat");

  function stepUrl(step) {
    return "?step=" + encodeURIComponent(step) + "&seat=" + encodeURIComponent(seat);
  }

  function typing(target) {
    if (!target || !target.tagName) {
      return false;
    }
    return target.isContentEditable || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName);
  }

  // Arrow keys and Home/End follow the matching navigation link (a form control keeps its own keys:
  // the slider moves itself and then jumps, a select changes its option).
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) {
      return;
    }
    var link = controls.querySelector('a[data-key="' + event.key + '"]');
    if (link) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });

  if (slider) {
    var position = controls.querySelector(".replay-position");
    var steps = controls.getAttribute("data-steps");
    slider.hidden = false;
    slider.addEventListener("input", function () {
      if (position) {
        position.textContent = window.baogameWords
          ? window.baogameWords.say("step_of", {step: slider.value, n: steps}, "Step %(step)s of %(n)s")
          : "Step " + slider.value + " of " + steps;
      }
    });
    slider.addEventListener("change", function () {
      window.location.assign(stepUrl(slider.value));
    });
  }

  // Choosing another view shows it at once (without JavaScript the Show button does).
  var select = form && form.querySelector(".replay-seat");
  if (select) {
    select.addEventListener("change", function () {
      form.submit();
    });
  }

  // Keep the current move in sight in the list of moves.
  var list = document.querySelector(".replay-list");
  var current = list && list.querySelector(".current");
  if (current) {
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
})();
