"""``manage.py rundev --addr`` serves another address than make run's 127.0.0.1:8000: the mails its
workers write link to the address served, unless ``SITE_URL`` says otherwise; and the ``Site`` row, while
it is still a development one, names that address (the sign-up confirmation mail reads it)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sites.models import Site
from django.core import mail
from django.core.cache import cache
from django.test import Client

from apps.accounts.site import SITE_NAME
from apps.games.management.commands.rundev import child_env, serve_site_at


def test_the_mail_links_of_a_site_served_with_addr_lead_to_that_address() -> None:
    assert child_env("127.0.0.1:8103", {"PATH": "/bin"}) == {
        "PATH": "/bin",
        "SITE_URL": "http://127.0.0.1:8103",
    }


def test_a_site_url_set_by_the_caller_is_kept() -> None:
    kept = child_env("127.0.0.1:8103", {"SITE_URL": "https://play.example.org"})

    assert kept["SITE_URL"] == "https://play.example.org"


@pytest.fixture
def development_site(monkeypatch: pytest.MonkeyPatch) -> Site:
    """The ``Site`` row as ``migrate`` leaves it with the default ``SITE_URL``; no ``SITE_URL`` set."""
    monkeypatch.delenv("SITE_URL", raising=False)
    site, _ = Site.objects.update_or_create(
        pk=settings.SITE_ID, defaults={"domain": "127.0.0.1:8000", "name": SITE_NAME}
    )
    Site.objects.clear_cache()
    return site


@pytest.mark.django_db
def test_the_sign_up_confirmation_names_the_address_served(development_site: Site) -> None:
    """django-allauth names the ``Site`` row's domain in the confirmation mail: after ``rundev --addr
    127.0.0.1:8102`` it is that address, not make run's."""
    assert serve_site_at("127.0.0.1:8102")
    cache.clear()  # allauth's rate limits live in the cache

    Client().post(
        "/accounts/signup/",
        {
            "email": "wren@example.com",
            "username": "wren",
            "password1": "a-long-bird-password-42",
            "password2": "a-long-bird-password-42",
        },
    )

    (confirmation,) = mail.outbox
    assert "127.0.0.1:8102" in confirmation.body and "127.0.0.1:8000" not in confirmation.body
    site = Site.objects.get(pk=settings.SITE_ID)
    assert (site.domain, site.name) == ("127.0.0.1:8102", SITE_NAME)


@pytest.mark.django_db
def test_served_again_on_the_default_address_the_row_follows(development_site: Site) -> None:
    serve_site_at("127.0.0.1:8102")

    assert serve_site_at("127.0.0.1:8000")
    assert not serve_site_at("127.0.0.1:8000")  # nothing left to change
    assert Site.objects.get(pk=settings.SITE_ID).domain == "127.0.0.1:8000"


@pytest.mark.django_db
def test_a_site_url_set_by_the_caller_names_the_row(
    development_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITE_URL", "http://localhost:9000")

    serve_site_at("127.0.0.1:8102")

    assert Site.objects.get(pk=settings.SITE_ID).domain == "localhost:9000"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("domain", "name"),
    [("play.example.org", SITE_NAME), ("127.0.0.1:8000", "Our Bao evenings")],
)
def test_a_row_an_operator_changed_is_left_alone(development_site: Site, domain: str, name: str) -> None:
    Site.objects.filter(pk=settings.SITE_ID).update(domain=domain, name=name)

    assert not serve_site_at("127.0.0.1:8102")

    site = Site.objects.get(pk=settings.SITE_ID)
    assert (site.domain, site.name) == (domain, name)


@pytest.mark.django_db
def test_the_sites_placeholder_is_a_development_row(development_site: Site) -> None:
    Site.objects.filter(pk=settings.SITE_ID).update(domain="example.com", name="example.com")

    assert serve_site_at("127.0.0.1:8102")
    assert Site.objects.get(pk=settings.SITE_ID).domain == "127.0.0.1:8102"
