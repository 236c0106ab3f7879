"""Invitation links: shown to the players and the creator only; replaced, single-use, revoked."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import invitations, lifecycle
from apps.games.errors import ServiceError
from apps.games.models import Game, Invitation
from tests.factories import GameFactory, UserFactory, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def open_game() -> tuple[Game, Any, Any]:
    """A public 3-seat Bao Bei game: its creator in seat 0, a friend in seat 1, seat 2 open."""
    creator, friend = UserFactory(), UserFactory()
    return GameFactory(engine="baobei", players=3, seated=[creator, friend]), creator, friend


def _token(game: Game) -> str:
    return Invitation.objects.get(game=game, single_use=False, revoked_at=None).token


@pytest.mark.parametrize("viewer", ["anonymous", "stranger"])
def test_invitation_token_is_not_on_the_page_of_a_spectator(open_game: Any, viewer: str) -> None:
    game, _, _ = open_game
    user = None if viewer == "anonymous" else UserFactory()

    html = signed_in(user).get(f"/games/{game.public_id}/").content.decode()

    assert _token(game) not in html
    assert "/games/join/" not in html


@pytest.mark.parametrize("who", ["creator", "friend"])
def test_invitation_link_is_shown_to_the_players(open_game: Any, who: str) -> None:
    game, creator, friend = open_game

    html = (
        signed_in(creator if who == "creator" else friend).get(f"/games/{game.public_id}/").content.decode()
    )

    assert f"/games/join/{_token(game)}/" in html


def test_a_spectator_cannot_read_the_invitation_through_the_api(open_game: Any) -> None:
    game, _, _ = open_game

    response = signed_in(UserFactory()).get(f"/api/v1/games/{game.pk}/invite/")

    assert response.status_code == 403 and _token(game) not in response.content.decode()


def test_a_new_link_replaces_the_old_one_from_the_page(open_game: Any) -> None:
    game, creator, _ = open_game
    old = _token(game)

    signed_in(creator).post(f"/games/{game.public_id}/invitations/", {"do": "replace"})
    refused = signed_in(UserFactory()).post(f"/games/join/{old}/")

    assert _token(game) != old
    assert refused.status_code == 404
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_revoked_invitations_seat_nobody(open_game: Any) -> None:
    game, creator, _ = open_game
    old = _token(game)

    revoked = signed_in(creator).delete(f"/api/v1/games/{game.pk}/invite/")
    joined = signed_in(UserFactory()).post("/api/v1/games/join/", {"invite_token": old}, "application/json")

    assert revoked.json() == {"revoked": 1}
    assert (joined.status_code, joined.json()["code"]) == (404, "invitation_invalid")


def test_only_the_creator_changes_the_invitations(open_game: Any) -> None:
    game, _, friend = open_game

    response = signed_in(friend).post(
        f"/api/v1/games/{game.pk}/invite/", {"single_use": True}, "application/json"
    )

    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert not Invitation.objects.filter(single_use=True).exists()


def test_a_single_use_invitation_seats_one_person() -> None:
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=4)
    single = invitations.invitation_create(game_id=game.pk, user=creator, single_use=True)
    first, second = UserFactory(), UserFactory()

    invitations.invitation_accept(token=single.token, user=first)
    with pytest.raises(ServiceError) as refused:
        invitations.invitation_accept(token=single.token, user=second)

    assert refused.value.code == "invitation_invalid"
    assert [s.user for s in game.seats.order_by("position")][:3] == [creator, first, None]
    single.refresh_from_db()
    assert single.used_by == first


def test_a_single_use_link_leaves_the_standing_link_working(open_game: Any) -> None:
    game, creator, _ = open_game
    standing = _token(game)

    made = signed_in(creator).post(
        f"/api/v1/games/{game.pk}/invite/", {"single_use": True}, "application/json"
    )

    assert made.status_code == 201 and made.json()["single_use"] is True
    assert _token(game) == standing


def test_a_single_use_link_is_revoked_from_the_page(open_game: Any) -> None:
    game, creator, _ = open_game
    single = invitations.invitation_create(game_id=game.pk, user=creator, single_use=True)

    signed_in(creator).post(f"/games/{game.public_id}/invitations/", {"do": "revoke", "token": single.token})

    single.refresh_from_db()
    assert single.revoked_at is not None
    assert _token(game)  # the standing link stays


def test_the_invitation_page_works_for_a_private_game_holder() -> None:
    """An invitation shows its game to its holder, even a private one, and seats them."""
    creator, guest = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=2, visibility="private")
    token = _token(game)

    page = signed_in(guest).get(f"/games/join/{token}/")
    joined = signed_in(guest).post(f"/games/join/{token}/")

    assert page.status_code == 200
    assert joined.status_code == 302 and joined["Location"] == f"/games/{game.public_id}/"
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
