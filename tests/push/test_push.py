"""Web Push: subscriptions, encrypted notices checked by a local push service.

The push service on 127.0.0.1 decrypts each message with the browser's keys (RFC 8291, aes128gcm) and
verifies the VAPID JWT (RFC 8292), so encryption and signature are checked for real.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.test import Client

from apps.games.models import Decision
from apps.push import services
from apps.push.models import PushMessage, PushSubscription
from tests.push.conftest import start_baobei, subscribe
from tests.support.receivers import PushService

pytestmark = pytest.mark.django_db


def test_a_decision_is_pushed_encrypted_and_vapid_signed(
    users: list[Any], subscribed_player: Any, service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    """The browser's push service gets the game, the decision kind and its deadline — nothing else but
    the notice's stable id (the same on every retry, for the service worker to drop repeats)."""
    subscribed_player(users[1])

    game = start_baobei(users, django_capture_on_commit_callbacks)

    [got] = service.wait_for(1)
    deadline = Decision.objects.get(game=game, seat=1).deadline
    assert json.loads(got.plaintext or b"") == {
        "game": game.public_id,
        "url": f"http://127.0.0.1:8000/games/{game.public_id}/",
        "title": "Bao Bei: your move",
        "decisions": [{"kind": "setup_peek", "deadline": deadline.isoformat() if deadline else None}],
        "id": str(PushMessage.objects.get(game=game).event_id),
    }
    claims = got.vapid_claims or {}
    assert claims["aud"] == service.origin
    assert claims["sub"] == "mailto:ops@baogame.example"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert got.vapid_key == services.settings.VAPID_PUBLIC_KEY
    assert int(got.headers["ttl"]) > 0


