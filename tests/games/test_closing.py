"""A closed account's games (``apps.games.closing``): one short transaction per game, after the closing.

The closing commits first and locks no game; the account is unusable from then on. Each game is then let
go of in a transaction of its own (the bot plays the seat of a game in play or paused, a seat of a game
not started is free again), by a task queued on commit; what a crash leaves is finished by the sweep,
and nothing is done twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from apps.accounts.closing import account_close
from apps.accounts.models import VacationSpell
from apps.api import services as api_services
from apps.games import clock, closing, lifecycle, reliability, signals
from apps.games.errors import ServiceError
from apps.games.models import Decision, Game, Seat
from tests.factories import GameFactory, UserFactory, signed_in

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-123"  # tests.factories.UserFactory's


@pytest.fixture
def ann() -> Any:
    return UserFactory(username="ann")


@pytest.fixture
def handed() -> Iterator[Counter[tuple[int, int]]]:
    """Every hand-over of a closed account's seat to the bot, counted by (game, seat): the reliability
    record's and the organisers' (``signals.closed_seat_to_bot``) each once per seat."""
    counts: Counter[tuple[int, int]] = Counter()

    def told(sender: Any, *, game_id: int, seat: int, **kwargs: Any) -> None:
        counts[(game_id, seat)] += 1

    signals.closed_seat_to_bot.connect(told, dispatch_uid="tests.closing.handed")
    yield counts
    signals.closed_seat_to_bot.disconnect(dispatch_uid="tests.closing.handed")


def _closed_without_its_task(user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Close ``user``'s account as the page does, but lose the task queued on commit (a broker down, a
    worker killed): only the closing's own transaction is done."""
    monkeypatch.setattr(closing.scheduling, "queue_closed_account", lambda user_id: None)
    account_close(user=user, password=PASSWORD)


def _seat(game: Game, user: Any) -> Seat:
    return Seat.objects.get(game=game, user=user)


