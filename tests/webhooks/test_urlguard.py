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
