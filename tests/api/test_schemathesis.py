"""Property-based tests of the API against its own OpenAPI schema (schemathesis, derandomized, bounded).

Every operation is called with generated data valid for the schema (positive) and, in a test of its
own, invalid (negative), authenticated with a personal token, with the path ids pointed at real
objects (an active league game of the caller, the league they organise, its season, a pending
request to join, their bot, a spare token) so the authenticated paths run too. Checks: no
5xx, documented status codes and content types, bodies that match the schema, and every request the
schema forbids refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from apps.api import services as api_services
from apps.leagues import game_tools, seasons
from apps.leagues import services as league_services
from apps.sittings import services as sitting_services
from apps.webhooks import services as webhook_services
from baogame.wsgi import application

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture(autouse=True)
def _keep_connection_open(db: None) -> Iterator[None]:
    """Like Django's test client, keep the test's database connection across WSGI requests.

    The WSGI handler would otherwise close it at the end of each request, inside the test's transaction.
    """
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_world(db: None, make_user: Any, settings: Any) -> dict[str, Any]:
    """A caller with a token, an active Bao Bei league game against another player in a league the caller
    organises (with a season, a pending request to join and a seat of the game offered to a substitute),
    a proposed sitting of the game the caller may answer, a webhook, a bot account, a spare token."""
    settings.API_WRITE_RATE = "off"  # generated writes must not run into the rate limit
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    me, other = make_user(username="fuzz-me"), make_user(username="fuzz-other")
    # A league the caller organises: its round-1 game (against the other player) is "the game".
    league = league_services.league_create(creator=me, name="Fuzz league", game="baobei", join=True)
    league_services.membership_join_by_link(league=league, user=other, token=league.invite_token)
    season = seasons.season_create(league=league, by=me)
    game = seasons.round_start(season_id=season.pk, by=me).fixtures.get().game
    pending = league_services.membership_request(league=league, user=make_user(username="fuzz-asks"))
    substitute = make_user(username="fuzz-sub")
    league_services.membership_join_by_link(league=league, user=substitute, token=league.invite_token)
    admin = make_user(username="fuzz-admin")  # the caller plays the game: a site admin offers its seat
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    offer = game_tools.seat_substitute(league=league, game_id=game.pk, position=1, user=substitute, by=admin)
    proposal = sitting_services.proposal_create(
        game=game, user=other, times=[timezone.now() + timedelta(days=3)]
    )  # the caller may answer it
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # an endpoint to an address literal: no DNS in the test
    endpoint = webhook_services.endpoint_create(user=me, url="https://127.0.0.1/hook", secret="s" * 20)
    bot = api_services.bot_account_create(owner=me, username="fuzzbot")
    spare, _ = api_services.token_create(user=me, name="spare")
    _, raw = api_services.token_create(user=me, name="fuzz")
    ids = {
        "game_id": game.pk,
        "bot_id": bot.pk,
        "token_id": spare.pk,
        "slug": league.slug,
        "season_id": season.pk,
        "membership_id": pending.pk,
        "offer_id": offer.pk,
        "proposal_id": proposal.pk,
        "endpoint_id": endpoint.pk,
    }
    return {"token": raw, "ids": ids}


# The schema is served by the WSGI application itself, which then also answers the generated calls. One
# schema per generation mode, so that every operation gets its own examples of each: valid data (the
# answer, an acceptance or a refusal such as 400/404/409/422, must be documented and match the schema)
# and invalid data (it must be refused, with a documented answer too).
positive = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
positive.config.generation.update(modes=[GenerationMode.POSITIVE])
negative = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
negative.config.generation.update(modes=[GenerationMode.NEGATIVE])

EXAMPLES = settings(
    max_examples=15,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _call_and_validate(case: Any, world: dict[str, Any]) -> None:
    path = case.meta.components.get(ParameterLocation.PATH) if case.meta else None
    if path is None or not path.mode.is_negative:  # an invalid id stays invalid (the answer is a 404)
        for name in case.path_parameters or {}:
            if name in world["ids"]:
                case.path_parameters[name] = world["ids"][name]

    response = case.call(headers={"Authorization": f"Bearer {world['token']}"})

    case.validate_response(response, checks=CHECKS)


@positive.parametrize()
@EXAMPLES
@pytest.mark.django_db
def test_api_answers_valid_data_as_its_schema_says(case: Any, fuzz_world: dict[str, Any]) -> None:
    """Positive data: no 5xx, and every answer (2xx, or a refusal the rules make) is documented, of the
    documented content type, and matches the response schema. (Acceptance itself is not asserted: a
    move the schema allows may be one the rules refuse.)"""
    assert case.meta is None or case.meta.generation.mode is GenerationMode.POSITIVE
    _call_and_validate(case, fuzz_world)


@negative.parametrize()
@EXAMPLES
@pytest.mark.django_db
def test_api_refuses_invalid_data_as_its_schema_says(case: Any, fuzz_world: dict[str, Any]) -> None:
    """Negative data: no 5xx, refused (``negative_data_rejection``), with a documented answer."""
    _call_and_validate(case, fuzz_world)


def test_the_runs_have_the_coverage_and_fuzzing_phases() -> None:
    """Each run covers the schema's boundaries (coverage phase: every case the schema
    defines, e.g. the smallest and largest integer of each parameter) and then fuzzes it."""
    for schema in (positive, negative):
        phases = schema.config.phases_for(operation=None)
        assert phases.coverage.enabled and phases.fuzzing.enabled
