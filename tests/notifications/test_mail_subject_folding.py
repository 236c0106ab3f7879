"""A long subject reads back exactly as written, with no leading space, Chinese or English.

The bytes are those the SMTP and file backends write (``message().as_bytes()``); a mail client parses
them with the modern email policy, which unfolds and decodes the encoded words.
"""

from __future__ import annotations

import email
import email.policy
from typing import Any

import pytest
from django.core.mail import EmailMessage

from apps.accounts.adapter import AccountAdapter
from apps.notifications.mails import render_mail
from baogame.mailmessage import PlainMailMessage

CHINESE = "[baogame] 宝贝 #1234（周五联赛）：提醒，出一张牌或者跳过，截止时间是明天中午十二点，请尽快行动"
ENGLISH = (
    "[baogame] Bao Bei #1234 (Friday league): reminder, play a card or pass, the deadline is noon tomorrow"
)


def _read_back(message: EmailMessage, linesep: str = "\n") -> Any:
    return email.message_from_bytes(message.message().as_bytes(linesep=linesep), policy=email.policy.default)


def _subject_lines(message: EmailMessage) -> list[str]:
    """The raw Subject header as written: its first line and the folded ones."""
    lines = message.message().as_bytes().split(b"\n\n")[0].decode("ascii").split("\n") + [""]
    start = next(i for i, line in enumerate(lines) if line.startswith("Subject:"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith((" ", "\t")))
    return lines[start:end]


@pytest.mark.parametrize("subject", [CHINESE, ENGLISH], ids=["chinese", "english"])
@pytest.mark.parametrize("linesep", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_a_long_subject_reads_back_as_written(subject: str, linesep: str) -> None:
    message = render_mail(to="someone@example.com", subject=subject, template="notification", context={})

    parsed = _read_back(message, linesep)

    assert parsed["Subject"] == subject
    assert len(parsed.get_all("Subject")) == 1


def test_a_long_chinese_subject_starts_on_the_subject_line_and_is_folded() -> None:
    message = render_mail(to="someone@example.com", subject=CHINESE, template="notification", context={})

    first, *folded = _subject_lines(message)

    assert first.startswith("Subject: =?utf-8?")
    assert folded  # long: folded over several lines, each within the limit
    assert all(len(line) <= 78 for line in [first, *folded])


def test_a_plain_notice_reads_back_as_written() -> None:
    """The plain notices (a substitute's offer, a webhook switched off) are written the same way."""
    message = PlainMailMessage(CHINESE, "body", "site@example.com", ["someone@example.com"])

    assert _read_back(message)["Subject"] == CHINESE


def test_an_account_mail_reads_back_as_written(
    rf: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """allauth renders the account mails; the adapter makes them fold the subject too."""
    settings.LANGUAGE_CODE = "zh-hans"
    monkeypatch.setattr(AccountAdapter, "format_email_subject", lambda self, subject: CHINESE)
    adapter = AccountAdapter(rf.get("/"))
    message = adapter.render_mail(
        "account/email/password_reset_key", "someone@example.com", {"password_reset_url": "x"}
    )

    assert _read_back(message)["Subject"] == CHINESE
