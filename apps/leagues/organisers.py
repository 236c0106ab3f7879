"""Who runs a league: an organiser makes a member a fellow organiser, and an organiser steps down.

A league has no owner (``permissions``): its organisers are equals. Nobody has organiser power over a
game they hold a seat in, so a league whose only organiser plays needs a second organiser for that
organiser's own games; before this, only a site admin could add one. Now any organiser (or a site
admin) may make an active member an organiser, and an organiser may step down while another one
remains. Each change goes into the organiser log, in the same transaction.

Only a member can be made an organiser: a member joined the league of their own accord, so nobody is
given organiser duties (and their name on the league page) by someone they never dealt with. The
league row is locked while the organisers change, so that two organisers stepping down at once cannot
leave the league with none.

When a league's only organiser closes their account, the league passes to its longest-standing active
member (a person, not a bot account), who is told so by the organiser log (``organiser_succeed``): a
league whose organiser left the site would otherwise have nobody to start its rounds but a site admin.
A league with no such member is left without an organiser, for a site admin.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F

from apps.games.errors import ServiceError

from .auditlog import audit
from .models import League, Membership
from .permissions import require_organiser


def organiser_add(*, league: League, membership_id: int, by: User) -> Membership:
    """An organiser (or a site admin) makes the active member of ``membership_id`` an organiser.

    Refused: ``forbidden`` (403) to anyone else; ``not_a_member`` (409) for a membership that is pending
    or withdrawn; ``bot_cannot_organise`` (409) for a bot account (a program plays, a person organises);
    ``already_organiser`` (409) for someone who organises the league already."""
    require_organiser(league, by)
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()
        membership = (
            Membership.objects.select_related("user__profile")
            .filter(pk=membership_id, league=league, status=Membership.Status.ACTIVE)
            .first()
        )
        if membership is None:
            raise ServiceError("not_a_member", "only an active member can be made an organiser", status=409)
        if getattr(getattr(membership.user, "profile", None), "is_bot_account", False):
            raise ServiceError("bot_cannot_organise", "a bot account cannot organise a league", status=409)
        if league.organisers.filter(pk=membership.user_id).exists():
            raise ServiceError("already_organiser", "that member organises the league already", status=409)
        league.organisers.add(membership.user)
        audit(league=league, actor=by, action="organiser_added", user=membership.user.get_username())
    return membership


def organiser_step_down(*, league: League, by: User) -> None:
    """``by`` stops organising the league (they stay a member if they are one).

    Refused: ``not_organiser`` (409) to someone who does not organise it (a site admin's power is not
    theirs to give up here); ``last_organiser`` (409) while nobody else organises it."""
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()
        organisers = set(league.organisers.values_list("pk", flat=True))
        if by.pk not in organisers:
            raise ServiceError("not_organiser", "you do not organise this league", status=409)
        if len(organisers) == 1:
            raise ServiceError(
                "last_organiser", "make another member an organiser before stepping down", status=409
            )
        league.organisers.remove(by)
        audit(league=league, actor=by, action="organiser_stepped_down")


def organiser_succeed(*, league: League, leaving: User) -> User | None:
    """``leaving`` closes their account and is the league's only organiser: its longest-standing active
    member who is a person with a usable account (earliest joined, then earliest request) organises it
    now, written in the organiser log as their own entry. Returns them, or None when no member can."""
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()
        if set(league.organisers.values_list("pk", flat=True)) - {leaving.pk}:
            return None  # another organiser remains
        successor = (
            Membership.objects.filter(league=league, status=Membership.Status.ACTIVE, user__is_active=True)
            .exclude(user=leaving)
            .exclude(user__profile__is_bot_account=True)
            .select_related("user")
            .order_by(F("joined_at").asc(nulls_last=True), "pk")
            .first()
        )
        if successor is None:
            return None
        league.organisers.add(successor.user)
        audit(league=league, actor=successor.user, action="organiser_succeeded")
        return successor.user
