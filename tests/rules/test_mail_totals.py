"""The running totals in a mail's view: by player, as the scores table shows them."""

from __future__ import annotations

from baogame.rules.mail import player_name, totals_text


def test_the_totals_name_each_player_and_call_the_reader_you():
    assert totals_text([12, -3, 30], 1, ["ann", "bob", "Kestrel (bot)"]) == "ann 12, you -3, Kestrel (bot) 30"


def test_the_reader_first_in_the_totals_is_you_within_the_sentence():
    """The list stands inside a sentence ("Totals: you 6, ann -3."): the reader is "you" wherever they
    come in it, first or not; a line that starts with the reader's name writes "You"."""
    assert totals_text([6, -3], 0, ["wren", "ann"]) == "you 6, ann -3"
    assert player_name(["wren", "ann"], 0, 0) == "you"
    assert player_name(["wren", "ann"], 0, 0, starts=True) == "You"
    assert player_name(["wren", "ann"], 1, 0, starts=True) == "ann"


def test_a_spectators_totals_name_every_seat_and_a_seat_past_the_names_by_its_number():
    assert totals_text([0, 5], None, ["ann"]) == "ann 0, Seat 1 5"


def test_totals_that_are_not_a_list_are_shown_plainly():
    assert totals_text(None, 0, ["ann"]) == "—"
