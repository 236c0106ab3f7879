"""Every mail kind of both games, rendered for a Chinese reader, holds none of the site's own English
sentences and no broken placeholder; the same mails for an English reader are English.

The site's sentences are the catalogue's msgids used by the mail templates and the mail code (each
literal stretch of two words or more between placeholders and tags), so a sentence added to a mail
without a translation fails here.
"""

from __future__ import annotations

import re
from datetime import time, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games import selectors as game_selectors
from apps.notifications import mails
from apps.notifications.inbound import inbound_process
from apps.notifications.models import Category, Notification
from apps.sittings import services as sitting_services
from apps.sittings.acceptance import Recurrence
from apps.sittings.models import Sitting, SittingReminder
from apps.sittings.signals import sitting_message
from tests.factories import GameFactory, UserFactory
from tests.notifications.conftest import mails_to, reply_to
from tests.support.catalogue import stand_in_chinese

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
#: Where the mails' sentences are written.
MAIL_SOURCES = (
    "templates/email/",
    "apps/notifications/",
    "apps/games/errortext.py",
    "baogame/rules/mail.py",
    "baogame/rules/baobei/mail.py",
    "baogame/rules/baohuang/mail.py",
    "baogame/rules/orders.py",
)
#: The Bao Huang deal: the reader (seat 0) holds the emperor card, so the first mail is theirs.
DEAL = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}
GAMES = {"baobei": {"players": 3}, "baohuang": {"players": 5, "options": {"deals": [DEAL, DEAL]}}}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]\b|\{\{|\}\}|\{%|%\}|\[\[|\]\]")
HAN = re.compile(r"[\u4e00-\u9fff]")
#: New sentences of the mails (the proposal mail's, an early end's), with stand-ins for a catalogue that
#: does not have them yet (a plural by its singular and Chinese's one form, 0).
NEW_WORDS: dict[str | tuple[str, int], str] = {
    "The sitting of %(game_name)s that started %(started)s ended early, at %(ended)s. The game goes on "
    "at its own pace.": (
        "%(game_name)s 于 %(started)s 开始的约局已提前于 %(ended)s 结束。对局按原来的节奏继续。"
    ),
    "[baogame] %(game)s: %(name)s proposes a sitting": "[baogame] %(game)s：%(name)s 提议约局",
    "Sitting proposed — %(game_name)s": "约局提议 — %(game_name)s",
    ("%(name)s proposes to play %(game)s together at live speed at this time:", 0): (
        "%(name)s 提议以实时速度一起玩 %(game)s，时间如下（每个时间分别回答）："
    ),
    (
        "%(name)s proposes to play %(game)s together at live speed every week for %(weeks)s week, "
        "answered as a whole. Its first week:",
        0,
    ): "%(name)s 提议每周以实时速度一起玩 %(game)s，共 %(weeks)s 周，整体回答。第一周：",
    "Answer on the game page: %(link)s": "在对局页面回答：%(link)s",
    "Answer on the game page": "在对局页面回答",
    "Or reply to this mail with “sitting yes” or “sitting no” on the first line.": (
        "或回复本邮件，第一行写“约局 是”或“约局 否”。"
    ),
    "“sitting yes 2” or “sitting no 2” answers time 2 alone.": "“约局 是 2”或“约局 否 2”只回答第 2 个时间。",
}
#: The proposal mail's plurals, English only (a stretch of them in a Chinese mail is English left in it).
PROPOSAL_PLURALS = (
    "%(name)s proposes to play %(game)s together at live speed at these times, each answered on its own:",
    "%(name)s proposes to play %(game)s together at live speed every week for %(weeks)s weeks, "
    "answered as a whole. Its first week:",
)
SITTING_KINDS = (
    SittingReminder.Kind.INVITATION,
    SittingReminder.Kind.MAIL,
    SittingReminder.Kind.UPDATE,
    SittingReminder.Kind.CANCEL,
)


