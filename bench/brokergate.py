"""A broker outage on demand for the rehearsal: a TCP gate between the web nodes and the broker, and a
webhook receiver that counts what arrives.

``BrokerGate`` listens on a local port and forwards every connection to the broker (Redis: host and
port of its URL). The web nodes publish through it; the workers and beat reach the broker directly. While
the gate is shut (``shut``) every forwarded connection is cut and new ones are refused, so a move a web
node commits then cannot queue its tasks: its effects live only in the outbox until the sweep (on the
beat, which still reaches the broker) queues them again.

``HookReceiver`` answers 204 to every POST and records its ``Baogame-Webhook-Id``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit, urlunsplit


class BrokerGate:
    """A TCP forwarder to ``broker`` (a redis:// URL) that can be shut and opened again."""

    def __init__(self, broker: str) -> None:
        parts = urlsplit(broker)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self._parts = parts
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._listener: socket.socket | None = None
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = int(probe.getsockname()[1])
        probe.close()

    @property
    def url(self) -> str:
        """The broker URL through the gate (same database, credentials and options)."""
        auth = self._parts.netloc.rsplit("@", 1)[0] + "@" if "@" in self._parts.netloc else ""
        return urlunsplit(self._parts._replace(netloc=f"{auth}127.0.0.1:{self.port}"))

    def open(self) -> None:
        """Accept and forward connections (again)."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def shut(self) -> None:
        """The outage: refuse new connections and cut every forwarded one."""
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # shut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class HookReceiver:
    """A webhook receiver on 127.0.0.1 that answers 204 and counts each event id it gets."""

    def __init__(self) -> None:
        self.ids: Counter[str] = Counter()
        lock = threading.Lock()
        ids = self.ids

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with lock:
                    ids[self.headers.get("Baogame-Webhook-Id", "")] += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
