"""The site's own name and address, as django.contrib.sites (and so django-allauth's mails) see them.

``SITE_URL`` is the one source: the ``Site`` row of ``SITE_ID`` is kept in step with it after every
``migrate``, so no mail ever says ``example.com`` (the sites framework's placeholder). The development
server (``manage.py rundev --addr``) moves a row that is still a development one to the address it serves
(``site_serve_at``), so the sign-up confirmation names that address rather than 127.0.0.1:8000.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

#: The name mails and pages use for the site.
SITE_NAME = "baogame"
#: Hosts of a development ``Site`` domain (``127.0.0.1:8000``, the default, or one ``rundev`` served).
DEVELOPMENT_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
#: The sites framework's placeholder, name and domain, before ``sync_site`` ran.
PLACEHOLDER = "example.com"


def site_domain() -> str:
    """The host (and port) of ``SITE_URL``, e.g. ``baogame.example.org``."""
    return urlsplit(settings.SITE_URL).netloc or settings.SITE_URL


def sync_site(**kwargs: Any) -> None:
    """Give the current ``Site`` row the name ``baogame`` and the domain of ``SITE_URL``."""
    from django.contrib.sites.models import Site

    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": site_domain(), "name": SITE_NAME})
    Site.objects.clear_cache()


def is_development_site(*, domain: str, name: str) -> bool:
    """Whether a ``Site`` row is still a development one: named ``baogame`` at a loopback address (the
    default ``SITE_URL``'s, or one ``rundev`` served), or the sites framework's placeholder. An operator's
    row (their domain, or a name of their own) is not."""
    if domain == name == PLACEHOLDER:
        return True
    return name == SITE_NAME and urlsplit(f"//{domain}").hostname in DEVELOPMENT_HOSTS


def site_serve_at(site_url: str) -> bool:
    """The development server serves ``site_url``: the current ``Site`` row takes its domain (and the
    name ``baogame``) when it is still a development one (``is_development_site``); a row an operator
    changed is left alone. True when the row changed."""
    from django.contrib.sites.models import Site

    domain = urlsplit(site_url).netloc or site_url
    site = Site.objects.filter(pk=settings.SITE_ID).first()
    if site is not None and not is_development_site(domain=site.domain, name=site.name):
        return False
    if site is not None and (site.domain, site.name) == (domain, SITE_NAME):
        return False
    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": SITE_NAME})
    Site.objects.clear_cache()
    return True
