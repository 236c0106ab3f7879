"""A player's own controls on the pages, without JavaScript: take the seat back from the bot, the
"don't wait for me on plucking windows" switch, vacation; and deadlines people can read."""

from __future__ import annotations

import re
import zoneinfo
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django.utils.dateformat import format as date_format

from apps.games import lifecycle
from apps.games.models import Decision, Game, Seat
from apps.games.presenters.timeleft import time_left_words
from baogame.rules.registry import get_engine
from tests.factories import GameFactory, UserFactory

from .boards import EX_13
from .test_round_reveal_and_names import _act

pytestmark = pytest.mark.django_db


@pytest.fixture
def window_open() -> tuple[Any, list[Any]]:
    """EX-13 for ann, bob and cy: cy (seat 2) has drawn and discarded, a plucking window is open for
    ann and bob (BB-6.6)."""
    users = [UserFactory(username=name) for name in ("ann", "bob", "cy")]
    game = lifecycle.game_create(creator=users[0], engine="baobei", players=3, options=EX_13)
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    _act(game, users, 2, "draw")
    _act(game, users, 2, "discard")
    game.refresh_from_db()
    assert get_engine("baobei").pending(game.state)[0]["kind"] == "pluck_window"
    return game, users


def _taken_over(game: Any, position: int) -> None:
    Seat.objects.filter(game=game, position=position).update(bot_takeover=True, consecutive_timeouts=3)


# --- take my seat back ----------------------------------------------------------------------------------


def test_the_game_page_says_a_bot_plays_my_seat_and_offers_to_take_it_back(baobei_game, client_for):
    game, players = baobei_game
    _taken_over(game, 0)

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    banner = html[html.index('id="takeover"') : html.index("</div>", html.index('id="takeover"'))]
    assert "A bot is playing your seat" in banner
    assert f'action="/games/{game.public_id}/take-back/"' in banner and "Take my seat back" in banner


def test_take_my_seat_back_without_javascript_returns_the_seat_and_the_banner_goes(baobei_game, client_for):
    game, players = baobei_game
    _taken_over(game, 0)
    client = client_for(players[0])

    answer = client.post(f"/games/{game.public_id}/take-back/")

    seat = Seat.objects.get(game=game, position=0)
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.public_id}/"
    assert not seat.bot_takeover and seat.consecutive_timeouts == 0
    assert 'id="takeover"' not in client.get(f"/games/{game.public_id}/").content.decode()


def test_others_see_the_seat_played_by_the_bot_but_get_no_take_back_button(baobei_game, client_for):
    game, players = baobei_game
    _taken_over(game, 0)

    html = client_for(players[1]).get(f"/games/{game.public_id}/").content.decode()

    assert 'id="takeover"' not in html
    assert re.search(r'<li data-seat="0">.*?the bot plays</span>', html)


@pytest.mark.parametrize("status", [Game.Status.FINISHED, Game.Status.ABORTED])
def test_a_game_that_is_over_does_not_say_the_bot_plays_a_handed_over_seat(baobei_game, client_for, status):
    """DESIGN.md "Clocks, reaction windows, standing orders and sittings": repeated timeouts hand the seat
    to a bot, which plays it while the game is played; once the game is over nothing is being played, so
    neither the seat list nor the seat's own player is told that the bot plays it, nor offered it back."""
    game, players = baobei_game
    _taken_over(game, 0)
    Game.objects.filter(pk=game.pk).update(status=status)

    pages = [client_for(viewer).get(f"/games/{game.public_id}/").content.decode() for viewer in players[:2]]

    for html in pages:
        assert re.search(r'<li data-seat="0">', html)
        assert "the bot plays" not in html and "bot-plays" not in html
        assert 'id="takeover"' not in html and "A bot is playing your seat" not in html


def test_my_games_shows_the_take_back_banner_and_its_button_returns_there(baobei_game, client_for):
    game, players = baobei_game
    _taken_over(game, 0)
    client = client_for(players[0])

    html = client.get("/").content.decode()
    answer = client.post(f"/games/{game.public_id}/take-back/", {"next": "/"})

    assert "A bot is playing your seat in" in html and f'action="/games/{game.public_id}/take-back/"' in html
    assert answer["Location"] == "/" and not Seat.objects.get(game=game, position=0).bot_takeover