def test_a_person_in_several_games_has_each_game_let_go_of_once_the_closing_commits(
    ann: Any, users: list[Any], handed: Counter[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    """In play: the bot plays the seat; paused: the bot plays it when the game resumes; not started: the
    seat is free again, and a game left with nobody in it is aborted."""
    playing = GameFactory(engine="baobei", players=2, seated=[ann, users[0]])
    paused = GameFactory(engine="baobei", players=2, seated=[users[1], ann])
    clock.game_pause(game_id=paused.pk, by=None)
    waiting = lifecycle.game_create(creator=users[2], engine="baobei", players=3)
    lifecycle.game_join(game_id=waiting.pk, user=ann)
    alone = lifecycle.game_create(creator=ann, engine="baobei", players=3)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        account_close(user=ann, password=PASSWORD)

    assert callbacks  # the games' task, queued for when the closing commits
    assert _seat(playing, ann).bot_takeover and Game.objects.get(pk=playing.pk).status == Game.Status.ACTIVE
    assert _seat(paused, ann).bot_takeover and Game.objects.get(pk=paused.pk).status == Game.Status.PAUSED
    assert not Seat.objects.filter(game=waiting, user=ann).exists()
    assert Game.objects.get(pk=waiting.pk).status == Game.Status.OPEN
    assert Game.objects.get(pk=alone.pk).status == Game.Status.ABORTED
    assert handed == {(playing.pk, 0): 1, (paused.pk, 1): 1}


def test_the_account_is_unusable_from_the_closings_own_transaction_on(
    ann: Any, users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before any game is let go of: no sign-in, no session, no token, no new seat (``account_closed``)."""
    _, raw = api_services.token_create(user=ann, name="laptop")
    browser = signed_in(ann)
    playing = GameFactory(engine="baobei", players=2, seated=[ann, users[0]])
    waiting = lifecycle.game_create(creator=users[1], engine="baobei", players=3)

    _closed_without_its_task(ann, monkeypatch)

    assert not _seat(playing, ann).bot_takeover  # its game is not let go of yet
    assert not Client().login(username="ann", password=PASSWORD)
    assert browser.get("/accounts/profile/").status_code == 302
    assert Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
    with pytest.raises(ServiceError) as refused:
        lifecycle.game_join(game_id=waiting.pk, user=ann)  # a request authenticated just before
    assert refused.value.code == "account_closed"
    assert not Seat.objects.filter(game=waiting, user=ann).exists()


def test_a_crash_after_the_first_games_leaves_the_rest_to_the_sweep_which_does_each_once(
    ann: Any,
    users: list[Any],
    handed: Counter[tuple[int, int]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The step of the third game fails after its writes: the first two stay done (each committed on its
    own), the third rolls back alone; the sweep finishes the third and fourth, and a second sweep or a
    retried task changes nothing: each seat went to the bot once, its reliability record marked once."""
    games = [GameFactory(engine="baobei", players=2, seated=[ann, users[i]]) for i in range(4)]
    marked: Counter[int] = Counter()  # the marks that committed (a rolled-back one's callback is dropped)
    real_mark, real_to_bot = reliability.handed_to_bot, lifecycle.seat_to_bot

    def mark(seat: Any) -> None:
        real_mark(seat)
        transaction.on_commit(lambda: marked.update([seat.game_id]))

    def crash_in_the_third(locked: Any, seat: Any) -> bool:
        done = real_to_bot(locked, seat)
        if locked.game.pk == games[2].pk:
            raise RuntimeError("the worker died half way")
        return done

    monkeypatch.setattr(reliability, "handed_to_bot", mark)
    _closed_without_its_task(ann, monkeypatch)
    monkeypatch.setattr(lifecycle, "seat_to_bot", crash_in_the_third)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        closing.closed_account_let_go(user_id=ann.pk)

    assert [_seat(g, ann).bot_takeover for g in games] == [True, True, False, False]
    assert marked == {games[0].pk: 1, games[1].pk: 1}
    monkeypatch.setattr(lifecycle, "seat_to_bot", real_to_bot)

    with django_capture_on_commit_callbacks(execute=True):
        swept = closing.closed_accounts_sweep()
        again = closing.closed_accounts_sweep() + closing.closed_account_let_go(user_id=ann.pk)

    assert (swept, again) == (2, 0)
    assert all(_seat(g, ann).bot_takeover for g in games)
    assert handed == {(g.pk, 0): 1 for g in games}
    assert marked == {g.pk: 1 for g in games}
    assert not Seat.objects.filter(closing.LEFT_TO_LET_GO).exists()


def test_the_sweep_frees_a_seat_a_request_under_way_gave_the_account_after_it_closed(
    ann: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game created by a request authenticated before the closing committed: its creator's seat is
    free again and the game, with nobody in it, aborted."""
    _closed_without_its_task(ann, monkeypatch)
    late = lifecycle.game_create(creator=ann, engine="baobei", players=2)

    assert closing.closed_accounts_sweep() == 1

    assert Game.objects.get(pk=late.pk).status == Game.Status.ABORTED
    assert not Seat.objects.filter(game=late, user=ann).exists()


def test_the_sweep_leaves_an_inactive_account_that_is_not_closed_alone(users: list[Any]) -> None:
    """Only a closed account (``closed-<id>``) is let go of: an account a site admin switched off keeps
    its seats."""
    game = GameFactory(engine="baobei", players=2, seated=users[:2])
    users[0].is_active = False
    users[0].save()

    assert closing.closed_accounts_sweep() == 0
    assert closing.closed_account_let_go(user_id=users[0].pk) == 0
    assert not _seat(game, users[0]).bot_takeover


def test_a_vacation_ends_at_closing_and_each_games_clocks_run_again_when_it_is_let_go_of(
    ann: Any, users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closing's transaction ends the vacation in the profile (its days counted) without locking a
    game; each game's own step restarts the clocks it stopped, so the bot answers what is open."""
    game = GameFactory(engine="baobei", players=2, seated=[ann, users[0]])
    clock.vacation_start(user=ann)
    assert Decision.objects.filter(game=game, deadline=None).exists()

    _closed_without_its_task(ann, monkeypatch)

    ann.profile.refresh_from_db()
    assert ann.profile.vacation_started_at is None
    assert not VacationSpell.objects.filter(user=ann, ended_at=None).exists()
    assert Decision.objects.filter(game=game, deadline=None).exists()  # no game was locked

    closing.closed_account_let_go(user_id=ann.pk)

    assert not Decision.objects.filter(game=game, deadline=None).exists()
    assert _seat(game, ann).bot_takeover


def test_a_seat_the_bot_played_already_is_left_as_it_is(
    ann: Any, users: list[Any], handed: Counter[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    """Handed to the bot before the closing (its organisers were told then, or by the closing's own
    transaction): the game's step changes nothing and tells nobody again."""
    game = GameFactory(engine="baobei", players=2, seated=[ann, users[0]])
    lifecycle.seat_hand_to_bot(game_id=game.pk, user=ann)

    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=ann, password=PASSWORD)

    assert _seat(game, ann).bot_takeover
    assert not handed
    assert closing.closed_account_let_go(user_id=ann.pk) == 0


def test_the_sweep_goes_on_with_the_other_accounts_when_one_accounts_games_fail(
    users: list[Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The failing account is logged and left to the next sweep; the other account's game is let go of."""
    ann, bob = UserFactory(), UserFactory()
    games = [GameFactory(engine="baobei", players=2, seated=[who, users[0]]) for who in (ann, bob)]
    _closed_without_its_task(ann, monkeypatch)
    _closed_without_its_task(bob, monkeypatch)
    real_to_bot = lifecycle.seat_to_bot

    def failing_for_ann(locked: Any, seat: Any) -> bool:
        if seat.user_id == ann.pk:
            raise RuntimeError("a bug in one game")
        return real_to_bot(locked, seat)

    monkeypatch.setattr(lifecycle, "seat_to_bot", failing_for_ann)

    assert closing.closed_accounts_sweep() == 1

    assert [_seat(g, who).bot_takeover for g, who in zip(games, (ann, bob), strict=True)] == [False, True]
    assert f"closed account {ann.pk}" in caplog.text
