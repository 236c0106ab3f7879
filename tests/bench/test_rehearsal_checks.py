"""The rehearsal's checks (``bench.rehearsal_checks``) find what they look for: a gap in a move log, a
deadline settled twice or early, a decision left past its deadline, a mail sent twice or not at all.

A sound game counts zero everywhere; each test then damages one thing and expects exactly that anomaly.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.mail import EmailMessage, get_connection
from django.utils import timezone

from apps.games.models import Decision, Game, Move
from apps.notifications.models import Notification
from bench import rehearsal_checks as checks
from tests.factories import UserFactory
from tests.support.played import a_finished_baobei_game, a_seeded_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished() -> Game:
    """A finished Bao Bei game whose seat 0 timed out until the bot took it (so it has timeouts)."""
    return a_finished_baobei_game(UserFactory(), seed="rehearsal-checks")


def test_a_sound_game_has_no_seq_gap_and_a_missing_move_is_one(finished):
    assert checks.seq_anomalies([finished.pk]) == 0

    Move.objects.filter(game=finished, seq=3).delete()

    assert checks.seq_anomalies([finished.pk]) == 1


def test_replay_anomalies_come_from_verify_games(finished):
    assert checks.replay_anomalies([finished.pk]) == (0, [])

    Game.objects.filter(pk=finished.pk).update(version=finished.version + 1)

    differing, discrepancies = checks.replay_anomalies([finished.pk])
    assert differing == 1
    assert discrepancies[0]["game"] == finished.pk


def test_a_timeout_applied_twice_to_one_decision_is_counted(finished):
    first = Move.objects.filter(game=finished, by_timeout=True).order_by("seq").first()
    assert first is not None
    sound = checks.timeout_checks([finished.pk], {})
    assert sound["timeouts"] > 0 and sound["timeouts_twice"] == 0

    Move.objects.create(
        game=finished, seq=finished.version + 1, seat=first.seat, action=first.action, by_timeout=True
    )

    assert checks.timeout_checks([finished.pk], {})["timeouts_twice"] == 1


def test_a_timeout_before_its_sampled_deadline_is_early_and_one_after_it_is_late(finished):
    timeouts = list(Move.objects.filter(game=finished, by_timeout=True).order_by("seq")[:2])
    key = [(finished.pk, m.seat, m.action["decision_id"]) for m in timeouts]

    result = checks.timeout_checks(
        [finished.pk],
        {
            key[0]: timeouts[0].created_at + timedelta(seconds=5),  # applied 5 s before it
            key[1]: timeouts[1].created_at - timedelta(seconds=2),  # applied 2 s after it
        },
    )

    assert result["timeouts_early"] == 1
    assert result["timeouts_sampled"] == 2
    assert result["timeout_late_max_s"] == 2.0


def test_an_open_decision_past_its_deadline_by_more_than_the_grace_is_unsettled():
    game = a_seeded_game(engine="baobei", players=3, user=UserFactory(), seed="rehearsal-open")
    stopped = timezone.now()
    grace = timedelta(seconds=8)
    rows = Decision.objects.filter(game=game)
    rows.update(deadline=stopped - grace + timedelta(seconds=1))
    assert checks.deadlines_unsettled([game.pk], stopped=stopped, grace=grace) == 0

    rows.update(deadline=stopped - grace - timedelta(seconds=1))

    assert checks.deadlines_unsettled([game.pk], stopped=stopped, grace=grace) == rows.count() > 0


def _mail(mail_dir: Path, to: str, times: int) -> None:
    """``times`` messages to ``to``, written by Django's file mail backend (as the workers write them)."""
    backend = get_connection("django.core.mail.backends.filebased.EmailBackend", file_path=str(mail_dir))
    backend.send_messages([EmailMessage("Your move", "body", "x@example.org", [to]) for _ in range(times)])


def _sent(username: str, *, version: int, last_error: str = "") -> None:
    user = UserFactory(username=username, email=f"{username}@example.invalid")
    Notification.objects.create(
        user=user,
        version=version,
        kind=Notification.Kind.DECISION,
        category="turn",
        status=Notification.Status.SENT,
        last_error=last_error,
    )


def test_mails_are_counted_per_player_against_the_notifications_marked_sent(tmp_path):
    _sent("rehearsal-x-0-0", version=1)  # mailed once: sound
    _sent("rehearsal-x-0-1", version=1)  # mailed twice: sent twice
    _sent("rehearsal-x-1-0", version=1)  # never mailed: lost
    _sent("rehearsal-x-1-1", version=1, last_error="Reclaimed: the claim … never finished.")
    _mail(tmp_path, "rehearsal-x-0-0@example.invalid", 1)
    _mail(tmp_path, "rehearsal-x-0-1@example.invalid", 2)
    _mail(tmp_path, "rehearsal-x-1-1@example.invalid", 2)  # a reclaimed claim may send again
    _mail(tmp_path, "someone-else@example.invalid", 3)  # not the run's

    result = checks.notification_checks("rehearsal-x", tmp_path)

    assert result == {
        "mails": 5,
        "notifications_sent": 4,
        "mails_after_reclaim": 1,
        "notifications_twice": 1,
        "notifications_lost": 1,
    }