def test_taking_back_a_seat_in_a_game_i_do_not_play_is_refused_with_its_code(baobei_game, client_for):
    game, _ = baobei_game
    client = client_for(UserFactory())

    answer = client.post(f"/games/{game.public_id}/take-back/", follow=True)

    assert "not_seated" in answer.content.decode()


def test_take_back_ignores_a_next_address_off_the_site(baobei_game, client_for):
    game, players = baobei_game
    _taken_over(game, 0)

    answer = client_for(players[0]).post(
        f"/games/{game.public_id}/take-back/", {"next": "https://evil.example/"}
    )

    assert answer["Location"] == f"/games/{game.public_id}/"


def test_an_organiser_held_seat_shows_why_and_offers_no_take_back_button(baobei_game, client_for):
    """While an organiser's "hand this seat to the bot" stands, the banners on the game page and on
    My games say who can give the seat back, and neither offers the button."""
    game, players = baobei_game
    Seat.objects.filter(game=game, position=0).update(bot_takeover=True, bot_hold=True)
    client = client_for(players[0])

    page = client.get(f"/games/{game.public_id}/").content.decode()
    mine = client.get("/").content.decode()

    banner = page[page.index('id="takeover"') : page.index("</div>", page.index('id="takeover"'))]
    assert "A bot is playing your seat" in banner and lifecycle.BOT_HOLD_TEXT in banner
    assert "Take my seat back" not in banner and "/take-back/" not in page
    assert "A bot is playing your seat in" in mine and "/take-back/" not in mine
    assert lifecycle.BOT_HOLD_TEXT[1:] in mine  # capitalised first letter


def test_taking_back_an_organiser_held_seat_is_refused_with_its_code_and_the_seat_stays(
    baobei_game, client_for
):
    game, players = baobei_game
    Seat.objects.filter(game=game, position=0).update(bot_takeover=True, bot_hold=True)

    answer = client_for(players[0]).post(f"/games/{game.public_id}/take-back/", follow=True)

    assert "organiser_hold" in answer.content.decode()
    assert Seat.objects.get(game=game, position=0).bot_takeover


def test_take_back_by_htmx_answers_the_board_without_the_banner(baobei_game, client_for):
    game, players = baobei_game
    _taken_over(game, 0)

    answer = client_for(players[0]).post(f"/games/{game.public_id}/take-back/", HTTP_HX_REQUEST="true")

    html = answer.content.decode()
    assert answer.status_code == 200 and html.lstrip().startswith('<div id="board"')
    assert 'id="takeover"' not in html and not Seat.objects.get(game=game, position=0).bot_takeover


# --- don't wait for me on plucking windows --------------------------------------------------------------


def test_switching_windows_off_passes_the_open_window_at_once_bb_6_6(window_open, client_for):
    game, users = window_open

    answer = client_for(users[1]).post(f"/games/{game.public_id}/seat/", {"skip_pluck_windows": "on"})

    assert answer.status_code == 302
    assert Seat.objects.get(game=game, position=1).skip_pluck_windows
    assert not Decision.objects.filter(game=game, seat=1).exists()


def test_the_window_switch_shows_its_state_to_its_player_only(window_open, client_for):
    game, users = window_open
    client_for(users[1]).post(f"/games/{game.public_id}/seat/", {"skip_pluck_windows": "on"})

    bobs = client_for(users[1]).get(f"/games/{game.public_id}/").content.decode()
    anns = client_for(users[0]).get(f"/games/{game.public_id}/").content.decode()

    assert 'name="skip_pluck_windows" checked' in bobs
    assert 'name="skip_pluck_windows" checked' not in anns and "skip" not in anns.replace("skip_pluck", "")


def test_an_unticked_box_switches_windows_back_on(window_open, client_for):
    game, users = window_open
    Seat.objects.filter(game=game, position=1).update(skip_pluck_windows=True)

    client_for(users[1]).post(f"/games/{game.public_id}/seat/", {})

    assert not Seat.objects.get(game=game, position=1).skip_pluck_windows


# --- vacation -------------------------------------------------------------------------------------------


