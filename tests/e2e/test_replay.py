"""Stepping through a replay in a real browser: arrow keys step, the slider jumps."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import UserFactory
from tests.support.played import a_finished_baobei_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def at_step(page: Any, step: int, steps: int) -> None:
    """Wait until the page shows ``step``: the URL, the position line and the step panel agree."""
    page.wait_for_url(re.compile(rf"[?&]step={step}(&|$)"))
    page.wait_for_selector(f"#step[data-step='{step}']")
    assert page.locator(".replay-position").inner_text() == f"Step {step} of {steps}"


def test_arrow_keys_step_and_the_slider_jumps_through_a_replay(live_server, page, screenshot):
    game = a_finished_baobei_game(UserFactory())
    steps = game.version
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{live_server.url}/games/{game.public_id}/replay/?seat=all")
    page.wait_for_selector("#step[data-step='0']")
    screenshot("replay-deal")

    page.keyboard.press("ArrowRight")
    at_step(page, 1, steps)
    page.keyboard.press("ArrowRight")
    at_step(page, 2, steps)
    page.keyboard.press("ArrowLeft")
    at_step(page, 1, steps)
    page.keyboard.press("End")
    at_step(page, steps, steps)
    page.keyboard.press("Home")
    at_step(page, 0, steps)

    slider = page.locator(".replay-slider")
    assert slider.is_visible()
    slider.fill("10")
    at_step(page, 10, steps)
    screenshot("replay-step-10")

    page.select_option(".replay-seat", "1")
    page.wait_for_url(re.compile(r"seat=1"))
    page.keyboard.press("ArrowRight")
    at_step(page, 11, steps)
    assert "seat=1" in page.url
    assert errors == []
