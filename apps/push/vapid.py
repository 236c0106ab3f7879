"""VAPID keys (RFC 8292): from the environment, or development keys that ``make run`` writes under var/."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def generate() -> dict[str, str]:
    """A new key pair: the public key as the browser wants it (uncompressed point), the private raw."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {
        "public_key": b64url(public),
        "private_key": b64url(key.private_numbers().private_value.to_bytes(32, "big")),
    }


def ensure_dev_keys(path: Path) -> bool:
    """Write development keys to ``path`` unless it exists; True when it wrote them."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(generate(), indent=1))
    path.chmod(0o600)
    return True
