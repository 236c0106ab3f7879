"""A league's minimum reliability (``League.min_reliability``, percent of decisions answered on time over
the last 12 months, ``apps.games.reliability``): checked when a player asks to join or joins by link,
and for every active member when a new season is created (members below it are withdrawn, which the
organiser log says). Players with no decisions yet pass: there is nothing to hold against them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from apps.games import reliability

from .models import League, Membership


def require_reliable(*, league: League, user: User) -> None:
    """Refuse (``reliability_too_low``, 403) a player whose record is below the league's minimum."""
    reliability.require_minimum(user, league.min_reliability, asked_by="this league")


def withdraw_below_minimum(*, league: League, by: User | None, audit: Any) -> list[int]:
    """At a new season: withdraw the active members whose record is below the minimum; their ids."""
    if league.min_reliability <= 0:
        return []
    active = list(
        Membership.objects.filter(league=league, status=Membership.Status.ACTIVE).select_related("user")
    )
    records = reliability.records_for([m.user_id for m in active])
    below = [m for m in active if not records[m.user_id].meets(league.min_reliability)]
    for membership in below:
        membership.status = Membership.Status.WITHDRAWN
        membership.save(update_fields=["status"])
        audit(
            league=league,
            actor=by,
            action="member_below_reliability",
            user=membership.user.get_username(),
            on_time=records[membership.user_id].on_time_percent,
            minimum=league.min_reliability,
        )
    return [m.user_id for m in below]
