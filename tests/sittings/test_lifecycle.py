"""A sitting starts at its time, ends at its time or early when everyone present agrees; during it
the game page asks for news every 2 seconds."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.sittings import lifecycle, services
from apps.sittings.models import Sitting
from apps.sittings.signals import sitting_ended, sitting_started
from tests.sittings.setup_helpers import three_at_a_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def _sitting(game: Game, *, in_minutes: float, hours: float = 1) -> Sitting:
    start = timezone.now() + timedelta(minutes=in_minutes)
    return Sitting.objects.create(game=game, starts_at=start, ends_at=start + timedelta(hours=hours))


def test_a_sitting_starts_and_ends_at_its_time_and_says_so(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, _ = table
    sitting = _sitting(game, in_minutes=10)
    heard: list[tuple[str, int]] = []
    sitting_started.connect(
        lambda sender, sitting, **kw: heard.append(("started", sitting.pk)), weak=False, dispatch_uid="t1"
    )
    sitting_ended.connect(
        lambda sender, sitting, **kw: heard.append(("ended", sitting.pk)), weak=False, dispatch_uid="t2"
    )
    try:
        with django_capture_on_commit_callbacks(execute=True):
            before = lifecycle.advance(now=sitting.starts_at - timedelta(seconds=1))
            started = lifecycle.advance(now=sitting.starts_at)
            again = lifecycle.advance(now=sitting.starts_at + timedelta(minutes=5))
            ended = lifecycle.advance(now=sitting.ends_at)
    finally:
        sitting_started.disconnect(dispatch_uid="t1")
        sitting_ended.disconnect(dispatch_uid="t2")

    assert (before, started, again, ended) == (0, 1, 0, 1)
    assert heard == [("started", sitting.pk), ("ended", sitting.pk)]
    sitting.refresh_from_db()
    assert sitting.status == Sitting.Status.ENDED


def test_a_sitting_ends_early_once_everyone_present_asks(table: tuple[Game, list[Any]]) -> None:
    """The absent player's word is not needed: they are not at the table."""
    game, people = table
    sitting = _sitting(game, in_minutes=-5)
    now = timezone.now()
    for user in people[:2]:
        services.presence_seen(game=game, user=user, now=now)

    lifecycle.end_vote(game=game, user=people[0], now=now)
    sitting.refresh_from_db()
    still = sitting.status
    lifecycle.end_vote(game=game, user=people[1], now=now)
    sitting.refresh_from_db()

    assert still != Sitting.Status.ENDED
    assert sitting.status == Sitting.Status.ENDED
    assert sitting.ends_at == now


def test_ending_is_refused_without_a_sitting_under_way(table: tuple[Game, list[Any]]) -> None:
    game, people = table

    with pytest.raises(ServiceError) as refused:
        lifecycle.end_vote(game=game, user=people[0])

    assert refused.value.code == "no_sitting"


def test_during_a_sitting_the_panel_polls_every_2_seconds_and_wakes_the_board(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table
    client = Client()
    client.force_login(people[0])
    quiet = client.get(f"/games/{game.public_id}/sittings/", HTTP_HX_REQUEST="true")
    _sitting(game, in_minutes=-1)

    live = client.get(f"/games/{game.public_id}/sittings/", HTTP_HX_REQUEST="true")
    page = client.get(game.get_absolute_url()).content.decode()

    assert 'hx-trigger="every 10s"' in quiet.content.decode()
    assert "HX-Trigger" not in quiet.headers
    assert 'hx-trigger="every 2s"' in live.content.decode()
    assert live.headers["HX-Trigger"] == "sittings-tick"
    assert "A sitting is under way: it ends at" in live.content.decode()
    assert "sittings-tick from:body" in page
    assert Sitting.objects.get(game=game).status == Sitting.Status.LIVE
