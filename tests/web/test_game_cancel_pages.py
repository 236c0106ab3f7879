"""Cancelling a waiting game from its page (``apps.games.views.game_cancel``): the creator alone is
offered it, a page asks to confirm, the POST cancels (with the CSRF token, as every form), and the game
page, the players' lists and the invitation link then say that the game was cancelled."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from apps.games import lifecycle, lobby
from apps.games.models import Game
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

CANCEL_LINK = 'class="cancel-game"'


def _cancel_url(game: Game) -> str:
    return f"/games/{game.public_id}/cancel/"


def test_the_creator_of_a_waiting_game_alone_is_offered_to_cancel_it(client_for: Any) -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    pages = {
        who: client_for(user).get(game.get_absolute_url()).content.decode()
        for who, user in (
            ("creator", creator),
            ("player", joined),
            ("watcher", UserFactory()),
            ("anonymous", None),
        )
    }

    assert CANCEL_LINK in pages["creator"] and f'href="{_cancel_url(game)}"' in pages["creator"]
    assert [who for who, page in pages.items() if CANCEL_LINK in page] == ["creator"]


def test_a_started_game_offers_no_cancelling(client_for: Any, toy_engine: str) -> None:
    creator = UserFactory()
    game = GameFactory(engine=toy_engine, players=2, seated=[creator, UserFactory()])

    page = client_for(creator).get(game.get_absolute_url()).content.decode()
    confirm = client_for(creator).get(_cancel_url(game))

    assert CANCEL_LINK not in page
    assert confirm.status_code == 302 and confirm["Location"] == game.get_absolute_url()


def test_the_confirmation_page_says_what_cancelling_means_and_changes_nothing(client_for: Any) -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    page = client_for(creator).get(_cancel_url(game))
    game.refresh_from_db()

    text = page.content.decode()
    assert page.status_code == 200 and game.status == Game.Status.OPEN
    assert "it counts in nobody's record" in text
    assert "The player already seated is told that you cancelled it." in text
    assert f'<form method="post" action="{_cancel_url(game)}"' in text
    assert f'href="{game.get_absolute_url()}">Keep the game</a>' in text


def test_anyone_but_the_creator_is_sent_back_to_the_game_and_refused(client_for: Any) -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    shown = client_for(joined).get(_cancel_url(game))
    posted = client_for(joined).post(_cancel_url(game), follow=True)
    anonymous = client_for(None).post(_cancel_url(game))
    game.refresh_from_db()

    assert shown.status_code == 302 and shown["Location"] == game.get_absolute_url()
    assert "forbidden" in posted.content.decode()
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert game.status == Game.Status.OPEN


def test_a_hidden_game_is_not_found_to_whoever_may_not_see_it(client_for: Any) -> None:
    game = lifecycle.game_create(
        creator=UserFactory(), engine="baobei", players=3, visibility=Game.Visibility.PRIVATE
    )

    shown = client_for(UserFactory()).get(_cancel_url(game))
    posted = client_for(UserFactory()).post(_cancel_url(game))

    assert (shown.status_code, posted.status_code) == (404, 404)


def test_confirming_cancels_and_the_game_page_says_it_was_cancelled(client_for: Any) -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    answer = client_for(creator).post(_cancel_url(game), follow=True)
    seen_by_player = client_for(joined).get(game.get_absolute_url()).content.decode()
    game.refresh_from_db()

    text = answer.content.decode()
    assert answer.redirect_chain == [(game.get_absolute_url(), 302)]
    assert game.cancelled
    assert "The game is cancelled." in text
    for page in (text, seen_by_player):
        assert "This game was cancelled before it started" in page
        assert re.search(r'<div class="status-line"[^>]*>\s*<strong>Cancelled</strong>', page)
        assert "Waiting for players" not in page and CANCEL_LINK not in page
        assert 'id="seed"' not in page  # nothing was dealt: there is no shuffle to check


def test_the_cancelling_form_needs_the_csrf_token_as_every_form() -> None:
    creator = UserFactory()
    game = GameFactory(players=3, seated=[creator])
    client = Client(enforce_csrf_checks=True)
    client.force_login(creator)

    forged = client.post(_cancel_url(game))
    game.refresh_from_db()
    still_open = game.status == Game.Status.OPEN
    token = re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(_cancel_url(game)).content.decode()
    )
    assert token is not None
    confirmed = client.post(_cancel_url(game), {"csrfmiddlewaretoken": token.group(1)})
    game.refresh_from_db()

    assert forged.status_code == 403 and still_open
    assert confirmed.status_code == 302 and game.cancelled


def test_my_games_lists_a_cancelled_game_as_cancelled(client_for: Any) -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])
    lobby.game_cancel(game_id=game.pk, by=creator)

    page = client_for(joined).get("/").content.decode()

    row = page.split(f'data-game="{game.pk}"')[1].split("</li>")[0]
    assert '<span class="status">Cancelled</span>' in row


def test_the_invitation_link_of_a_cancelled_game_says_so(client_for: Any) -> None:
    creator = UserFactory()
    game = GameFactory(players=3, seated=[creator])
    link = game.invitations.get().get_absolute_url()
    lobby.game_cancel(game_id=game.pk, by=creator)

    shown = client_for(None).get(link)
    taken = client_for(UserFactory()).post(link)

    for answer in (shown, taken):
        text = answer.content.decode()
        assert answer.status_code == 410
        assert "This game was cancelled before it started" in text
        assert "Take a seat" not in text
    assert game.seats.filter(user__isnull=False).count() == 1
