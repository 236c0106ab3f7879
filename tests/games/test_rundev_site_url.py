"""``manage.py rundev --addr`` serves another address than make run's 127.0.0.1:8000: the mails its
workers write link to the address served, unless ``SITE_URL`` says otherwise."""

from __future__ import annotations

from apps.games.management.commands.rundev import child_env


def test_the_mail_links_of_a_site_served_with_addr_lead_to_that_address() -> None:
    assert child_env("127.0.0.1:8103", {"PATH": "/bin"}) == {
        "PATH": "/bin",
        "SITE_URL": "http://127.0.0.1:8103",
    }


def test_a_site_url_set_by_the_caller_is_kept() -> None:
    kept = child_env("127.0.0.1:8103", {"SITE_URL": "https://play.example.org"})

    assert kept["SITE_URL"] == "https://play.example.org"
