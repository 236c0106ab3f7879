"""Confirming the e-mail address: signed in when the link is opened in the session that signed up;
otherwise the login page says the address is confirmed and what to do."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGN_UP = {
    "email": "wren@example.com",
    "username": "wren",
    "password1": "a-long-bird-password-42",
    "password2": "a-long-bird-password-42",
}


def _sign_up(client: Client) -> str:
    """Sign up in ``client``'s session; the confirmation link of the mail sent."""
    cache.clear()  # allauth's rate limits live in the cache
    client.post("/accounts/signup/", SIGN_UP)
    return re.search(r"https?://\S+?(/accounts/confirm-email/[^/\s]+/)", mail.outbox[-1].body).group(1)


def test_the_link_opened_in_the_session_that_signed_up_signs_the_person_in() -> None:
    browser = Client()
    link = _sign_up(browser)
    browser.get("/")  # a look around before reading the mail

    browser.get(link)

    assert browser.get("/").wsgi_request.user.username == "wren"


def test_the_link_opened_elsewhere_confirms_and_says_to_sign_in() -> None:
    link = _sign_up(Client())
    elsewhere = Client()

    answer = elsewhere.get(link, follow=True)

    html = answer.content.decode()
    assert answer.redirect_chain[-1][0].startswith("/accounts/login/")
    assert "wren@example.com is confirmed. To play, sign in below" in html
    assert not answer.wsgi_request.user.is_authenticated
    signed_in = Client().post("/accounts/login/", {"login": "wren", "password": SIGN_UP["password1"]})
    assert signed_in.status_code == 302


def test_the_link_opened_elsewhere_says_the_address_is_confirmed_once() -> None:
    """allauth's "You have confirmed …" and the site's "… is confirmed. To play, sign in below" say the
    same: the page shows the site's notice alone, and the notices queued before it still."""
    link = _sign_up(Client())
    elsewhere = Client()
    elsewhere.force_login(UserFactory())
    elsewhere.post("/accounts/logout/")  # its notice not read yet

    answer = elsewhere.get(link, follow=True)

    assert [str(notice) for notice in answer.context["messages"]] == [
        "You have signed out.",
        "wren@example.com is confirmed. To play, sign in below with your username or this address and "
        "your password. (Confirming signs you in only in the browser you signed up with, within a few "
        "hours of signing up.)",
    ]


def test_the_link_opened_too_late_in_the_same_session_says_to_sign_in(settings) -> None:
    browser = Client()
    link = _sign_up(browser)
    settings.ACCOUNT_LOGIN_TIMEOUT = -1  # the sign-up's pending login has expired

    answer = browser.get(link, follow=True)

    assert not answer.wsgi_request.user.is_authenticated
    assert "wren@example.com is confirmed. To play, sign in below" in answer.content.decode()


def test_the_link_opened_again_says_the_address_is_confirmed_already() -> None:
    """A second opening (from the mail again, or after a mail scanner opened it) is not "expired or
    invalid": it says the address is confirmed and to sign in."""
    link = _sign_up(Client())
    Client().get(link)
    again = Client()

    answer = again.get(link, follow=True)

    html = answer.content.decode()
    assert answer.redirect_chain[-1][0].startswith("/accounts/login/")
    assert "wren@example.com is confirmed already. To play, sign in below" in html
    assert "expired or is invalid" not in html
    assert not answer.wsgi_request.user.is_authenticated


def test_the_link_opened_again_while_signed_in_goes_on_to_my_games() -> None:
    browser = Client()
    link = _sign_up(browser)
    browser.get(link)  # confirms and signs in

    answer = browser.get(link, follow=True)

    assert answer.redirect_chain[-1][0] == "/"
    assert "wren@example.com is confirmed already." in answer.content.decode()
    assert answer.wsgi_request.user.username == "wren"


def test_a_forged_or_unknown_link_still_says_it_is_invalid() -> None:
    _sign_up(Client())

    answer = Client().get("/accounts/confirm-email/MQ:1abcde:forged-signature-here/")

    assert answer.status_code == 200
    assert "expired or is invalid" in answer.content.decode()


def test_the_confirmation_mail_of_a_chinese_sign_up_is_chinese_from_greeting_to_sign_off() -> None:
    """allauth's own Chinese catalogue greets with "来自baogame的 Hello!"; the site's words replace it."""
    cache.clear()
    browser = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")

    browser.post("/accounts/signup/", SIGN_UP)

    [sent] = mail.outbox
    assert sent.subject.endswith("请确认你的邮箱地址")
    assert sent.body.startswith("你好，这里是baogame。")
    assert "感谢使用baogame！" in sent.body
    assert "Hello" not in sent.body and "Thank you" not in sent.body


@pytest.mark.parametrize("dev_mailbox", [True, False])
def test_after_signing_up_the_page_says_where_the_mail_went_on_the_development_defaults(
    settings, dev_mailbox: bool
) -> None:
    """With ``make run``'s defaults no mail leaves the machine: the "we have sent an email" page points to
    the development mailbox, and says nothing of it on a real site."""
    settings.DEV_MAILBOX = dev_mailbox
    cache.clear()

    page = Client().post("/accounts/signup/", SIGN_UP, follow=True).content.decode()

    assert "We have sent an email to you for verification" in page
    assert ("development mailbox</a>" in page) is dev_mailbox
