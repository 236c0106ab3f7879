"""The "waiting for" line never tells who has answered a simultaneous decision (BB-30.6)."""

from __future__ import annotations

from types import SimpleNamespace

from apps.games.views import _waiting_for

NAMES = {0: "ann", 1: "bob", 2: "cy"}


def _row(seat: int, kind: str, timing: str) -> SimpleNamespace:
    return SimpleNamespace(seat=seat, kind=kind, timing=timing)


def test_a_window_is_named_the_same_whoever_has_passed_bb_30_6() -> None:
    before = _waiting_for([_row(1, "pluck_window", "reaction"), _row(2, "pluck_window", "reaction")], NAMES)
    after_bob_passed = _waiting_for([_row(2, "pluck_window", "reaction")], NAMES)

    assert before == after_bob_passed == ["a plucking window"]


def test_a_turn_names_its_player() -> None:
    assert _waiting_for([_row(2, "turn_action", "turn")], NAMES) == ["cy"]
