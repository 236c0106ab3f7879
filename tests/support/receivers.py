"""Local HTTP receivers on 127.0.0.1 for the push and webhook tests.

* ``PushService``: a stand-in for a browser's push service. It holds a browser's subscription keys (a
  P-256 key pair and a 16-byte auth secret), DECRYPTS every message it receives (RFC 8291, aes128gcm,
  with ``http_ece``) and verifies the VAPID JWT of its ``Authorization`` header (RFC 8292: ES256 over
  the site's public key, ``aud`` the push service's origin, ``exp`` within 24 h). It can answer with a
  given status (404/410: "this subscription is gone").
* ``WebhookReceiver``: records each POST (headers, body); fails the first ``fail_first`` with a 500.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int
    plaintext: bytes | None = None
    vapid_claims: dict[str, Any] | None = None
    vapid_key: str | None = None


@dataclass
class _Server:
    received: list[Received] = field(default_factory=list)
    port: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"expected {count} requests, got {len(self.received)}")

    def answer(self, path: str, headers: dict[str, str], body: bytes) -> Received:  # pragma: no cover
        raise NotImplementedError


@contextmanager
def _serve(server: _Server) -> Iterator[None]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            got = server.answer(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            with server.lock:
                server.received.append(got)
            self.send_response(got.answered)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        httpd.shutdown()
        httpd.server_close()


class PushService(_Server):
    """A push service for one browser: decrypts what it gets and checks the VAPID signature."""

    def __init__(self) -> None:
        super().__init__()
        self.browser_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        self.status = 201

    def subscription(self, name: str = "sub1") -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives in a browser subscribed to this service."""
        public = self.browser_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{name}",
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth_secret)},
        }

    def answer(self, path: str, headers: dict[str, str], body: bytes) -> Received:
        got = Received(path, headers, body, self.status)
        assert headers.get("content-encoding") == "aes128gcm"
        got.plaintext = http_ece.decrypt(
            body, private_key=self.browser_key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        got.vapid_claims, got.vapid_key = verify_vapid(headers.get("authorization", ""))
        return got


def verify_vapid(header: str) -> tuple[dict[str, Any], str]:
    """The claims of a valid ``vapid t=<jwt>, k=<key>`` header and its key; AssertionError otherwise."""
    scheme, _, params = header.partition(" ")
    assert scheme.lower() == "vapid", header
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    token, key = fields["t"], fields["k"]
    head, claims, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as exc:
        raise AssertionError("the VAPID signature does not verify") from exc
    return json.loads(unb64url(claims)), key


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()
    with _serve(service):
        yield service


class WebhookReceiver(_Server):
    """Records every POST; answers 500 to the first ``fail_first`` ones, then 200."""

    def __init__(self, fail_first: int = 0) -> None:
        super().__init__()
        self.fail_first = fail_first

    def answer(self, path: str, headers: dict[str, str], body: bytes) -> Received:
        failing = len(self.received) < self.fail_first
        return Received(path, headers, body, 500 if failing else 200)


@contextmanager
def webhook_receiver(fail_first: int = 0) -> Iterator[WebhookReceiver]:
    receiver = WebhookReceiver(fail_first)
    with _serve(receiver):
        yield receiver
