"""A move's COMMIT rides in its writes' round trip (DESIGN.md, "One move, end to end": one transaction
per move), on PostgreSQL, when ``submit_action``'s block is the transaction and nothing follows the
writes: the same one transaction, one round trip fewer.

These tests run without a test transaction around them (``transaction=True``), as a request does, so
that ``submit_action`` owns its transaction. ``django_commits`` records, for each commit Django asks
psycopg for, whether the connection was already idle: then the COMMIT had gone with the writes, and
psycopg sent nothing.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, connection
from psycopg import pq

from apps.games import pipeline, signals
from apps.games.models import Game, Move, SeatTenure
from apps.notifications import outbox
from apps.notifications.models import MoveMailOutbox
from apps.webhooks.models import WebhookEndpoint
from baogame.rules.registry import get_engine
from tests.conftest import requires_postgres
from tests.factories import GameFactory

pytestmark = [pytest.mark.django_db(transaction=True), requires_postgres]


@pytest.fixture
def django_commits(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each psycopg commit, whether the connection had no open transaction left to commit."""
    seen: list[bool] = []
    original = psycopg.Connection.commit

    def commit(self: psycopg.Connection[Any]) -> None:
        seen.append(self.pgconn.transaction_status == pq.TransactionStatus.IDLE)
        original(self)

    monkeypatch.setattr(psycopg.Connection, "commit", commit)
    return seen


def _seat_to_move(game: Game) -> tuple[int, dict[str, Any]]:
    """A seat with an open decision, and a legal action of it (chosen at random, seeded)."""
    engine = get_engine(game.engine)
    decision = engine.pending(game.state)[0]
    seat = decision["seats"][0]
    return seat, random.Random(game.version).choice(engine.legal_actions(game.state, seat))


def _listen(into: list[int], uid: str) -> None:
    """Append each applied move's id to ``into`` (``move_applied``, sent once the move committed)."""
    signals.move_applied.connect(
        lambda sender, **kw: into.append(kw["move_id"]), weak=False, dispatch_uid=uid
    )


def _move(game: Game, **kwargs: Any) -> pipeline.MoveResult:
    seat, action = _seat_to_move(game)
    return pipeline.submit_action(
        game_id=game.pk, user=game.seats.get(position=seat).user, action=action, **kwargs
    )


def test_a_move_commits_in_its_writes_round_trip(django_commits: list[bool]) -> None:
    game = GameFactory(engine="baobei", players=2)
    applied: list[int] = []
    signals.move_applied.connect(
        lambda sender, **kw: applied.append(kw["move_id"]), weak=False, dispatch_uid="t1"
    )
    try:
        django_commits.clear()
        result = _move(game)
    finally:
        signals.move_applied.disconnect(dispatch_uid="t1")

    assert django_commits[0] is True  # Django's commit found nothing left to commit
    assert Move.objects.filter(pk=result.move.pk).exists()
    assert applied == [result.move.pk]  # the on-commit work ran, once
    assert not connection.in_atomic_block


def test_a_move_inside_a_callers_transaction_leaves_the_commit_to_it(django_commits: list[bool]) -> None:
    """A savepoint is not the transaction: its writes must not commit the caller's."""
    from django.db import transaction

    game = GameFactory(engine="baobei", players=2)
    with pytest.raises(RuntimeError, match="the caller changes its mind"), transaction.atomic():
        _move(game)
        raise RuntimeError("the caller changes its mind")

    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.version == 0


def test_a_failing_commit_leaves_nothing_of_the_move(django_commits: list[bool]) -> None:
    """The COMMIT fails (a deferred check refuses it): no move, no outbox row, the game unchanged, no
    on-commit work, and the error reaches the caller."""
    game = GameFactory(engine="baobei", players=2)
    applied: list[int] = []
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION refuse_move() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; "
            "END $$ LANGUAGE plpgsql"
        )
        cursor.execute(
            "CREATE CONSTRAINT TRIGGER refuse_move AFTER INSERT ON games_move DEFERRABLE INITIALLY DEFERRED "
            "FOR EACH ROW EXECUTE FUNCTION refuse_move()"
        )
    signals.move_applied.connect(
        lambda sender, **kw: applied.append(kw["move_id"]), weak=False, dispatch_uid="t3"
    )
    try:
        with pytest.raises(DatabaseError, match="refused at commit"):
            _move(game)
    finally:
        signals.move_applied.disconnect(dispatch_uid="t3")
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER refuse_move ON games_move")
            cursor.execute("DROP FUNCTION refuse_move()")

    game.refresh_from_db()
    assert (game.version, Move.objects.filter(game=game).count()) == (0, 0)
    assert not MoveMailOutbox.objects.filter(game_id=game.pk).exists()
    assert applied == []
    _move(game)  # the connection is fine afterwards
    assert Move.objects.filter(game=game).count() == 1


