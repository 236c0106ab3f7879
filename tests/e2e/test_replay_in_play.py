"""In a real browser: the replay of a game still in play says when it opens and leads back."""

from __future__ import annotations

import pytest

from tests.e2e.test_rules_in_browser import log_in
from tests.e2e.test_turn_box_in_browser import keep_screenshot
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_replay_of_a_game_in_play_says_it_opens_at_the_end_and_links_back(live_server, page):
    """BB-25.10: nothing of a replay exists before the game ends; the page says so instead of a 404,
    and its link goes back to the game."""
    players = [UserFactory(username=name) for name in ("wren", "tern", "rook")]
    game = GameFactory(engine="baobei", players=3, seated=players)
    log_in(page, live_server.url, "wren")

    answer = page.goto(f"{live_server.url}/games/{game.public_id}/replay/?step=3&seat=all")
    keep_screenshot(page, "replay-of-a-game-in-play")

    assert answer is not None and answer.status == 200
    assert page.get_by_role("heading", name="The replay opens when the game ends").is_visible()
    page.get_by_role("link", name="Back to the game").click()
    page.wait_for_selector("#board")
    assert page.url.endswith(f"/games/{game.public_id}/")
