"""Time zones read in the reader's language wherever a person sees one: the profile's select (whose
values stay the IANA keys), the sittings panel and the mails; a Chinese reader sees "中国（上海）时间"
where the site showed "Asia/Shanghai"."""

from __future__ import annotations

import html
import zoneinfo
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from apps.accounts.forms import ProfileForm
from apps.accounts.models import Profile
from apps.sittings.models import Sitting, SittingReminder
from apps.sittings.signals import sitting_message
from tests.factories import GameFactory
from tests.notifications.conftest import mails_to

pytestmark = pytest.mark.django_db


def _in_chinese_at(user: Any, zone: str) -> Client:
    Profile.objects.filter(user=user).update(language="zh-hans", time_zone=zone)
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_page_in_chinese_names_each_zone_in_chinese_beside_its_key(users: list[Any]) -> None:
    client = _in_chinese_at(users[0], "Asia/Shanghai")

    page = html.unescape(client.get("/accounts/profile/").content.decode())

    assert '<option value="Asia/Shanghai" selected>中国（上海）时间 — Asia/Shanghai</option>' in page
    assert '<option value="Etc/UTC">协调世界时（UTC） — Etc/UTC</option>' in page
    assert "截止时间都按你的时区显示：中国（上海）时间。" in page


def test_the_profile_page_in_chinese_still_saves_the_key(users: list[Any]) -> None:
    client = _in_chinese_at(users[0], "Asia/Shanghai")

    answer = client.post(
        "/accounts/profile/",
        {"display_name": "", "time_zone": "America/Argentina/Buenos_Aires", "language": "zh-hans"},
    )

    assert answer.status_code == 302
    assert Profile.objects.get(user=users[0]).time_zone == "America/Argentina/Buenos_Aires"


def test_a_zones_name_is_not_a_value_the_form_takes(users: list[Any]) -> None:
    client = _in_chinese_at(users[0], "Asia/Shanghai")

    answer = client.post(
        "/accounts/profile/", {"display_name": "", "time_zone": "中国（上海）时间", "language": "zh-hans"}
    )

    assert answer.status_code == 200
    assert Profile.objects.get(user=users[0]).time_zone == "Asia/Shanghai"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_select_offers_every_zone_key_in_key_order_in_either_language(
    users: list[Any], language: str
) -> None:
    with translation.override(language):
        form = ProfileForm(instance=users[0].profile)
        keys = [key for key, _ in form.fields["time_zone"].choices]  # type: ignore[attr-defined]

    assert keys == sorted(zoneinfo.available_timezones() - {"localtime", "posixrules"})


def test_the_select_is_named_in_the_language_of_the_page_being_built(users: list[Any]) -> None:
    """Not in the language that was active when the code was imported."""
    with translation.override("zh-hans"):
        chinese = dict(ProfileForm(instance=users[0].profile).fields["time_zone"].choices)  # type: ignore[attr-defined]
    with translation.override("en"):
        english = dict(ProfileForm(instance=users[0].profile).fields["time_zone"].choices)  # type: ignore[attr-defined]

    assert chinese["Asia/Shanghai"] == "中国（上海）时间 — Asia/Shanghai"
    assert english["Asia/Shanghai"] == "China (Shanghai) Time — Asia/Shanghai"


def test_the_sittings_panel_in_chinese_names_the_readers_zone_in_chinese(users: list[Any]) -> None:
    game = GameFactory(engine="baobei", players=3, seated=users[:3])
    client = _in_chinese_at(users[0], "Asia/Shanghai")

    page = client.get(game.get_absolute_url()).content.decode()

    panel = page[page.index('id="sittings"') :]
    panel = panel[: panel.index("</section>")]
    assert "中国（上海）时间" in panel
    assert "Asia/Shanghai" not in panel


def test_a_sitting_mail_to_a_chinese_reader_names_the_zone_in_chinese(users: list[Any]) -> None:
    game = GameFactory(engine="baobei", players=3, seated=users[:3])
    Profile.objects.filter(user=users[0]).update(language="zh-hans", time_zone="Asia/Shanghai")
    starts = timezone.now() + timedelta(days=1)
    sitting = Sitting.objects.create(game=game, starts_at=starts, ends_at=starts + timedelta(hours=1))

    sitting_message.send(
        Sitting, sitting=sitting, user_id=users[0].pk, kind=SittingReminder.Kind.MAIL, series=[sitting]
    )

    message = mails_to(users[0])[-1]
    assert "（中国（上海）时间）" in message.subject
    assert "（中国（上海）时间）" in message.body
    assert "Asia/Shanghai" not in message.body
