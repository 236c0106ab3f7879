"""Daily digests by local hour; preferences; one-click unsubscribe without login."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail

from apps.notifications import notify, preferences, selectors, tokens
from apps.notifications.models import Mode, Notification

pytestmark = pytest.mark.django_db


def _digest_user(user: Any, zone: str, hour: int) -> None:
    user.profile.time_zone = zone
    user.profile.save()
    preferences.preferences_set(user=user, category="turn", mode=Mode.DIGEST, digest_hour=hour)


def test_digest_goes_out_at_each_users_local_hour(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """At 07:00 UTC it is 08:00 in Paris (winter) and 16:00 in Tokyo: only the Paris player's hour."""
    _digest_user(users[0], "Europe/Paris", 8)
    _digest_user(users[1], "Asia/Tokyo", 8)
    with django_capture_on_commit_callbacks(execute=True):
        started(2)  # seat 0 (Paris) must act
        game2 = started(2)  # noqa: F841 - a second game waiting for the same player
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        sent_paris = notify.digests_send_due(now=datetime(2025, 1, 15, 7, 10, tzinfo=UTC))
        sent_tokyo = notify.digests_send_due(now=datetime(2025, 1, 15, 23, 10, tzinfo=UTC))

    assert (sent_paris, sent_tokyo) == (1, 0)  # Tokyo's player has no game waiting
    assert [m.to[0] for m in mail.outbox] == [users[0].email]
    assert mail.outbox[0].body.count("Play by email: write your command to") == 2
    assert not Notification.objects.filter(status=Notification.Status.QUEUED_DIGEST).exists()


def test_digest_is_sent_once_per_local_day(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    _digest_user(users[0], "America/New_York", 18)
    with django_capture_on_commit_callbacks(execute=True):
        started(2)
    at = datetime(2025, 6, 2, 22, 5, tzinfo=UTC)  # 18:05 in New York (summer time)

    with django_capture_on_commit_callbacks(execute=True):
        first = notify.digests_send_due(now=at)
        second = notify.digests_send_due(now=at.replace(minute=45))
        other_hour = notify.digests_send_due(now=at.replace(hour=12))

    assert (first, second, other_hour) == (1, 0, 0)
    assert len(mail.outbox) == 1


def test_preferences_get_lists_every_category(users: list) -> None:
    preferences.preferences_set(user=users[0], category="pluck", mode=Mode.OFF, digest_hour=6)

    prefs = selectors.preferences_get(user=users[0])

    assert prefs["categories"]["pluck"] == "off"
    assert prefs["categories"]["turn"] == "immediate"
    assert prefs["digest_hour"] == 6 and prefs["live_games"] is False


def test_preferences_set_refuses_unknown_values(users: list) -> None:
    with pytest.raises(ValueError):
        preferences.preferences_set(user=users[0], category="pluck", mode="sometimes")
    with pytest.raises(ValueError):
        preferences.preferences_set(user=users[0], category="nope", mode="off")
    with pytest.raises(ValueError):
        preferences.preferences_set(user=users[0], digest_hour=24)


def test_preferences_page_saves_modes(client: Any, users: list) -> None:
    client.force_login(users[0])
    data = {
        f"cell_{row.key}_{channel}": "immediately" for row in preferences.ROWS for channel in row.channels
    }
    data.update({"cell_results_mail": "digest", "digest_hour": 7})

    response = client.post("/mail/preferences/", data)

    assert response.status_code == 302
    assert selectors.preferences_get(user=users[0])["categories"]["results"] == "digest"
    assert selectors.preferences_get(user=users[0])["digest_hour"] == 7


def test_one_click_unsubscribe_works_without_login(
    client: Any, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started(2)
    url = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")

    page = client.get(url)
    still_on = selectors.preferences_get(user=users[0])["categories"]["turn"]
    response = client.post(url, {"List-Unsubscribe": "One-Click"})

    assert page.status_code == 200 and still_on == "immediate"  # GET (link scanners) changes nothing
    assert response.status_code == 200
    assert selectors.preferences_get(user=users[0])["categories"]["turn"] == "off"
    assert selectors.preferences_get(user=users[0])["categories"]["pluck"] == "immediate"


def test_forged_unsubscribe_token_is_refused(client: Any, users: list) -> None:
    token = tokens.unsubscribe_token(user_id=users[0].pk, category="turn")
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")

    response = client.post(f"/mail/unsubscribe/{forged}/")

    assert response.status_code == 404
    assert selectors.preferences_get(user=users[0])["categories"]["turn"] == "immediate"


def test_signed_game_link_leads_to_the_game(
    client: Any, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    client.force_login(users[0])

    response = client.get(f"/mail/go/{tokens.game_link_token(game_id=game.pk, user_id=users[0].pk)}/")
    forged = client.get(f"/mail/go/{tokens.game_link_token(game_id=game.pk, user_id=users[0].pk)}x/")

    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert forged.status_code == 404
