"""Standing orders in a real browser: arm "pass when I cannot beat" on the game page,
then watch the trick pass the seat without a prompt."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import pipeline
from apps.games.models import Move
from tests.factories import GameFactory, UserFactory

from .axe import sign_in
from .test_play_in_browser import wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Seat 0 (RJ*) is the emperor and leads; after its A A only seat 3 (2 2) can beat (BH-11.1).
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def test_arm_pass_when_i_cannot_beat_and_the_trick_passes_me_bh_12_5(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    people = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": HANDS}]})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    sign_in(page, live_server, people[1])
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)

    panel = page.locator("#standing-orders")
    panel.get_by_label("Pass when I cannot beat").check()
    switch = panel.locator("form.order-switch", has_text="Pass when I cannot beat")
    switch.get_by_role("button", name="Save").click()
    page.wait_for_load_state("networkidle")
    screenshot("standing-orders-armed")
    assert "pass when I cannot beat" in page.locator("#standing-orders .orders-held").inner_text()
    assert "Others may notice that you pass at once." in panel.inner_text()

    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)
    screenshot("standing-orders-passed")

    assert {"type": "pass"} in [m.action for m in Move.objects.filter(game=game, seat=1, by_timeout=False)]
    assert page.locator("#decision [data-kind]").count() == 0  # nothing asked of seat 1
