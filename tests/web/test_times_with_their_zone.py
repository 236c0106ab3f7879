"""The full history page and the API-token page time what they list as every other page does: in the
reader's zone, named by its offset ("Thu 15 Jan, 20:30 UTC+8"), not a bare "01/15/2026 8:30 p.m."."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from apps.api import services as api_services
from apps.api.models import ApiToken
from apps.games.models import Move
from tests.factories import UserFactory
from tests.support.played import a_finished_baobei_game

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 1, 15, 12, 30, tzinfo=UTC)


def _in_shanghai(user: Any) -> Any:
    user.profile.time_zone = "Asia/Shanghai"
    user.profile.save()
    return user


def test_the_full_history_times_each_line_in_the_readers_zone_with_its_offset(client_for: Any) -> None:
    ann = _in_shanghai(UserFactory(username="ann"))
    game = a_finished_baobei_game(ann)
    Move.objects.filter(game=game).update(created_at=MOMENT)

    html = client_for(ann).get(f"/games/{game.public_id}/history/").content.decode()

    history = html.split('<ol class="history full">', 1)[1].split("</ol>", 1)[0]
    times = re.findall(r"<time [^>]*>([^<]*)</time>", history)
    assert times and set(times) == {"Thu 15 Jan, 20:30 UTC+8"}


def test_the_token_page_times_a_tokens_creation_and_last_use_with_the_zone(client_for: Any) -> None:
    ann = _in_shanghai(UserFactory(username="ann"))
    token, _secret = api_services.token_create(user=ann, name="laptop")
    ApiToken.objects.filter(pk=token.pk).update(created_at=MOMENT, last_used_at=MOMENT)

    html = client_for(ann).get("/api/tokens/").content.decode()

    assert html.count("Thu 15 Jan, 20:30 UTC+8") >= 2, html
