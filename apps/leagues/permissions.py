"""Who may use a league's organiser tools (read by the services, the selectors and the pages), and the
refusal of anyone else."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, User

from apps.games.errors import ServiceError

from .models import League, Membership

if TYPE_CHECKING:
    from apps.games.models import Game


def league_is_organiser(*, league: League, user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` organises the league."""
    return bool(user and user.is_authenticated and league.organisers.filter(pk=user.pk).exists())


def league_is_admin(*, user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` is a league admin: site staff, who may use every league's organiser tools.

    The league models have no owner: whoever created a league is one of its organisers like any
    other. When every organiser plays in a game, a site admin who does not play there acts on it.
    """
    return bool(user and user.is_authenticated and (user.is_staff or user.is_superuser))


def league_may_manage(*, league: League, user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` may use the league's organiser tools: an organiser, or a league admin."""
    return league_is_admin(user=user) or league_is_organiser(league=league, user=user)


def require_organiser(league: League, user: User | AnonymousUser | None) -> None:
    """Refuse (403 ``forbidden``) anyone who may not use the league's organiser tools."""
    if not league_may_manage(league=league, user=user):
        raise ServiceError("forbidden", "only the league's organisers can do that", status=403)


def league_sole_organiser_plays(*, league: League) -> bool:
    """Whether the league's only organiser is also an active member: in their own games, nobody but a
    site admin can use the organiser tools (said on the manage page)."""
    organisers = list(league.organisers.values_list("pk", flat=True))
    return (
        len(organisers) == 1
        and league.memberships.filter(user_id=organisers[0], status=Membership.Status.ACTIVE).exists()
    )


def league_may_gain_organiser(*, league: League) -> bool:
    """Whether some member could be made an organiser: an active member who does not organise the
    league yet and is a person, not a bot account (``organisers.organiser_add``)."""
    return (
        league.memberships.filter(status=Membership.Status.ACTIVE)
        .exclude(user__in=league.organisers.all())
        .exclude(user__profile__is_bot_account=True)
        .exists()
    )


def game_is_organised_by(game: Game, user: User) -> bool:
    """Whether ``user`` organises the league ``game`` is played in (the sittings ask: an organiser may
    propose times to a league table)."""
    return League.objects.filter(seasons__round_set__fixtures__game=game, organisers=user).exists()
