"""Mails name the site and its SITE_URL, never example.com; the dev mailbox's links are clickable."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.sites.models import Site
from django.core import mail
from django.core.mail import get_connection

from apps.accounts.site import sync_site
from apps.notifications import devmail
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_sites_row_takes_its_name_and_domain_from_site_url(settings: Any) -> None:
    settings.SITE_URL = "https://baogame.example.org"

    sync_site()

    site = Site.objects.get_current()
    assert (site.name, site.domain) == ("baogame", "baogame.example.org")


def test_a_fresh_database_has_no_example_com_site() -> None:
    """The test database is built by migrate, whose post_migrate hook syncs the row."""
    assert not Site.objects.filter(domain="example.com").exists()
    assert Site.objects.get_current().name == "baogame"


def test_the_sign_up_verification_mail_names_the_site_not_example_com(client: Any, settings: Any) -> None:
    settings.SITE_URL = "https://baogame.example.org"
    sync_site()

    client.post(
        "/accounts/signup/",
        {
            "email": "kite@example.net",
            "username": "kite",
            "password1": "a-long-kite-pw-42",
            "password2": "a-long-kite-pw-42",
        },
    )

    message = mail.outbox[-1]
    assert "example.com" not in message.subject + message.body
    assert "baogame" in message.subject


def test_a_game_mail_ends_with_the_sites_name_and_url(
    started: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SITE_URL = "https://baogame.example.org"

    with django_capture_on_commit_callbacks(execute=True):
        started(2)

    message = mail.outbox[0]
    html = message.alternatives[0][0]
    assert "baogame · https://baogame.example.org/" in message.body
    assert 'href="https://baogame.example.org/"' in html
    assert "example.com" not in message.body


def test_links_in_a_development_mail_are_clickable(
    client: Any, tmp_path: Path, settings: Any, started: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.DEV_MAILBOX = True
    with django_capture_on_commit_callbacks(execute=True):
        started(2)
    get_connection("django.core.mail.backends.filebased.EmailBackend", file_path=str(tmp_path)).send_messages(
        list(mail.outbox)
    )
    stored = devmail.mails_list()[0]
    links = re.findall(r"https?://\S+", stored.text())
    client.force_login(UserFactory(is_staff=True))  # the mailbox shows a staff user every mail

    page = client.get(f"/dev/mail/{stored.file}/{stored.index}/").content.decode()

    text = page.split('class="mail-text"')[1].split("</pre>")[0]
    assert links and len(re.findall(r'<a href="https?://', text)) == len(links)
