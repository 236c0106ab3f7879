"""Profiles: display name, time zone, vacation."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

#: Names Python finds among the system's zone files that are no IANA zone: ``localtime`` is this
#: machine's own zone (a link to ``/etc/localtime``), so it would mean another zone on another server.
NOT_ZONES = frozenset({"localtime", "posixrules"})


def time_zone_keys() -> list[str]:
    """The zones a profile may have: every IANA key Python knows, in key order."""
    return sorted(zoneinfo.available_timezones() - NOT_ZONES)


def is_time_zone_key(key: str) -> bool:
    """Whether a profile may have ``key`` as its zone (one of ``time_zone_keys``)."""
    return key not in NOT_ZONES and key in zoneinfo.available_timezones()


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in time_zone_keys()]


class Profile(models.Model):
    """What a player sets about themselves; created with the user."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=60, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC", choices=_time_zone_choices)
    #: The language of the site's pages and of every mail to this person; blank: the browser's
    #: ``Accept-Language`` on pages, English in mail.
    language = models.CharField(
        _("language"),
        max_length=16,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text=_("Pages and mails in this language; empty: your browser's language."),
    )
    is_bot_account = models.BooleanField(default=False, help_text="A bot played through the API.")
    bot_owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="bot_accounts"
    )
    # Vacation: clocks stop while on vacation; a yearly budget of days (settings.VACATION_DAYS_PER_YEAR).
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveIntegerField(default=0)
    vacation_seconds_used = models.PositiveIntegerField(default=0)
    # The planned return the player gave when leaving (optional): what others are told, never the end
    # of the yearly budget. The clocks restart only when the vacation ends.
    vacation_returns_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            # Nobody shows under a name another player shows (apps.accounts.names also keeps display
            # names apart from other users' usernames, which live in another table).
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="profile_unique_display_name_ci",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The name others see."""
        return self.display_name or self.user.get_username()

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The profile's time zone as a ``ZoneInfo``."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    @property
    def on_vacation(self) -> bool:
        return self.vacation_started_at is not None


def display_name(user: Any) -> str:
    """The name others see for ``user``: the profile's display name, else the username."""
    profile = getattr(user, "profile", None)
    return str(profile.name) if profile is not None else str(user.get_username())


class VacationSpell(models.Model):
    """One vacation, from its start to its end (None while it lasts): the reliability record's days away."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_spells"
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "started_at"]

    def __str__(self) -> str:
        return f"{self.user} away from {self.started_at:%Y-%m-%d}"
