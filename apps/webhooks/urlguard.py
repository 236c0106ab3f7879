"""Which webhook and push URLs the server may POST to (server-side request forgery).

A URL is refused when any address its host resolves to is private, loopback, link-local, multicast or
otherwise not global, unless ``WEBHOOKS_ALLOW_PRIVATE`` is on (the development default); plain HTTP
is accepted only with ``WEBHOOKS_ALLOW_HTTP`` (development) and only to loopback addresses.
Redirects are never followed, so a checked URL cannot hand the request on to a refused one.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UrlRefused(ValueError):
    """The URL may not be called; ``code`` says why (``bad_url``, ``insecure_url``, ``private_address``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def resolve(host: str, port: int) -> set[IPAddress]:
    """Every address ``host`` resolves to (an IP literal: itself); ``UrlRefused`` if it does not resolve."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise UrlRefused("bad_url", f"{host} does not resolve") from exc
    out: set[IPAddress] = set()
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        out.add(address)
    return out


def is_public(address: IPAddress) -> bool:
    """Whether ``address`` is a global unicast address (not private, loopback, link-local, …)."""
    return address.is_global and not address.is_multicast


def check_url(url: str) -> None:
    """Refuse (``UrlRefused``) a URL the server must not call; return quietly otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise UrlRefused("bad_url", "an https:// URL is needed")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise UrlRefused("bad_url", "the port is not a number") from exc
    addresses = resolve(parts.hostname, port)
    if parts.scheme == "http" and not (
        settings.WEBHOOKS_ALLOW_HTTP and addresses and all(a.is_loopback for a in addresses)
    ):
        raise UrlRefused(
            "insecure_url", "an https:// URL is needed (plain http only to loopback in development)"
        )
    if not settings.WEBHOOKS_ALLOW_PRIVATE and any(not is_public(a) for a in addresses):
        raise UrlRefused("private_address", f"{parts.hostname} resolves to a private or local address")
