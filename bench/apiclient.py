"""What the API benchmarks share: the site under gunicorn, its users, the API client, the measures.

``bench.loadtest`` (one gunicorn, clients playing their own games) and ``bench.rehearsal`` (two web
nodes, workers, beat, killed processes) both start gunicorn with ``start_site`` on the database this
process is connected to, create players with ``make_users`` and play through ``Client``; ``clean_up``
deletes what a run created.

``Client`` speaks HTTP/1.1 over a plain socket (``Connection``) and JSON through ``msgspec``: the
clients run on the machine they measure, so each CPU millisecond they spend on a move is taken from
gunicorn and PostgreSQL; ``http.client`` (headers parsed by the ``email`` package) and ``json`` cost
several times as much.
"""

from __future__ import annotations

import http.client
import os
import random
import resource
import secrets
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

import msgspec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from apps.api.services import token_create
from apps.games.models import Game

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def database_url() -> str:
    """The URL of the database this command is connected to (under the test runner, the test database,
    which ``settings.DATABASE_URL`` does not name)."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}{db['HOST'] or ''}{port}/{quote(db['NAME'], safe='')}"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def client_cpu_seconds() -> float:
    """CPU seconds used so far by this process (the clients)."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    return mine.ru_utime + mine.ru_stime


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process from Linux's ``/proc`` (0 elsewhere or when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def server_cpu_seconds(pid: int) -> float:
    """CPU seconds of gunicorn: the master and its workers."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += proc_cpu_seconds(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def database_cpu_seconds() -> float:
    """CPU seconds of every PostgreSQL process on this machine (0 when the server runs elsewhere)."""
    total = 0.0
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "comm").read_text().strip() in {"postgres", "postmaster"}:
                total += proc_cpu_seconds(int(entry.name))
        except (OSError, ValueError):
            continue
    return total


@dataclass
class Stats:
    """What one client measured (merged at the end; no locking needed while running)."""

    move_ms: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    late_ms: list[float] = field(default_factory=list)
    refused: int = 0
    errors: int = 0
    games: int = 0
    retries: int = 0  # requests sent again after a connection error (rehearsal)
    replayed: int = 0  # moves a retry found applied already (same Idempotency-Key)


class NotJSON(RuntimeError):
    """A reply whose body is not JSON (an HTML error page of the HTTP server, say): the run reports its
    request, status, content type and size, and the start of the body, not a bare decoding error. The
    API answers JSON only, so such a body is never a game's view."""

    def __init__(self, method: str, path: str, status: int, content_type: str, payload: bytes) -> None:
        super().__init__(
            f"{method} {path} answered {status} with {len(payload)} bytes of "
            f"{content_type or 'no content type'}, not JSON: {payload[:120]!r}"
        )
        self.status = status


class Balancer:
    """A round-robin load balancer's choice of web node, shared by the clients: each request goes to the
    next node in rotation; a node whose connection failed is taken out (a passive health check) until
    ``up`` puts it back (the active health check of a restarted node passing)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = list(ports)
        self.live = list(ports)
        self.turn = 0
        self.lock = threading.Lock()

    def next_port(self) -> int:
        with self.lock:
            self.turn += 1
            return (self.live or self.ports)[self.turn % len(self.live or self.ports)]

    def down(self, port: int) -> None:
        with self.lock:
            if port in self.live:
                self.live.remove(port)

    def up(self, port: int) -> None:
        with self.lock:
            if port not in self.live:
                self.live.append(port)


class BadReply(RuntimeError):
    """A reply ``Connection`` does not read (a chunked body, a malformed status line or header block):
    not a connection error, so it is not retried but ends the client's run with what was met."""


#: The reply statuses that never have a body (RFC 9110 §6.4.1).
NO_BODY = frozenset({204, 304})


class Transport(Protocol):
    """What ``Client`` sends its requests through: ``Connection`` (a socket), or in
    ``bench.profile_moves`` the WSGI application called directly."""

    def exchange(self, method: str, path: str, head: bytes, body: bytes | None) -> tuple[int, bytes, str]:
        """Send one request and read its reply: status, body and ``Content-Type``. ``head``: the
        request's header lines but ``Host`` and ``Content-Length``, each ending in CRLF."""
        ...

    def close(self) -> None: ...


