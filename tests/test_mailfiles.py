"""The embedded default's file mail backend writes one file per connection (``baogame.mailfiles``)."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.mail import EmailMessage, get_connection


def _send(folder: Path, to: str) -> None:
    get_connection("baogame.mailfiles.EmailBackend", file_path=str(folder)).send_messages(
        [EmailMessage("hello", "x" * 20_000, "site@example.com", [to])]  # longer than a write buffer
    )


def test_each_connection_writes_a_file_of_its_own_named_with_its_process(tmp_path: Path) -> None:
    _send(tmp_path, "a@example.com")
    _send(tmp_path, "b@example.com")

    files = sorted(tmp_path.iterdir())

    assert len(files) == 2
    assert all(f"-{os.getpid()}-" in f.name and f.suffix == ".log" for f in files)


def test_a_forked_process_writes_its_own_file(tmp_path: Path) -> None:
    """Two processes forked from one parent: Django's backend could name both files alike."""
    child = os.fork()
    if child == 0:  # pragma: no cover - the child process
        try:
            _send(tmp_path, "child@example.com")
        finally:
            os._exit(0)
    _send(tmp_path, "parent@example.com")
    os.waitpid(child, 0)

    files = list(tmp_path.iterdir())

    assert len(files) == 2
    assert {b"child@example.com" in f.read_bytes() for f in files} == {True, False}
