"""Who may call what: every endpoint against anonymous, non-member, seated player (the game's creator)
and the other seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from apps.api import services as api_services
from apps.games import services as game_services
from apps.leagues import services as league_services
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "other_seat")


@dataclass
class World:
    game: Any  # active toy game: player at seat 0 (to move, and creator), other_seat at seat 1
    open_game: Any  # open 3-seat Bao Bei game created by the player
    player_token_id: int
    player_bot_id: int
    users: dict[str, Any]
    league: Any  # public league organised by the player, with one season
    private_league: Any  # private league organised by the player


@pytest.fixture
def world(toy_engine: str, users: list) -> World:
    game = game_services.game_create(creator=users[0], engine=toy_engine, players=2, options={})
    game_services.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    open_game = game_services.game_create(creator=users[0], engine="baobei", players=3)
    token, _ = api_services.token_create(user=users[0], name="spare")
    bot = api_services.bot_account_create(owner=users[0], username="matrixbot")
    league = league_services.league_create(creator=users[0], name="Open league", game="baobei", join=True)
    league_services.season_create(league=league, by=users[0])
    private = league_services.league_create(
        creator=users[0], name="Club", game="baobei", is_public=False, join=True
    )
    people = {"player": users[0], "other_seat": users[1], "outsider": users[4]}
    return World(game, open_game, token.pk, bot.pk, people, league, private)


def _play(world: World) -> dict:
    d = get_engine("toy").pending(world.game.state)[0]
    return {
        "action": {"type": "play", "decision_id": d["decision_id"], "card": world.game.state["hands"][0][0]}
    }


# (method, path template, body, {role: status}) — anonymous is always 401 unless given.
ENDPOINTS: list[tuple[str, str, Any, dict[str, int]]] = [
    ("get", "/api/v1/me/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("patch", "/api/v1/me/", {"display_name": "X"}, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/v1/games/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/v1/games/?waiting=true", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    (
        "post",
        "/api/v1/games/",
        {"engine": "baobei", "players": 2},
        {"outsider": 201, "player": 201, "other_seat": 201},
    ),
    ("get", "/api/v1/games/{game}/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/v1/games/{game}/history/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/v1/games/{game}/legal/", None, {"outsider": 403, "player": 200, "other_seat": 200}),
    ("post", "/api/v1/games/{game}/actions/", _play, {"outsider": 403, "player": 201, "other_seat": 400}),
    ("get", "/api/v1/games/{game}/invite/", None, {"outsider": 403, "player": 200, "other_seat": 200}),
    (
        "post",
        "/api/v1/games/{open_game}/bots/",
        {"position": 1},
        {"outsider": 403, "player": 200, "other_seat": 403},
    ),
    ("post", "/api/v1/games/join/", "invite", {"outsider": 200, "player": 400, "other_seat": 200}),
    ("get", "/api/v1/games/999999/", None, {"outsider": 404, "player": 404, "other_seat": 404}),
    ("get", "/api/v1/tokens/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("post", "/api/v1/tokens/", {"name": "n"}, {"outsider": 201, "player": 201, "other_seat": 201}),
    ("delete", "/api/v1/tokens/{token}/", None, {"outsider": 404, "player": 204, "other_seat": 404}),
    ("get", "/api/v1/bots/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("post", "/api/v1/bots/", {"username": "newbot"}, {"outsider": 201, "player": 201, "other_seat": 201}),
    (
        "post",
        "/api/v1/bots/{bot}/tokens/",
        {"name": "n"},
        {"outsider": 404, "player": 201, "other_seat": 404},
    ),
    ("get", "/api/v1/me/notifications/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("patch", "/api/v1/me/notifications/", {"digest_hour": 7}, {r: 200 for r in ROLES[1:]}),
    ("get", "/api/v1/leagues/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/v1/leagues/{league}/", None, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/v1/leagues/{private}/", None, {"outsider": 404, "player": 200, "other_seat": 404}),
    ("get", "/api/v1/leagues/{league}/seasons/{season}/standings/", None, {r: 200 for r in ROLES[1:]}),
    (
        "get",
        "/api/v1/leagues/{private}/seasons/999999/standings/",
        None,
        {"outsider": 404, "player": 404, "other_seat": 404},
    ),
    ("post", "/api/v1/leagues/{league}/join/", {}, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("post", "/api/v1/leagues/{private}/join/", {}, {"outsider": 404, "player": 403, "other_seat": 404}),
    (
        "post",
        "/api/v1/leagues/{private}/join/",
        "league_invite",
        {"outsider": 200, "player": 200, "other_seat": 200},
    ),
    ("get", "/api/v1/leagues/no-such-league/", None, {r: 404 for r in ROLES[1:]}),
    ("get", "/api/schema/", None, {"anonymous": 200, "outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/docs/", None, {"anonymous": 200, "outsider": 200, "player": 200, "other_seat": 200}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "template", "body", "expected"), ENDPOINTS, ids=[f"{m} {t}" for m, t, _, _ in ENDPOINTS]
)
def test_permission_matrix(
    client_for: Any, world: World, role: str, method: str, template: str, body: Any, expected: dict[str, int]
) -> None:
    client = client_for(world.users.get(role))
    path = template.format(
        game=world.game.pk,
        open_game=world.open_game.pk,
        token=world.player_token_id,
        bot=world.player_bot_id,
        league=world.league.slug,
        private=world.private_league.slug,
        season=world.league.seasons.get().pk,
    )
    if callable(body):
        body = body(world)
    elif body == "invite":
        body = {"invite_token": world.open_game.invite_token}
    elif body == "league_invite":
        body = {"invite_token": world.private_league.invite_token}

    response = (
        getattr(client, method)(path, body, format="json")
        if body is not None
        else getattr(client, method)(path)
    )

    assert response.status_code == expected.get(role, 401), response.content[:300]
    if response.status_code >= 400:
        assert set(response.json()) >= {"code", "detail"}
