"""Issue point 4: dates and times in the viewer's time zone and language. The profile's zone defaults
from the browser (posted once by ``static/js/zone.js`` while the profile is still in UTC, never over a
zone the player chose), and every page shows its datetimes in that zone, written the viewer's way."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import Profile
from apps.games.models import Move
from tests.factories import GameFactory, signed_in

pytestmark = pytest.mark.django_db


def test_a_profile_still_in_utc_takes_the_browsers_zone(users: list[Any]) -> None:
    answer = signed_in(users[0]).post("/accounts/time-zone/", {"zone": "Asia/Shanghai"})

    assert answer.status_code == 204
    assert Profile.objects.get(user=users[0]).time_zone == "Asia/Shanghai"


def test_a_zone_the_player_chose_is_never_replaced_by_the_browsers(users: list[Any]) -> None:
    Profile.objects.filter(user=users[0]).update(time_zone="Europe/Berlin")

    answer = signed_in(users[0]).post("/accounts/time-zone/", {"zone": "Asia/Shanghai"})

    assert answer.status_code == 409
    assert Profile.objects.get(user=users[0]).time_zone == "Europe/Berlin"


def test_a_name_that_is_not_a_zone_is_refused(users: list[Any]) -> None:
    answer = signed_in(users[0]).post("/accounts/time-zone/", {"zone": "Mars/Olympus"})

    assert answer.status_code == 400
    assert Profile.objects.get(user=users[0]).time_zone == "UTC"


def test_the_servers_own_localtime_is_no_zone_a_profile_may_have(users: list[Any]) -> None:
    """``localtime`` names whatever zone the server's machine is set to, not a zone of the player's."""
    client = signed_in(users[0])

    from_browser = client.post("/accounts/time-zone/", {"zone": "localtime"})
    page = client.get("/accounts/profile/").content.decode()
    chosen = client.post("/accounts/profile/", {"display_name": "", "time_zone": "localtime", "language": ""})

    assert from_browser.status_code == 400
    assert 'value="localtime"' not in page
    assert chosen.status_code == 200  # the form again, with its error
    assert Profile.objects.get(user=users[0]).time_zone == "UTC"


def test_only_a_profile_without_a_zone_of_its_own_carries_the_script(users: list[Any]) -> None:
    client = signed_in(users[0])
    assert "js/zone.js" in client.get("/rules/").content.decode()

    Profile.objects.filter(user=users[0]).update(time_zone="Asia/Shanghai")

    assert "js/zone.js" not in client.get("/rules/").content.decode()
    assert "js/zone.js" not in Client().get("/rules/").content.decode()


def test_the_history_page_shows_each_moment_in_the_viewers_zone_and_language(users: list[Any]) -> None:
    game = GameFactory(engine="baobei", players=3, seated=users[:3])
    signed_in(users[0]).post(
        f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]}
    )
    assert Move.objects.filter(game=game).exists()
    Move.objects.filter(game=game).update(created_at=datetime(2026, 12, 5, 23, 30, tzinfo=UTC))
    Profile.objects.filter(user=users[0]).update(time_zone="Asia/Shanghai", language="zh-hans")

    page = signed_in(users[0]).get(f"/games/{game.public_id}/history/").content.decode()

    # 23:30 UTC on 5 December is 07:30 on 6 December in Shanghai, written the Chinese way, its zone
    # named as on every other page (by its offset).
    assert 'datetime="2026-12-06T07:30:00+08:00"' in page
    assert "12月6日 星期日 07:30 UTC+8" in page
