"""A person's own controls in a real browser: take the seat back from the bot, the plucking-window
switch, vacation, deadlines that tick, and a whole Bao Bei turn played with the keyboard alone."""

from __future__ import annotations

import hashlib
import re
import zoneinfo
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games import lifecycle
from apps.games.models import Decision, Game, Move, Seat
from tests.factories import UserFactory

from .axe import sign_in
from .test_play_in_browser import wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEED = "e2e-player-controls"


def _against_bots(user: Any, **options: Any) -> Game:
    """A live 3-seat Bao Bei game of ``user`` and two bots, dealt from a fixed seed so the bots' play
    (seeded from it too) is the same every run; in tests the bots answer at once."""
    game = lifecycle.game_create(
        creator=user, engine="baobei", players=3, bots=1, control="live", options=options or None
    )
    Game.objects.filter(pk=game.pk).update(seed=SEED, seed_hash=hashlib.sha256(SEED.encode()).hexdigest())
    lifecycle.seat_fill_bot(game_id=game.pk, user=user, position=1)  # the table is full: the deal
    return Game.objects.get(pk=game.pk)


def _open(page: Any, live_server: Any, game: Game) -> None:
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)


def _decision_kind(page: Any) -> str | None:
    body = page.locator("#decision .decision-body")
    return body.first.get_attribute("data-kind") if body.count() else None


def _peek_two(page: Any) -> None:
    decision = page.locator("#decision")
    decision.locator("input[name=slots]").nth(0).check()
    decision.locator("input[name=slots]").nth(1).check()
    decision.get_by_role("button", name="Look").click()
    page.wait_for_function("() => !document.querySelector('#decision [data-kind=setup_peek]')")


def test_take_my_seat_back_from_the_banner_after_the_bot_took_it(live_server, page, screenshot):
    """wren's setup peek runs out; with an absence limit of one the bot takes the seat (the timeout
    is settled when the page is read); one click gives it back."""
    wren, bob = UserFactory(username="wren"), UserFactory(username="bob")
    game = lifecycle.game_create(
        creator=wren, engine="baobei", players=3, bots=1, control="live", absent_limit=1
    )
    lifecycle.game_join(game_id=game.pk, user=bob)  # bob's peek keeps the game waiting for him
    Decision.objects.filter(game=game, seat=0).update(deadline=timezone.now() - timedelta(seconds=1))
    sign_in(page, live_server, wren)

    _open(page, live_server, game)
    banner = page.locator("#takeover")
    banner.wait_for()
    screenshot("takeover-banner")
    assert "A bot is playing your seat" in banner.inner_text()
    assert Seat.objects.get(game=game, position=0).bot_takeover

    banner.get_by_role("button", name="Take my seat back").click()
    page.wait_for_selector("#takeover", state="detached")

    assert not Seat.objects.get(game=game, position=0).bot_takeover
    assert "the bot plays" not in page.locator(".table-seats").inner_text()


def test_switching_the_window_setting_lets_the_windows_pass(live_server, page, screenshot):
    """Seat 1 (a bot) starts; its discard opens a window for wren, who switches windows off: that
    window and the next bot's pass at once, and the game comes round to wren's turn (BB-6.6)."""
    wren = UserFactory(username="wren")
    game = _against_bots(wren, first_player=1)
    sign_in(page, live_server, wren)
    _open(page, live_server, game)
    _peek_two(page)
    page.wait_for_selector("#decision [data-kind=pluck_window]")
    assert "Plucking window (yours)" in page.locator(".clocks").inner_text()

    page.locator("#seat-settings").get_by_label("Don't wait for me on plucking windows").check()
    with page.expect_navigation():  # the game page again, after the POST (it has a board too)
        page.locator("#seat-settings").get_by_role("button", name="Save").click()
    wait_for_board(page)
    screenshot("windows-passed")

    assert _decision_kind(page) == "turn_action"
    assert page.locator("#seat-settings input[name=skip_pluck_windows]").is_checked()
    passes = Move.objects.filter(game=game, seat=0, action__type="pass")
    assert passes.count() >= 2  # the window open when switching, and the next bot's
    history = page.locator("#history").inner_text()
    assert re.search(r"plucking window closed; .*wren.* passed", history)


def test_start_and_end_a_vacation(live_server, page, screenshot):
    wren = UserFactory(username="wren")
    game = _against_bots(wren)
    sign_in(page, live_server, wren)

    page.goto(f"{live_server.url}/accounts/profile/")
    assert "30 days" in page.locator("#vacation").inner_text()
    with page.expect_navigation():  # the profile page again, after the POST
        page.locator("#vacation").get_by_role("button", name="Start my vacation").click()
    screenshot("vacation-on")
    assert "You are on vacation" in page.locator("#vacation").inner_text()
    assert re.search(r"\d+ days? \d+ h left", page.locator("#vacation .countdown").inner_text())

    _open(page, live_server, game)
    assert "You are on vacation" in page.locator("#away-banner").inner_text()
    assert "clock stopped: away on vacation" in page.locator(".clocks").inner_text()
    with page.expect_navigation():  # the game page again, after the POST (it has a board too)
        page.locator("#away-banner").get_by_role("button", name="End my vacation").click()
    wait_for_board(page)

    assert page.url.endswith(f"/games/{game.public_id}/") and page.locator("#away-banner").count() == 0
    assert re.search(r"\d+ min( \d+ s)? left", page.locator("#decision .countdown").inner_text())
    wren.profile.refresh_from_db()
    assert not wren.profile.on_vacation and wren.profile.vacation_seconds_used >= 0


