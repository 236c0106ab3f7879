"""``manage.py ingest_mail``: a whole Bao Bei round played only by email replies (mbox and Maildir)."""

from __future__ import annotations

import mailbox
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command

from apps.games.models import Move
from apps.notifications.models import InboundMessage, Notification
from baogame.rules.registry import get_engine
from tests.notifications.conftest import mails_to, play_game, reply_to

pytestmark = pytest.mark.django_db

#: A plain strategy: look at slots 0 and 1, draw and discard, never pluck, call BAO when allowed.
COMMAND_FOR = {
    "setup_peek": "peek 0 1",
    "turn_action": "draw",
    "after_draw": "discard",
    "pluck_window": "pass",
    "ability": "decline",
    "macaw_decide": "swap no",
    "end_turn": "bao",
}


def _write(folder: Path, step: int, message: Any) -> Path:
    """Every other reply in an mbox file, the others in a Maildir."""
    if step % 2:
        path = folder / f"replies-{step}.mbox"
        box: mailbox.Mailbox = mailbox.mbox(path)
    else:
        path = folder / f"maildir-{step}"
        box = mailbox.Maildir(path, create=True)
    box.add(message)
    box.flush()
    return path


def _round_ended(game: Any) -> bool:
    return any(e["type"] == "round_ended" for m in Move.objects.filter(game=game) for e in m.events)


def test_a_full_bao_bei_round_played_by_email_replies(
    tmp_path: Path, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    # With about 3% of the random deals (8 of 300 seeds with this strategy) the first round's scores
    # already reach the default threshold (100 for two players, BB-1.3): the game ends with the round,
    # which mails the final result and no round result. That, not the order of the tests, made this
    # test fail now and then. A threshold no round reaches keeps the game going.
    with django_capture_on_commit_callbacks(execute=True):
        game = play_game("baobei", users[:2], 2, options={"threshold": 10_000})
    engine = get_engine("baobei")
    step = 0

    while not _round_ended(game):
        step += 1
        assert step < 80, "the round should be over by now"
        game.refresh_from_db()
        decision = engine.pending(game.state)[0]
        seat = decision["seats"][0]
        latest = [m for m in mails_to(users[seat]) if m.reply_to][-1]
        path = _write(tmp_path, step, reply_to(latest, COMMAND_FOR[decision["kind"]]))
        with django_capture_on_commit_callbacks(execute=True):
            call_command("ingest_mail", str(path), stdout=open(tmp_path / "out.txt", "a"))  # noqa: SIM115

    assert step > 6  # both setup peeks, then turns until BAO and the final turn
    assert InboundMessage.objects.filter(status="refused").count() == 0
    assert Move.objects.filter(game=game).count() == InboundMessage.objects.filter(status="applied").count()
    game.refresh_from_db()
    assert not game.is_over
    assert Notification.objects.filter(game=game, kind="round_result").count() == 2
    result = next(m for m in mails_to(users[0]) if "round result" in m.subject)
    # The round's result by name, with each seat's score and total (BB-25.7).
    lines = result.body.split("Result:", 1)[1].split("\n\n", 1)[0].strip().splitlines()
    assert len(lines) == 1 and lines[0].strip().startswith("Round 1 ended: ")
    assert lines[0].count("(total ") == 2 and users[1].username in lines[0]


def test_ingesting_the_same_mbox_twice_applies_each_reply_once(
    tmp_path: Path, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    path = _write(tmp_path, 1, reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}"))

    with django_capture_on_commit_callbacks(execute=True):
        call_command("ingest_mail", str(path), stdout=open(tmp_path / "out.txt", "a"))  # noqa: SIM115
        call_command("ingest_mail", str(path), stdout=open(tmp_path / "out.txt", "a"))  # noqa: SIM115

    assert Move.objects.filter(game=game).count() == 1
    assert "1 duplicate" in (tmp_path / "out.txt").read_text()
