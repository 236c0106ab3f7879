"""Bounces and complaints: a hard bounce or a spam report stops mail to the address
and shows its owner a banner; a soft bounce changes nothing."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.mail import EmailMessage, get_connection
from django.test import Client

from apps.accounts.models import Profile
from apps.notifications import bounces
from apps.notifications.models import MailSuppression, Notification
from apps.notifications.send import notification_send
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGNING_KEY = "mailgun-signing-key"


def _mailgun_event(event: dict[str, Any]) -> dict[str, Any]:
    """A Mailgun tracking webhook body, signed as Mailgun signs it (HMAC-SHA256 of timestamp + token)."""
    timestamp, token = str(int(time.time())), "a" * 50
    signature = hmac.new(SIGNING_KEY.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    base = {"timestamp": float(timestamp), "id": "event-id", "message": {"headers": {"message-id": "m@x"}}}
    return {
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": base | event,
    }


def _post_tracking(client: Any, settings: Any, body: dict[str, Any]) -> Any:
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    auth = base64.b64encode(b"user:secret").decode()
    return client.post(
        "/mail/tracking/",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Basic {auth}",
    )


def _pending_mail(user: Any) -> Notification:
    return Notification.objects.create(
        user=user, game=None, version=20261201, kind=Notification.Kind.DIGEST, category="digest"
    )


def test_a_hard_bounce_from_the_provider_webhook_suppresses_the_address(client: Any, settings: Any) -> None:
    player = UserFactory(email="Player@Example.com")

    response = _post_tracking(
        client,
        settings,
        _mailgun_event({"event": "failed", "severity": "permanent", "recipient": "player@example.com"}),
    )

    assert response.status_code == 200
    suppression = bounces.address_suppressed(player.email)
    assert suppression is not None and suppression.reason == MailSuppression.Reason.HARD_BOUNCE


def test_a_complaint_from_the_provider_webhook_suppresses_the_address(client: Any, settings: Any) -> None:
    player = UserFactory()

    _post_tracking(client, settings, _mailgun_event({"event": "complained", "recipient": player.email}))

    suppression = bounces.address_suppressed(player.email)
    assert suppression is not None and suppression.reason == MailSuppression.Reason.COMPLAINT


def test_a_soft_bounce_suppresses_nothing(client: Any, settings: Any) -> None:
    player = UserFactory()

    response = _post_tracking(
        client,
        settings,
        _mailgun_event({"event": "failed", "severity": "temporary", "recipient": player.email}),
    )

    assert response.status_code == 200
    assert bounces.address_suppressed(player.email) is None


def test_the_tracking_webhook_refuses_unauthenticated_posts(client: Any, settings: Any) -> None:
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    player = UserFactory()
    body = _mailgun_event({"event": "complained", "recipient": player.email})

    response = client.post("/mail/tracking/", json.dumps(body), content_type="application/json")

    assert response.status_code in {400, 401, 403}
    assert bounces.address_suppressed(player.email) is None


def test_no_mail_goes_to_a_suppressed_address() -> None:
    player = UserFactory()
    bounces.tracking_event_record(event_type="bounced", recipient=player.email)
    note = _pending_mail(player)

    sent = notification_send(notification_id=note.pk)

    note.refresh_from_db()
    assert sent is False
    assert note.status == Notification.Status.SKIPPED
    assert mail.outbox == []


def test_the_site_shows_a_banner_and_the_player_can_say_the_address_works(client: Any) -> None:
    player = UserFactory()
    client.force_login(player)
    assert b"We have stopped mailing you" not in client.get("/").content
    bounces.tracking_event_record(event_type="complained", recipient=player.email)

    page = client.get("/").content.decode()
    client.post("/mail/address-fixed/", {"next": "/"})

    assert "We have stopped mailing you" in page and "reported as spam" in page
    assert bounces.address_suppressed(player.email) is None
    assert b"We have stopped mailing you" not in client.get("/").content


def test_the_development_mailbox_simulates_a_hard_bounce_and_a_complaint(
    client: Any, settings: Any, tmp_path: Path
) -> None:
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.DEV_MAILBOX = True
    first, second = UserFactory(), UserFactory()
    outbox = [
        EmailMessage("one", "body", "site@example.org", [first.email]),
        EmailMessage("two", "body", "site@example.org", [second.email]),
    ]
    get_connection("django.core.mail.backends.filebased.EmailBackend", file_path=str(tmp_path)).send_messages(
        outbox
    )
    (file,) = tmp_path.glob("*.log")
    client.force_login(UserFactory(is_staff=True))  # the mailbox shows a staff user every mail

    client.post(f"/dev/mail/{file.name}/0/", {"simulate": "hard bounce"})
    client.post(f"/dev/mail/{file.name}/1/", {"simulate": "complaint"})

    reasons = {s.email: s.reason for s in MailSuppression.objects.all()}
    assert len(reasons) == 2
    assert {reasons[first.email.lower()], reasons[second.email.lower()]} == {
        MailSuppression.Reason.HARD_BOUNCE,
        MailSuppression.Reason.COMPLAINT,
    }


def test_the_banner_names_the_reason_in_the_readers_language() -> None:
    player = UserFactory()
    Profile.objects.filter(user=player).update(language="zh-hans")
    client = Client()
    client.force_login(player)
    bounces.tracking_event_record(event_type="complained", recipient=player.email)

    page = client.get("/").content.decode()

    assert "发往这个地址的一封邮件被举报为垃圾邮件" in page and "reported as spam" not in page
