"""The webhook signature: HMAC-SHA256 over ``"<timestamp>.<body>"`` with the endpoint's secret.

Headers sent with every event::

    Baogame-Webhook-Id: <event id, a UUID; the same on every retry: drop repeats>
    Baogame-Webhook-Timestamp: <Unix seconds when this attempt was signed>
    Baogame-Webhook-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>
"""

from __future__ import annotations

import hashlib
import hmac
import time

ID_HEADER = "Baogame-Webhook-Id"
TIMESTAMP_HEADER = "Baogame-Webhook-Timestamp"
SIGNATURE_HEADER = "Baogame-Webhook-Signature"
#: A receiver should refuse a signature older than this many seconds (a replayed request).
TOLERANCE = 300


def sign(*, secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` signed at ``timestamp``."""
    digest = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"v1={digest}"


def headers(*, secret: str, event_id: str, body: bytes, now: float | None = None) -> dict[str, str]:
    """The headers of one attempt to send ``body``."""
    timestamp = int(time.time() if now is None else now)
    return {
        "Content-Type": "application/json",
        "User-Agent": "baogame-webhooks/1",
        ID_HEADER: event_id,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(secret=secret, timestamp=timestamp, body=body),
    }


def verify(*, secret: str, timestamp: str, signature: str, body: bytes, now: float | None = None) -> bool:
    """What a receiver does: the signature matches and the timestamp is recent."""
    try:
        age = abs((time.time() if now is None else now) - int(timestamp))
    except ValueError:
        return False
    expected = sign(secret=secret, timestamp=int(timestamp), body=body)
    return age <= TOLERANCE and hmac.compare_digest(expected, signature)
