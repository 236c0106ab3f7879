"""SSRF: webhook URLs resolving to private, loopback or link-local addresses are
refused unless ``WEBHOOKS_ALLOW_PRIVATE``; plain http only to loopback with ``WEBHOOKS_ALLOW_HTTP``."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.test import Client

from apps.webhooks import urlguard
from apps.webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def production(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    settings.WEBHOOKS_ALLOW_HTTP = False


@pytest.fixture
def evil_name(monkeypatch: pytest.MonkeyPatch) -> str:
    """``evil.example`` resolves to 10.1.2.3 and ::1 (as an attacker's DNS would answer)."""
    real = socket.getaddrinfo

    def fake(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "evil.example":
            return [
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port)),
                (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", port, 0, 0)),
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return "evil.example"


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://10.0.0.1/hook",
        "https://10.255.1.2:8443/hook",
        "https://[::1]/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[fe80::1]/hook",
        "https://192.168.1.1/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://0.0.0.0/hook",
        "https://localhost/hook",
    ],
)
def test_private_loopback_and_link_local_addresses_are_refused_in_production(
    production: None, url: str
) -> None:
    with pytest.raises(urlguard.UrlRefused) as refused:
        urlguard.check_url(url)

    assert refused.value.code == "private_address"


def test_a_name_resolving_to_private_addresses_is_refused(production: None, evil_name: str) -> None:
    with pytest.raises(urlguard.UrlRefused) as refused:
        urlguard.check_url(f"https://{evil_name}/hook")

    assert refused.value.code == "private_address"


def test_a_public_address_is_accepted(production: None) -> None:
    urlguard.check_url("https://93.184.215.14/hook")  # no exception


def test_plain_http_is_refused_in_production_even_to_a_public_address(production: None) -> None:
    with pytest.raises(urlguard.UrlRefused) as refused:
        urlguard.check_url("http://93.184.215.14/hook")

    assert refused.value.code == "insecure_url"


