"""``manage.py ingest_mail PATH``: process the replies in an mbox file or a Maildir (play by email)."""

from __future__ import annotations

import mailbox
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.notifications.inbound import inbound_process


class Command(BaseCommand):
    help = "Process inbound replies from an mbox file or a Maildir directory (each message at most once)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path", help="an mbox file or a Maildir directory")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        source = Path(path)
        if source.is_dir():
            box: mailbox.Mailbox = mailbox.Maildir(source, factory=None, create=False)
        elif source.is_file():
            box = mailbox.mbox(source, factory=None, create=False)
        else:
            raise CommandError(f"{path} is neither an mbox file nor a Maildir")
        parser = BytesParser(policy=policy.default)
        counts: dict[str, int] = {}
        for key in box.iterkeys():
            message = parser.parsebytes(box.get_bytes(key))
            result = inbound_process(message=message)
            counts[result.status] = counts.get(result.status, 0) + 1
            detail = f" {result.code}: {result.detail}" if result.code else ""
            self.stdout.write(f"{message.get('Message-ID', '(no Message-ID)')}: {result.status}{detail}")
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no messages"
        self.stdout.write(self.style.SUCCESS(f"ingest_mail: {summary}"))
