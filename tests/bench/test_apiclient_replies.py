"""The load test's API client (``bench/apiclient.py``) on replies that are not JSON: a run that meets
one reports what came back (status, content type, the start of the body) instead of a bare decoding
error, which said nothing of the reply that caused it."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench.apiclient import HOST, Client, NotJSON, Stats


class _Replies(BaseHTTPRequestHandler):
    """``/html``: a 502 HTML page, as a proxy or HTTP server writes it; ``/json``: a JSON body;
    ``/empty``: 204 and no body."""

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        body, status, kind = {
            "/html": (b"<html><body><h1>502 Bad Gateway</h1></body></html>", 502, "text/html"),
            "/json": (b'{"ok": true}', 200, "application/json"),
            "/empty": (b"", 204, ""),
        }[self.path]
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def client() -> Iterator[Client]:
    server = ThreadingHTTPServer((HOST, 0), _Replies)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Client(server.server_address[1], ["t0", "t1"], random.Random(0), Stats())
    finally:
        server.shutdown()
        server.server_close()


def test_a_json_reply_is_decoded_and_an_empty_one_is_none(client: Client) -> None:
    assert client.call("GET", "/json", "t0") == (200, {"ok": True})
    assert client.call("GET", "/empty", "t0") == (204, None)


def test_a_reply_that_is_not_json_names_its_status_type_and_start(client: Client) -> None:
    with pytest.raises(NotJSON) as caught:
        client.call("GET", "/html", "t0")

    message = str(caught.value)
    assert caught.value.status == 502
    assert message.startswith("GET /html answered 502 with 50 bytes of text/html, not JSON:")
    assert "502 Bad Gateway" in message