def _unquote(parts: list[str]) -> str:
    return "".join(p[1:-1] for p in parts).replace('\\"', '"').replace("\\n", "\n")


def _mail_msgids() -> list[str]:
    """The msgids (singular and plural) of catalogue entries used in a mail source."""
    found: list[str] = []
    for block in CATALOGUE.read_text(encoding="utf-8").split("\n\n"):
        lines = block.splitlines()
        places = " ".join(line for line in lines if line.startswith("#: "))
        if not any(source in places for source in MAIL_SOURCES):
            continue
        for key in ("msgid", "msgid_plural"):
            start = next((i for i, line in enumerate(lines) if line.startswith(f"{key} ")), None)
            if start is None:
                continue
            parts = [lines[start].split(" ", 1)[1]]
            parts += [line for line in lines[start + 1 :] if line.startswith('"')][: _run(lines, start)]
            found.append(_unquote(parts))
    return [m for m in found if m]


def _run(lines: list[str], start: int) -> int:
    count = 0
    for line in lines[start + 1 :]:
        if not line.startswith('"'):
            break
        count += 1
    return count


def english_sentences(extra: tuple[str, ...] = ()) -> set[str]:
    """The mails' msgids of two words or more, and each literal stretch of three words or more between
    their placeholders and tags (a shorter stretch, "the emperor", is no sentence of ours); with those of
    ``extra``, msgids the catalogue may not have yet."""
    stretches: set[str] = set()
    for msgid in [*_mail_msgids(), *extra]:
        if "%(" not in msgid and "<" not in msgid and len(re.findall(r"[A-Za-z]{2,}", msgid)) >= 2:
            stretches.add(msgid.strip(" .:"))
        for piece in re.split(r"%\(\w+\)[sd]|<[^>]+>|[“”\"'()]", msgid):
            piece = piece.strip(" .,:;—-/…")
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 3:
                stretches.add(piece)
    return stretches


def _reader(username: str, language: str) -> Any:
    user = UserFactory(username=username)
    Profile.objects.filter(user=user).update(language=language)
    user.refresh_from_db()
    return user


def _note(user: Any, kind: str, game: Any = None, **fields: Any) -> Notification:
    """A notification as the app records it (its version is new: each is one mail of its own)."""
    version = 1000 + Notification.objects.filter(user=user).count()
    category = fields.pop("category", Category.TURN)
    return Notification.objects.create(
        user=user, game=game, version=version, kind=kind, category=category, **fields
    )


