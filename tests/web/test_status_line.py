"""The status line names the open decision: during Bao Huang's emperor offer it says "Emperor offer",
not "Declarations" (both are decisions of kind ``declare``, BH-25.2)."""

from __future__ import annotations

import pytest

from apps.games.clock.controls import NAMED_CONTROLS
from apps.games.presenters.table import decision_name, table_clocks
from tests.factories import GameFactory, UserFactory
from tests.support.bh_turns import MANY_PLAYS_DEAL


def _row(kind: str, timing: str, seat: int | None = 0) -> dict:
    return {"decision_id": "d1", "kind": kind, "timing": timing, "seat": seat, "deadline": None}


def test_the_emperor_offer_is_named_as_such_not_as_the_declarations_bh_25_2() -> None:
    clocks = table_clocks(
        rows=[_row("declare", "declare")],
        viewer=0,
        names=["Ann", "Bo", "Cy", "Di", "Ed"],
        bot_played=set(),
        control=NAMED_CONTROLS["daily"],
        paused=False,
        phase="offer",
    )

    assert clocks[0]["what"] == "Emperor offer" and clocks[0]["mine"]


def test_the_declarations_keep_their_name_bh_25_2() -> None:
    assert decision_name("declare", "declare", simultaneous=True) == "Declarations"
    assert decision_name("declare", None, simultaneous=True) == "Declarations"


def test_other_decisions_are_named_as_before() -> None:
    assert decision_name("setup_peek", None, simultaneous=True) == "Setup peek"
    assert decision_name("turn_action", "play", simultaneous=False) == "turn"


@pytest.mark.django_db
def test_the_game_page_names_the_emperor_offer_in_its_status_line_bh_25_2(client_for) -> None:
    """On the page itself (the view gives the presenter the game's phase): while the emperor card's
    holder decides, the status line says "Emperor offer (yours)", never "Declarations"."""
    users = [UserFactory(username=name) for name in ("wren", "tern", "rook", "kite", "lark")]
    game = GameFactory(engine="baohuang", players=5, seated=users, options={"deal": MANY_PLAYS_DEAL})
    assert game.state["phase"] == "offer"

    page = client_for(users[0]).get(f"/games/{game.public_id}/").content.decode()

    clocks = page.split('<ul class="clocks"', 1)[1].split("</ul>", 1)[0]
    assert "Emperor offer" in clocks and "Declarations" not in clocks
