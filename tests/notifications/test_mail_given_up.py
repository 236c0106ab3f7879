"""A mail given up after its last attempt is shown on the owner's notifications page (every
outgoing effect ends in a visible "failed" state), as webhook events are on the webhooks
page and push notices on the profile."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.notifications.models import Category, Notification
from apps.notifications.send import SEND_MAX_ATTEMPTS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _mail(user: Any, version: int, status: str, attempts: int) -> Notification:
    return Notification.objects.create(
        user=user,
        version=version,
        kind=Notification.Kind.DECISION,
        category=Category.TURN,
        status=status,
        attempts=attempts,
    )


def _page(user: Any, language: str = "en") -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client.get("/mail/preferences/").content.decode()


def test_a_mail_given_up_is_counted_on_the_notifications_page() -> None:
    user, other = UserFactory(), UserFactory()
    _mail(user, 1, Notification.Status.FAILED, SEND_MAX_ATTEMPTS)  # given up
    _mail(user, 2, Notification.Status.FAILED, SEND_MAX_ATTEMPTS - 1)  # still retried
    _mail(user, 3, Notification.Status.SENT, 1)
    _mail(other, 1, Notification.Status.FAILED, SEND_MAX_ATTEMPTS)  # someone else's

    page = _page(user)

    assert "1 mail to you failed" in page
    assert 'href="/accounts/email/"' in page


def test_nothing_is_said_while_no_mail_was_given_up() -> None:
    user = UserFactory()
    _mail(user, 1, Notification.Status.FAILED, 1)

    assert "mails-given-up" not in _page(user)


def test_the_page_says_it_in_chinese_too() -> None:
    user = UserFactory()
    _mail(user, 1, Notification.Status.FAILED, SEND_MAX_ATTEMPTS)

    assert "有 1 封发给你的邮件发送失败" in _page(user, "zh-hans")