def test_a_countdown_ticks_and_turns_urgent_near_the_end(live_server, page, screenshot):
    """A live game's bank holds at most 15 minutes: a decision turns urgent with a fifth of that, 3
    minutes, left."""
    wren = UserFactory(username="wren")
    game = _against_bots(wren)
    Decision.objects.filter(game=game, seat=0).update(deadline=timezone.now() + timedelta(seconds=184))
    sign_in(page, live_server, wren)
    _open(page, live_server, game)
    clock = page.locator("#decision .countdown")
    first = clock.locator(".left").inner_text()
    assert re.fullmatch(r"3 min \d+ s left", first) and "urgent" not in clock.get_attribute("class")

    page.wait_for_function(
        "first => document.querySelector('#decision .countdown .left').textContent !== first", arg=first
    )
    page.wait_for_selector("#decision .countdown.urgent", timeout=15_000)
    screenshot("countdown-urgent")

    assert re.fullmatch(r"(3 min|2 min \d+ s) left", clock.locator(".left").inner_text())


# --- the keyboard alone -----------------------------------------------------------------------------------

FOCUSED = """() => { const a = document.activeElement; if (!a) return ''; return (a.type === 'checkbox' ?
  'checkbox:' + a.name : (a.innerText || a.value || '').trim()); }"""


def _tab_to(page: Any, wanted: str, limit: int = 200) -> None:
    """Press Tab until the focused element is ``wanted`` (a button's text, or ``checkbox:<name>``)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == wanted:
            return
    raise AssertionError(f"Tab never reached {wanted!r}")


def _turn_ended(game: Game, seat: int) -> bool:
    return any(
        e.get("type") == "turn_ended" and e.get("seat") == seat
        for m in Move.objects.filter(game=game)
        for e in m.events
    )


KEYBOARD_CHOICES = {
    "turn_action": "Draw a card",
    "after_draw": "Discard it",
    "pluck_window": "Pass",
    "ability": "Decline",
    "macaw_decide": "Leave them",
    "end_turn": "End my turn",
}


def test_a_whole_bao_bei_turn_with_the_keyboard_alone(live_server, page, screenshot):
    """Setup peek, draw, discard, end the turn: Tab, Space and Enter only, never the mouse."""
    wren = UserFactory(username="wren")
    game = _against_bots(wren, first_player=0)
    sign_in(page, live_server, wren)
    _open(page, live_server, game)

    _tab_to(page, "checkbox:slots")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    _tab_to(page, "Look")
    page.keyboard.press("Enter")
    page.wait_for_selector("#decision [data-kind=turn_action]")

    for _ in range(20):
        if _turn_ended(game, 0):
            break
        kind = _decision_kind(page)
        if kind is None:
            page.wait_for_timeout(500)
            continue
        old = page.locator("#board").element_handle()
        _tab_to(page, KEYBOARD_CHOICES[kind])
        page.keyboard.press("Enter")
        page.wait_for_function("el => !el.isConnected", arg=old)
        wait_for_board(page)
    screenshot("keyboard-turn")

    assert _turn_ended(game, 0)
    made = [m.action["type"] for m in Move.objects.filter(game=game, seat=0, by_bot=False, by_timeout=False)]
    assert made[:3] == ["choose_peek", "draw", "discard"]


def test_a_deadline_written_in_utc_is_shown_in_the_browsers_time_zone(live_server, browser):
    """wren has chosen no zone (UTC): in a browser in Tokyo the absolute time reads in UTC+9, while the
    time left is the same; no JavaScript needed for the words, only for the zone."""
    wren = UserFactory(username="wren")
    game = _against_bots(wren)
    deadline = timezone.now() + timedelta(hours=3)
    Decision.objects.filter(game=game, seat=0).update(deadline=deadline)
    context = browser.new_context(timezone_id="Asia/Tokyo")
    tokyo = context.new_page()
    sign_in(tokyo, live_server, wren)
    _open(tokyo, live_server, game)

    at = tokyo.locator("#decision .countdown .at time")
    tokyo.wait_for_function("() => document.querySelector('#decision .countdown[data-local]')")
    local = deadline.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
    text = at.inner_text()
    title = at.get_attribute("title")
    context.close()

    assert text == f"{local:%a} {local.day} {local:%b}, {local:%H:%M} UTC+9"
    assert title == "your browser's time zone: Japan Standard Time"  # named, not "Asia/Tokyo"
