"""Every operation refuses what its schema forbids (400 ``invalid``), instead of coercing it.

DRF would read ``0`` as the string ``"0"``, ``"1.0"`` or ``""`` as an integer or the default, ``"yes"``
as a boolean and ``"2030-01-01 10:00"`` as a date-time; the OpenAPI schema promises JSON types and
RFC 3339, so those are refused. A few accepted values guard against refusing too much.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game
from apps.leagues import services as league_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(users: list, toy_game: Game) -> dict[str, Any]:
    """users[0]: seated in ``toy_game`` and organiser of a league with users[1] as a member."""
    league = league_services.league_create(creator=users[0], name="Strict league", game="baobei", join=True)
    league_services.membership_join_by_link(league=league, user=users[1], token=league.invite_token)
    return {"game": toy_game.pk, "slug": league.slug}


REFUSED_QUERIES = [
    "games/{game}/history/?after=1.0",
    "games/{game}/history/?after=",
    "games/{game}/history/?after=%D9%A3",  # an Arabic-Indic three: int() reads it
    "games/{game}/history/?limit=1_0",
    "games/{game}/history/?limit=%205",
    "games/{game}/legal/?offset=1.0",
    "games/{game}/legal/?limit=",
    "games/{game}/legal/?limit=true",
    "games/?waiting=yes",
    "games/?waiting=1",
    "games/?waiting=",
    "leagues/{slug}/audit-log/?limit=2.0",
]


@pytest.mark.parametrize("path", REFUSED_QUERIES)
def test_wrongly_typed_query_values_are_refused(client_for: Any, users: list, world: dict, path: str) -> None:
    response = client_for(users[0]).get("/api/v1/" + path.format(**world))

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


@pytest.mark.parametrize(
    "path",
    ["games/{game}/history/?after=0&limit=5", "games/{game}/legal/?offset=0&limit=2", "games/?waiting=true"],
)
def test_well_typed_query_values_are_accepted(client_for: Any, users: list, world: dict, path: str) -> None:
    assert client_for(users[0]).get("/api/v1/" + path.format(**world)).status_code == 200


def test_a_wrongly_typed_legal_parameter_of_a_move_is_refused(
    client_for: Any, users: list, world: dict
) -> None:
    response = client_for(users[0]).post(
        f"/api/v1/games/{world['game']}/actions/?legal=", {"action": {"type": "play"}}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


REFUSED_BODIES = [
    ("patch", "me/", {"time_zone": ""}),
    ("patch", "me/", {"display_name": 5}),
    ("patch", "me/", {"display_name": " " * 61}),  # too long before DRF would trim it to ""
    ("post", "tokens/", {"name": 0}),
    ("post", "bots/", {"username": 12345}),
    ("patch", "me/notifications/", {"live_games": 1}),
    ("patch", "me/notifications/", {"digest_hour": "7"}),
    ("post", "games/", {"engine": "baobei", "players": 2, "bot": ""}),
    ("post", "games/", {"engine": "baobei", "players": "2"}),
    ("post", "games/", {"engine": "baobei", "players": 2, "take_seat": "yes"}),
    ("post", "games/{game}/bots/", {"position": 1, "bot": ""}),
    ("patch", "games/{game}/seat/", {"skip_pluck_windows": 0}),
    ("patch", "leagues/{slug}/", {"points_table": "3,2,1"}),
    ("patch", "leagues/{slug}/", {"points_table": ["3", 2, 1]}),
    ("post", "leagues/{slug}/email/", {"subject": "News", "body": 5}),
    ("post", "leagues/{slug}/email/", {"subject": "News\r\nBcc: everyone@example.com", "body": "Hello"}),
    ("post", "leagues/{slug}/email/", {"subject": "News\x07", "body": "Hello"}),
    ("post", "leagues/{slug}/seasons/", {"starts_at": "2030-01-31 18:00"}),
    ("post", "leagues/{slug}/seasons/", {"starts_at": "2030-01-31"}),
    ("post", "leagues/{slug}/seasons/", {"starts_at": "2030-01-31T18:00:00"}),
    ("post", "leagues/{slug}/seasons/", {"starts_at": 1900000000}),
]


@pytest.mark.parametrize(("method", "path", "body"), REFUSED_BODIES)
def test_body_values_the_schema_forbids_are_refused(
    client_for: Any, users: list, world: dict, method: str, path: str, body: dict
) -> None:
    client = client_for(users[0])

    response = getattr(client, method)("/api/v1/" + path.format(**world), body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_an_rfc_3339_season_start_is_accepted(client_for: Any, users: list, world: dict) -> None:
    response = client_for(users[0]).post(
        f"/api/v1/leagues/{world['slug']}/seasons/", {"starts_at": "2030-01-31T18:00:00+01:00"}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["starts_at"].startswith("2030-01-31T17:00:00")


def test_an_organiser_mail_with_a_plain_subject_is_sent(client_for: Any, users: list, world: dict) -> None:
    response = client_for(users[0]).post(
        f"/api/v1/leagues/{world['slug']}/email/",
        {"subject": "News: round 2", "body": "Hi\nall"},
        format="json",
    )

    assert response.status_code == 200
    assert response.json()["sent"] >= 1
