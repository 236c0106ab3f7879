"""Who may call what: every endpoint against anonymous, non-member, seated player (the game's creator)
and the other seat.

In the leagues the player organises everything; the other seat is a plain member of the private toy
league ("club"), whose round-1 game seats both; the outsider belongs to no league.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from apps.api import services as api_services
from apps.games import clock
from apps.games import lifecycle as game_lifecycle
from apps.games.models import Game
from apps.leagues import seasons
from apps.leagues import services as league_services
from baogame.rules.registry import get_engine
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "other_seat")


@dataclass
class Club:
    """The league-management part of the world, built only for the rows that use it."""

    league: Any  # private toy league: player organises and plays, other_seat plays; round 1 started
    game: Any  # the club's round-1 game (player and other_seat seated)
    pending_membership_id: int  # users[2] asked to join the public league


@dataclass
class World:
    game: Any  # active toy game: player at seat 0 (to move, and creator), other_seat at seat 1
    open_game: Any  # open 3-seat Bao Bei game created by the player
    player_token_id: int
    player_bot_id: int
    users: dict[str, Any]
    league: Any  # public league organised by the player, with one season
    private_league: Any  # private league organised by the player
    all_users: list[Any]
    club: Club | None = None

    def with_club(self) -> Club:
        if self.club is None:
            player, member = self.users["player"], self.users["other_seat"]
            league = league_services.league_create(
                creator=player, name="Toy club", game="toy", is_public=False, players_per_table=2, join=True
            )
            league_services.membership_join_by_link(league=league, user=member, token=league.invite_token)
            season = seasons.season_create(league=league, by=player)
            game = seasons.round_start(season_id=season.pk, by=player).fixtures.get().game
            pending = league_services.membership_request(league=self.league, user=self.all_users[2])
            self.club = Club(league, game, pending.pk)
        return self.club


@pytest.fixture
def world(toy_engine: str, users: list) -> World:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    open_game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=3)
    token, _ = api_services.token_create(user=users[0], name="spare")
    bot = api_services.bot_account_create(owner=users[0], username="matrixbot")
    league = league_services.league_create(creator=users[0], name="Open league", game="baobei", join=True)
    seasons.season_create(league=league, by=users[0])
    private = league_services.league_create(
        creator=users[0], name="Club", game="baobei", is_public=False, join=True
    )
    people = {"player": users[0], "other_seat": users[1], "outsider": users[4]}
    return World(game, open_game, token.pk, bot.pk, people, league, private, users)


def _extend(world: World) -> dict:
    club_game = Game.objects.get(pk=world.with_club().game.pk)
    return {"seat": get_engine("toy").pending(club_game.state)[0]["seats"][0], "hours": 2, "reason": "ill"}


def _paused(world: World) -> dict:
    clock.game_pause(game_id=world.with_club().game.pk, by=None)
    return {"reason": "back"}


def _substitute(world: World) -> dict:
    return {"seat": 0, "username": world.users["outsider"].get_username(), "reason": "left"}


def _play(world: World) -> dict:
    d = get_engine("toy").pending(world.game.state)[0]
    return {
        "action": {"type": "play", "decision_id": d["decision_id"], "card": world.game.state["hands"][0][0]}
    }


#: Expected statuses of the league-management rows: the private club hides from the outsider (404) and
#: refuses its plain member (403); the public league refuses both.
CLUB_ORGANISER = {"outsider": 404, "player": 200, "other_seat": 403}
CLUB_MEMBERS = {"outsider": 404, "player": 200, "other_seat": 200}
PUBLIC_ORGANISER = {"outsider": 403, "player": 200, "other_seat": 403}
SEATED = {"outsider": 403, "player": 200, "other_seat": 200}
#: The game tools on the club's game: the player organises but holds a seat there, so has no organiser
#: power over it (own_game, 403); the plain member is refused as a non-organiser.
CLUB_OWN_GAME = {"outsider": 404, "player": 403, "other_seat": 403}
#: A league's reads need no sign-in, as its page (a public league's); a private one hides from the anonymous.
HIDDEN = {"anonymous": 404}

# (method, path template, body, {role: status}) — anonymous is always 401 unless given: every write,
# and every read but the schema, the docs and a league's (as its page).
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
    ("get", "/api/v1/games/open/", None, {r: 200 for r in ROLES}),
    # the open game takes its players by invitation only
    ("post", "/api/v1/games/{open_game}/take-seat/", {}, {"outsider": 403, "player": 403, "other_seat": 403}),
    (
        "post",
        "/api/v1/games/{open_game}/close-table/",
        None,
        {"outsider": 403, "player": 200, "other_seat": 403},
    ),
    ("post", "/api/v1/games/{open_game}/cancel/", None, {"outsider": 403, "player": 200, "other_seat": 403}),
    # a league's game is nobody's to cancel; the private club's hides from the outsider
    ("post", "/api/v1/games/{club_game}/cancel/", None, {"outsider": 404, "player": 403, "other_seat": 403}),
    ("post", "/api/v1/games/{game}/cancel/", None, {"outsider": 403, "player": 409, "other_seat": 403}),
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
    # a player's page needs no sign-in, as its web page; an unknown name is 404 to everybody
    ("get", "/api/v1/players/{username}/", None, {r: 200 for r in ROLES}),
    ("get", "/api/v1/players/no-such-player/", None, {r: 404 for r in ROLES}),
    ("post", "/api/v1/players/{username}/", {}, {r: 405 for r in ROLES[1:]}),
    ("get", "/api/v1/leagues/", None, {r: 200 for r in ROLES}),
    ("get", "/api/v1/leagues/{league}/", None, {r: 200 for r in ROLES}),
    (
        "get",
        "/api/v1/leagues/{private}/",
        None,
        {"anonymous": 404, "outsider": 404, "player": 200, "other_seat": 404},
    ),
    ("get", "/api/v1/leagues/{league}/seasons/{season}/standings/", None, {r: 200 for r in ROLES}),
    (
        "get",
        "/api/v1/leagues/{private}/seasons/999999/standings/",
        None,
        {r: 404 for r in ROLES},
    ),
    ("post", "/api/v1/leagues/{league}/join/", {}, {"outsider": 200, "player": 200, "other_seat": 200}),
    ("post", "/api/v1/leagues/{private}/join/", {}, {"outsider": 404, "player": 403, "other_seat": 404}),
    (
        "post",
        "/api/v1/leagues/{private}/join/",
        "league_invite",
        {"outsider": 200, "player": 200, "other_seat": 200},
    ),
    ("get", "/api/v1/leagues/no-such-league/", None, {r: 404 for r in ROLES}),
    # --- league management (organisers only; a private league hides from non-members) ---
    ("post", "/api/v1/leagues/", {"name": "New", "game": "baobei"}, {r: 201 for r in ROLES[1:]}),
    ("patch", "/api/v1/leagues/{club}/", {"timing_preset": "daily"}, CLUB_ORGANISER),
    ("patch", "/api/v1/leagues/{league}/", {"name": "Renamed"}, PUBLIC_ORGANISER),
    ("patch", "/api/v1/leagues/{club}/", {"players_per_table": 5}, CLUB_ORGANISER | {"player": 400}),
    ("post", "/api/v1/leagues/{club}/seasons/", {"rounds": 3}, CLUB_ORGANISER | {"player": 409}),
    ("post", "/api/v1/leagues/{league}/seasons/", {}, PUBLIC_ORGANISER | {"player": 409}),
    ("get", "/api/v1/leagues/{club}/seasons/{club_season}/rounds/", None, CLUB_MEMBERS | HIDDEN),
    ("post", "/api/v1/leagues/{club}/seasons/{club_season}/rounds/", None, CLUB_ORGANISER | {"player": 201}),
    ("get", "/api/v1/leagues/{club}/seasons/{club_season}/ratings/", None, CLUB_MEMBERS | HIDDEN),
    ("get", "/api/v1/leagues/{league}/seasons/{season}/ratings/", None, {r: 200 for r in ROLES}),
    ("get", "/api/v1/leagues/{club}/audit-log/", None, CLUB_MEMBERS | HIDDEN),
    ("get", "/api/v1/leagues/{league}/audit-log/", None, {r: 200 for r in ROLES}),
    ("get", "/api/v1/leagues/{league}/seasons/{season}/rounds/", None, {r: 200 for r in ROLES}),
    ("get", "/api/v1/leagues/{league}/seasons/{season}/exports/standings/", None, {r: 200 for r in ROLES}),
    ("get", "/api/v1/leagues/{club}/seasons/{club_season}/exports/games/", None, CLUB_MEMBERS | HIDDEN),
    ("get", "/api/v1/leagues/{club}/members/", None, CLUB_ORGANISER),
    ("get", "/api/v1/leagues/{league}/members/", None, PUBLIC_ORGANISER),
    ("get", "/api/v1/leagues/{club}/invite/", None, CLUB_ORGANISER),
    ("post", "/api/v1/leagues/{league}/members/{pending}/approve/", None, PUBLIC_ORGANISER),
    ("post", "/api/v1/leagues/{league}/members/{pending}/decline/", None, PUBLIC_ORGANISER),
    ("post", "/api/v1/leagues/{club}/members/{pending}/approve/", None, CLUB_ORGANISER | {"player": 404}),
    ("post", "/api/v1/leagues/{club}/email/", {"subject": "Hi", "body": "Round 2"}, CLUB_ORGANISER),
    ("get", "/api/v1/leagues/{club}/games/", None, CLUB_ORGANISER),
    ("get", "/api/v1/leagues/{club}/offers/", None, CLUB_MEMBERS),
    ("post", "/api/v1/leagues/{club}/games/{club_game}/extend/", _extend, CLUB_OWN_GAME),
    ("post", "/api/v1/leagues/{club}/games/{club_game}/pause/", {"reason": "x"}, CLUB_OWN_GAME),
    ("post", "/api/v1/leagues/{club}/games/{club_game}/resume/", _paused, CLUB_OWN_GAME),
    ("post", "/api/v1/leagues/{club}/games/{club_game}/resume/", {}, CLUB_OWN_GAME),
    ("post", "/api/v1/leagues/{club}/games/{club_game}/substitute/", _substitute, CLUB_OWN_GAME),
    (
        "post",
        "/api/v1/leagues/{club}/games/{club_game}/bot-takeover/",
        {"seat": 1, "on": True},
        CLUB_OWN_GAME,
    ),
    (
        "post",
        "/api/v1/leagues/{club}/games/{club_game}/adjudicate/",
        {"places": [2, 1], "reason": "agreed"},
        CLUB_OWN_GAME,
    ),
    ("post", "/api/v1/leagues/{club}/games/{club_game}/abort/", {"reason": "cheat"}, CLUB_OWN_GAME),
    ("post", "/api/v1/leagues/{club}/games/{game}/abort/", {"reason": "x"}, CLUB_ORGANISER | {"player": 404}),
    # --- player clock: vacation, my seat's settings, taking a seat back ---
    ("get", "/api/v1/me/vacation/", None, {r: 200 for r in ROLES[1:]}),
    ("post", "/api/v1/me/vacation/", None, {r: 200 for r in ROLES[1:]}),
    ("delete", "/api/v1/me/vacation/", None, {r: 409 for r in ROLES[1:]}),
    ("get", "/api/v1/games/{game}/seat/", None, SEATED),
    ("patch", "/api/v1/games/{game}/seat/", {"skip_pluck_windows": True}, SEATED),
    ("post", "/api/v1/games/{game}/seat/take-back/", None, SEATED),
    ("post", "/api/v1/games/{game}/seat/hand-over/", None, SEATED),
    ("get", "/api/schema/", None, {"anonymous": 200, "outsider": 200, "player": 200, "other_seat": 200}),
    ("get", "/api/docs/", None, {"anonymous": 200, "outsider": 200, "player": 200, "other_seat": 200}),
]


def _club_ids(world: World) -> dict[str, Any]:
    club = world.with_club()
    return {
        "club": club.league.slug,
        "club_season": club.league.seasons.get().pk,
        "club_game": club.game.pk,
        "pending": club.pending_membership_id,
    }


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
        username=world.users["player"].get_username(),
        **_club_ids(world) if "{club" in template or "{pending}" in template else {},
    )
    if callable(body):
        body = body(world)
    elif body == "invite":
        body = {"invite_token": world.open_game.invitations.get().token}
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
