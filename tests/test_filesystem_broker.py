"""The embedded broker (``make run``: kombu's filesystem transport) publishes each message atomically:
a worker polling while a message is written must never read it half-written (an empty file killed the
worker with ``JSONDecodeError`` and ``rundev`` stopped the site)."""

from __future__ import annotations

import builtins
import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection

import baogame.celery  # noqa: F401 - applies the transport patches


def test_a_message_is_never_visible_under_its_queue_name_before_it_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder), "control_folder": str(tmp_path)}
    seen_while_writing: list[list[str]] = []
    real_open = builtins.open

    class Spy:
        """A file whose every write first records which message files a reader could see."""

        def __init__(self, f: Any) -> None:
            self.f = f

        def write(self, data: bytes) -> int:
            seen_while_writing.append([n for n in os.listdir(folder) if n.endswith(f".{name}.msg")])
            return self.f.write(data)

        def __enter__(self) -> Spy:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

        def __getattr__(self, name: str) -> Any:
            return getattr(self.f, name)

    def spying_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        f = real_open(file, mode, *args, **kwargs)
        return Spy(f) if "w" in mode and str(folder) in str(file) else f

    # A queue of its own: kombu keeps the exchanges a process declared in one state shared by every
    # filesystem connection, so a "people" queue another test published to would route elsewhere.
    name = f"people-{uuid.uuid4().hex}"
    with Connection("filesystem://", transport_options=options) as conn:
        queue = conn.SimpleQueue(name)
        monkeypatch.setattr(builtins, "open", spying_open)
        queue.put({"n": 1})
        monkeypatch.setattr(builtins, "open", real_open)

        assert seen_while_writing == [[]]  # nothing a reader could take while the bytes went in
        assert [n for n in os.listdir(folder) if n.endswith(f".{name}.msg")]
        assert queue.get(timeout=1).payload == {"n": 1}
        assert not [n for n in os.listdir(folder) if n.endswith(".writing")]
        queue.close()
