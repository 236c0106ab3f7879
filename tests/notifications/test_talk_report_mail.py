"""A table-talk message's first report mails the site's staff (``apps.notifications.moderation``): once
per message, each staff member in their own language, quoting the message with a link to its admin
page, and never naming who reported it; ``TALK_REPORTS_MAIL_TO`` sends it to given addresses instead."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core import mail
from django.test import Client

from apps.accounts.models import Profile
from apps.games import table_talk
from apps.games.models import Game, TableMessage
from apps.notifications.moderation import talk_report_mail_send, talk_reports_recover
from tests.conftest import requires_postgres
from tests.factories import GameFactory, UserFactory, signed_in
from tests.support.race import race

pytestmark = pytest.mark.django_db


def _named(username: str, *, display_name: str = "", language: str = "", **fields: Any) -> Any:
    user = UserFactory(username=username, **fields)
    Profile.objects.filter(user=user).update(display_name=display_name, language=language)
    user.refresh_from_db()
    return user


@pytest.fixture
def rude() -> tuple[Game, TableMessage, Any, Any]:
    """A game where ann (shown as "Annie") wrote a rude message that bob (shown as "Bobby") may report."""
    ann = _named("ann", display_name="Annie")
    bob = _named("bob", display_name="Bobby")
    game = GameFactory(engine="baohuang", players=5, seated=[ann, bob], bots=3, title="Friday table")
    message = TableMessage.objects.create(game=game, user=ann, seat=0, text="you <b>all</b> play\nbadly")
    mail.outbox.clear()
    return game, message, ann, bob


@pytest.fixture
def staff() -> list[Any]:
    """Staff who may remove messages: an English superuser and a Chinese moderator given the permission
    through a group; and who get nothing: staff who may not remove them, inactive or without an address."""
    moderators = Group.objects.create(name="moderators")
    moderators.permissions.add(
        *Permission.objects.filter(codename__in=["view_tablemessage", "delete_tablemessage"])
    )
    UserFactory(username="gone", is_staff=True, is_superuser=True, is_active=False)
    UserFactory(username="blank", is_staff=True, is_superuser=True, email="")
    UserFactory(username="editor", is_staff=True)  # staff, but may not remove messages
    viewer = UserFactory(username="viewer", is_staff=True)  # may read them in the admin, not delete them
    viewer.user_permissions.add(Permission.objects.get(codename="view_tablemessage"))
    UserFactory(username="player")  # not staff
    wen = _named("wen", is_staff=True, language="zh-hans")
    wen.groups.add(moderators)
    return [_named("mod", is_staff=True, is_superuser=True), wen]


def _report(client: Client, game: Game, message: TableMessage, capture: Any) -> Any:
    with capture(execute=True):
        return client.post(f"/games/{game.public_id}/talk/{message.pk}/report/")


def test_the_first_report_mails_each_active_staff_member_who_may_remove_it_once(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude

    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)

    assert sorted(m.to for m in mail.outbox) == [["mod@example.com"], ["wen@example.com"]]


def test_the_mails_admin_link_opens_the_message_for_each_recipient(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude
    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)

    for recipient in staff:
        sent = next(m for m in mail.outbox if m.to == [recipient.email])
        path = sent.body.split(settings.SITE_URL)[1].split()[0]  # the first link: the admin's
        assert path == f"/admin/games/tablemessage/{message.pk}/change/"
        page = signed_in(recipient).get(path)
        assert page.status_code == 200
        assert "badly" in page.content.decode()


def test_each_staff_member_reads_the_mail_in_their_own_language(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude

    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)

    by_address = {m.to[0]: m for m in mail.outbox}
    english, chinese = by_address["mod@example.com"], by_address["wen@example.com"]
    assert english.subject == f"[baogame] Friday table (#{game.pk}): a table-talk message was reported"
    assert chinese.subject == f"[baogame] Friday table (#{game.pk})：有一条牌桌聊天消息被举报"
    assert "1 person has reported it so far." in english.body
    assert "目前共有 1 人举报了这条消息。" in chinese.body


def test_a_second_report_by_someone_else_sends_no_further_mail(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude
    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    _report(signed_in(UserFactory()), game, message, django_capture_on_commit_callbacks)
    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)  # bob again

    assert mail.outbox == []
    assert message.reports.count() == 2


def test_the_mail_quotes_the_message_and_links_its_admin_page_but_never_names_the_reporter(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude

    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)

    sent = next(m for m in mail.outbox if m.to == ["mod@example.com"])
    html = sent.alternatives[0][0]
    admin_url = f"{settings.SITE_URL}/admin/games/tablemessage/{message.pk}/change/"
    assert "Annie wrote in the table talk of Friday table" in sent.body
    assert "> you <b>all</b> play\n> badly\n" in sent.body
    assert "you &lt;b&gt;all&lt;/b&gt; play<br>badly" in html and "<b>all</b>" not in html
    assert admin_url in sent.body and f'href="{admin_url}"' in html
    for mail_text in (sent.subject, sent.body, html):
        assert "bob" not in mail_text.lower() and "Bobby" not in mail_text


def test_with_talk_reports_mail_to_set_only_those_addresses_are_mailed_in_the_sites_language(
    rude, staff, settings, django_capture_on_commit_callbacks
) -> None:
    settings.TALK_REPORTS_MAIL_TO = ["abuse@example.org", "ops@example.org"]
    game, message, _, bob = rude

    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)

    assert sorted(m.to for m in mail.outbox) == [["abuse@example.org"], ["ops@example.org"]]
    assert all("a table-talk message was reported" in m.subject for m in mail.outbox)


def test_a_refused_report_of_ones_own_message_sends_nothing(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, ann, _ = rude

    _report(signed_in(ann), game, message, django_capture_on_commit_callbacks)

    assert mail.outbox == [] and not message.reports.exists()


def test_a_report_through_the_api_mails_the_staff_too(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude

    with django_capture_on_commit_callbacks(execute=True):
        answer = signed_in(bob).post(f"/api/v1/games/{game.pk}/messages/{message.pk}/report/")

    assert answer.status_code == 201
    assert sorted(m.to for m in mail.outbox) == [["mod@example.com"], ["wen@example.com"]]


def test_nothing_is_mailed_once_the_message_was_removed(rude, staff) -> None:
    """The task may run after the staff removed the message (from another report's mail, say)."""
    _, message, _, _ = rude
    message_id = message.pk
    message.delete()

    assert talk_report_mail_send(message_id=message_id) == 0
    assert mail.outbox == []


def test_a_mail_sent_is_recorded_and_a_second_task_sends_nothing(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    game, message, _, bob = rude
    _report(signed_in(bob), game, message, django_capture_on_commit_callbacks)
    message.refresh_from_db()
    assert message.staff_told_at is not None and len(mail.outbox) == 2

    assert talk_report_mail_send(message_id=message.pk) == 0  # queued again by the sweep, say
    assert len(mail.outbox) == 2


def test_a_lost_mail_task_is_queued_again_by_the_recovery_sweep(
    rude, staff, django_capture_on_commit_callbacks
) -> None:
    """The broker was down when the report committed (its task never queued): the recovery sweep
    queues it once the retry interval has passed, and the staff hear of the report once."""
    game, message, _, bob = rude
    with django_capture_on_commit_callbacks(execute=False):  # the task's publish never happens
        signed_in(bob).post(f"/games/{game.public_id}/talk/{message.pk}/report/")
    reported_at = message.reports.get().created_at
    retry = timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY)

    assert talk_reports_recover(now=reported_at + retry / 2) == 0  # its task may still be on its way
    assert mail.outbox == []
    assert talk_reports_recover(now=reported_at + retry * 2) == 1
    assert sorted(m.to for m in mail.outbox) == [["mod@example.com"], ["wen@example.com"]]
    assert talk_reports_recover(now=reported_at + retry * 3) == 0
    assert len(mail.outbox) == 2


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_two_first_reports_at_once_mail_the_staff_once(rude, staff) -> None:
    """The message's row is locked while it is reported: of two readers reporting it at the same
    moment, exactly one makes the first report."""
    game, message, _, bob = rude
    cat = UserFactory(username="cat")

    answers = race(
        [partial(table_talk.message_report, game=game, user=who, message_id=message.pk) for who in (bob, cat)]
    )

    assert answers == [True, True]
    assert sorted(m.to for m in mail.outbox) == [["mod@example.com"], ["wen@example.com"]]
