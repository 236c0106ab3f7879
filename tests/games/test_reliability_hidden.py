"""The reliability record never tells of a hidden answer before its decision closes (BB-30.6).

A pass in a plucking window, or a setup peek, is known only to its own seat while the decision is open
for others: the move is hidden, and so is its count in the public record (``on_time_percent`` on the
players' pages, the API and league standings), which otherwise would move the moment the player
answered. The count waits in ``SeatTenure.answered_hidden`` and joins ``answered`` with the move that
closes the decision, when everyone learns who answered.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import reliability
from tests.games.test_line_numbers import a_pluck, a_twin, act, pending, window_owners

pytestmark = pytest.mark.django_db


def answered(users: list[Any]) -> list[int]:
    """Each of the three players' public count of answers."""
    return [reliability.record_for(user).answered for user in users[:3]]


def test_the_setup_peeks_count_once_the_last_one_closes_the_decision_bb_3_5_bb_30_6(users: list) -> None:
    """Seats 0 and 1 peeked hidden, seat 2's peek closed the setup: all three count (and seat 0's
    draw and discard), none twice."""
    a_twin(users, "record-1")

    assert answered(users) == [3, 1, 1]


def test_a_hidden_pass_moves_no_public_record_until_the_window_closes_bb_6_6_bb_30_6(users: list) -> None:
    game = a_twin(users, "record-2")
    passer, plucker = window_owners(game)
    before = answered(users)

    answer = act(game, users[passer], {"type": "pass", "decision_id": pending(game)[0]["decision_id"]})

    assert answer.move is not None and answer.move.hidden
    assert answered(users) == before  # nobody can tell that the passer answered
    closing = act(
        game, users[plucker], {**a_pluck(game, plucker), "decision_id": pending(game)[0]["decision_id"]}
    )
    after = list(before)
    after[passer] += 1
    after[plucker] += 1
    assert answered(users) == after  # the pluck closed the window: both answers count now
    assert closing.move is not None and not closing.move.hidden
