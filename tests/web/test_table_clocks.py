"""The deadlines line of the game page: a simultaneous decision never tells who has answered (BB-30.6),
a single-owner decision names its player, and a bot's own decision says it is thinking."""

from __future__ import annotations

from datetime import UTC, datetime

from apps.games.clock.controls import NAMED_CONTROLS
from apps.games.presenters.table import table_clocks

NAMES = ["ann", "bob", "Heron (bot)"]
SOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _row(seat: int | None, kind: str, timing: str, decision_id: str = "d1") -> dict:
    return {"seat": seat, "kind": kind, "timing": timing, "decision_id": decision_id, "deadline": SOON}


def _clocks(rows: list[dict], viewer: int | None = 0) -> list[dict]:
    return table_clocks(
        rows=rows, viewer=viewer, names=NAMES, bot_played={2}, control=NAMED_CONTROLS["live"], paused=False
    )


def test_a_window_is_shown_the_same_whoever_has_passed_bb_30_6() -> None:
    """The public rows of a window already hide its owners; the page adds no name and no count."""
    seen_by_ann = _clocks([_row(None, "pluck_window", "reaction")], viewer=0)
    seen_by_watcher = _clocks([_row(None, "pluck_window", "reaction")], viewer=None)

    assert seen_by_ann == seen_by_watcher
    assert [(c["what"], c["who"], c["thinking"]) for c in seen_by_ann] == [("Plucking window", "", False)]


def test_a_turn_names_its_player_and_counts_down_with_its_length() -> None:
    [clock] = _clocks([_row(1, "turn_action", "turn")])

    assert (clock["who"], clock["what"], clock["deadline"]) == ("bob", "turn", SOON)
    assert clock["length"] == NAMED_CONTROLS["live"].cap
    assert not clock["thinking"] and not clock["mine"]


def test_a_bots_own_decision_says_the_bot_is_thinking() -> None:
    [clock] = _clocks([_row(2, "turn_action", "turn")])

    assert clock["who"] == "Heron (bot)" and clock["thinking"]


def test_a_bot_is_never_said_to_think_about_a_simultaneous_decision_bb_30_6() -> None:
    """Whether a bot has answered a window is as secret as whether a person has."""
    clocks = _clocks([_row(None, "setup_peek", "setup")], viewer=None)

    assert [c["thinking"] for c in clocks] == [False]
