"""Which language a page speaks: the signed-in person's profile, else the language switch's cookie,
else the browser's ``Accept-Language``, else English; the switch is on every page."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from apps.accounts.models import Profile

pytestmark = pytest.mark.django_db

WATCH_EN = ">Watch</a>"
WATCH_ZH = ">观战</a>"


def _rules_page(client: Client, **headers: str) -> str:
    return client.get("/rules/", headers=headers).content.decode()


def test_a_visitor_without_a_preference_reads_english() -> None:
    page = _rules_page(Client())

    assert WATCH_EN in page
    assert '<html lang="en">' in page


def test_a_visitor_whose_browser_asks_for_chinese_reads_chinese() -> None:
    page = _rules_page(Client(), accept_language="zh-CN,zh;q=0.9,en;q=0.5")

    assert WATCH_ZH in page
    assert '<html lang="zh-hans">' in page


def test_the_switch_is_on_the_page_and_remembers_a_visitors_choice_in_a_cookie() -> None:
    client = Client()
    page = _rules_page(client)
    assert 'name="language" value="zh-hans"' in page

    answer = client.post("/accounts/language/", {"language": "zh-hans", "next": "/rules/"})

    assert answer.status_code == 302
    assert answer["Location"] == "/rules/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert WATCH_ZH in _rules_page(client, accept_language="en")


def test_a_signed_in_persons_choice_is_kept_on_the_profile_and_follows_them_to_another_browser(
    users: list[Any],
) -> None:
    first = Client()
    first.force_login(users[0])
    first.post("/accounts/language/", {"language": "zh-hans", "next": "/"})

    assert Profile.objects.get(user=users[0]).language == "zh-hans"
    other_browser = Client()
    other_browser.force_login(users[0])
    assert WATCH_ZH in _rules_page(other_browser, accept_language="en-GB,en")


def test_the_profile_language_wins_over_the_browser_and_blank_leaves_it_to_the_browser(
    users: list[Any],
) -> None:
    client = Client()
    client.force_login(users[1])
    Profile.objects.filter(user=users[1]).update(language="en")
    assert WATCH_EN in _rules_page(client, accept_language="zh-CN")

    Profile.objects.filter(user=users[1]).update(language="")
    assert WATCH_ZH in _rules_page(client, accept_language="zh-CN")


def test_an_unknown_language_changes_nothing(users: list[Any]) -> None:
    client = Client()
    client.force_login(users[2])

    client.post("/accounts/language/", {"language": "xx", "next": "/"})

    assert Profile.objects.get(user=users[2]).language == ""
    assert WATCH_EN in _rules_page(client)


def test_the_profile_form_names_the_empty_language_choice(users: list[Any]) -> None:
    """Blank is a setting (the browser decides), so the choice says so instead of "---------"."""
    client = Client()
    client.force_login(users[0])

    page = client.get("/accounts/profile/", headers={"accept-language": "en"}).content.decode()
    form = page.split('name="language"')[1].split("</select>")[0]

    assert '<option value="" selected>My browser&#x27;s language</option>' in form
    assert "---------" not in form
    client.post("/accounts/profile/", {"display_name": "", "time_zone": "UTC", "language": ""})
    assert Profile.objects.get(user=users[0]).language == ""
