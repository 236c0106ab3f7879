"""Bao Bei boards the page tests begin from: the rules' example EX-13, at a table of ann, bob and cy."""

from __future__ import annotations

from typing import Any

from apps.games.models import Game
from tests.factories import GameFactory, UserFactory

HUM, SPARROW, MAGPIE, DUCK = "hummingbird", "sparrow", "magpie", "mandarin_duck"

#: EX-13 of the rules: round 4 begun at seat 2's turn, seat 0 has called BAO; one turn ends it.
#: Seat 0 shows 6, seat 1 6, seat 2 10: the caller fails and scores 12 (BB-14.3 c).
EX_13 = {
    "deal": {
        "hands": [[HUM, MAGPIE, HUM], [SPARROW, MAGPIE], [DUCK, DUCK]],
        "discard": SPARROW,
        "draw": [HUM],
    },
    "start": {"active": 2, "bao_caller": 0, "round": 4},
    "first_player": 1,
}


def ann_bob_and_cy(options: dict[str, Any]) -> tuple[Game, list[Any]]:
    """A started 3-seat Bao Bei game of ann, bob and cy (seats 0, 1, 2; no bots) dealt and begun as
    ``options`` say (``EX_13``, or a board made from it), and them."""
    users = [UserFactory(username=name) for name in ("ann", "bob", "cy")]
    return GameFactory(engine="baobei", players=3, options=options, seated=users), users
