"""The inbound webhook is closed until it has a verification secret."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.core import checks
from django.test import RequestFactory

from apps.games.models import Move
from apps.notifications import views
from apps.notifications.models import InboundMessage

pytestmark = pytest.mark.django_db


def _deploy_check_ids() -> set[str]:
    return {m.id for m in checks.run_checks(include_deployment_checks=True) if m.id}


def test_deploy_check_fails_without_a_webhook_secret(settings: Any) -> None:
    settings.ANYMAIL = {}

    assert "notifications.E001" in _deploy_check_ids()


def test_deploy_check_passes_with_a_webhook_secret(settings: Any) -> None:
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret"}

    assert "notifications.E001" not in _deploy_check_ids()


POSTMARK_MAIL = {"RawEmail": "From: bob@example.com\nTo: r@reply.example\nMessage-ID: <x@y>\n\ndraw\n"}


def _postmark_post(settings: Any, *, secret: str | None, auth: str | None) -> Any:
    """A post to the guarded webhook view of Postmark, a provider that does not sign its webhooks."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": secret} if secret else {}
    view = views.inbound_guarded(PostmarkInboundWebhookView.as_view())
    headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(auth.encode()).decode()} if auth else {}
    request = RequestFactory().post(
        "/mail/inbound/", json.dumps(POSTMARK_MAIL), content_type="application/json", **headers
    )
    return view(request)


def test_unsigned_provider_without_a_secret_refuses_every_post(settings: Any) -> None:
    """Before, anybody's post to an unsigned provider's webhook was processed as a mail."""
    response = _postmark_post(settings, secret=None, auth=None)

    assert response.status_code == 403
    assert not InboundMessage.objects.exists()


def test_unsigned_provider_with_the_secret_processes_an_authenticated_post(settings: Any) -> None:
    response = _postmark_post(settings, secret="user:secret", auth="user:secret")

    assert response.status_code == 200
    assert InboundMessage.objects.filter(code="forged_address").exists()


def test_inbound_url_without_a_secret_answers_403(client: Any, settings: Any) -> None:
    settings.ANYMAIL = {}

    response = client.post("/mail/inbound/", {"body-mime": "From: x@y\n\ndraw"})

    assert response.status_code == 403
    assert not InboundMessage.objects.exists() and not Move.objects.exists()


def test_inbound_webhook_with_a_secret_still_checks_the_credentials(client: Any, settings: Any) -> None:
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": "key"}
    wrong = base64.b64encode(b"user:wrong").decode()

    response = client.post(
        "/mail/inbound/", {"body-mime": "From: x@y\n\ndraw"}, HTTP_AUTHORIZATION=f"Basic {wrong}"
    )

    assert response.status_code in {400, 401, 403}
