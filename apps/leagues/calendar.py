"""The leagues' entries in a person's calendar feed: the scheduled starts of their leagues' next rounds."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from apps.notifications import calendar

from .models import Membership, Season


def round_entries(*, user: User, now: datetime) -> list[calendar.Entry]:
    """The scheduled starts of the next rounds in the leagues where the person is an active member."""
    leagues = Membership.objects.filter(user=user, status=Membership.Status.ACTIVE).values("league_id")
    seasons = (
        Season.objects.filter(league_id__in=leagues)
        .exclude(status=Season.Status.FINISHED)
        .select_related("league")
        .order_by("starts_at", "pk")
    )
    site = calendar.host()
    entries = []
    for season in seasons:
        started = season.round_set.count()
        for number in range(started + 1, season.rounds + 1):
            starts = season.starts_at + timedelta(days=season.round_interval_days * (number - 1))
            if starts < now:
                continue  # overdue: the beat starts it within minutes
            words = {
                "league": season.league.name,
                "round": number,
                "rounds": season.rounds,
                "season": season.number,
            }
            entries.append(
                calendar.Entry(
                    uid=f"round-{season.pk}-{number}@{site}",
                    summary=_("%(league)s: round %(round)s of season %(season)s starts") % words,
                    description=_(
                        "Round %(round)s of %(rounds)s of season %(season)s of the league %(league)s."
                    )
                    % words,
                    starts=starts,
                    ends=starts + calendar.ENTRY_LENGTH,
                    url=settings.SITE_URL + season.league.get_absolute_url(),
                )
            )
    return entries
