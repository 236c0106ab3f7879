"""The site's own name and address, as django.contrib.sites (and so django-allauth's mails) see them.

``SITE_URL`` is the one source: the ``Site`` row of ``SITE_ID`` is kept in step with it after every
``migrate``, so no mail ever says ``example.com`` (the sites framework's placeholder).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

#: The name mails and pages use for the site.
SITE_NAME = "baogame"


def site_domain() -> str:
    """The host (and port) of ``SITE_URL``, e.g. ``baogame.example.org``."""
    return urlsplit(settings.SITE_URL).netloc or settings.SITE_URL


def sync_site(**kwargs: Any) -> None:
    """Give the current ``Site`` row the name ``baogame`` and the domain of ``SITE_URL``."""
    from django.contrib.sites.models import Site

    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": site_domain(), "name": SITE_NAME})
    Site.objects.clear_cache()
