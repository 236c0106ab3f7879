"""A player who leaves during a sitting (apps.games.clock.leaving, docs/playing.md "Sittings").

A seat that plays live and whose live bank runs out while its player's page is closed is not timed
out: it goes the absent player's way from its live deadline, on the bank it had when it joined (the
game's own control), without a timeout counted, and its player is mailed their turn. Their page's next
request brings them back into the live play; a sitting still gives every bank back as it was. A player
still at the table whose live bank runs out times out as in any live game.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.games import clock, pipeline
from apps.games.models import Decision, Game, Move, Seat
from apps.games.store import lock_game
from apps.games.views import poll_key
from apps.notifications.models import Notification
from apps.sittings import lifecycle, services
from apps.sittings.models import Sitting
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

#: The game's own control: 10 minutes to start, +1 hour per answer, up to 2 hours.
OWN = {"initial": 600, "increment": 3600, "cap": 7200, "reaction": 60}
OWN_BANK = timedelta(seconds=600)
LIVE_BANK = timedelta(minutes=15)
#: The seat that leaves: its turn opens during the live play.
LEAVER = 1


@pytest.fixture
def table(toy_engine: str) -> tuple[Game, list[Any]]:
    """A started 3-seat toy game on the control ``OWN``: seat 0 owes the first turn."""
    people = [UserFactory() for _ in range(3)]
    game = GameFactory(engine=toy_engine, players=3, seated=people, control="custom", control_custom=OWN)
    return game, people


def _send(game: Game, user: Any, seat: int, kind: str) -> None:
    game.refresh_from_db()
    row = Decision.objects.get(game=game, seat=seat)
    action = {"type": kind, "decision_id": row.decision_id}
    if kind == "play":
        action["card"] = min(game.state["hands"][seat])
    pipeline.submit_action(game_id=game.pk, user=user, action=action)


def _sitting_with_the_leavers_turn(game: Game, people: list[Any]) -> tuple[Sitting, datetime]:
    """Everyone is here when the sitting starts; seat 0 plays, the window is passed, and seat 1's turn
    opens on its live bank. Returns the sitting and seat 1's live deadline."""
    now = timezone.now()
    for user in people:
        services.presence_seen(game=game, user=user, now=now)
    Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1))
    lifecycle.advance(now=now, game=game)
    _send(game, people[0], 0, "play")
    _send(game, people[1], 1, "pass")
    _send(game, people[2], 2, "pass")
    deadline = _turn(game).deadline
    assert deadline is not None
    return Sitting.objects.get(game=game), deadline


def _turn(game: Game) -> Decision:
    return Decision.objects.get(game=game, seat=LEAVER)


def _settle(game: Game, at: datetime, monkeypatch: pytest.MonkeyPatch) -> int:
    """Settle the game at ``at`` (a deadline task or the sweep then)."""
    monkeypatch.setattr(timezone, "now", lambda: at)
    with transaction.atomic():
        applied = pipeline.settle(lock_game(game.pk), at)
    monkeypatch.undo()
    return applied


