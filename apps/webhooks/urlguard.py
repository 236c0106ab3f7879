"""Which webhook and push URLs the server may POST to (server-side request forgery), and how.

A URL is refused when any address its host resolves to is not global: private, loopback, link-local,
multicast, reserved, or an IPv6 form that carries such an IPv4 address (IPv4-mapped ``::ffff:0:0/96``,
IPv4-compatible ``::/96``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) or whose IPv4 target cannot be
told (the NAT64 local-use prefix ``64:ff9b:1::/48``, Teredo ``2001::/32``) — unless
``WEBHOOKS_ALLOW_PRIVATE`` is on (the development default). Plain HTTP is accepted only with
``WEBHOOKS_ALLOW_HTTP`` (development) and only to loopback addresses.

The host is resolved once: ``pinned_session`` checks the addresses and returns a ``requests`` session
whose connections go to the checked address and no other (a second DNS answer, as a rebinding attacker
would give, is never asked for), while the URL's host name stays the ``Host`` header, the TLS SNI name
and the name the certificate is checked against. Redirects are never followed, so a checked URL cannot
hand the request on to a refused one.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")
NAT64_LOCAL_USE = ipaddress.ip_network("64:ff9b:1::/48")
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
TEREDO = ipaddress.ip_network("2001::/32")
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated (RFC 4291 2.5.5.1), still routed by some stacks


class UrlRefused(ValueError):
    """The URL may not be called; ``code`` says why (``bad_url``, ``insecure_url``, ``private_address``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to, in the resolver's order (an IP literal: itself);
    ``UrlRefused`` if it does not resolve."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise UrlRefused("bad_url", f"{host} does not resolve") from exc
    out: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in out:
            out.append(address)
    return out


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 transition form carries (IPv4-mapped or -compatible, NAT64 well-known
    prefix, 6to4)."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64_WELL_KNOWN or address in IPV4_COMPATIBLE:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.sixtofour


def is_public(address: IPAddress) -> bool:
    """Whether ``address`` is a global unicast address (not private, loopback, link-local, …), and, for
    an IPv6 form that carries an IPv4 address, whether that one is too."""
    if not address.is_global or address.is_multicast:
        return False
    if isinstance(address, ipaddress.IPv6Address) and (address in NAT64_LOCAL_USE or address in TEREDO):
        return False  # where these lead is not written in the address
    inner = embedded_ipv4(address)
    return inner is None or is_public(inner)


def check_url(url: str) -> list[IPAddress]:
    """Refuse (``UrlRefused``) a URL the server must not call; else return the addresses checked."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise UrlRefused("bad_url", "an https:// URL is needed")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise UrlRefused("bad_url", "the port is not a number") from exc
    addresses = resolve(parts.hostname, port)
    if parts.scheme == "http" and not (
        settings.WEBHOOKS_ALLOW_HTTP and addresses and all(_loopback(a) for a in addresses)
    ):
        raise UrlRefused(
            "insecure_url", "an https:// URL is needed (plain http only to loopback in development)"
        )
    if not settings.WEBHOOKS_ALLOW_PRIVATE and any(not is_public(a) for a in addresses):
        raise UrlRefused("private_address", f"{parts.hostname} resolves to a private or local address")
    return addresses


def _loopback(address: IPAddress) -> bool:
    inner = embedded_ipv4(address)
    return address.is_loopback or (inner is not None and inner.is_loopback)


# --- connecting to the checked address ----------------------------------------------------------------


def _pinned_pool(base: type[HTTPConnectionPool], connection: type[HTTPConnection], address: str) -> Any:
    """A connection pool class whose connections open a socket to ``address`` whatever their host is.

    urllib3 resolves ``_dns_host`` when it connects and uses ``host`` for the Host header, SNI and the
    certificate check; only the first is replaced."""

    class PinnedConnection(connection):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._pinned_name = ""
            super().__init__(*args, **kwargs)
            self._dns_host = address

        @property
        def host(self) -> str:
            return self._pinned_name

        @host.setter
        def host(self, value: str) -> None:
            self._pinned_name = value.rstrip(".")
            self._dns_host = address

    class PinnedPool(base):  # type: ignore[valid-type,misc]
        ConnectionCls = PinnedConnection

    return PinnedPool


class PinnedAdapter(HTTPAdapter):
    """A transport adapter that connects to one checked address (see ``pinned_session``)."""

    def __init__(self, address: IPAddress) -> None:
        self.address = str(address)
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _pinned_pool(HTTPConnectionPool, HTTPConnection, self.address),
            "https": _pinned_pool(HTTPSConnectionPool, HTTPSConnection, self.address),
        }


class NoRedirectSession(requests.Session):
    """A session that treats every answer as final: a 3xx is the answer, its ``Location`` unfollowed
    (whatever the caller passes as ``allow_redirects``, e.g. ``pywebpush``, which passes nothing)."""

    def get_redirect_target(self, resp: requests.Response) -> None:
        return None


def pinned_session(url: str) -> requests.Session:
    """Check ``url`` (``UrlRefused``), then a session whose requests to it connect to the first address
    checked: its host is resolved this once. The session follows no redirects and reads no proxy or
    ``.netrc`` settings from the environment."""
    addresses = check_url(url)
    session = NoRedirectSession()
    session.trust_env = False
    adapter = PinnedAdapter(addresses[0])
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