def test_a_webhooks_outbox_row_commits_with_the_move_only_when_a_player_has_one(
    django_commits: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-up and the row's write are one statement in the move's round trip (nothing is written
    after it). The drain is held back here, so that the rows stay to be seen."""
    monkeypatch.setattr(outbox, "wake", lambda: None)
    with_hook = GameFactory(engine="baobei", players=2)
    without = GameFactory(engine="baobei", players=2)
    WebhookEndpoint.objects.create(
        user=with_hook.seats.get(position=1).user, url="https://example.org/hook", secret="s" * 32
    )

    django_commits.clear()
    _move(with_hook)
    first = django_commits[0]
    django_commits.clear()
    _move(without)

    assert first is True and django_commits[0] is True
    assert MoveMailOutbox.objects.filter(game_id=with_hook.pk, channel=outbox.Channel.WEBHOOK).count() == 1
    assert not MoveMailOutbox.objects.filter(game_id=without.pk, channel=outbox.Channel.WEBHOOK).exists()


def test_a_move_whose_player_holds_no_open_tenure_is_counted_after_its_commit(
    django_commits: list[bool], caplog: pytest.LogCaptureFixture
) -> None:
    """RELIABILITY: the count opens the tenure, in a transaction of its own once the move committed."""
    game = GameFactory(engine="baobei", players=2)
    seat, _ = _seat_to_move(game)
    SeatTenure.objects.filter(game=game, position=seat).delete()

    with caplog.at_level(logging.ERROR):
        result = _move(game)

    assert django_commits and Move.objects.filter(pk=result.move.pk).exists()
    tenure = SeatTenure.objects.get(game=game, position=seat, ended_at=None)
    # the first setup peek of two is hidden: its count waits until the decision closes (BB-30.6)
    assert (tenure.answered_hidden, tenure.answered) == ((1, 0) if result.move.hidden else (0, 1))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.fixture
def no_write_after_commit(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    with caplog.at_level(logging.ERROR, logger="apps.games.pipeline"):
        yield
    assert not [r.getMessage() for r in caplog.records if "after the move's commit" in r.getMessage()]


@pytest.mark.parametrize(
    ("engine", "players", "windows_skipped", "moves"),
    [("baobei", 2, False, 120), ("baobei", 4, True, 120), ("baohuang", 5, False, 160)],
)
def test_moves_of_whole_games_write_nothing_after_their_commit(
    engine: str,
    players: int,
    windows_skipped: bool,
    moves: int,
    django_commits: list[bool],
    no_write_after_commit: None,
) -> None:
    """Random legal moves of every seat, through windows passed automatically, round ends and game
    ends: each move is one transaction (``submit_action`` logs a write after its commit), and many
    moves' COMMITs ride with their writes (not a game's last move, nor one after which a seat passes
    windows automatically: those write after the move)."""
    game = GameFactory(engine=engine, players=players)
    if windows_skipped:
        game.seats.filter(position=1).update(skip_pluck_windows=True)
    rode = made = 0
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        django_commits.clear()
        _move(game)
        made += 1
        rode += django_commits[0]
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == game.version
    assert made >= 10 and rode >= made // 3, (made, rode)


def test_a_write_after_the_commit_is_logged_and_still_made_not_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A bug's write after a move's COMMIT must not turn the committed move into an error: it is logged
    and made in a transaction of its own, which Django's commit ends."""
    from django.db import transaction

    from apps.games import store

    game = GameFactory(engine="baobei", players=2)
    with caplog.at_level(logging.ERROR), transaction.atomic():
        locked = store.lock_game(game.pk)
        locked.game.title = "first"
        locked.write_game(["title"])
        locked.flush(commit=True)
        locked.game.title = "second"
        locked.write_game(["title"])
        locked.flush()

    game.refresh_from_db()
    assert game.title == "second" and locked.committed
    assert [r.getMessage() for r in caplog.records if "after the move's commit" in r.getMessage()]
