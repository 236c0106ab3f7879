"""The Notifications table: categories by channels, on the page and in the API."""

from __future__ import annotations

import re
from datetime import time
from typing import Any

import pytest

from apps.notifications import preferences, selectors
from apps.notifications.models import MailSettings

pytestmark = pytest.mark.django_db


def test_defaults_are_immediately_where_a_cell_applies_and_there_is_somewhere_to_send(users: list) -> None:
    """Mail cells default to immediately; push and webhook cells only once the person has a browser
    subscribed or an active endpoint (the channel's app registers who has one)."""
    from apps.push.models import PushSubscription
    from apps.webhooks.models import WebhookEndpoint

    def expected(category: str, channel: str, reachable: bool) -> str:
        if not preferences.modes_for(category, channel):
            return "off"
        return "immediately" if channel == "mail" or reachable else "off"

    for category in preferences.CATEGORIES:
        for channel in preferences.CHANNELS:
            assert preferences.mode_for(users[0], category, channel) == expected(category, channel, False)
    PushSubscription.objects.create(
        user=users[0], endpoint="https://push.example/1", p256dh="k", auth="a", categories={}
    )
    WebhookEndpoint.objects.create(user=users[0], url="https://hooks.example/1", secret="s" * 16)
    for category in preferences.CATEGORIES:
        for channel in preferences.CHANNELS:
            assert preferences.mode_for(users[0], category, channel) == expected(category, channel, True)
    assert preferences.modes_for("league_news", "webhook") == ()  # a bot program gets no league news
    assert preferences.modes_for("your_move", "push") == ("immediately", "off")


def test_the_your_move_row_sets_every_decision_category_of_mail(users: list) -> None:
    preferences.cell_set(user=users[0], category="your_move", channel="mail", mode="digest")

    modes = selectors.preferences_get(user=users[0])["categories"]
    assert {modes[c] for c in ("turn", "pluck", "ability", "setup", "tribute", "declare")} == {"digest"}
    assert modes["reminder"] == "immediate"
    assert preferences.mode_for(users[0], "your_move", "mail") == "digest"
    assert preferences.mode_for(users[0], "pluck", "mail") == "digest"  # a mail category maps to its row


def test_push_and_webhook_cells_are_stored_apart_from_mail(users: list) -> None:
    preferences.cell_set(user=users[0], category="results", channel="webhook", mode="immediately")
    preferences.cell_set(user=users[0], category="results", channel="push", mode="off")

    assert preferences.mode_for(users[0], "results", "push") == "off"
    assert preferences.mode_for(users[0], "results", "mail") == "immediately"
    assert preferences.mode_for(users[0], "results", "webhook") == "immediately"
    with pytest.raises(ValueError):
        preferences.cell_set(user=users[0], category="results", channel="push", mode="digest")
    with pytest.raises(ValueError):
        preferences.cell_set(user=users[0], category="league_news", channel="webhook", mode="off")


def test_a_registered_channel_defaults_to_off_without_an_endpoint(
    users: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(preferences, "_ENDPOINTS", {})
    preferences.channel_endpoint("push")(lambda user: user.pk == users[0].pk)

    assert preferences.mode_for(users[0], "your_move", "push") == "immediately"
    assert preferences.mode_for(users[1], "your_move", "push") == "off"
    preferences.cell_set(user=users[1], category="your_move", channel="push", mode="immediately")
    assert preferences.mode_for(users[1], "your_move", "push") == "immediately"  # their explicit choice


def test_the_page_is_a_table_of_categories_by_channels_without_inline_code(client: Any, users: list) -> None:
    client.force_login(users[0])
    page = client.get("/mail/preferences/").content.decode()

    assert "<h1>Notifications</h1>" in page
    assert re.search(
        r"<th scope=\"col\">Mail</th><th scope=\"col\">Push</th><th scope=\"col\">Webhook</th>", page
    )
    for row in preferences.ROWS:
        assert f'<th scope="row">{row.label}</th>' in page
    assert 'name="cell_league_news_webhook"' not in page
    assert "<script" not in page.split("<main", 1)[-1].split("</main>", 1)[0]
    assert " style=" not in page


def test_the_page_saves_cells_and_quiet_hours_without_js(client: Any, users: list) -> None:
    client.force_login(users[0])
    data = {f"cell_{row.key}_{ch}": "immediately" for row in preferences.ROWS for ch in row.channels}
    data |= {"cell_invitations_push": "off", "cell_results_mail": "digest", "digest_hour": 6}
    data |= {"quiet_start": "22:30", "quiet_end": "06:45"}

    response = client.post("/mail/preferences/", data)

    assert response.status_code == 302
    assert preferences.mode_for(users[0], "invitations", "push") == "off"
    assert preferences.mode_for(users[0], "results", "mail") == "digest"
    prefs = MailSettings.objects.get(user=users[0])
    assert (prefs.quiet_start, prefs.quiet_end, prefs.digest_hour) == (time(22, 30), time(6, 45), 6)

    half = client.post("/mail/preferences/", data | {"quiet_end": ""})
    assert half.status_code == 200 and b"both a start and an end" in half.content


def test_saving_the_page_as_shown_leaves_push_and_webhook_cells_on_their_default(
    client: Any, users: list
) -> None:
    """Without a browser the push cells show "off"; saving the page (say, for the digest hour) must not
    store that "off", or the browser switched on later would stay silent."""
    from apps.push.models import PushSubscription

    client.force_login(users[0])
    shown = {
        f"cell_{row['category']}_{ch}": cell["mode"]
        for row in preferences.table_get(user=users[0])
        for ch, cell in row["cells"].items()
    }
    assert shown["cell_your_move_push"] == "off"

    form = shown | {"digest_hour": 7, "quiet_start": "", "quiet_end": ""}
    response = client.post("/mail/preferences/", form)

    assert response.status_code == 302
    PushSubscription.objects.create(
        user=users[0], endpoint="https://push.example/2", p256dh="k", auth="a", categories={}
    )
    assert preferences.mode_for(users[0], "your_move", "push") == "immediately"
    assert MailSettings.objects.get(user=users[0]).digest_hour == 7


def test_api_keeps_its_fields_and_adds_the_table_and_quiet_hours(client: Any, users: list) -> None:
    client.force_login(users[0])
    before = client.get("/api/v1/me/notifications/").json()
    assert {"categories", "digest_hour", "live_games", "modes"} <= set(before)
    assert [row["category"] for row in before["table"]] == list(preferences.CATEGORIES)
    assert before["channels"] == ["mail", "push", "webhook"] and before["quiet_hours"] is None

    cell = client.patch(
        "/api/v1/me/notifications/",
        {"category": "your_move", "channel": "webhook", "mode": "off"},
        content_type="application/json",
    ).json()
    quiet = client.patch(
        "/api/v1/me/notifications/",
        {"quiet_hours": {"start": "23:00", "end": "07:30"}},
        content_type="application/json",
    ).json()
    wrong = client.patch(
        "/api/v1/me/notifications/",
        {"category": "your_move", "channel": "push", "mode": "digest"},
        content_type="application/json",
    )
    cleared = client.patch(
        "/api/v1/me/notifications/", {"quiet_hours": None}, content_type="application/json"
    ).json()

    your_move = next(r for r in cell["table"] if r["category"] == "your_move")
    assert your_move["cells"]["webhook"] == {"mode": "off", "modes": ["immediately", "off"]}
    assert quiet["quiet_hours"] == {"start": "23:00", "end": "07:30"}
    assert wrong.status_code == 400
    assert cleared["quiet_hours"] is None