def test_the_profile_shows_the_vacation_budget_left_this_year(client_for, settings):
    settings.VACATION_DAYS_PER_YEAR = 30
    user = UserFactory()

    html = client_for(user).get("/accounts/profile/").content.decode()

    assert re.search(r'class="vacation-left">30 days</strong> of vacation left this year', html)
    assert "Start my vacation" in html


def test_starting_a_vacation_from_the_profile_stops_my_clocks(baobei_game, client_for):
    game, players = baobei_game
    client = client_for(players[0])

    answer = client.post("/vacation/", {"action": "start"})

    players[0].profile.refresh_from_db()
    assert answer["Location"] == "/accounts/profile/" and players[0].profile.on_vacation
    assert Decision.objects.get(game=game, seat=0).deadline is None
    html = client.get("/accounts/profile/").content.decode()
    assert "You are on vacation" in html and "End my vacation" in html and "data-deadline=" in html


def test_while_away_my_game_and_my_games_say_so(baobei_game, client_for):
    game, players = baobei_game
    client = client_for(players[0])
    client.post("/vacation/", {"action": "start"})

    page = client.get(f"/games/{game.public_id}/").content.decode()
    dashboard = client.get("/").content.decode()

    assert 'id="away-banner"' in page and "clock stopped: away on vacation" in page
    assert 'id="away-banner"' in dashboard and f"{players[0].username} (away)" in dashboard


def test_after_passing_an_open_plucking_window_my_page_says_i_have_answered_and_only_mine(
    window_open, client_for
):
    """A pass leaves the window open for the others and shows nothing of itself (BB-30.6), so the
    passer's own page says that they have answered; the other owner's page says nothing of it."""
    game, users = window_open
    _act(game, users, 0, "pass")

    mine = client_for(users[0]).get(f"/games/{game.public_id}/").content.decode()
    theirs = client_for(users[1]).get(f"/games/{game.public_id}/").content.decode()

    assert 'id="decision"' not in mine and "you have answered" in mine
    assert 'id="decision"' in theirs and "you have answered" not in theirs


def test_the_setup_peek_held_by_another_players_vacation_does_not_call_me_away(baobei_game, client_for):
    """The setup peek runs on one clock that any player's vacation stops (who has answered is hidden,
    BB-30.6): a player who is not away reads that a player is away, not that they are."""
    game, players = baobei_game
    assert Decision.objects.filter(game=game, kind="setup_peek").exists()
    client_for(players[0]).post("/vacation/", {"action": "start"})

    html = client_for(players[1]).get(f"/games/{game.public_id}/").content.decode()

    clocks = html[html.index('class="clocks"') : html.index("</ul>", html.index('class="clocks"'))]
    assert "clock stopped while a player is on vacation" in clocks
    assert "away on vacation" not in clocks


def test_the_vacation_banner_of_a_bao_bei_game_says_its_plucking_windows_are_passed(baobei_game, client_for):
    game, players = baobei_game
    client = client_for(players[0])
    client.post("/vacation/", {"action": "start"})

    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert "Your clocks in this game are stopped and you pass its plucking windows" in page


def test_the_vacation_banner_of_a_bao_huang_game_names_no_plucking_windows(client_for):
    """Bao Huang has no plucking windows (only Bao Bei's discards open them, BB-6)."""
    players = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=players)
    client = client_for(players[0])
    client.post("/vacation/", {"action": "start"})

    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert 'id="away-banner"' in page
    assert "Your clocks in this game are stopped; the others see you as away." in page
    assert "plucking" not in page


def test_others_see_an_away_player_as_away(baobei_game, client_for):
    game, players = baobei_game
    client_for(players[0]).post("/vacation/", {"action": "start"})

    html = client_for(players[1]).get(f"/games/{game.public_id}/").content.decode()

    assert re.search(r'<li data-seat="0">.*?away since', html)
    assert 'id="away-banner"' not in html


def test_others_see_the_planned_return_never_the_end_of_the_budget(baobei_game, client_for):
    """The planned return given when leaving is what others read; without one, "away since"."""
    game, players = baobei_game
    back = timezone.localdate() + timedelta(days=4)
    client_for(players[0]).post("/vacation/", {"action": "start", "returns_on": back.isoformat()})

    html = client_for(players[1]).get(f"/games/{game.public_id}/").content.decode()

    year = f" {back.year}" if back.year != timezone.localdate().year else ""  # late December
    assert re.search(rf'<li data-seat="0">.*?away until {back:%a} {back.day} {back:%b}{year}<', html)
    assert html.count("away until") == 1


