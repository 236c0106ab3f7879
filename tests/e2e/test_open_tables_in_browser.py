"""In a real browser: a creator opens a table on the new-game form, a stranger finds it on the Watch
page and takes a seat, and the game starts when the last seat is taken (``apps.games.lobby``)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game
from tests.e2e.axe import sign_in
from tests.e2e.test_rules_in_browser import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_stranger_finds_an_open_table_on_the_watch_page_and_takes_a_seat(
    live_server: Any, browser: Any, page: Any, screenshot: Any
) -> None:
    UserFactory(username="ibis")
    stranger = UserFactory(username="crane")
    creator_page = browser.new_page()
    log_in(creator_page, live_server.url, "ibis")
    creator_page.goto(f"{live_server.url}/games/new/")
    creator_page.fill("input[name=players]", "2")
    creator_page.check("input[name=open_table]")
    summary = creator_page.locator(".seat-summary")
    assert summary.inner_text().endswith(
        "An open table needs a free seat: choose people (or some bots) for the other seats."
    )
    creator_page.check("input[name=opponents][value=people]")
    assert summary.inner_text() == (
        "2 seats: you, 1 seat open for anybody from the open tables, or with the invitation link."
    )
    creator_page.fill("input[name=title]", "Anyone for Bao Bei?")
    creator_page.get_by_role("button", name="Create the game").click()
    creator_page.wait_for_url("**/games/*/")
    game = Game.objects.get(title="Anyone for Bao Bei?")

    sign_in(page, live_server, stranger)
    page.goto(f"{live_server.url}/games/")
    row = page.locator(f'#open-tables li[data-game="{game.public_id}"]')
    assert "1 of 2 seats taken" in row.inner_text()
    screenshot("open-tables")
    row.get_by_role("button", name="Take a seat").click()
    page.wait_for_url(f"**{game.get_absolute_url()}")

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(position=1).user == stranger
    page.goto(f"{live_server.url}/games/")
    assert page.locator(f'#open-tables li[data-game="{game.public_id}"]').count() == 0
