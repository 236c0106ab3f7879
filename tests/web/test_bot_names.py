"""Bots you can tell apart: every bot seat has its own name, used on pages, in the API and in forms."""

from __future__ import annotations

import re

import pytest

from apps.games import autoplay, lifecycle
from tests.factories import GameFactory, UserFactory
from tests.support.catalogue import stand_in_chinese

pytestmark = pytest.mark.django_db


def _game_against_bots(bots: int = 2):
    user = UserFactory(username="ann")
    game = lifecycle.game_create(creator=user, engine="baobei", players=bots + 1, bots=bots)
    return game, user


def test_each_bot_seat_has_its_own_bird_name_on_the_board_and_in_the_scores(client_for):
    game, user = _game_against_bots(bots=3)

    html = client_for(user).get(f"/games/{game.public_id}/").content.decode()

    board_names = re.findall(r'<div class="who">(?:▶ )?<strong>([^<]+)</strong>', html)
    score_names = re.findall(r"<tr[^>]*><td>([^<★]+?)(?: ★)?</td>", html)
    bots = [n for n in board_names if n.endswith(" (bot)")]
    assert len(bots) == 3 and len(set(bots)) == 3
    assert sorted(score_names) == sorted(board_names)
    assert "Bot (" not in html


def test_the_api_names_bot_seats_as_the_page_does(client_for):
    game, user = _game_against_bots()

    seats = client_for(user).get(f"/api/v1/games/{game.pk}/").json()["seats"]

    labels = [s.label for s in game.seats.order_by("position")]
    assert [s["name"] for s in seats] == [labels[0], labels[1], labels[2]]
    assert labels[1] != labels[2] and labels[1].endswith(" (bot)")


def test_the_new_game_form_counts_seats_from_zero_like_the_game_page(client_for):
    user = UserFactory()

    html = client_for(user).get("/games/new/").content.decode()

    assert "You take seat 0" in html and "seat 1" not in html


def test_while_a_bot_is_to_act_the_page_says_it_is_thinking_and_polls_faster(client_for):
    """EX-13 starts at seat 2's turn; seat 2 is a bot that has not moved yet (no worker here)."""
    from .boards import EX_13

    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    game = GameFactory(engine="baobei", players=3, bots=1, options=EX_13, seated=[ann, bob])
    bot = game.seats.get(position=2).label

    html = client_for(ann).get(f"/games/{game.public_id}/").content.decode()

    assert f'<span class="thinking" role="status">{bot} is thinking…</span>' in html
    assert "every 1s" in html


def test_nobody_is_said_to_think_while_a_person_is_to_act(client_for):
    from .boards import EX_13

    ann, bob, cy = (UserFactory(username=n) for n in ("ann", "bob", "cy"))
    game = GameFactory(engine="baobei", players=3, options=EX_13, seated=[ann, bob, cy])

    html = client_for(ann).get(f"/games/{game.public_id}/").content.decode()

    assert "is thinking" not in html and "every 4s" in html


def test_a_bot_playing_an_absent_players_seat_is_named_as_such_while_it_thinks(client_for):
    from apps.games.models import Seat

    from .boards import EX_13

    ann, bob, cy = (UserFactory(username=n) for n in ("ann", "bob", "cy"))
    game = GameFactory(engine="baobei", players=3, options=EX_13, seated=[ann, bob, cy])
    Seat.objects.filter(game=game, position=2).update(bot_takeover=True)  # EX-13: seat 2 is to act

    html = client_for(ann).get(f"/games/{game.public_id}/").content.decode()

    assert "The bot playing cy is thinking…" in html


def test_the_bot_playing_a_seat_is_named_in_the_readers_language(client_for, monkeypatch):
    """A Chinese reader's page says who thinks in Chinese: "The bot playing cy" is a marked string (a
    stand-in translation until the catalogue has it), not English built in code."""

    from apps.games.models import Seat

    from .boards import EX_13

    ann, bob, cy = (UserFactory(username=n) for n in ("ann", "bob", "cy"))
    ann.profile.language = "zh-hans"
    ann.profile.save()
    game = GameFactory(engine="baobei", players=3, options=EX_13, seated=[ann, bob, cy])
    Seat.objects.filter(game=game, position=2).update(bot_takeover=True)  # EX-13: seat 2 is to act
    stand_in_chinese(monkeypatch, {"The bot playing %(name)s": "替%(name)s出牌的机器人"})

    html = client_for(ann).get(f"/games/{game.public_id}/").content.decode()

    assert "The bot playing" not in html
    assert re.search(r'<span class="thinking" role="status">[^<]*cy[^<]*</span>', html)


def test_the_pluck_target_list_names_a_bot_seat_by_its_bird_name(client_for, settings):
    """EX-13: seat 2 (a bot) takes its turn; in the plucking window its discard opens, ann's target
    list names the bot's cards by the bot's name, like the board."""
    from baogame.rules.registry import get_engine

    from .boards import EX_13

    settings.GAMES_SCHEDULE_TASKS = False  # the bot plays below, when told to
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    game = GameFactory(engine="baobei", players=3, bots=1, options=EX_13, seated=[ann, bob])
    bot = game.seats.get(position=2).label
    autoplay.play_bots(game.pk)
    game.refresh_from_db()
    assert get_engine("baobei").pending(game.state)[0]["kind"] == "pluck_window"

    html = client_for(ann).get(f"/games/{game.public_id}/").content.decode()

    targets = re.search(r'<select name="target1">(.*?)</select>', html, re.S)
    assert targets and f"{bot} · slot 0" in targets.group(1)


def test_a_chinese_page_names_each_bot_in_chinese_and_the_names_stay_distinct(client_for):
    game, user = _game_against_bots(bots=3)
    user.profile.language = "zh-hans"
    user.profile.save()

    html = client_for(user).get(f"/games/{game.public_id}/").content.decode()

    board_names = re.findall(r'<div class="who">(?:▶ )?<strong>([^<]+)</strong>', html)
    bots = [n for n in board_names if n.endswith("（机器人）")]
    assert len(bots) == 3 and len(set(bots)) == 3
    assert "(bot)" not in html


@pytest.mark.parametrize("name", ["Heron (bot)", "苍鹭（机器人）", "Ann（机器人）"])
def test_a_person_may_not_take_a_name_that_reads_as_a_bot_in_either_language(client_for, name):
    user = UserFactory()

    answer = client_for(user).post("/accounts/profile/", {"display_name": name, "time_zone": "UTC"})

    user.profile.refresh_from_db()
    assert answer.status_code == 200 and "kept for the server" in answer.content.decode()
    assert user.profile.display_name == ""


def test_a_bot_account_may_not_be_named_as_a_server_bot(client_for):
    answer = client_for(UserFactory()).post(
        "/api/v1/bots/",
        {"username": "mybot", "display_name": "Wren (bot)"},
        content_type="application/json",
    )

    assert answer.status_code == 400 and answer.json()["code"] == "reserved_name"
