"""Sittings in a real browser, two players in two browser contexts: one proposes a time in their own
time zone and the other accepts it; with both pages open, "play now" starts a live sitting for both."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from apps.games import lifecycle
from apps.games.models import Game
from apps.sittings.models import Sitting
from tests.factories import UserFactory

from .axe import sign_in
from .test_play_in_browser import wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _screenshot(page: Any, name: str) -> None:
    """Save a screenshot when BAOGAME_SCREENSHOTS names a folder (development only; never committed)."""
    folder = os.environ.get("BAOGAME_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator("#sittings").screenshot(path=str(Path(folder) / f"{name}.png"))


def _two_player_game(ann: Any, ben: Any) -> Game:
    game = lifecycle.game_create(creator=ann, engine="baobei", players=2)
    lifecycle.game_join(game_id=game.pk, user=ben)
    return Game.objects.get(pk=game.pk)


def player_page(browser: Any, live_server: Any, user: Any, game: Game) -> Any:
    """A browser context of its own for ``user``, signed in, on the game's page."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, live_server, user)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)
    return page


def test_one_player_proposes_the_other_accepts_and_both_play_now(live_server: Any, browser: Any) -> None:
    ann, ben = UserFactory(username="ann"), UserFactory(username="ben")
    ann.profile.time_zone = "Europe/Berlin"
    ann.profile.save()
    game = _two_player_game(ann, ben)
    day = (timezone.now() + timedelta(days=3)).date().isoformat()

    ann_page = player_page(browser, live_server, ann, game)
    ann_page.locator("#sittings summary").click()
    ann_page.locator("input[name=day1]").fill(day)
    ann_page.locator("input[name=at1]").fill("20:00")
    ann_page.get_by_role("button", name="Propose").click()
    ann_page.wait_for_selector("#sittings .sitting-proposal")

    ben_page = player_page(browser, live_server, ben, game)
    ben_page.locator("#sittings-live .sitting-proposal").get_by_role("button", name="Yes").click()
    ben_page.wait_for_selector("#sittings-live .sitting-list")
    agreed = Sitting.objects.get(game=game)
    assert agreed.starts_at.astimezone(ann.profile.zone).strftime("%H:%M") == "20:00"
    # ben's zone is UTC: he sees the same moment on his own clock
    assert agreed.starts_at.strftime("%H:%M") in ben_page.locator(".sitting-list").inner_text()

    _screenshot(ben_page, "sittings-agreed")
    ben_page.reload()
    ben_page.get_by_role("button", name="Play now").click()
    ann_page.wait_for_selector("text=Everyone is here: play now, for up to", timeout=15_000)
    ann_page.locator(".sitting-proposal").get_by_role("button", name="Yes").click()
    ann_page.wait_for_selector(".sitting-current")
    ben_page.wait_for_selector(".sitting-current", timeout=15_000)

    assert Sitting.objects.filter(game=game, kind=Sitting.Kind.AD_HOC).count() == 1
    assert "ends at" in ben_page.locator(".sitting-current").inner_text()
    _screenshot(ben_page, "sittings-live")
    ann_page.context.close()
    ben_page.context.close()