def test_a_return_planned_for_next_year_names_its_year(baobei_game, client_for):
    """A return date in another year reads with its year ("Tue 1 Jun 2027"), on the table, in the
    player's own notice and on their profile: without it, next June reads as this past June."""
    game, players = baobei_game
    back = timezone.localdate().replace(month=6, day=1, year=timezone.localdate().year + 1)
    me = client_for(players[0])
    said = me.post("/vacation/", {"action": "start", "returns_on": back.isoformat()}, follow=True)

    html = client_for(players[1]).get(f"/games/{game.public_id}/").content.decode()
    profile = me.get("/accounts/profile/").content.decode()

    words = f"{back:%a} {back.day} {back:%b} {back.year}"
    assert re.search(rf'<li data-seat="0">.*?away until {words}<', html)
    assert f"away until {words}." in said.content.decode()
    assert f"away until {words} (your planned return)" in profile
    assert "Vacation days used</th><td>0</td>" in profile  # as the member lists write it, not "0.0"


def test_a_return_date_already_past_is_refused_and_no_vacation_starts(baobei_game, client_for):
    game, players = baobei_game

    page = (
        client_for(players[0])
        .post("/vacation/", {"action": "start", "returns_on": "2001-01-01"}, follow=True)
        .content.decode()
    )

    assert "invalid_return_date" in page
    players[0].profile.refresh_from_db()
    assert players[0].profile.vacation_started_at is None


def test_ending_the_vacation_from_the_game_page_restarts_my_clocks(baobei_game, client_for):
    game, players = baobei_game
    client = client_for(players[0])
    client.post("/vacation/", {"action": "start"})

    answer = client.post("/vacation/", {"action": "end", "next": f"/games/{game.public_id}/"})

    players[0].profile.refresh_from_db()
    assert answer["Location"] == f"/games/{game.public_id}/" and not players[0].profile.on_vacation
    assert Decision.objects.get(game=game, seat=0).deadline is not None


def test_ending_a_vacation_that_did_not_start_is_refused_with_its_code(client_for):
    answer = client_for(UserFactory()).post("/vacation/", {"action": "end"}, follow=True)

    assert "not_on_vacation" in answer.content.decode()


# --- deadlines ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "due now"),
        (42, "42 s"),
        (4 * 60 + 12, "4 min 12 s"),
        (5 * 60, "5 min"),
        (3 * 3600 + 5 * 60 + 9, "3 h 5 min"),
        (86400, "1 day"),
        (2 * 86400 + 3 * 3600 + 59, "2 days 3 h"),
    ],
)
def test_time_left_is_said_in_its_two_largest_units(seconds: int, words: str) -> None:
    assert time_left_words(seconds) == words


def _my_countdown(html: str) -> str:
    start = html.index('class="deadline"')
    return html[start : html.index("</span></span>", start)]