def test_each_notice_goes_out_once(
    users: list[Any], subscribed_player: Any, service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    subscribed_player(users[1])
    game = start_baobei(users, django_capture_on_commit_callbacks)
    service.wait_for(1)

    decision_id = Decision.objects.get(game=game, seat=1).decision_id
    with django_capture_on_commit_callbacks(execute=True):  # the same move's task, run again
        services.push_decisions(game_id=game.pk, version=0, opened=[[1, "setup_peek", decision_id]])

    assert len(service.received) == 1
    assert PushMessage.objects.filter(game=game).count() == 1


def test_a_gone_subscription_is_deleted(
    users: list[Any], subscribed_player: Any, service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    """A 410 (or 404) from the push service: the browser unsubscribed, the subscription is deleted."""
    subscribed_player(users[1])
    service.status = 410

    start_baobei(users, django_capture_on_commit_callbacks)

    service.wait_for(1)
    assert not PushSubscription.objects.filter(user=users[1]).exists()


def test_a_category_switched_off_on_a_browser_sends_nothing_there(
    users: list[Any], subscribed_player: Any, service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    subscribed_player(users[1])
    sub = PushSubscription.objects.get(user=users[1])
    client = Client()
    client.force_login(users[1])
    client.post(f"/push/subscriptions/{sub.pk}/", {"cat_turn": "immediately"})  # setup peek unticked

    start_baobei(users, django_capture_on_commit_callbacks)

    assert PushSubscription.objects.get(pk=sub.pk).categories["setup"] == "off"
    assert service.received == []


def test_the_mover_is_not_pushed_about_what_their_own_move_opened(
    users: list[Any], subscribed_player: Any, service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    subscribed_player(users[0])

    start_baobei(users, django_capture_on_commit_callbacks)  # users[1] joined: both peek
    service.wait_for(1)

    assert len(service.received) == 1  # the start is nobody's own move


def test_a_browser_is_removed_from_the_profile(users: list[Any], subscribed_player: Any) -> None:
    subscribed_player(users[1])
    sub = PushSubscription.objects.get(user=users[1])
    other = Client()
    other.force_login(users[2])
    client = Client()
    client.force_login(users[1])

    refused = other.post(f"/push/subscriptions/{sub.pk}/delete/")
    answer = client.post(f"/push/subscriptions/{sub.pk}/delete/")

    assert refused.status_code == 404
    assert answer.status_code == 302
    assert not PushSubscription.objects.filter(pk=sub.pk).exists()


def test_bad_subscriptions_are_refused(users: list[Any], service: PushService, settings: Any) -> None:
    good = service.subscription()
    bad_keys = {**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}
    settings.WEBHOOKS_ALLOW_PRIVATE = False

    assert subscribe(users[1], bad_keys).status_code == 400
    private = subscribe(users[1], good)

    assert private.status_code == 400 and private.json()["code"] in {"private_address", "insecure_url"}
    assert not PushSubscription.objects.exists()


def test_the_profile_has_the_switch_and_the_service_worker_is_served_at_the_root(
    users: list[Any], vapid: dict[str, str]
) -> None:
    client = Client()
    client.force_login(users[0])

    page = client.get("/accounts/profile/").content.decode()
    worker = client.get("/sw.js")

    assert 'id="push-switch"' in page and f'data-vapid-key="{vapid["public_key"]}"' in page
    assert "push/switch.js" in page
    assert worker.status_code == 200
    assert worker["Service-Worker-Allowed"] == "/"
    assert worker["Content-Type"].startswith("text/javascript")
    assert b'addEventListener("push"' in worker.content


def test_without_vapid_keys_the_site_offers_no_push(users: list[Any], settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    client = Client()
    client.force_login(users[0])

    page = client.get("/accounts/profile/").content.decode()

    assert 'id="push-switch"' not in page and "no VAPID keys" in page


def test_posting_an_endpoint_another_account_holds_makes_the_callers_own_row(
    users: list[Any], service: PushService
) -> None:
    """A subscription belongs to (user, endpoint). Posting a victim's endpoint with
    other keys adds the caller's row; the victim's row, keys and categories stay as they were."""
    victim_sub = service.subscription("shared")
    assert subscribe(users[1], victim_sub).status_code == 201
    victim = PushSubscription.objects.get(user=users[1])
    victim.categories = {"turn": "immediately", "pluck": "off"}
    victim.save()
    attacker_keys = service.subscription("attacker")["keys"]

    answer = subscribe(users[2], {"endpoint": victim_sub["endpoint"], "keys": attacker_keys})
    again = subscribe(users[2], {"endpoint": victim_sub["endpoint"], "keys": attacker_keys})

    assert answer.status_code == 201 and again.status_code == 201
    assert answer.json()["id"] == again.json()["id"] != victim.pk
    kept = PushSubscription.objects.get(pk=victim.pk)
    assert (kept.user_id, kept.p256dh, kept.auth) == (users[1].pk, victim.p256dh, victim.auth)
    assert kept.categories == {"turn": "immediately", "pluck": "off"}
    assert sorted(
        PushSubscription.objects.filter(endpoint=victim_sub["endpoint"]).values_list("user_id", flat=True)
    ) == sorted([users[1].pk, users[2].pk])


def test_a_refused_notice_is_retried_with_the_same_id_and_shown_failed_once_given_up(
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A push service answering 500 gets the notice again (same payload, same id) on
    each retry; after ``WEBHOOKS_MAX_ATTEMPTS`` the notice is given up and the profile says so."""
    settings.WEBHOOKS_MAX_ATTEMPTS = 3
    subscribed_player(users[1])
    service.status = 500
    game = start_baobei(users, django_capture_on_commit_callbacks)  # the first attempt
    message = PushMessage.objects.get(game=game)
    for _ in range(2):  # the retries, as the task (or the sweep) runs them when due
        PushMessage.objects.filter(pk=message.pk).update(next_attempt_at=None)
        with pytest.raises(services.PushFailed):
            services.message_attempt(message_id=message.pk)
    client = Client()
    client.force_login(users[1])

    got = service.wait_for(3)
    page = client.get("/accounts/profile/").content.decode()

    assert len(got) == 3 and len({r.plaintext for r in got}) == 1
    assert json.loads(got[0].plaintext or b"")["id"] == str(message.event_id)
    message.refresh_from_db()
    assert (message.status, message.attempts, message.last_error) == (
        PushMessage.Status.FAILED,
        3,
        "HTTP 500",
    )
    assert "1 notice failed" in page
