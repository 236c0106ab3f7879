"""The ladder's load: C connections kept busy, like ``wrk -c C``, with requests that are real moves.

wrk cannot play a game: the next move of a game may only go once the last one is answered, and wrk's
scripts do not know which connection answered. This driver is wrk's closed loop in one Python thread
(``selectors``): each of C slots sends its next request as soon as the last one is answered, on a new
connection each time (gunicorn's sync workers answer ``Connection: close``, so wrk reconnects too).
Requests are bytes made before the run, so the driver does little more per request than wrk does:
connect, send, read to the end, look at the status line. Each slot takes its requests from its own
source, so a slot plays its games' moves in order.
"""

from __future__ import annotations

import errno
import selectors
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

#: A slot's requests, in order; the slot stops when it runs dry.
Source = Iterator[bytes]


@dataclass
class Tally:
    """What a run measured: answers by status, latencies (ms) of the answered requests, the seconds."""

    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    dry: int = 0  #: slots whose source ran dry before the end

    @property
    def answered(self) -> int:
        return len(self.latencies)

    @property
    def bad(self) -> int:
        return sum(n for status, n in self.statuses.items() if not 200 <= status < 300)

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


class _Slot:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.sock: socket.socket | None = None
        self.out = b""
        self.got = bytearray()
        self.started = 0.0


def request(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    """An HTTP/1.1 request as bytes (``Host``, ``Content-Length`` added)."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items())]
    if body or method in {"POST", "PUT", "PATCH"}:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def run(
    port: int, sources: list[Source], seconds: float, *, on_end: Callable[[], None] | None = None
) -> Tally:
    """Keep every slot busy for ``seconds``; the tally of the requests answered in that time. A slot
    whose source runs dry stops (counted in ``dry``). At the end ``on_end`` is called, then the requests
    still in flight are answered (not counted): a game's next move may only go once its last one is in."""
    selector = selectors.DefaultSelector()
    tally = Tally()
    slots = [_Slot(source) for source in sources]

    def start(slot: _Slot) -> None:
        body = next(slot.source, None)
        if body is None:
            tally.dry += 1
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        code = sock.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            raise OSError(code, f"cannot connect to port {port}")
        slot.sock, slot.out, slot.got = sock, body, bytearray()
        slot.started = time.perf_counter()
        selector.register(sock, selectors.EVENT_WRITE, slot)

    def finish(slot: _Slot, counted: bool) -> None:
        assert slot.sock is not None
        selector.unregister(slot.sock)
        slot.sock.close()
        slot.sock = None
        if not counted:
            return
        tally.latencies.append((time.perf_counter() - slot.started) * 1000)
        status = int(slot.got[9:12]) if slot.got[:5] == b"HTTP/" else 0
        tally.statuses[status] = tally.statuses.get(status, 0) + 1

    began = time.monotonic()
    until = began + seconds
    for slot in slots:
        start(slot)
    counting = True
    while selector.get_map():
        if counting and time.monotonic() >= until:
            if on_end is not None:
                on_end()
            tally.seconds = time.monotonic() - began
            counting = False
        for key, events in selector.select(timeout=0.1):
            slot = key.data
            sock = slot.sock
            if events & selectors.EVENT_WRITE:
                try:
                    sent = sock.send(slot.out)
                except BlockingIOError:
                    continue
                slot.out = slot.out[sent:]
                if not slot.out:
                    selector.modify(sock, selectors.EVENT_READ, slot)
                continue
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                chunk = b""
            if chunk:
                slot.got += chunk
                continue
            finish(slot, counting)
            if counting and time.monotonic() < until:
                start(slot)
    if counting:  # every source ran dry before the end
        if on_end is not None:
            on_end()
        tally.seconds = time.monotonic() - began
    selector.close()
    return tally