def test_development_allows_http_to_loopback_only(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE, settings.WEBHOOKS_ALLOW_HTTP = True, True

    urlguard.check_url("http://127.0.0.1:9000/hook")
    with pytest.raises(urlguard.UrlRefused) as refused:
        urlguard.check_url("http://10.0.0.1/hook")

    assert refused.value.code == "insecure_url"


def test_the_api_refuses_a_private_url(production: None, users: list[Any], evil_name: str) -> None:
    client = Client()
    client.force_login(users[0])

    answers = [
        client.post("/api/v1/me/webhooks/", {"url": url}, "application/json")
        for url in ("https://10.0.0.7/h", "https://[::1]/h", f"https://{evil_name}/h")
    ]

    assert [a.status_code for a in answers] == [400, 400, 400]
    assert {a.json()["code"] for a in answers} == {"private_address"}
    assert not WebhookEndpoint.objects.exists()


def test_the_page_refuses_a_private_url(production: None, users: list[Any]) -> None:
    client = Client()
    client.force_login(users[0])

    page = client.post("/webhooks/", {"url": "https://127.0.0.1/h", "secret": "s" * 20}, follow=True)

    assert "cannot be used" in page.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_check_deploy_warns_while_private_addresses_are_allowed(settings: Any) -> None:
    from apps.webhooks.checks import webhooks_private_addresses

    settings.WEBHOOKS_ALLOW_PRIVATE, settings.WEBHOOKS_ALLOW_HTTP = True, False
    warned = webhooks_private_addresses(None)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    quiet = webhooks_private_addresses(None)

    assert [w.id for w in warned] == ["webhooks.W001"]
    assert quiet == []


# --- IPv4 carried in IPv6 forms, and one resolution pinned for the request ----------


@pytest.mark.parametrize(
    ("form", "url"),
    [
        ("IPv4-mapped 169.254.169.254", "https://[::ffff:a9fe:a9fe]/hook"),
        ("IPv4-mapped 10.0.0.1", "https://[::ffff:10.0.0.1]/hook"),
        ("NAT64 well-known prefix, 169.254.169.254", "https://[64:ff9b::a9fe:a9fe]/hook"),
        ("NAT64 well-known prefix, 127.0.0.1", "https://[64:ff9b::7f00:1]/hook"),
        ("NAT64 local-use prefix", "https://[64:ff9b:1::808:808]/hook"),
        ("6to4 of 169.254.169.254", "https://[2002:a9fe:a9fe::]/hook"),
        ("6to4 of 10.0.0.1", "https://[2002:a00:1::1]/hook"),
        ("Teredo", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook"),
        ("IPv4-compatible (deprecated) ::127.0.0.1", "https://[::7f00:1]/hook"),
        ("unique local fc00::/7", "https://[fd00::1]/hook"),
        ("multicast", "https://[ff02::1]/hook"),
        ("IPv4 shared address space 100.64/10", "https://100.64.0.1/hook"),
    ],
)
def test_ipv6_forms_carrying_a_private_ipv4_address_are_refused(
    production: None, form: str, url: str
) -> None:
    with pytest.raises(urlguard.UrlRefused) as refused:
        urlguard.check_url(url)

    assert refused.value.code == "private_address", form


@pytest.mark.parametrize(
    "url",
    ["https://[64:ff9b::808:808]/hook", "https://[2002:808:808::1]/hook", "https://[2606:4700::1111]/hook"],
)
def test_ipv6_forms_of_a_global_address_are_accepted(production: None, url: str) -> None:
    assert urlguard.check_url(url)  # NAT64 / 6to4 of 8.8.8.8, a global IPv6 address


def test_a_redirect_is_not_followed(settings: Any) -> None:
    """A checked URL cannot hand the request on: the 3xx is the answer (a failed attempt)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    settings.WEBHOOKS_ALLOW_PRIVATE, settings.WEBHOOKS_ALLOW_HTTP = True, True
    hits: list[str] = []

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            hits.append(self.path)
            self.send_response(307)
            self.send_header("Location", "http://127.0.0.1:1/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        answer = urlguard.pinned_session(url).post(url, data=b"{}", timeout=5)  # requests would follow
    finally:
        server.shutdown()

    assert answer.status_code == 307
    assert hits == ["/hook"]


def test_the_host_is_resolved_once_and_the_checked_address_is_the_one_connected_to(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the first answer (checked) is loopback here, every later one a black hole; the
    request still reaches the checked address, with the name in its Host header."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    settings.WEBHOOKS_ALLOW_PRIVATE, settings.WEBHOOKS_ALLOW_HTTP = True, True
    hosts: list[str] = []

    class Record(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            hosts.append(self.headers["Host"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Record)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    lookups: list[str] = []
    real = socket.getaddrinfo

    def rebinding(host: str, p: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "rebind.example":
            lookups.append(host)
            address = "127.0.0.1" if len(lookups) == 1 else "192.0.2.1"  # TEST-NET-1: nothing answers
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, p))]
        return real(host, p, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    url = f"http://rebind.example:{port}/hook"
    try:
        answer = urlguard.pinned_session(url).post(url, data=b"{}", timeout=5)
    finally:
        server.shutdown()

    assert answer.status_code == 204
    assert lookups == ["rebind.example"]
    assert hosts == [f"rebind.example:{port}"]


def test_a_pinned_tls_connection_keeps_the_name_for_sni_and_the_certificate() -> None:
    """The socket goes to the checked address; SNI, Host and the certificate check use the name."""
    from urllib3.connection import HTTPSConnection
    from urllib3.connectionpool import HTTPSConnectionPool

    pool_class = urlguard._pinned_pool(HTTPSConnectionPool, HTTPSConnection, "93.184.215.14")
    connection = pool_class("hook.example", 443)._new_conn()

    assert connection.host == "hook.example"
    assert connection._dns_host == "93.184.215.14"
