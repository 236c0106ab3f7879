"""Attacks through the API on cancelling, open tables and players' pages: a game the caller may not see
answers exactly as a game that does not exist (status and body), the open tables' list holds no
invitation token, and a player's answer names no hidden game, no private league, no closed account's
old name and no e-mail address, in any field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.accounts.closing import account_close
from apps.games import lifecycle, lobby
from apps.games.models import Game, Invitation
from apps.leagues.models import Membership
from tests.factories import GameFactory, UserFactory, with_record
from tests.support.leagues import game_in_league

pytestmark = pytest.mark.django_db

MISSING_ID = 987654


def _hidden_games() -> list[Game]:
    """A private game, an unlisted one (asked for by number) and a private league's, all waiting."""
    private, unlisted = (
        lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3, visibility=v)
        for v in (Game.Visibility.PRIVATE, Game.Visibility.UNLISTED)
    )
    league_game = GameFactory(players=3, seated=[UserFactory()])
    game_in_league(league_game, public=False, name="Hidden Club")
    return [private, unlisted, league_game]


@pytest.mark.parametrize("action", ["cancel", "take-seat"])
def test_a_hidden_game_answers_as_a_game_that_does_not_exist(client_for: Any, action: str) -> None:
    stranger = client_for(UserFactory())

    missing = stranger.post(f"/api/v1/games/{MISSING_ID}/{action}/", {}, format="json")
    hidden = [stranger.post(f"/api/v1/games/{g.pk}/{action}/", {}, format="json") for g in _hidden_games()]

    assert missing.status_code == 404
    assert [(a.status_code, a.json()) for a in hidden] == [(404, missing.json())] * 3
    assert not Game.objects.filter(status=Game.Status.ABORTED).exists()


def test_signed_out_a_cancelling_is_refused_alike_for_a_game_and_for_none(client_for: Any) -> None:
    game = lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3, open_table=True)
    visitor = client_for(None)

    real = visitor.post(f"/api/v1/games/{game.pk}/cancel/")
    missing = visitor.post(f"/api/v1/games/{MISSING_ID}/cancel/")

    assert real.status_code in (401, 403)
    assert (real.status_code, real.json()) == (missing.status_code, missing.json())
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_the_open_tables_list_holds_no_invitation_token_nor_address(client_for: Any) -> None:
    """The invitation link seats anybody whatever the table's minimum record: it is not in the list."""
    creator, sitting = UserFactory(), UserFactory()
    game = lifecycle.game_create(
        creator=creator, engine="baobei", players=4, open_table=True, min_reliability=95
    )
    lobby.open_table_join(game_id=game.pk, user=with_record(sitting, answered=40))
    tokens = list(Invitation.objects.filter(game=game).values_list("token", flat=True))

    for viewer in (None, UserFactory()):
        text = client_for(viewer).get("/api/v1/games/open/").content.decode()

        assert str(game.public_id) in text and '"min_reliability":95' in text.replace(" ", "")
        assert tokens and not any(t in text for t in tokens)
        assert creator.email not in text and sitting.email not in text


def test_a_stranger_reads_a_game_of_an_open_table_without_its_invitation(client_for: Any) -> None:
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=3, open_table=True)
    stranger = client_for(UserFactory())

    read = stranger.get(f"/api/v1/games/{game.pk}/")
    invite = stranger.get(f"/api/v1/games/{game.pk}/invite/")

    token = Invitation.objects.get(game=game, single_use=False).token
    assert read.status_code == 200 and token not in read.content.decode()
    assert invite.status_code == 403 and token not in invite.content.decode()


def test_a_players_answer_names_no_hidden_game_nor_private_league_in_any_field(client_for: Any) -> None:
    player = UserFactory(username="wanda")
    hidden = [
        GameFactory(players=2, seated=[player, UserFactory()], visibility=v, title=f"Secret {v}")
        for v in (Game.Visibility.PRIVATE, Game.Visibility.UNLISTED)
    ]
    league_game = GameFactory(players=2, seated=[player, UserFactory()], title="Secret league")
    league = game_in_league(league_game, public=False, name="Hidden Club")
    Membership.objects.create(league=league, user=player, status=Membership.Status.ACTIVE)
    hidden.append(league_game)

    for viewer in (None, UserFactory()):
        answer = client_for(viewer).get("/api/v1/players/wanda/")

        body = answer.json()
        text = json.dumps(body)
        assert answer.status_code == 200
        assert (body["in_play"], body["finished"], body["leagues"]) == ([], [], [])
        for game in hidden:
            assert game.public_id not in text and game.title not in text
            assert all(n not in text for s in game.seats.all() if s.user_id != player.pk for n in (s.label,))
        assert "Hidden Club" not in text and "hidden-club" not in text
        assert "@" not in text


def test_a_closed_account_answers_as_an_unknown_name_and_shows_in_no_seat(client_for: Any) -> None:
    player, leaver = UserFactory(username="wanda"), UserFactory(username="leaving-lou")
    GameFactory(players=2, seated=[player, leaver])
    account_close(user=leaver, password="pw-for-tests-123")
    leaver.refresh_from_db()
    visitor = client_for(None)

    closed = visitor.get(f"/api/v1/players/{leaver.get_username()}/")
    old_name = visitor.get("/api/v1/players/leaving-lou/")
    unknown = visitor.get("/api/v1/players/nobody-here/")
    page = visitor.get("/api/v1/players/wanda/").json()

    assert (closed.status_code, closed.json()) == (unknown.status_code, unknown.json())
    assert (old_name.status_code, old_name.json()) == (unknown.status_code, unknown.json())
    [game] = page["in_play"]
    seat = next(s for s in game["seats"] if s["position"] == 1)
    assert seat["username"] is None
    assert "leaving-lou" not in json.dumps(page)


def test_a_stranger_seated_at_an_open_table_with_a_minimum_gets_no_invitation_link(
    client_for: Any,
) -> None:
    """The link seats anybody whatever their record: at a table that asks for a minimum it stays with
    the creator, so that whoever sat down from the open tables cannot hand the minimum round."""
    creator, sitting = UserFactory(), UserFactory()
    game = lifecycle.game_create(
        creator=creator, engine="baobei", players=4, open_table=True, min_reliability=90
    )
    lobby.open_table_join(game_id=game.pk, user=with_record(sitting, answered=40))
    token = Invitation.objects.get(game=game, single_use=False).token

    refused = client_for(sitting).get(f"/api/v1/games/{game.pk}/invite/")
    made = client_for(sitting).post(f"/api/v1/games/{game.pk}/invite/", {"single_use": True}, format="json")
    owner = client_for(creator).get(f"/api/v1/games/{game.pk}/invite/")

    assert refused.status_code == 403 and token not in refused.content.decode()
    assert made.status_code == 403 and Invitation.objects.filter(game=game).count() == 1
    assert owner.status_code == 200 and owner.json()["invite_token"] == token