def _seat(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def _live(game: Game) -> set[int]:
    game.refresh_from_db()
    return {int(p) for p in (game.live_clock or {}).get("banks", {})}


def test_a_player_who_left_goes_back_to_their_own_bank_instead_of_timing_out(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their page closed, their live bank runs out: no timeout is applied or counted; their turn runs on
    the bank they had when they joined (10 minutes), from the live deadline, on the game's own control."""
    game, people = table
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)

    applied = _settle(game, live_deadline + timedelta(seconds=1), monkeypatch)
    game.refresh_from_db()

    assert applied == 0
    assert not Move.objects.filter(game=game, seat=LEAVER, by_timeout=True).exists()
    assert _turn(game).deadline == live_deadline + OWN_BANK
    assert _seat(game, LEAVER).consecutive_timeouts == 0 and not _seat(game, LEAVER).bot_takeover
    assert _live(game) == {0, 2}
    assert game.seat_control(LEAVER).name == "custom"
    assert Sitting.objects.get(game=game).status == Sitting.Status.LIVE


def test_the_player_who_left_is_mailed_their_turn(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their turn opened while they played live (not mailed: a live game); once gone, they are told as in
    correspondence, once."""
    game, people = table
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)
    before = Notification.objects.filter(user=people[LEAVER], kind=Notification.Kind.DECISION).count()

    _settle(game, live_deadline + timedelta(seconds=1), monkeypatch)
    _settle(game, live_deadline + timedelta(seconds=2), monkeypatch)
    told = list(Notification.objects.filter(user=people[LEAVER], kind=Notification.Kind.DECISION))

    assert before == 0
    assert [(n.seat, n.decision_id) for n in told] == [(LEAVER, _turn(game).decision_id)]


def test_a_player_still_at_the_table_times_out_as_in_any_live_game(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their page keeps asking: the live timeout applies and counts (else every live timeout would give
    them their correspondence bank back, and the next poll a fresh live one)."""
    game, people = table
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)
    late = live_deadline + timedelta(seconds=1)
    services.presence_seen(game=game, user=people[LEAVER], now=late - timedelta(seconds=5))

    applied = _settle(game, late, monkeypatch)

    assert applied == 1
    assert Move.objects.filter(game=game, seat=LEAVER, by_timeout=True).count() == 1
    assert _seat(game, LEAVER).consecutive_timeouts == 1
    assert LEAVER in _live(game)


def test_leaving_again_and_again_never_hands_the_seat_to_the_bot_and_keeps_the_bank_exact(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three live banks run out with the page closed, the player back a minute after each: no timeout
    counts towards the take-over (three in a row would hand the seat over), each return joins the live
    play, and when the sitting ends the seat's own bank is what it had, less the three minutes it ran
    while they were away."""
    game, people = table
    sitting, deadline = _sitting_with_the_leavers_turn(game, people)
    joined = []

    for _ in range(3):
        _settle(game, deadline + timedelta(seconds=1), monkeypatch)
        back = deadline + timedelta(minutes=1)
        services.presence_seen(game=game, user=people[LEAVER], now=back)
        joined.append(lifecycle.arrive(game=game, position=LEAVER, now=back))
        deadline = _turn(game).deadline  # type: ignore[assignment]
        assert deadline == back + LIVE_BANK
    lifecycle.advance(now=sitting.ends_at, game=game)

    assert joined == [True, True, True]
    assert _seat(game, LEAVER).consecutive_timeouts == 0 and not _seat(game, LEAVER).bot_takeover
    assert not Move.objects.filter(game=game, by_timeout=True).exists()
    assert _turn(game).deadline == sitting.ends_at + OWN_BANK - timedelta(minutes=3)


def test_a_player_away_longer_than_their_own_bank_times_out_by_correspondence(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settled late (no worker ran): the own bank ran from the live deadline, so it is empty too; that
    timeout is a correspondence one, counted, with the game's own increment."""
    game, people = table
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)

    applied = _settle(game, live_deadline + OWN_BANK + timedelta(minutes=1), monkeypatch)

    assert applied == 1
    assert Move.objects.filter(game=game, seat=LEAVER, by_timeout=True).count() == 1
    assert _seat(game, LEAVER).consecutive_timeouts == 1
    assert _seat(game, LEAVER).bank_seconds == pytest.approx(OWN["increment"])


def test_the_bot_plays_for_a_player_who_left_with_the_order_until_they_are_back(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The order "if I miss a sitting, the bot plays my seat until I arrive" covers a player who left:
    the bot stands in from the next look at the sitting, and their page's next request hands it back."""
    game, people = table
    Seat.objects.filter(game=game, position=LEAVER).update(sitting_bot=True)  # the order (the toy has none)
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)
    late = live_deadline + timedelta(seconds=1)
    _settle(game, late, monkeypatch)

    lifecycle.advance(now=late, game=game)
    stood_in = (Sitting.objects.get(game=game).stand_ins, _seat(game, LEAVER).bot_takeover)
    services.presence_seen(game=game, user=people[LEAVER], now=late + timedelta(minutes=1))
    lifecycle.arrive(game=game, position=LEAVER, now=late + timedelta(minutes=1))

    assert stood_in == ([LEAVER], True)
    assert Sitting.objects.get(game=game).stand_ins == []
    assert not _seat(game, LEAVER).bot_takeover
    assert LEAVER in _live(game)


def test_an_open_page_is_drawn_again_when_a_player_leaves(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The leaver's clock goes from minutes to their own bank without a move: the board's poll key
    changes, so the others' pages show it."""
    game, people = table
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)
    game.refresh_from_db()
    before = poll_key(game, None, game.version)

    _settle(game, live_deadline + timedelta(seconds=1), monkeypatch)
    game.refresh_from_db()

    assert before.endswith("-live0.1.2")
    assert poll_key(game, None, game.version).endswith("-live0.2")


def test_the_sweeps_batch_settlement_puts_a_leaver_back_on_their_own_bank_too(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The beat's sweep settles due games in batches, their writes together: the same leave."""
    game, people = table
    _, live_deadline = _sitting_with_the_leavers_turn(game, people)
    late = live_deadline + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: late)

    applied = clock.settle_overdue(now=late)

    assert applied == 0
    assert _turn(game).deadline == live_deadline + OWN_BANK
    assert _live(game) == {0, 2}
    assert Notification.objects.filter(user=people[LEAVER], kind=Notification.Kind.DECISION).count() == 1
