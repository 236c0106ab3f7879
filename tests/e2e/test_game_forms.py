"""In a real browser: the new-game and league forms fit the chosen game as it changes (plain script,
under the Content-Security-Policy), and a Bao Huang game against bots starts at once; the league form
says how long a game is expected to take with the chosen game and time control."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game
from apps.leagues.models import League
from tests.e2e.test_rules_in_browser import log_in
from tests.factories import UserFactory

from .test_play_in_browser import wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shown_lengths(page: Any, game: str) -> list[str]:
    """The labels of the length choices the person sees for ``game`` (none while it is hidden)."""
    return [
        label.inner_text().strip()
        for label in page.locator(f"fieldset.field-length_{game}:not([hidden]) label").all()
    ]


def test_choosing_bao_huang_shows_five_seats_its_lengths_and_starts_with_four_bots_bh_1_1(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    UserFactory(username="heron")
    log_in(page, live_server.url, "heron")
    page.goto(f"{live_server.url}/games/new/")
    page.fill("input[name=players]", "4")

    assert shown_lengths(page, "baobei")[1] == "Normal: ends at 80 points with 4 players"
    assert shown_lengths(page, "baohuang") == []
    assert page.locator(".seat-summary").inner_text() == "4 seats: you, 3 bots."
    screenshot("new-game-bao-bei")

    page.select_option("select[name=engine]", "baohuang")

    assert page.input_value("input[name=players]") == "5"
    assert page.locator("input[name=players]").evaluate("el => el.readOnly")
    assert shown_lengths(page, "baohuang") == [
        "One deal", "Short: 3 deals, or first to 30", "Standard: first to 30", "Custom"
    ]  # fmt: skip
    assert shown_lengths(page, "baobei") == []
    assert page.locator(".seat-summary").inner_text() == "5 seats: you, 4 bots."
    assert not page.locator("input[name=deal_limit]").is_visible()
    page.check("input[name=length_baohuang][value=custom]")
    assert page.locator("input[name=deal_limit]").is_visible()
    screenshot("new-game-bao-huang-custom")
    page.check("input[name=length_baohuang][value=short]")
    page.select_option("select[name=control]", "live")
    page.fill("input[name=title]", "Bots court")
    page.get_by_role("button", name="Create the game").click()
    wait_for_board(page)
    screenshot("bao-huang-against-bots")

    game = Game.objects.get(title="Bots court")
    assert game.status == Game.Status.ACTIVE and game.length == "short"
    assert [bool(s.bot) for s in game.seats.order_by("position")] == [False, True, True, True, True]
    assert "Deal 1 of 3" in page.locator(".table-info").inner_text()


def test_switching_back_to_bao_bei_gives_back_the_seats_chosen_before(live_server: Any, page: Any) -> None:
    UserFactory(username="heron")
    log_in(page, live_server.url, "heron")
    page.goto(f"{live_server.url}/games/new/")
    page.fill("input[name=players]", "6")
    page.check("input[name=opponents][value=some]")
    page.fill("input[name=bots]", "2")

    page.select_option("select[name=engine]", "baohuang")
    page.select_option("select[name=engine]", "baobei")

    assert page.input_value("input[name=players]") == "6"
    assert not page.locator("input[name=players]").evaluate("el => el.readOnly")
    assert page.locator(".seat-summary").inner_text() == (
        "6 seats: you, 2 bots, 3 seats open for players with the invitation link."
    )
    assert shown_lengths(page, "baobei")[0] == "Short: ends at 30 points with 6 players"


def test_the_estimate_says_a_game_against_bots_goes_at_my_pace_and_a_table_of_people_at_theirs(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    UserFactory(username="heron")
    UserFactory(username="wren")
    log_in(page, live_server.url, "heron")
    page.goto(f"{live_server.url}/games/new/")
    estimate = page.locator("#new-game .estimate")
    solo = "Expected duration: As fast as you answer: the bots answer at once. For comparison: "

    assert estimate.inner_text().startswith(solo)
    page.check("input[name=opponents][value=people]")
    page.wait_for_function(
        "s => !document.querySelector('#new-game .estimate').textContent.startsWith(s)", arg=solo
    )
    assert estimate.inner_text().startswith("Expected duration: About")
    screenshot("new-game-estimate-people")

    page.check("input[name=opponents][value=bots]")
    page.wait_for_function(
        "s => document.querySelector('#new-game .estimate').textContent.startsWith(s)", arg=solo
    )
    page.fill("input[name=invite]", "wren")  # a person invited: no longer a game against bots alone
    page.wait_for_function(
        "s => !document.querySelector('#new-game .estimate').textContent.startsWith(s)", arg=solo
    )
    assert estimate.inner_text().startswith("Expected duration: About")


def test_the_weekly_sittings_box_shows_only_while_someone_else_may_sit_at_the_table(
    live_server: Any, page: Any
) -> None:
    """One person against bots has nobody to meet: the box hides (and is not read) while bots take every
    other seat, "bots" or "some" bots as many as the other seats."""
    UserFactory(username="heron")
    log_in(page, live_server.url, "heron")
    page.goto(f"{live_server.url}/games/new/")
    box = page.locator("#new-game .estimate-sittings")

    against_bots = box.is_visible()
    page.check("input[name=opponents][value=people]")
    box.wait_for(state="visible")
    page.check("input[name=opponents][value=some]")
    page.fill("input[name=bots]", "2")  # 3 seats: you and 2 bots
    box.wait_for(state="hidden")
    page.fill("input[name=bots]", "1")  # a seat waits for a player

    box.wait_for(state="visible")
    assert not against_bots


def test_a_bao_huang_league_takes_tables_of_five_as_the_game_is_chosen(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    UserFactory(username="heron")
    log_in(page, live_server.url, "heron")
    page.goto(f"{live_server.url}/leagues/new/")
    page.fill("input[name=name]", "Court")
    estimate = page.locator("#new-league .estimate")
    assert page.input_value("select[name=timing_preset]") == "daily"  # the games' default too
    bao_bei = estimate.inner_text()
    assert bao_bei.startswith("Expected duration: ")

    page.select_option("select[name=game]", "baohuang")

    assert page.input_value("input[name=players_per_table]") == "5"
    page.wait_for_function(
        "was => document.querySelector('#new-league .estimate').textContent !== was", arg=bao_bei
    )
    daily = estimate.inner_text()
    assert daily.startswith("Expected duration: ")
    page.select_option("select[name=timing_preset]", "weekly")
    page.wait_for_function(
        "was => document.querySelector('#new-league .estimate').textContent !== was", arg=daily
    )
    assert estimate.inner_text().startswith("Expected duration: ")
    screenshot("new-league-bao-huang-estimate")
    page.select_option("select[name=timing_preset]", "daily")
    with page.expect_navigation():  # the POST answered before the database is read
        page.get_by_role("button", name="Create").click()
    assert League.objects.get(name="Court").players_per_table == 5
    page.goto(f"{live_server.url}/leagues/court/manage/")
    assert not page.locator("#new-season input[name=deal_limit]").is_visible()
    page.check("#new-season input[name=length][value=custom]")
    assert page.locator("#new-season input[name=deal_limit]").is_visible()
    screenshot("season-form-custom")
