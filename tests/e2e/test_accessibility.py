"""Every page of a game (its replay included), the rules, the dashboard, a league and a player's page
(a person's and a bot account's): no serious or critical axe-core violation, and nothing wider than a
390 px phone screen."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from apps.games import autoplay, lifecycle
from apps.games.models import Game, Seat
from apps.leagues.models import League
from tests.factories import UserFactory

from .axe import overflow, serious_violations, sign_in
from .test_play_in_browser import wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def demo_site(settings: Any) -> tuple[User, list[str]]:
    """``make run``'s demo (the demo user's games against bots, the demo league, whose all-bot table is
    played to its end), plus a game waiting for players and a seat the bot has taken over; returns the
    demo user and every page to check."""
    settings.GAMES_SCHEDULE_TASKS = False  # bots play below, not through nested eager tasks
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo_league", stdout=StringIO())
    demo = User.objects.get(username="demo")
    for game in Game.objects.exclude(seats__user=demo).filter(status=Game.Status.ACTIVE):
        for _ in range(100):
            if not autoplay.play_bots(game.pk):
                break
    settings.GAMES_SCHEDULE_TASKS = True
    waiting = lifecycle.game_create(
        creator=demo, engine="baobei", players=4, bots=1, title="Open table", open_table=True
    )
    games = list(Game.objects.filter(seats__user=demo).exclude(pk=waiting.pk).order_by("pk"))
    Seat.objects.filter(game=games[-1], user=demo).update(bot_takeover=True)  # the take-back banner
    pages = [
        "/",
        "/games/",
        "/games/new/",
        "/accounts/profile/",
        "/leagues/",
        "/rules/baobei/",
        "/rules/baohuang/",
    ]
    for league in League.objects.order_by("pk"):  # the demo league and the one with three divisions
        pages += [f"/leagues/{league.slug}/", f"/leagues/{league.slug}/manage/"]
    pages += [f"/games/{waiting.public_id}/", "/players/demo/", "/players/demo-bot-1/"]
    for game in games:
        pages += [f"/games/{game.public_id}/", f"/games/{game.public_id}/history/"]
    finished = Game.objects.filter(status=Game.Status.FINISHED).first()
    assert finished is not None  # the demo league's all-bot table, played to its end
    pages += [f"/games/{finished.public_id}/", f"/games/{finished.public_id}/history/"]
    replay = f"/games/{finished.public_id}/replay/"
    pages += [f"{replay}?step=5", f"{replay}?step=9&seat=0"]
    return demo, pages


def _visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if page.locator("#board").count():
        wait_for_board(page)


def test_no_page_has_a_serious_or_critical_axe_violation(live_server, page, demo_site):
    demo, pages = demo_site
    sign_in(page, live_server, demo)

    found = {}
    for path in pages:
        _visit(page, live_server.url + path)
        found[path] = serious_violations(page)

    assert {path: v for path, v in found.items() if v} == {}


def test_the_pages_without_signing_in_have_no_serious_axe_violation(live_server, page, demo_site):
    _, pages = demo_site
    public = ["/accounts/login/", "/accounts/signup/"]
    public += [p for p in pages if p.startswith(("/games/", "/rules/", "/players/")) and p != "/games/new/"]

    found = {}
    for path in public:
        _visit(page, live_server.url + path)
        found[path] = serious_violations(page)

    assert {path: v for path, v in found.items() if v} == {}


def test_nothing_overflows_a_390_px_phone_screen(live_server, browser, demo_site, screenshot):
    demo, pages = demo_site
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    sign_in(phone, live_server, demo)

    wider = {}
    for path in pages:
        _visit(phone, live_server.url + path)
        wider[path] = overflow(phone)
    context.close()

    assert {path: px for path, px in wider.items() if px > 0} == {}


def test_the_notifications_page_fits_a_390_px_phone_screen(live_server, browser):
    """Its table of categories by channels scrolls inside itself; the page does not scroll sideways."""
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    sign_in(phone, live_server, UserFactory())

    _visit(phone, live_server.url + "/mail/preferences/")
    wider = overflow(phone)
    context.close()

    assert wider == 0


def test_the_api_docs_fit_a_390_px_phone_screen(live_server, browser):
    """The schemas' JSON (pre blocks with long lines) scrolls inside each block; the page does not
    scroll sideways (it did, some 7,000 px, so that a phone showed the whole page shrunk)."""
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()

    _visit(phone, live_server.url + "/api/docs/")
    wider = overflow(phone)
    context.close()

    assert wider == 0


def test_a_bao_bei_display_of_four_cards_is_one_row_on_a_390_px_phone(live_server, browser):
    """Four cards (the deal, BB-5, at 3 to 6 players) fit one row of a 390 px screen: 4 cards of 70 px
    and three gaps of 8 px are 304 px, 3 px more than the display's 301, so the fourth card wrapped to
    a row of its own in every display."""
    player = UserFactory()
    game = lifecycle.game_create(creator=player, engine="baobei", players=3, bots=2)
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    sign_in(phone, live_server, player)

    _visit(phone, live_server.url + f"/games/{game.public_id}/")
    rows = phone.evaluate(
        "() => Array.from(document.querySelectorAll('.display .slots')).map("
        "s => new Set(Array.from(s.querySelectorAll('.slot'))"
        ".map(e => Math.round(e.getBoundingClientRect().top))).size)"
    )
    context.close()

    assert rows == [1, 1, 1]
