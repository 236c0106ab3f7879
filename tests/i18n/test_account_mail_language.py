"""Account mails (allauth's, through the site's adapter) in the recipient's language: a password reset
asked from an English page reaches a person whose profile says Chinese in Chinese, and a person
without a language in the language of the page they asked from."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from apps.accounts.models import Profile
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _reset(email: str, accept_language: str) -> str:
    mail.outbox.clear()
    Client().post("/accounts/password/reset/", {"email": email}, headers={"accept_language": accept_language})
    (message,) = mail.outbox
    return message.subject + "\n" + message.body


def _person(username: str, language: str = "") -> str:
    user = UserFactory(username=username, email=f"{username}@example.com")
    EmailAddress.objects.update_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )
    Profile.objects.filter(user=user).update(language=language)
    return user.email


def test_a_chinese_profile_gets_its_reset_mail_in_chinese_even_from_an_english_page() -> None:
    text = _reset(_person("wren", "zh-hans"), accept_language="en")

    assert "密码" in text
    assert "Password Reset" not in text


def test_an_english_profile_gets_english_even_from_a_chinese_page() -> None:
    text = _reset(_person("lark", "en"), accept_language="zh-hans")

    assert "Password Reset" in text
    assert "密码" not in text


def test_without_a_profile_language_the_page_language_is_used() -> None:
    assert "密码" in _reset(_person("puffin"), accept_language="zh-hans")
    assert "Password Reset" in _reset(_person("kestrel"), accept_language="en")
