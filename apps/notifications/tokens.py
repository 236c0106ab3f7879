"""Signed things in mails: reply addresses, game links and one-click unsubscribe tokens.

A reply address is ``g<game>.u<user>.r<nonce>.t<time>.<hmac>@REPLY_DOMAIN``: lowercase only (mail
systems may fold the case of a local part), with an HMAC of everything before it (keyed by
``SECRET_KEY``, salted), a creation time for the expiry, and a per-mail nonce (a ``ReplyAddress``
row naming the decision the mail was about).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

from baogame.rules.core import RuleError

REPLY_SALT = "apps.notifications.reply-address"
LINK_SALT = "apps.notifications.game-link"
UNSUBSCRIBE_SALT = "apps.notifications.unsubscribe"
SIGNATURE_LENGTH = 20

_LOCAL = re.compile(r"^g(?P<g>\d+)\.u(?P<u>\d+)\.r(?P<r>\d+)\.t(?P<t>[0-9a-z]+)\.(?P<sig>[0-9a-f]+)$")


def _b36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def _sign(text: str) -> str:
    return salted_hmac(REPLY_SALT, text, algorithm="sha256").hexdigest()[:SIGNATURE_LENGTH]


def reply_address(*, game_id: int, user_id: int, nonce: int, at: float | None = None) -> str:
    """The signed Reply-To address of one mail."""
    stamp = _b36(int(at if at is not None else time.time()))
    local = f"g{game_id}.u{user_id}.r{nonce}.t{stamp}"
    return f"{local}.{_sign(local)}@{settings.REPLY_DOMAIN}"


@dataclass(frozen=True)
class ReplyTarget:
    """What a verified reply address names."""

    game_id: int
    user_id: int
    nonce: int
    created: int


def reply_address_parse(address: str, *, now: float | None = None) -> ReplyTarget:
    """Verify a reply address; ``RuleError`` ``forged_address`` or ``reply_expired`` when it fails."""
    local, _, domain = address.strip().strip("<>").lower().rpartition("@")
    if domain != settings.REPLY_DOMAIN.lower():
        raise RuleError("forged_address", "this is not a reply address of this server")
    match = _LOCAL.match(local)
    if match is None:
        raise RuleError("forged_address", "this reply address is not valid")
    signed = local.rsplit(".", 1)[0]
    if not constant_time_compare(_sign(signed), match["sig"]):
        raise RuleError("forged_address", "this reply address is not valid")
    target = ReplyTarget(int(match["g"]), int(match["u"]), int(match["r"]), int(match["t"], 36))
    age = (now if now is not None else time.time()) - target.created
    if age > settings.NOTIFICATIONS_REPLY_MAX_AGE:
        raise RuleError("reply_expired", "this reply address has expired; answer a newer mail")
    return target


def reply_address_target(address: str) -> ReplyTarget | None:
    """What a reply address of this server names, whatever its age (None when it is not one, or its
    signature does not hold): for showing a mail, never for acting on a reply (``reply_address_parse``)."""
    try:
        return reply_address_parse(address, now=0)  # now=0: no address is too old
    except RuleError:
        return None


def is_reply_address(address: str) -> bool:
    """Whether ``address`` is at the reply domain (signed or not)."""
    return address.strip().strip("<>").lower().endswith("@" + settings.REPLY_DOMAIN.lower())


def game_link_token(*, game_id: int, user_id: int) -> str:
    """A signed token for the link to a game in a mail."""
    return signing.dumps({"g": game_id, "u": user_id}, salt=LINK_SALT, compress=True)


def game_link_load(token: str) -> dict[str, Any]:
    """The game and user of a link token; ``signing.BadSignature`` when forged or too old."""
    return signing.loads(token, salt=LINK_SALT, max_age=settings.NOTIFICATIONS_REPLY_MAX_AGE)


def unsubscribe_token(*, user_id: int, category: str) -> str:
    """A signed one-click unsubscribe token for one user and category (no expiry: RFC 8058)."""
    return signing.dumps({"u": user_id, "c": category}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_load(token: str) -> dict[str, Any]:
    """The user and category of an unsubscribe token; ``signing.BadSignature`` when forged."""
    return signing.loads(token, salt=UNSUBSCRIBE_SALT)