def every_mail(engine: str, user: Any, capture: Any) -> dict[str, Any]:
    """One mail of every kind about a game of ``engine`` for ``user`` (seat 0), by kind."""
    spec = GAMES[engine]
    with capture(execute=True):
        game = GameFactory(
            engine=engine,
            players=spec["players"],
            bots=spec["players"] - 1,
            seated=[user],
            options=spec.get("options"),
        )
    user.refresh_from_db()
    open_row = game_selectors.seat_decisions(game=game, seat=0).first()
    assert open_row is not None
    out: dict[str, Any] = {"first": mails_to(user)[-1]}
    out["decision"] = mails.build_message(_note(user, Notification.Kind.DECISION, game, seat=0))
    out["reminder"] = mails.build_message(
        _note(user, Notification.Kind.REMINDER, game, seat=0, decision_id=open_row.decision_id)
    )
    out["round_result"] = mails.build_message(_note(user, Notification.Kind.ROUND_RESULT, game, seat=0))
    out["game_result"] = mails.build_message(_note(user, Notification.Kind.GAME_RESULT, game, seat=0))
    out["held"] = mails.build_message(_note(user, Notification.Kind.DECISION, game, seat=0, held=True))
    out["digest"] = mails.build_message(_note(user, Notification.Kind.DIGEST, category=Category.DIGEST))
    host = UserFactory(username=f"host-{engine}")
    waiting = GameFactory(engine=engine, players=spec["players"], seated=[host])
    out["invitation"] = mails.build_message(
        _note(user, Notification.Kind.INVITATION, waiting, category=Category.INVITATION)
    )
    for name, command in (("refused", "飞 fly"), ("applied", "peek 0 1" if engine == "baobei" else "keep")):
        mail.outbox.clear()
        with capture(execute=True):
            inbound_process(message=reply_to(out["first"], command))
        out[name] = mails_to(user)[-1]
    starts = timezone.now() + timedelta(days=1)
    sitting = Sitting.objects.create(game=game, starts_at=starts, ends_at=starts + timedelta(hours=1))
    # The invitation, the reminder, the calendar update of a sitting that ended early and the
    # cancellation of the sittings of a game that ended.
    for kind in SITTING_KINDS:
        mail.outbox.clear()
        sitting_message.send(Sitting, sitting=sitting, user_id=user.pk, kind=kind, series=[sitting])
        out[f"sitting_{kind}"] = mails_to(user)[-1]
    # A proposed sitting, from another person at a table of two (one person alone has no sittings): a
    # weekly series, then two times (the latest proposal's mail offers the reply).
    other = UserFactory(username=f"proposer-{engine}")
    with capture(execute=True):
        table = GameFactory(
            engine=engine,
            players=spec["players"],
            bots=spec["players"] - 2,
            seated=[user, other],
            options=spec.get("options"),
        )
    first_day = timezone.now().date() + timedelta(days=2)
    series = Recurrence(weekdays=(1, 4), at=time(20), weeks=3, first_day=first_day, time_zone="UTC")
    for name, proposed in (
        ("sitting_proposal_series", {"recurrence": series}),
        ("sitting_proposal", {"times": [starts + timedelta(days=d) for d in (1, 2)]}),
    ):
        mail.outbox.clear()
        with capture(execute=True):
            sitting_services.proposal_create(game=table, user=other, **proposed)
        out[name] = mails_to(user)[-1]
    assert all(message is not None for message in out.values()), [k for k, v in out.items() if v is None]
    return out


def _texts(message: Any) -> dict[str, str]:
    return {"subject": message.subject, "text": message.body, "html": message.alternatives[0][0]}


def test_the_sentence_list_is_the_mails_own() -> None:
    sentences = english_sentences()
    assert len(sentences) > 100
    assert {"Open the game", "Your choices", "What happened since your last move"} <= sentences


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_every_mail_kind_reads_chinese_for_a_chinese_reader(
    engine: str, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    msgids = tuple(key if isinstance(key, str) else key[0] for key in NEW_WORDS)
    sentences = english_sentences(extra=(*msgids, *PROPOSAL_PLURALS))
    stand_in_chinese(monkeypatch, NEW_WORDS)
    reader = _reader("wren", "zh-hans")

    found = every_mail(engine, reader, django_capture_on_commit_callbacks)

    assert len(found) == 16
    assert {f"sitting_{kind}" for kind in SITTING_KINDS} <= set(found)
    assert {"sitting_proposal", "sitting_proposal_series"} <= set(found)
    for kind, message in found.items():
        for part, text in _texts(message).items():
            english = sorted(s for s in sentences if s in text)
            assert english == [], (kind, part, english)
            assert PLACEHOLDER.findall(text) == [], (kind, part)
            assert HAN.search(text), (kind, part)
        assert '<html lang="zh-hans">' in message.alternatives[0][0], kind


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_the_same_mails_read_english_for_an_english_reader(
    engine: str, django_capture_on_commit_callbacks: Any
) -> None:
    reader = UserFactory(username="wren")

    found = every_mail(engine, reader, django_capture_on_commit_callbacks)

    for kind, message in found.items():
        for part, text in _texts(message).items():
            assert HAN.search(text) is None or kind == "refused", (kind, part)  # its command is Chinese
            assert PLACEHOLDER.findall(text) == [], (kind, part)
        assert "Notification settings" in message.body, kind