class Connection:
    """A minimal HTTP/1.1 client connection to ``HOST:port``: opened on the first request (and again
    after the server closed it), with ``TCP_NODELAY``; each request written with one ``sendall``; the
    reply's status line and headers split with bytes operations, its body read by ``Content-Length``
    or, without one, until the server closes. The socket is kept for the next request unless the reply
    says ``Connection: close`` (or is an HTTP/1.0 reply without ``keep-alive``). A chunked body raises
    ``BadReply``: this site's replies always have a length. Connection errors (a refused or reset
    connection, the server closing before the reply is complete, a timeout) raise ``OSError`` after
    closing the socket, as ``http.client`` does."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.port = port
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self.host = f"Host: {HOST}:{port}\r\n".encode()
        self.connects = 0  # sockets opened, for the tests of keep-alive

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def exchange(self, method: str, path: str, head: bytes, body: bytes | None) -> tuple[int, bytes, str]:
        try:
            return self._exchange(method, path, head, body)
        except BaseException:
            self.close()
            raise

    def _exchange(self, method: str, path: str, head: bytes, body: bytes | None) -> tuple[int, bytes, str]:
        sock = self.sock
        if sock is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # HOST is an IPv4 address: no lookup
            self.sock = sock
            sock.settimeout(self.timeout)
            sock.connect((HOST, self.port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.connects += 1
        line = f"{method} {path} HTTP/1.1\r\n".encode()
        if body is None:
            tail = b"Content-Length: 0\r\n\r\n" if method in ("POST", "PUT", "PATCH") else b"\r\n"
            sock.sendall(line + self.host + head + tail)
        else:
            sock.sendall(b"%s%s%sContent-Length: %d\r\n\r\n%s" % (line, self.host, head, len(body), body))
        received = sock.recv(65536)
        if not received:
            raise ConnectionResetError(f"{method} {path}: the server closed the connection without a reply")
        end = received.find(b"\r\n\r\n")
        while end < 0:
            more = sock.recv(65536)
            if not more:
                raise ConnectionResetError(f"{method} {path}: the server closed the connection mid-headers")
            received += more
            end = received.find(b"\r\n\r\n", max(0, len(received) - len(more) - 3))
        block = received[:end]  # the status line and the header lines, without the empty line
        low = block.lower()  # header names are case-insensitive: found in this, read from ``block``
        version, _, rest = block.partition(b" ")
        try:
            status = int(rest[:3])
        except ValueError:
            raise BadReply(f"{method} {path}: not an HTTP status line: {block[:80]!r}") from None
        if not version.startswith(b"HTTP/1.") or status < 200:
            raise BadReply(f"{method} {path}: a reply this client does not read: {block[:80]!r}")
        if b"\r\ntransfer-encoding:" in low:
            raise BadReply(
                f"{method} {path} answered {status} with Transfer-Encoding "
                f"{_header(block, low, b'transfer-encoding')!r}, which this client does not read"
            )
        said = _header(low, low, b"connection") or b""
        keep = b"close" not in said and (version != b"HTTP/1.0" or b"keep-alive" in said)
        payload = received[end + 4 :]
        length = _header(block, low, b"content-length")
        if method == "HEAD" or status in NO_BODY:
            payload = b""
        elif length is not None:
            try:
                size = int(length)
            except ValueError:
                raise BadReply(f"{method} {path}: Content-Length {length!r}") from None
            if len(payload) < size:
                chunks = [payload]
                missing = size - len(payload)
                while missing > 0:
                    more = sock.recv(max(missing, 65536))
                    if not more:
                        raise ConnectionResetError(
                            f"{method} {path}: the server closed the connection after "
                            f"{size - missing} of {size} bytes of the body"
                        )
                    chunks.append(more)
                    missing -= len(more)
                payload = b"".join(chunks)
            if len(payload) != size:
                raise BadReply(f"{method} {path}: {len(payload)} bytes after a body of {size}")
        else:  # no length: the body ends when the server closes the connection
            chunks = [payload]
            while more := sock.recv(65536):
                chunks.append(more)
            payload = b"".join(chunks)
            keep = False
        if not keep:
            self.close()
        return status, payload, (_header(block, low, b"content-type") or b"").decode("latin-1")


def _header(block: bytes, low: bytes, name: bytes) -> bytes | None:
    """The value of the first header ``name`` (lower case) in a reply's header ``block``, whose lower
    case is ``low``; None when it has none."""
    start = low.find(b"\r\n" + name + b":")
    if start < 0:
        return None
    start += len(name) + 3
    stop = low.find(b"\r\n", start)
    return block[start : stop if stop >= 0 else len(block)].strip()


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


class Client:
    """One simulated player program: an HTTP connection per web node (kept alive when the server allows
    it; reopened after a ``Connection: close``) and the tokens of both seats.

    With a ``balancer`` (several web nodes) each request goes to the node it picks. ``retry_for`` > 0: a
    request that fails with a connection error (a node killed) is sent again, to the next node and with
    the same ``Idempotency-Key``, for up to that many seconds.
    """

    def __init__(
        self,
        port: int,
        tokens: list[str],
        rng: random.Random,
        stats: Stats,
        rate: float = 0.0,
        *,
        balancer: Balancer | None = None,
        retry_for: float = 0.0,
    ) -> None:
        self.balancer = balancer or Balancer([port])
        self.conns: dict[int, Transport] = {p: Connection(p) for p in self.balancer.ports}
        self.tokens = tokens
        self.rng = rng
        self.stats = stats
        self.rate = rate  # this client's moves per second; 0: as fast as the server answers
        self.retry_for = retry_for
        self.heads: dict[str, bytes] = {}  # a token's header lines, encoded once

    def _send(self, method: str, path: str, head: bytes, data: bytes | None) -> tuple[int, bytes, str]:
        port = self.balancer.next_port()
        try:
            return self.conns[port].exchange(method, path, head, data)
        except OSError:
            if self.retry_for:
                self.balancer.down(port)
            raise  # the connection closed itself: the next request reconnects

    def call(
        self, method: str, path: str, token: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        head = self.heads.get(token)
        if head is None:
            head = self.heads[token] = (
                f"Authorization: Bearer {token}\r\nAccept: application/json\r\n".encode()
            )
        data = None
        if body is not None:
            data = _encode(body)
            head += b"Content-Type: application/json\r\n"
        if key:
            head += f"Idempotency-Key: {key}\r\n".encode()
        give_up = time.monotonic() + self.retry_for
        while True:
            try:
                status, payload, content_type = self._send(method, path, head, data)
                break
            except OSError:
                if time.monotonic() >= give_up:
                    raise
                self.stats.retries += 1
                time.sleep(0.1)
        if not payload:
            return status, None
        try:
            return status, _decode(payload)
        except msgspec.DecodeError:
            raise NotJSON(method, path, status, content_type, payload) from None

    def new_game(self) -> tuple[int, list[dict[str, Any]]]:
        """Create a Bao Bei game with seat 0 and join it with seat 1; return its id and open decisions."""
        status, game = self.call("POST", "/api/v1/games/", self.tokens[0], {"engine": "baobei", "players": 2})
        if status != 201:
            raise RuntimeError(f"create answered {status}: {game}")
        status, _ = self.call(
            "POST", "/api/v1/games/join/", self.tokens[1], {"invite_token": game["invite_token"]}
        )
        if status != 200:
            raise RuntimeError(f"join answered {status}")
        status, detail = self.call("GET", f"/api/v1/games/{game['id']}/", self.tokens[0])
        self.stats.games += 1
        return game["id"], self._owners(detail["decisions"], viewer=0)

    @staticmethod
    def _owners(decisions: list[dict[str, Any]], *, viewer: int) -> list[dict[str, Any]]:
        """Who acts next, seen by ``viewer``: a simultaneous decision that is not the viewer's shows no
        owner (BB-30.6); this client holds both seats, so the owner is then the other seat."""
        seats = sorted({d["seat"] if d["seat"] is not None else 1 - viewer for d in decisions})
        return [{"seats": seats}] if seats else []

    def _pace(self, planned: float, until: float) -> float | None:
        """Wait for the planned start of the next move and return the plan after it (Poisson arrivals);
        None when the plan falls after the end of the run."""
        if not self.rate:
            return planned
        if planned >= until:
            return None
        now = time.monotonic()
        if planned > now:
            time.sleep(planned - now)
        self.stats.late_ms.append(max(0.0, now - planned) * 1000)
        return planned + self.rng.expovariate(self.rate)

    def _legal(self, game_id: int, seat: int) -> list[dict[str, Any]] | None:
        started = time.perf_counter()
        status, legal = self.call("GET", f"/api/v1/games/{game_id}/legal/?limit=30", self.tokens[seat])
        self.stats.read_ms.append((time.perf_counter() - started) * 1000)
        return legal["actions"] if status == 200 else None

    def run(self, until: float) -> None:
        game_id, decisions = self.new_game()
        known: list[dict[str, Any]] | None = None  # the acting seat's legal actions, from the last reply
        planned = time.monotonic()
        while time.monotonic() < until:
            if not decisions:
                game_id, decisions = self.new_game()
                known = None
                continue
            seat = decisions[0]["seats"][0]
            token = self.tokens[seat]
            actions = known if known else self._legal(game_id, seat)
            if not actions:
                self.stats.errors += 1
                game_id, decisions = self.new_game()
                known = None
                continue
            action = self.rng.choice(actions)
            next_plan = self._pace(planned, until)
            if next_plan is None:
                break
            planned = next_plan
            started = time.perf_counter()
            status, answer = self.call(
                "POST",
                f"/api/v1/games/{game_id}/actions/?legal=30",
                token,
                {"action": action},
                key=secrets.token_hex(8),
            )
            self.stats.move_ms.append((time.perf_counter() - started) * 1000)
            known = None
            if status == 201:
                decisions = [
                    {"seats": d["seats"] or [1 - seat]} for d in answer["decisions"]
                ]  # no owner listed: a simultaneous decision of the other seat (BB-30.6)
                if decisions and decisions[0]["seats"][0] == seat:
                    known = answer["legal"]["actions"]
            elif status in (400, 409):
                self.stats.refused += 1  # e.g. a pluck window another seat closed: ask again
                _, detail = self.call("GET", f"/api/v1/games/{game_id}/", token)
                decisions = self._owners(detail["decisions"], viewer=seat)
            else:
                self.stats.errors += 1
                decisions = []

    def read_legal(self, until: float) -> None:
        """Only the read every move needs: ``/legal`` of one game for the seat that must act, as fast as
        the server answers (or paced), until ``until``; the game never moves (``loadtest --reads``)."""
        game_id, decisions = self.new_game()
        seat = decisions[0]["seats"][0]
        planned = time.monotonic()
        while time.monotonic() < until:
            next_plan = self._pace(planned, until)
            if next_plan is None:
                break
            planned = next_plan
            if self._legal(game_id, seat) is None:
                self.stats.errors += 1


def make_users(prefix: str, clients: int, seats: int = 2) -> list[list[str]]:
    """Players ``{prefix}-{client}-{seat}`` (one per seat) and their API tokens, for every client."""
    user_model = get_user_model()
    out = []
    for c in range(clients):
        tokens = []
        for seat in range(seats):
            user = user_model(username=f"{prefix}-{c}-{seat}", email=f"{prefix}-{c}-{seat}@example.invalid")
            user.set_unusable_password()
            user.save()
            tokens.append(token_create(user=user, name=prefix.split("-", 1)[0])[1])
        out.append(tokens)
    return out


def clean_up(prefix: str) -> int:
    """Delete the users named ``{prefix}-…`` and every game they sat in (moves, seats, decisions and
    notifications go with them); the number of game rows deleted with their dependants."""
    users = get_user_model().objects.filter(username__startswith=f"{prefix}-")
    games, _ = Game.objects.filter(seats__user__in=users).distinct().delete()
    users.delete()
    return games


def site_env(
    *, var_dir: Path, broker: str, secret_key: str, extra: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment of a production-like process of the site (web node, worker or beat) on the
    database this process uses: ``DEBUG`` off, the given broker, mail to memory unless ``extra`` says."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DEBUG": "False",
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": f"{HOST},localhost",
        "SECURE_SSL_REDIRECT": "False",
        "DB_CONN_MAX_AGE": "600",
        "BAOGAME_VAR_DIR": str(var_dir),
        "BAOGAME_TESTING": "False",
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "False",
        "API_WRITE_RATE": "100000/min",  # the throttle still runs, but does not limit the benchmark
        "LOG_LEVEL": "WARNING",
        "EMAIL_URL": "locmem://",
        **(extra or {}),
    }


def start_site(
    port: int,
    env: dict[str, str],
    *,
    workers: int,
    worker_class: str = "sync",
    threads: int = 1,
    config: str = "",
    new_session: bool = False,
    log: Path | None = None,
    app: str = "baogame.wsgi:application",
) -> subprocess.Popen[bytes]:
    """Start gunicorn on ``port`` with ``env`` and wait until Django answers (60 s at most).

    ``new_session``: in a process group of its own, so that ``os.killpg`` takes its workers with it.
    ``log``: its output goes to (the end of) that file rather than to this process's.
    ``app``: the WSGI application (``bench.ladder.wsgi:application`` for the ladder's rungs).
    """
    command = [
        sys.executable, "-m", "gunicorn", app,
        "--bind", f"{HOST}:{port}",
        "--workers", str(workers),
        "--worker-class", worker_class,
        "--log-level", "warning",
    ]  # fmt: skip
    if worker_class == "gthread":
        command += ["--threads", str(threads), "--keep-alive", "75"]
    if config:
        command += ["--config", config]
    (Path(env["BAOGAME_VAR_DIR"]) / "staticfiles").mkdir(parents=True, exist_ok=True)
    out = log.open("ab") if log is not None else None
    try:
        server = subprocess.Popen(
            command,
            env=env,
            cwd=settings.BASE_DIR,
            start_new_session=new_session,
            stdout=out,
            stderr=subprocess.STDOUT if out is not None else None,
        )
    finally:
        if out is not None:
            out.close()  # the child has its own copy
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited at startup")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/api/v1/me/")  # cheap: 401 once Django answers (a ladder rung: 404)
            if conn.getresponse().status in (401, 404):
                return server
        except OSError:
            pass
        time.sleep(0.3)
    server.terminate()
    raise RuntimeError("gunicorn did not answer within 60 s")


def new_secret_key() -> str:
    return secrets.token_urlsafe(64)
