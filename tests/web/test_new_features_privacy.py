"""Attacks on the pages added with cancelling, open tables' minimum records and players' pages: a game
one may not see answers exactly as a game that does not exist, an open table's invitation link (which
seats anybody, whatever their record) shows to its players and creator only, and a player's page names
no hidden game, no private league and no e-mail address, through any part of it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from apps.accounts.closing import account_close
from apps.accounts.models import Profile
from apps.games import lifecycle, lobby
from apps.games.models import Game, Invitation
from apps.leagues.models import League, Membership
from tests.factories import GameFactory, UserFactory, with_record
from tests.support.leagues import game_in_league

pytestmark = pytest.mark.django_db

NO_SUCH_GAME = "/games/no-such-game-id/"


def _private_game(creator: Any, **kwargs: Any) -> Game:
    return lifecycle.game_create(
        creator=creator, engine="baobei", players=3, visibility=Game.Visibility.PRIVATE, **kwargs
    )


def test_taking_a_seat_of_a_private_game_answers_as_a_game_that_does_not_exist(client_for: Any) -> None:
    """A stranger who guesses a private game's link learns nothing from "Take a seat": the same 404 as
    for a link that leads nowhere, not a redirect with a message."""
    game = _private_game(UserFactory())
    stranger = client_for(UserFactory())

    hidden = stranger.post(f"/games/{game.public_id}/take-seat/")
    missing = stranger.post(f"{NO_SUCH_GAME}take-seat/")

    assert (hidden.status_code, missing.status_code) == (404, 404)
    assert game.seats.filter(user__isnull=False).count() == 1


def test_taking_a_seat_of_a_private_league_game_answers_as_a_game_that_does_not_exist(
    client_for: Any,
) -> None:
    game = GameFactory(players=3, seated=[UserFactory()])
    game_in_league(game, public=False, name="Hidden Club")

    hidden = client_for(UserFactory()).post(f"/games/{game.public_id}/take-seat/")

    assert hidden.status_code == 404


def test_cancelling_a_hidden_game_answers_as_a_game_that_does_not_exist(client_for: Any) -> None:
    private = _private_game(UserFactory())
    league_game = GameFactory(players=3, seated=[UserFactory()])
    game_in_league(league_game, public=False, name="Hidden Club")
    stranger = client_for(UserFactory())

    answers = [stranger.post(f"/games/{g.public_id}/cancel/").status_code for g in (private, league_game)]
    answers += [stranger.get(f"/games/{g.public_id}/cancel/").status_code for g in (private, league_game)]
    missing = stranger.post(f"{NO_SUCH_GAME}cancel/")

    assert answers == [404, 404, 404, 404] and missing.status_code == 404
    assert not Game.objects.filter(pk__in=[private.pk, league_game.pk], status=Game.Status.ABORTED).exists()


@pytest.mark.parametrize(("minimum", "shown_to"), [(0, ["creator", "player"]), (90, ["creator"])])
def test_an_open_tables_invitation_link_stays_with_whom_the_minimum_allows(
    client_for: Any, minimum: int, shown_to: list[str]
) -> None:
    """The invitation link seats anybody, whatever the table's minimum record, because the creator
    chooses whom to send it to. A stranger on the game page or the Watch page never sees it, and at a
    table that asks for a minimum, neither does a stranger who sat down there: they would hand the
    minimum round to anybody. Without a minimum its players see it, as at any game."""
    creator, sitting = UserFactory(), UserFactory()
    game = lifecycle.game_create(
        creator=creator, engine="baobei", players=4, open_table=True, min_reliability=minimum
    )
    lobby.open_table_join(game_id=game.pk, user=with_record(sitting, answered=40))
    token = Invitation.objects.get(game=game, single_use=False).token

    pages = {
        who: client_for(user).get(game.get_absolute_url()).content.decode()
        for who, user in (
            ("creator", creator),
            ("player", sitting),
            ("stranger", UserFactory()),
            ("visitor", None),
        )
    }
    watch = {
        who: client_for(user).get("/games/").content.decode()
        for who, user in (("s", UserFactory()), ("v", None))
    }

    assert [who for who, page in pages.items() if token in page] == shown_to
    assert not any(token in page for page in watch.values())
    assert "ask them for one" not in pages["player"]


def test_a_players_page_names_no_hidden_game_in_any_part_of_it(client_for: Any) -> None:
    """Neither the title, the link nor the number of a private, unlisted or private-league game shows to
    a stranger or a visitor, and the empty lists say so as for a player without games."""
    player = UserFactory(username="wanda")
    hidden = [
        GameFactory(players=2, seated=[player, UserFactory()], visibility=v, title=f"Secret {v}")
        for v in (Game.Visibility.PRIVATE, Game.Visibility.UNLISTED)
    ]
    league_game = GameFactory(players=2, seated=[player, UserFactory()], title="Secret league")
    game_in_league(league_game, public=False, name="Hidden Club")
    Membership.objects.create(
        league=League.objects.get(slug="hidden-club"), user=player, status=Membership.Status.ACTIVE
    )

    for viewer in (UserFactory(), None):
        page = client_for(viewer).get("/players/wanda/").content.decode()

        for game in [*hidden, league_game]:
            assert game.public_id not in page and game.title not in page
            assert f"/api/v1/games/{game.pk}/" not in page
        assert "Hidden Club" not in page and "hidden-club" not in page
        assert "No game of this player that you may watch is in play." in page


def test_a_players_page_shows_no_email_address(client_for: Any) -> None:
    player = UserFactory(username="wanda")
    other = UserFactory()
    GameFactory(players=2, seated=[player, other])

    pages = [client_for(v).get("/players/wanda/").content.decode() for v in (UserFactory(), None)]

    assert not any(a in page for page in pages for a in (player.email, other.email, "@example.com"))


def test_an_inactive_account_that_is_not_closed_answers_404_as_an_unknown_name(client_for: Any) -> None:
    UserFactory(username="dormant")
    get_user_model().objects.filter(username="dormant").update(is_active=False)

    dormant = client_for(None).get("/players/dormant/")
    unknown = client_for(None).get("/players/nobody-here/")

    assert (dormant.status_code, unknown.status_code) == (404, 404)


def test_a_name_linked_to_its_players_page_is_escaped_everywhere(client_for: Any) -> None:
    """The new name links build HTML around a name anybody chooses: it stays text."""
    creator, mallory = UserFactory(), UserFactory(username="mallory")
    Profile.objects.filter(user=mallory).update(display_name='<img src=x onerror="alert(1)">')
    game = lifecycle.game_create(creator=creator, engine="baobei", players=4, open_table=True)
    lobby.open_table_join(game_id=game.pk, user=mallory)

    pages = [
        client_for(None).get(url).content.decode()
        for url in ("/games/", game.get_absolute_url(), "/players/mallory/")
    ]

    for page in pages:
        assert "<img src=x" not in page and "&lt;img src=x" in page


def test_taking_a_hidden_game_off_the_open_tables_answers_as_a_game_that_does_not_exist(
    client_for: Any,
) -> None:
    """The page's "Take it off the open tables" for a private game a stranger guessed: the same 404
    as for a link that leads nowhere, not a redirect with a message."""
    game = _private_game(UserFactory())
    stranger = client_for(UserFactory())

    hidden = stranger.post(f"/games/{game.public_id}/close-table/")
    missing = stranger.post(f"{NO_SUCH_GAME}close-table/")

    assert (hidden.status_code, missing.status_code) == (404, 404)


def test_a_closed_or_inactive_account_in_another_case_answers_404_as_an_unknown_name(client_for: Any) -> None:
    """Matching names whatever their case opens no way round the 404 of an account that is gone."""
    leaving = UserFactory(username="leaving")
    account_close(user=leaving, password="pw-for-tests-123")
    leaving.refresh_from_db()
    UserFactory(username="dormant")
    get_user_model().objects.filter(username="dormant").update(is_active=False)
    unknown = client_for(None).get("/players/Nobody-Here/")

    for path in ("/players/Leaving/", f"/players/{leaving.username.upper()}/", "/players/DORMANT/"):
        answer = client_for(None).get(path)

        assert unknown.status_code == answer.status_code == 404
        assert _page(answer, path) == _page(unknown, "/players/Nobody-Here/")


def _page(answer: Any, path: str) -> str:
    """The page as any 404 shows it: its own path and its CSRF tokens (fresh for each request) left out."""
    html = answer.content.decode().replace(path, "<path>")
    return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', r"\1-", html)
