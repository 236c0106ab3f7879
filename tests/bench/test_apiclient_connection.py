"""The load test's HTTP client (``bench.apiclient.Connection`` under ``Client``) against a scripted server
on a socket: the request it writes, a kept-alive connection reused, a ``Connection: close`` reconnected,
a body read by its length or to the end of the connection, a reply it does not read refused loudly, and
a request that met a dead node sent again, to the next node, with the same ``Idempotency-Key``."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import msgspec
import pytest

from bench.apiclient import HOST, BadReply, Balancer, Client, Connection, NotJSON, Stats, free_port
from bench.profile_moves import WsgiConnection


@dataclass
class Reply:
    """What the server writes for one request: ``parts`` one after another (a short pause between, so
    the client sees them in separate reads), then closes the connection when ``close`` says."""

    parts: list[bytes]
    close: bool = False


def reply(body: bytes, *, status: str = "200 OK", headers: str = "", length: bool = True) -> bytes:
    """An HTTP/1.1 reply with ``body``, a JSON content type and (``length``) its ``Content-Length``."""
    head = f"HTTP/1.1 {status}\r\nServer: scripted\r\nContent-Type: application/json\r\n{headers}"
    if length:
        head += f"Content-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


@dataclass
class Server:
    """A server on one thread that answers every request with the next of ``replies`` and records each
    request (its connection's number and its bytes). With no reply left it closes the connection
    without answering (a node killed after the request reached it)."""

    replies: list[Reply]
    sock: socket.socket = field(default_factory=socket.socket)
    requests: list[tuple[int, bytes]] = field(default_factory=list)
    connections: int = 0

    def __post_init__(self) -> None:
        self.sock.bind((HOST, 0))
        self.sock.listen(8)
        self.port = int(self.sock.getsockname()[1])
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed at the end of the test
            self.connections += 1
            with conn:
                self._answer(conn)

    def _answer(self, conn: socket.socket) -> None:
        buffer = b""
        while True:
            while b"\r\n\r\n" not in buffer:
                more = conn.recv(65536)
                if not more:
                    return  # the client closed the connection
                buffer += more
            head, _, buffer = buffer.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            while len(buffer) < length:
                buffer += conn.recv(65536)
            self.requests.append((self.connections, head + b"\r\n\r\n" + buffer[:length]))
            buffer = buffer[length:]
            if not self.replies:
                return
            answer = self.replies.pop(0)
            for i, part in enumerate(answer.parts):
                if i:
                    time.sleep(0.02)
                conn.sendall(part)
            if answer.close:
                return

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    made: list[Server] = []
    yield made
    for server in made:
        server.close()


def serve(servers: list[Server], *replies: Reply) -> Server:
    server = Server(list(replies))
    servers.append(server)
    return server


def client_of(port: int, *, balancer: Balancer | None = None, retry_for: float = 0.0) -> Client:
    return Client(
        port, ["token-0", "token-1"], random.Random(0), Stats(), balancer=balancer, retry_for=retry_for
    )


def headers_of(request: bytes) -> tuple[str, dict[str, str], bytes]:
    """The request line, the headers (lower-case names) and the body of a recorded request."""
    head, _, body = request.partition(b"\r\n\r\n")
    line, *lines = head.decode().split("\r\n")
    return line, {n.strip().lower(): v.strip() for n, _, v in (h.partition(":") for h in lines)}, body


def test_the_request_carries_the_headers_the_api_reads_and_the_json_body(servers: list[Server]) -> None:
    server = serve(servers, Reply([reply(b'{"id": 7}', status="201 Created")]), Reply([reply(b"[]")]))
    client = client_of(server.port)

    created = client.call(
        "POST", "/api/v1/games/?x=1", "token-0", {"engine": "baobei", "n": [1, 2]}, key="k1"
    )
    read = client.call("GET", "/api/v1/games/7/", "token-1")

    assert created == (201, {"id": 7})
    assert read == (200, [])
    line, headers, body = headers_of(server.requests[0][1])
    assert line == "POST /api/v1/games/?x=1 HTTP/1.1"
    assert headers["host"] == f"{HOST}:{server.port}"
    assert headers["authorization"] == "Bearer token-0"
    assert headers["accept"] == "application/json"
    assert headers["content-type"] == "application/json"
    assert headers["idempotency-key"] == "k1"
    assert int(headers["content-length"]) == len(body)
    assert msgspec.json.decode(body) == {"engine": "baobei", "n": [1, 2]}
    line, headers, body = headers_of(server.requests[1][1])
    assert line == "GET /api/v1/games/7/ HTTP/1.1"
    assert headers["authorization"] == "Bearer token-1"
    assert "content-type" not in headers
    assert "idempotency-key" not in headers
    assert body == b""


def test_a_connection_the_server_keeps_open_serves_the_next_requests(servers: list[Server]) -> None:
    server = serve(servers, *(Reply([reply(b'{"n": %d}' % i)]) for i in range(3)))
    client = client_of(server.port)

    answers = [client.call("GET", "/", "token-0")[1] for _ in range(3)]

    assert answers == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert server.connections == 1
    assert [number for number, _ in server.requests] == [1, 1, 1]


def test_after_connection_close_the_next_request_opens_a_new_connection(servers: list[Server]) -> None:
    closing = reply(b'{"ok": true}', headers="Connection: close\r\n")
    server = serve(servers, *(Reply([closing], close=True) for _ in range(3)))
    client = client_of(server.port)

    answers = [client.call("GET", "/", "token-0") for _ in range(3)]

    assert answers == [(200, {"ok": True})] * 3
    assert [number for number, _ in server.requests] == [1, 2, 3]


def test_an_http_1_0_reply_without_keep_alive_ends_the_connection(servers: list[Server]) -> None:
    old = b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}"
    server = serve(servers, Reply([old], close=True), Reply([old], close=True))
    client = client_of(server.port)

    assert [client.call("GET", "/", "token-0") for _ in range(2)] == [(200, {})] * 2
    assert server.connections == 2


def test_a_body_in_several_reads_is_read_to_its_content_length(servers: list[Server]) -> None:
    body = msgspec.json.encode({"actions": [{"kind": "play", "cards": [i, i + 1]} for i in range(20000)]})
    whole = reply(body)
    head_end = whole.index(b"\r\n\r\n") + 4
    parts = [whole[:20], whole[20:head_end], whole[head_end : head_end + 1000], whole[head_end + 1000 :]]
    server = serve(servers, Reply(parts), Reply([reply(b"1")]))
    client = client_of(server.port)

    status, answer = client.call("GET", "/legal/", "token-0")

    assert status == 200
    assert len(answer["actions"]) == 20000
    assert answer["actions"][-1] == {"kind": "play", "cards": [19999, 20000]}
    assert client.call("GET", "/", "token-0") == (200, 1)  # the same connection, nothing left over
    assert server.connections == 1


def test_a_body_without_a_length_is_read_until_the_server_closes(servers: list[Server]) -> None:
    whole = reply(b'{"long": "' + b"x" * 100000 + b'"}', length=False)
    server = serve(servers, Reply([whole[:200], whole[200:]], close=True), Reply([reply(b"{}")]))
    client = client_of(server.port)

    status, answer = client.call("GET", "/", "token-0")

    assert status == 200
    assert answer == {"long": "x" * 100000}
    assert client.call("GET", "/", "token-0") == (200, {})
    assert server.connections == 2


def test_a_reply_with_no_body_is_none(servers: list[Server]) -> None:
    server = serve(servers, Reply([b"HTTP/1.1 204 No Content\r\n\r\n"]), Reply([reply(b"{}")]))
    client = client_of(server.port)

    assert client.call("DELETE", "/", "token-0") == (204, None)
    assert client.call("GET", "/", "token-0") == (200, {})
    assert server.connections == 1


def test_a_reply_that_is_not_json_raises_not_json_with_its_status_and_type(servers: list[Server]) -> None:
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    head = f"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: {len(page)}\r\n\r\n"
    server = serve(servers, Reply([head.encode() + page]))
    client = client_of(server.port)

    with pytest.raises(NotJSON) as caught:
        client.call("GET", "/api/v1/me/", "token-0")

    assert caught.value.status == 502
    assert str(caught.value).startswith("GET /api/v1/me/ answered 502 with 50 bytes of text/html, not JSON:")


def test_a_chunked_reply_fails_loudly_and_is_not_sent_again(servers: list[Server]) -> None:
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
    server = serve(servers, Reply([chunked]))
    client = client_of(server.port, retry_for=5.0)

    with pytest.raises(BadReply, match="chunked"):
        client.call("GET", "/", "token-0")

    assert client.stats.retries == 0
    assert len(server.requests) == 1


def test_a_reply_cut_short_is_a_connection_error_and_the_next_request_reconnects(
    servers: list[Server],
) -> None:
    cut = reply(b'{"cut": true}')[:-4]
    server = serve(servers, Reply([cut], close=True), Reply([reply(b'{"ok": 1}')]))
    client = client_of(server.port)

    with pytest.raises(ConnectionError, match="of 13 bytes"):
        client.call("GET", "/", "token-0")

    assert client.call("GET", "/", "token-0") == (200, {"ok": 1})
    assert server.connections == 2


def test_a_refused_connection_fails_without_retry_for(servers: list[Server]) -> None:
    client = client_of(free_port())

    with pytest.raises(ConnectionRefusedError):
        client.call("GET", "/", "token-0")

    assert client.stats.retries == 0


def test_a_request_a_dead_node_dropped_goes_again_to_the_next_node_with_the_same_key(
    servers: list[Server],
) -> None:
    killed = serve(servers)  # reads the request, then its connection closes unanswered
    live = serve(servers, Reply([reply(b'{"moved": true}', status="201 Created")]))
    refused = free_port()  # nothing listens there
    balancer = Balancer([refused, killed.port, live.port])  # the rotation starts at the second
    client = client_of(live.port, balancer=balancer, retry_for=5.0)

    answer = client.call(
        "POST", "/api/v1/games/1/actions/", "token-0", {"action": {"kind": "pass"}}, key="abc"
    )

    assert answer == (201, {"moved": True})
    assert client.stats.retries == 2  # the killed node, then the refused one, then the live one
    assert balancer.live == [live.port]  # both taken out of the rotation
    [(_, first)], [(_, again)] = killed.requests, live.requests
    assert first.replace(str(killed.port).encode(), b"PORT") == again.replace(
        str(live.port).encode(), b"PORT"
    )
    assert headers_of(again)[1]["idempotency-key"] == "abc"


def test_the_connection_counts_the_sockets_it_opened(servers: list[Server]) -> None:
    closing = reply(b"{}", headers="Connection: close\r\n")
    server = serve(servers, Reply([reply(b"{}")]), Reply([closing], close=True), Reply([reply(b"{}")]))
    connection = Connection(server.port)

    statuses = [connection.exchange("GET", "/", b"", None)[0] for _ in range(3)]

    assert statuses == [200, 200, 200]
    assert connection.connects == 2
    connection.close()


def test_the_profilers_wsgi_transport_hands_the_application_the_same_request() -> None:
    seen: dict[str, object] = {}

    def app(environ: dict[str, object], start_response: object) -> list[bytes]:
        seen.update(environ)
        start_response("201 Created", [("Content-Type", "application/json")])  # type: ignore[operator]
        return [b'{"ok": true}']

    client = client_of(8000)
    client.conns[8000] = WsgiConnection(app)

    answer = client.call("POST", "/api/v1/games/1/actions/?legal=30", "token-1", {"a": 1}, key="k9")

    assert answer == (201, {"ok": True})
    assert seen["PATH_INFO"] == "/api/v1/games/1/actions/"
    assert seen["QUERY_STRING"] == "legal=30"
    assert seen["HTTP_AUTHORIZATION"] == "Bearer token-1"
    assert seen["HTTP_ACCEPT"] == "application/json"
    assert seen["CONTENT_TYPE"] == "application/json"
    assert seen["HTTP_IDEMPOTENCY_KEY"] == "k9"
    assert seen["wsgi.input"].read() == b'{"a":1}'  # type: ignore[attr-defined]
