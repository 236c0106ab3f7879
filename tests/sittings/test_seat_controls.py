"""Fairness inside a sitting (issue point 6): only the players at the table run on the live control; an
absent player who answers or times out during the sitting runs on the game's own control (its
increment, cap and deadline), so their bank is what it would have been without the sitting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.games import pipeline
from apps.games.models import Decision, Game, Seat
from apps.games.store import lock_game
from apps.notifications import notify
from apps.sittings import lifecycle, services
from apps.sittings.models import Sitting
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

#: The game's own control: 10 minutes to start, +1 hour per answer, up to 2 hours.
OWN = {"initial": 600, "increment": 3600, "cap": 7200, "reaction": 60}
LIVE_CAP = 15 * 60


@pytest.fixture
def table(toy_engine: str) -> tuple[Game, list[Any]]:
    """A started 3-seat toy game on the control ``OWN``: seat 0 owes the first turn."""
    people = [UserFactory() for _ in range(3)]
    game = GameFactory(engine=toy_engine, players=3, seated=people, control="custom", control_custom=OWN)
    return game, people


def _start(game: Game, people: list[Any], present: list[int], now: Any) -> Sitting:
    for position in present:
        services.presence_seen(game=game, user=people[position], now=now)
    sitting = Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1))
    lifecycle.advance(now=now, game=game)
    sitting.refresh_from_db()
    return sitting


def _play(game: Game, user: Any, seat: int) -> None:
    game.refresh_from_db()
    turn = Decision.objects.get(game=game, seat=seat)
    card = min(game.state["hands"][seat])
    pipeline.submit_action(
        game_id=game.pk, user=user, action={"type": "play", "card": card, "decision_id": turn.decision_id}
    )


def _bank(game: Game, position: int) -> float:
    return Seat.objects.get(game=game, position=position).bank_seconds or 0.0


def test_each_seat_runs_on_its_own_control_live_only_when_present(table: tuple[Game, list[Any]]) -> None:
    """Point 6: the bank book knows which seats are live; an absent seat keeps the game's own control."""
    game, people = table
    now = timezone.now()

    _start(game, people, [1, 2], now)
    game.refresh_from_db()
    during = [game.seat_control(p).name for p in range(3)]
    lifecycle.arrive(game=game, position=0, now=now + timedelta(minutes=1))
    game.refresh_from_db()
    arrived = game.seat_control(0).name

    assert during == ["custom", "live", "live"]
    assert arrived == "live"


def test_an_absent_player_who_answers_during_a_sitting_gets_their_own_increment(
    table: tuple[Game, list[Any]],
) -> None:
    """Point 6: an answer from an absent seat adds the game's own increment, capped at its own cap (the
    live control would have left at most 15 minutes)."""
    game, people = table
    sitting = _start(game, people, [1, 2], timezone.now())

    _play(game, people[0], 0)
    during = _bank(game, 0)
    lifecycle.advance(now=sitting.ends_at, game=game)

    assert during == pytest.approx(600 + 3600, abs=5)
    assert during > LIVE_CAP
    assert _bank(game, 0) == during  # the end of the sitting leaves it as it is


def test_an_absent_player_who_times_out_during_a_sitting_gets_their_own_increment(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 6: the absent seat's deadline is its own bank's (10 minutes), and a timeout leaves it the
    game's own increment (1 hour), not the live control's 30 s."""
    game, people = table
    now = timezone.now()
    deadline = Decision.objects.get(game=game, seat=0).deadline
    _start(game, people, [1, 2], now)
    late = now + timedelta(minutes=11)
    monkeypatch.setattr(timezone, "now", lambda: late)

    with transaction.atomic():
        applied = pipeline.settle(lock_game(game.pk), late)

    assert Decision.objects.filter(game=game, seat=0).exists() is False
    assert deadline is not None and deadline <= late
    assert applied >= 1
    assert _bank(game, 0) == pytest.approx(3600)
    assert Seat.objects.get(game=game, position=0).consecutive_timeouts == 1


def test_present_banks_are_restored_and_absent_banks_untouched_at_the_end(
    table: tuple[Game, list[Any]],
) -> None:
    """Point 3 and 6: at the end the players who played live get their banks back as they were when
    they joined; the absent player's bank is the one their own control gave them."""
    game, people = table
    now = timezone.now()
    sitting = _start(game, people, [0, 1], now)
    saved = dict(sitting.saved_clock["banks"])  # type: ignore[index]
    _play(game, people[0], 0)  # seat 0 plays live: its live bank changes
    live_bank = _bank(game, 0)

    for position in (0, 1):
        lifecycle.end_vote(game=game, user=people[position], now=now)
    game.refresh_from_db()

    assert set(saved) == {"0", "1"}
    assert live_bank <= LIVE_CAP
    assert _bank(game, 0) == pytest.approx(saved["0"])
    assert Seat.objects.get(game=game, position=2).bank_seconds is None  # absent, unused: the initial bank
    assert game.live_clock is None and game.control == "custom"
    assert [game.seat_control(p).name for p in range(3)] == ["custom"] * 3


def test_an_absent_player_is_still_mailed_their_turn_during_a_sitting(table: tuple[Game, list[Any]]) -> None:
    """Point 6: live games are not mailed by default, but an absent player plays by correspondence."""
    game, people = table
    _start(game, people, [1, 2], timezone.now())
    game.refresh_from_db()

    assert notify._plays_live(people[0], game) is False
    assert notify._plays_live(people[1], game) is True
