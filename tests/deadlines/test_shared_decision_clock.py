"""BB-30.6 with a player on vacation: a simultaneous decision runs on one clock for all its owners, so
what another owner or a spectator sees of its deadline never depends on who has answered."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

from apps.games import clock, pipeline
from apps.games.models import Decision, Game

from .helpers import a_game, pending

pytestmark = pytest.mark.django_db


def _peek(game: Game, user: Any) -> None:
    d = pending(game)[0]
    pipeline.submit_action(
        game_id=game.pk,
        user=user,
        action={"type": "choose_peek", "decision_id": d["decision_id"], "slots": [0, 1]},
    )


def _seen(game: Game, user: Any) -> list[Any]:
    """The open decisions with their deadlines, as ``user`` reads them through the API."""
    client = Client()
    client.force_login(user)
    return client.get(f"/api/v1/games/{game.pk}/").json()["decisions"]


def _seen_on_the_page(game: Game, user: Any) -> bytes:
    """The clocks of the game page: what the game waits for, and until when (the deadlines, without the
    time left, which moves on between two requests)."""
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.public_id}/").content
    start = page.index(b'<ul class="clocks"')
    return re.sub(rb'<strong class="left">[^<]*</strong>', b"", page[start : page.index(b"</ul>", start)])


@pytest.fixture
def setup_peek(users: list) -> Game:
    """A three-player Bao Bei game in its setup peek (seats 0, 1, 2), every owner's clock running."""
    game = a_game("baobei", users, players=3)
    assert pending(game)[0]["kind"] == "setup_peek"
    return game


def test_another_owners_answer_does_not_change_a_third_owners_deadline_while_one_is_away_bb_30_6(
    setup_peek: Game, users: list
) -> None:
    """Seat 0 is away; seat 2 has answered. Seat 1's answer must not show in what seat 2 (or a
    spectator) sees of the setup peek's deadline."""
    clock.vacation_start(user=users[0])
    _peek(setup_peek, users[2])
    before = (
        _seen(setup_peek, users[2]),
        _seen(setup_peek, users[4]),
        _seen_on_the_page(setup_peek, users[2]),
    )

    _peek(setup_peek, users[1])

    after = (
        _seen(setup_peek, users[2]),
        _seen(setup_peek, users[4]),
        _seen_on_the_page(setup_peek, users[2]),
    )
    assert after == before


def test_the_deadline_does_not_move_when_a_returned_player_answers_bb_30_6(
    setup_peek: Game, users: list
) -> None:
    """Seat 0 comes back after an hour away; seat 2 has not answered. When seat 0 answers, what the
    others see of the deadline stays as it was."""
    clock.vacation_start(user=users[0])
    _peek(setup_peek, users[1])
    later = timezone.now() + timedelta(hours=1)
    with mock.patch("apps.games.clock.vacation.timezone.now", return_value=later):
        clock.vacation_end(user=users[0])
    before = (
        _seen(setup_peek, users[1]),
        _seen(setup_peek, users[4]),
        _seen_on_the_page(setup_peek, users[1]),
    )

    _peek(setup_peek, users[0])

    after = (
        _seen(setup_peek, users[1]),
        _seen(setup_peek, users[4]),
        _seen_on_the_page(setup_peek, users[1]),
    )
    assert after == before


def test_every_owner_of_a_setup_peek_has_the_same_clock_through_a_vacation(
    setup_peek: Game, users: list
) -> None:
    """One clock for all owners: stopped for every owner while a seat is away, restarted for every
    owner, with the same time left, when it comes back."""
    clock.vacation_start(user=users[0])
    stopped = {(r.deadline, r.remaining) for r in Decision.objects.filter(game=setup_peek)}
    clock.vacation_end(user=users[0])
    running = {(r.deadline, r.remaining) for r in Decision.objects.filter(game=setup_peek)}

    assert len(stopped) == 1 and next(iter(stopped))[0] is None
    assert len(running) == 1 and next(iter(running))[0] is not None


def test_a_present_owner_does_not_time_out_while_another_owner_is_away(setup_peek: Game, users: list) -> None:
    """The price of hiding who has answered: the setup peek waits for everyone's return."""
    clock.vacation_start(user=users[0])

    later = timezone.now() + timedelta(days=3)
    with mock.patch("apps.games.clock.settlement.timezone.now", return_value=later):
        settled = clock.settle_game(setup_peek.pk)

    assert settled == 0
    assert Decision.objects.filter(game=setup_peek).count() == 3
