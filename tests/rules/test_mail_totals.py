"""The running totals in a mail's view: by player, as the scores table shows them."""

from __future__ import annotations

from baogame.rules.mail import totals_text


def test_the_totals_name_each_player_and_call_the_reader_you():
    assert totals_text([12, -3, 30], 1, ["ann", "bob", "Kestrel (bot)"]) == "ann 12, You -3, Kestrel (bot) 30"


def test_a_spectators_totals_name_every_seat_and_a_seat_past_the_names_by_its_number():
    assert totals_text([0, 5], None, ["ann"]) == "ann 0, Seat 1 5"


def test_totals_that_are_not_a_list_are_shown_plainly():
    assert totals_text(None, 0, ["ann"]) == "—"
