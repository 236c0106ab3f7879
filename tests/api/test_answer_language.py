"""Every word of an API answer in the request's language, by the rule its errors' ``detail`` follows
(``test_detail_language``): the ``Accept-Language`` header when given, else the token user's profile
language, else English. Standing orders' ``text`` (BH-12.5), a game's ``length_text`` (BH-17.6).

A move and the ``/legal`` read answer in codes only: they never look the profile up."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from rest_framework.test import APIClient

from apps.accounts.models import Profile
from apps.api.models import ApiToken
from apps.games.models import Game
from apps.games.presenters import timeleft
from baogame.rules.registry import get_engine
from tests.support.bh_turns import five_at_play

pytestmark = pytest.mark.django_db

PASS_TRICK_EN = "pass to the end of this trick"
PASS_TRICK_ZH = "这一墩一直过到底"


@pytest.fixture
def bh() -> tuple[Game, list[Any]]:
    """A Bao Huang game of five people at the start of play (seat 0 leads); seat 1 speaks Chinese."""
    game, people = five_at_play()
    Profile.objects.filter(user=people[1]).update(language="zh-hans")
    return game, people


def _orders(client: APIClient, game: Game, **headers: str) -> tuple[Any, Any]:
    url = f"/api/v1/games/{game.pk}/orders/"
    put = client.put(url, {"orders": [{"kind": "pass_trick"}]}, format="json", headers=headers)
    return put, client.get(url, headers=headers)


def _length_text(game: Game, language: str) -> str:
    with translation.override(language):
        return game.length_text


def test_orders_text_follows_a_chinese_profile_without_accept_language_bh_12_5(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    game, people = bh

    put, got = _orders(client_for(people[1]), game)

    assert put.status_code == 200 and got.status_code == 200
    assert put.json()["orders"][0]["text"] == PASS_TRICK_ZH
    [order] = got.json()["orders"]
    assert (order["kind"], order["text"]) == ("pass_trick", PASS_TRICK_ZH)
    assert got["Content-Language"] == "zh-hans"


def test_accept_language_wins_over_the_profile_for_orders_text_bh_12_5(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    game, people = bh

    put, got = _orders(client_for(people[1]), game, accept_language="en")

    assert put.json()["orders"][0]["text"] == PASS_TRICK_EN
    assert got.json()["orders"][0]["text"] == PASS_TRICK_EN
    assert got["Content-Language"] == "en"


def test_a_profile_without_a_language_keeps_english_bh_12_5(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    game, people = bh

    _, got = _orders(client_for(people[2]), game)

    assert got.json()["orders"][0]["text"] == PASS_TRICK_EN


def test_length_text_follows_the_profile_and_accept_language_wins_bh_17_6(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    game, people = bh
    game.refresh_from_db()
    chinese, english = _length_text(game, "zh-hans"), _length_text(game, "en")
    me = client_for(people[1])

    in_profile = me.get(f"/api/v1/games/{game.pk}/")
    asked = me.get(f"/api/v1/games/{game.pk}/", headers={"accept_language": "en"})

    assert chinese != english and english
    assert in_profile.json()["length_text"] == chinese
    assert asked.json()["length_text"] == english
    listed = me.get("/api/v1/games/watch/").json()["results"]
    assert [g["length_text"] for g in listed if g["id"] == game.pk] == [chinese]


def test_the_time_controls_summary_follows_the_profile_and_accept_language_wins(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    """docs/api.md "Languages": the clock's summary ("3 days, +1 day per move, up to 5 days") is words
    too, in the reader's language like the length."""
    game, people = bh
    game.refresh_from_db()
    with translation.override("zh-hans"):
        chinese = timeleft.control_summary(game.time_control)
    me = client_for(people[1])

    in_profile = me.get(f"/api/v1/games/{game.pk}/").json()["clock"]["control"]["summary"]
    asked = me.get(f"/api/v1/games/{game.pk}/", headers={"accept_language": "en"}).json()

    assert in_profile == chinese != game.time_control.summary()
    assert asked["clock"]["control"]["summary"] == game.time_control.summary()


def test_an_anonymous_public_read_stays_in_the_headers_language_bh_17_6(bh: tuple[Game, list[Any]]) -> None:
    game, _ = bh
    game.refresh_from_db()

    plain = APIClient().get("/api/v1/games/watch/")
    asked = APIClient().get("/api/v1/games/watch/", headers={"accept_language": "zh-hans"})

    def length(response: Any) -> list[str]:
        return [g["length_text"] for g in response.json()["results"] if g["id"] == game.pk]

    assert plain.status_code == 200 and asked.status_code == 200
    assert length(plain) == [_length_text(game, "en")]
    assert length(asked) == [_length_text(game, "zh-hans")]


def test_the_profile_is_read_with_the_token_not_on_its_own(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    """The profile comes in the token's statement: a read in Chinese costs what one in English does."""
    game, people = bh
    me = client_for(people[1])
    me.get(f"/api/v1/games/{game.pk}/orders/")  # anything compiled once is compiled

    with CaptureQueriesContext(connection) as chinese:
        me.get(f"/api/v1/games/{game.pk}/orders/")
    with CaptureQueriesContext(connection) as english:
        me.get(f"/api/v1/games/{game.pk}/orders/", headers={"accept_language": "en"})

    assert len(chinese) == len(english)


@pytest.mark.parametrize(("plain", "hand_sql"), [(True, True), (False, True), (False, False)])
def test_a_move_and_the_legal_read_never_look_the_profile_up(
    client_for: Any, users: list, toy_game: Game, settings: Any, plain: bool, hand_sql: bool
) -> None:
    """Their answers are codes: a Chinese profile changes nothing in them, nor in what they read, on
    the plain path as through DRF's views (which read the token with the game, or on its own)."""
    settings.API_PLAIN_MOVES, settings.GAMES_HAND_SQL = plain, hand_sql
    Profile.objects.filter(user=users[0]).update(language="zh-hans")
    me = client_for(users[0])
    with CaptureQueriesContext(connection) as read:
        legal = me.get(f"/api/v1/games/{toy_game.pk}/legal/")
    action = get_engine(toy_game.engine).legal_actions(Game.objects.get(pk=toy_game.pk).state, 0)[0]
    with CaptureQueriesContext(connection) as moved:
        move = me.post(f"/api/v1/games/{toy_game.pk}/actions/", {"action": action}, format="json")

    assert (legal.status_code, move.status_code) == (200, 201)
    assert legal["Content-Language"] == move["Content-Language"] == "en"
    statements = [q["sql"] for q in [*read.captured_queries, *moved.captured_queries]]
    token_table, profile_table = ApiToken._meta.db_table, Profile._meta.db_table
    assert (
        not [  # neither with the token nor on its own (a game's seats come with their people's)
            s
            for s in statements
            if f'FROM "{profile_table}"' in s or (token_table in s and profile_table in s)
        ]
    )
