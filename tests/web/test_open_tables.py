"""Open tables (``apps.games.lobby``): a creator lists a public game waiting for players on the Watch
page, and anybody signed in takes a free seat without an invitation; a game not opened so is joined by
invitation only."""

from __future__ import annotations

import re
from typing import Any

import pytest

from apps.games import lifecycle, lobby
from apps.games.errors import ServiceError
from apps.games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _open_table(creator: Any, **kwargs: Any) -> Game:
    return lifecycle.game_create(creator=creator, engine="baobei", players=3, open_table=True, **kwargs)


def _form(**fields: str) -> dict[str, Any]:
    """The new-game form's fields for a 3-seat Bao Bei open table waiting for people, with ``fields``."""
    base = {"engine": "baobei", "players": 3, "opponents": "people", "control": "daily", "open_table": "on"}
    return base | fields


def _open_rows(client: Any) -> list[str]:
    html = client.get("/games/").content.decode()
    block = html.split('id="open-tables"')[1].split("</ul>")[0]
    return re.findall(r'data-game="([^"]+)"', block)


def test_the_new_game_form_opens_a_table_that_the_watch_page_lists(client_for: Any) -> None:
    creator, stranger = UserFactory(), UserFactory()
    answer = client_for(creator).post("/games/new/", _form(visibility="public"))
    game = Game.objects.get(created_by=creator)
    closed = lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3)

    listed = _open_rows(client_for(stranger))
    page = client_for(stranger).get("/games/").content.decode()

    assert answer.status_code == 302 and game.open_table
    assert listed == [game.public_id] and closed.public_id not in listed
    assert "1 of 3 seats taken" in page and f'action="/games/{game.public_id}/take-seat/"' in page


def test_a_stranger_takes_a_seat_and_the_full_table_starts_and_leaves_the_list(client_for: Any) -> None:
    game = _open_table(UserFactory())
    first, second = UserFactory(), UserFactory()

    taken = client_for(first).post(f"/games/{game.public_id}/take-seat/")
    mine = client_for(first).get("/games/").content.decode()
    client_for(second).post(f"/games/{game.public_id}/take-seat/")
    game.refresh_from_db()

    assert taken.status_code == 302 and taken["Location"] == game.get_absolute_url()
    assert "your table" in mine.split('id="open-tables"')[1].split("</ul>")[0]
    assert game.status == Game.Status.ACTIVE
    assert {s.user_id for s in game.seats.all()} >= {first.pk, second.pk}
    assert _open_rows(client_for(UserFactory())) == []


def test_a_game_not_opened_to_anybody_is_refused_and_an_unlisted_one_stays_hidden() -> None:
    invited_only = lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3)
    unlisted = lifecycle.game_create(
        creator=UserFactory(), engine="baobei", players=3, visibility=Game.Visibility.UNLISTED
    )
    stranger = UserFactory()

    with pytest.raises(ServiceError) as refused:
        lobby.open_table_join(game_id=invited_only.pk, user=stranger)
    with pytest.raises(ServiceError) as hidden:
        lobby.open_table_join(game_id=unlisted.pk, user=stranger)

    assert (refused.value.code, refused.value.status) == ("not_an_open_table", 403)
    assert (hidden.value.code, hidden.value.status) == ("not_found", 404)
    assert not invited_only.seats.filter(user=stranger).exists()


def test_an_open_table_is_a_public_game() -> None:
    with pytest.raises(ServiceError) as refused:
        _open_table(UserFactory(), visibility=Game.Visibility.UNLISTED)
    assert refused.value.code == "invalid_options"


def test_the_form_refuses_an_open_table_that_is_not_public(client_for: Any) -> None:
    creator = UserFactory()
    answer = client_for(creator).post("/games/new/", _form(visibility="private"))

    assert answer.status_code == 200 and "An open table is a public game" in answer.content.decode()
    assert not Game.objects.filter(created_by=creator).exists()


def test_the_form_refuses_an_open_table_whose_seats_the_bots_would_all_take(client_for: Any) -> None:
    creator = UserFactory()
    answer = client_for(creator).post("/games/new/", _form(opponents="bots"))

    assert answer.status_code == 200 and "An open table needs a free seat" in answer.content.decode()
    assert not Game.objects.filter(created_by=creator).exists()


def test_one_person_takes_one_seat_of_an_open_table(client_for: Any) -> None:
    creator = UserFactory()
    game = _open_table(creator)

    answer = client_for(creator).post(f"/games/{game.public_id}/take-seat/", follow=True)

    assert "already_seated" in answer.content.decode()
    assert game.seats.filter(user=creator).count() == 1


def test_the_game_page_of_an_open_table_offers_a_stranger_a_seat(client_for: Any) -> None:
    creator = UserFactory()
    game = _open_table(creator)

    stranger = client_for(UserFactory()).get(game.get_absolute_url()).content.decode()
    own = client_for(creator).get(game.get_absolute_url()).content.decode()

    assert "An open table" in stranger and f'action="/games/{game.public_id}/take-seat/"' in stranger
    assert "An open table" in own and "take-seat" not in own  # seated already


def test_a_signed_out_visitor_is_asked_to_sign_in_to_take_a_seat(client_for: Any) -> None:
    game = _open_table(UserFactory())

    page = client_for(None).get("/games/").content.decode()
    posted = client_for(None).post(f"/games/{game.public_id}/take-seat/")

    assert "Sign in to take a seat" in page
    assert posted.status_code == 302 and "/accounts/login/" in posted["Location"]
    assert game.seats.filter(user__isnull=False).count() == 1


def test_the_creator_takes_a_waiting_game_off_the_open_tables(client_for: Any) -> None:
    creator, stranger = UserFactory(), UserFactory()
    game = _open_table(creator)
    own_page = client_for(creator).get(game.get_absolute_url()).content.decode()

    refused = client_for(stranger).post(f"/games/{game.public_id}/close-table/", follow=True)
    closed = client_for(creator).post(f"/games/{game.public_id}/close-table/", follow=True)
    game.refresh_from_db()

    assert f'action="/games/{game.public_id}/close-table/"' in own_page
    assert "forbidden" in refused.content.decode()
    assert "It is off the open tables" in closed.content.decode() and not game.open_table
    assert _open_rows(client_for(stranger)) == []
    with pytest.raises(ServiceError) as taken:
        lobby.open_table_join(game_id=game.pk, user=stranger)
    assert taken.value.code == "not_an_open_table"