def test_my_deadline_shows_the_time_left_and_the_time_in_my_zone(baobei_game, client_for):
    game, players = baobei_game
    players[0].profile.time_zone = "Asia/Tokyo"
    players[0].profile.save()
    deadline = timezone.now() + timedelta(hours=2, minutes=30, seconds=30)
    Decision.objects.filter(game=game, seat=0).update(deadline=deadline)

    countdown = _my_countdown(client_for(players[0]).get(f"/games/{game.public_id}/").content.decode())

    tokyo = date_format(deadline.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo")), "D j M, H:i")
    assert "2 h 30 min left" in countdown
    assert f"{tokyo} UTC+9" in countdown and f'data-deadline="{deadline.isoformat()}"' in countdown


def test_a_countdown_says_which_zone_the_server_wrote_it_in(baobei_game, client_for):
    """static/js/countdown.js rewrites a time written in UTC in the browser's zone, and only that."""
    game, players = baobei_game
    players[1].profile.time_zone = "Asia/Tokyo"
    players[1].profile.save()
    Decision.objects.filter(game=game).update(deadline=timezone.now() + timedelta(hours=1))

    utc = _my_countdown(client_for(players[0]).get(f"/games/{game.public_id}/").content.decode())
    tokyo = _my_countdown(client_for(players[1]).get(f"/games/{game.public_id}/").content.decode())

    assert 'data-zone="UTC"' in utc and 'data-zone="Asia/Tokyo"' in tokyo


def test_a_deadline_near_its_end_is_rendered_urgent(baobei_game, client_for):
    game, players = baobei_game
    Decision.objects.filter(game=game, seat=0).update(deadline=timezone.now() + timedelta(seconds=40))

    countdown = _my_countdown(client_for(players[0]).get(f"/games/{game.public_id}/").content.decode())

    assert 'class="countdown urgent"' in countdown and "s left" in countdown


def test_a_deadline_far_away_is_not_urgent(baobei_game, client_for):
    game, players = baobei_game

    countdown = _my_countdown(client_for(players[0]).get(f"/games/{game.public_id}/").content.decode())

    assert 'class="countdown"' in countdown and "2 days 23 h left" in countdown


def test_a_plucking_window_shows_its_countdown_to_everyone_bb_30_6(window_open, client_for):
    """The window's clock is public; who still owns it is not."""
    game, users = window_open

    for user in (users[0], users[2], UserFactory()):
        html = client_for(user).get(f"/games/{game.public_id}/").content.decode()
        line = re.search(r'<li class="clock[^"]*">(.*?)</li>', html, re.S).group(1)
        assert "Plucking window" in line and "3 h 59 min left" in line
        assert "ann" not in line and "bob" not in line


def test_my_games_shows_the_countdown_of_my_move(baobei_game, client_for):
    game, players = baobei_game

    html = client_for(players[0]).get("/").content.decode()

    row = html[html.index(f'data-game="{game.pk}"') :]
    assert "your move" in row[:2000] and "2 days 23 h left" in row[:2000]


# --- a bot in an open seat -----------------------------------------------------------------------------


def test_the_creator_puts_a_bot_in_an_open_seat_from_the_page(client_for):
    ann = UserFactory()
    game = lifecycle.game_create(creator=ann, engine="baobei", players=3)
    client = client_for(ann)
    assert client.get(f"/games/{game.public_id}/").content.decode().count("Put a bot here") == 2

    answer = client.post(f"/games/{game.public_id}/bots/", {"position": "2"})

    assert answer["Location"] == f"/games/{game.public_id}/"
    assert Seat.objects.get(game=game, position=2).is_bot


def test_only_the_creator_may_put_a_bot_in_a_seat(client_for):
    game = lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3)
    other = client_for(UserFactory())

    html = other.get(f"/games/{game.public_id}/").content.decode()
    answer = other.post(f"/games/{game.public_id}/bots/", {"position": "2"}, follow=True)

    assert "Put a bot here" not in html
    assert "forbidden" in answer.content.decode() and not Seat.objects.get(game=game, position=2).is_bot


def test_my_games_says_your_move_only_for_the_games_waiting_for_me(client_for):
    """A finished game, listed under All my games, never reads as waiting for my move."""
    ann = UserFactory(username="ann")
    waiting = lifecycle.game_create(creator=ann, engine="baobei", players=3, bots=2)
    done = lifecycle.game_create(creator=ann, engine="baobei", players=3, bots=2)
    Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED)

    html = client_for(ann).get("/").content.decode()

    others = html[html.index('id="others"') :]
    mine = html[html.index('id="waiting"') : html.index('id="others"')]
    assert f'data-game="{waiting.pk}"' in mine and "your move" in mine
    assert f'data-game="{done.pk}"' in others and "your move" not in others


def test_a_refused_take_back_by_htmx_shows_the_refusal_on_the_board(baobei_game, client_for):
    game, players = baobei_game
    Seat.objects.filter(game=game, position=0).update(bot_takeover=True, bot_hold=True)

    answer = client_for(players[0]).post(f"/games/{game.public_id}/take-back/", HTTP_HX_REQUEST="true")

    html = answer.content.decode()
    assert 'data-error-code="organiser_hold"' in html and 'id="takeover"' in html
    assert Seat.objects.get(game=game, position=0).bot_takeover
