"""Calling BAO on the game page takes a confirmation that says what a failed BAO costs (BB-10, BB-14.3).

"Call BAO!" opens a ``<details>`` (no script, as the site's Content Security Policy wants) with the
rules' terms and its own button; only that button sends ``{"type": "end_turn", "bao": true}``.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from typing import Any

import pytest

from tests.web.test_commit_end_turn import CRANE, HANDS, a_game, act, button, finish_windows, page

pytestmark = pytest.mark.django_db


def _at_the_end_of_the_turn(client_for: Any) -> tuple[Any, Any, Any]:
    game, users = a_game(hands=HANDS, draw=[CRANE])
    client = client_for(users[0])
    act(client, game, button(type="draw"))
    act(client, game, button(type="discard"))
    finish_windows(game, users, client_for)
    return game, users, client


def _bao_buttons(html: str) -> list[str]:
    """The submit buttons whose action calls BAO."""
    return [
        b
        for b in re.findall(r"<button [^>]*>", html)
        if 'name="action"' in b
        and json.loads(html_lib.unescape(re.search(r'value="([^"]*)"', b).group(1))).get("bao") is True
    ]


def test_call_bao_asks_for_a_confirmation_that_says_a_failed_bao_doubles_the_score_bb_14_3(
    client_for,
) -> None:
    """BB-10.2: the round ends after one more turn each; BB-14.3 c: a failed BAO scores max(2 × total, 5)."""
    game, _, client = _at_the_end_of_the_turn(client_for)

    html = page(client, game)
    confirm = re.search(r'<details class="bao-confirm">.*?</details>', html, re.S)
    assert confirm is not None
    (yes,) = _bao_buttons(confirm.group(0))
    action = json.loads(html_lib.unescape(re.search(r'value="([^"]*)"', yes).group(1)))
    act(client, game, {"action": json.dumps({k: v for k, v in action.items() if k != "decision_id"})})

    assert '<summary class="bao">Call BAO!</summary>' in confirm.group(0)
    assert "every other participant takes one more turn" in confirm.group(0)
    assert "twice your round total" in confirm.group(0)
    assert _bao_buttons(html) == [yes]  # no other button calls BAO at once
    assert "<script" not in confirm.group(0) and "onclick" not in confirm.group(0)
    game.refresh_from_db()
    assert game.state["bao_caller"] == 0
