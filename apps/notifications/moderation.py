"""Mails to the site's staff: a table-talk message was reported (``apps.games.table_talk``).

The games app sends ``talk_message_reported`` when a message gets its first report; the receiver
queues ``mail_talk_report``, whose body is ``talk_report_mail_send``. The mail quotes the message and
names its game, its writer and how many people have reported it, with a link to its admin page, where
the staff read the reports and remove the message. It never names who reported it (a forwarded mail
exposes nobody), and it holds no card nor anything else of the game's state.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives, get_connection
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.accounts.language import mail_language
from apps.games.table_talk import ReportedMessage, reported_message, reports_untold, staff_told
from baogame.celery import publish

from .mails import absolute, game_label, render_mail

MAIL_TALK_REPORT = "apps.notifications.tasks.mail_talk_report"


def talk_report_mail_send(*, message_id: int) -> int:
    """Mail the site's staff that the table-talk message ``message_id`` was reported; the number of mails
    sent (none once the message is gone: the staff removed it already).

    Called for a message's first report only: a second or later report of the same message sends no
    further mail (``table_talk.message_report`` sends the signal once), so that a message many people
    report does not flood the staff; the admin counts its reports. The mail is recorded as sent
    (``staff_told``) once it is; until then the recovery sweep queues it again
    (``talk_reports_recover``), so a broker outage delays it and loses nothing. A retry after a failed
    send may mail someone twice, which we prefer to a report nobody hears of.
    """
    reported = reported_message(message_id=message_id)
    if reported is None or reported.message.staff_told_at is not None:
        return 0  # removed, or told already (a task the recovery sweep queued again)
    mails = [
        _talk_report_mail(reported, to=address, language=language)
        for address, language in _staff_recipients()
    ]
    if mails:
        get_connection().send_messages(mails)
    staff_told(message_id=message_id)
    return len(mails)


def talk_reports_recover(*, now: datetime | None = None) -> int:
    """The recovery sweep's part: queue the staff's mail again for every reported message whose mail
    is not recorded as sent ``NOTIFICATIONS_OUTBOX_RETRY`` seconds after its first report (the task
    was lost with a broker that was down, or its retries ran out); returns how many were queued."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY)
    untold = reports_untold(reported_before=cutoff)
    for message_id in untold:
        publish(MAIL_TALK_REPORT, (message_id,))
    return len(untold)


def may_remove_messages(user: User) -> bool:
    """Whether ``user`` may open a table-talk message in the admin and delete it there: the admin's
    view (or change) permission and its delete permission, held directly, through a group or as a
    superuser."""
    return user.has_perm("games.delete_tablemessage") and (
        user.has_perm("games.view_tablemessage") or user.has_perm("games.change_tablemessage")
    )


def _staff_recipients() -> list[tuple[str, str]]:
    """Who is told of a report, each address with the language of its mail: the addresses of
    ``TALK_REPORTS_MAIL_TO`` in the site's default language when it is set, else every active staff
    member with an address who may remove the message in the admin (``may_remove_messages``), in the
    language of their profile."""
    if settings.TALK_REPORTS_MAIL_TO:
        return [(address, settings.LANGUAGE_CODE) for address in settings.TALK_REPORTS_MAIL_TO]
    staff = User.objects.filter(is_active=True, is_staff=True).exclude(email="").select_related("profile")
    return [(user.email, mail_language(user)) for user in staff.order_by("pk") if may_remove_messages(user)]


def _talk_report_mail(reported: ReportedMessage, *, to: str, language: str) -> EmailMultiAlternatives:
    """The staff's mail about ``reported``, to ``to``, in ``language``."""
    message, game = reported.message, reported.message.game
    with translation.override(language):
        fields = {"game": game_label(game), "writer": message.writer, "count": reported.reports}
        context = {
            "heading": _("A table-talk message was reported"),
            "game_name": fields["game"],
            "intro": _("%(writer)s wrote in the table talk of %(game)s:") % fields,
            "text": message.text,
            "lines": message.text.split("\n"),
            "reports": ngettext(
                "%(count)s person has reported it so far.",
                "%(count)s people have reported it so far.",
                reported.reports,
            )
            % fields,
            "admin_url": absolute(reverse("admin:games_tablemessage_change", args=[message.pk])),
            "link": absolute(game.get_absolute_url()),
            "site_url": settings.SITE_URL,
            "mail_language": language,
        }
        subject = _("[baogame] %(game)s: a table-talk message was reported") % fields
        return render_mail(to=to, subject=subject[:200], template="talk_report", context=context)
