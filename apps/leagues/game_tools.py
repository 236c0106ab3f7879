"""An organiser's tools on a league game: extend a deadline, pause and resume, substitute a player
(an offer the newcomer accepts), let the bot take a seat, adjudicate, abort.

Each locks the game row first, like every change to a game, writes an ``AuditLog`` row in the same
transaction, and is refused (``own_game``) to anyone who holds a seat in that game; pausing, resuming
and extending deadlines go through ``apps.games.clock``."""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from apps.accounts.language import mail_language
from apps.accounts.models import display_name
from apps.games import clock as game_clock
from apps.games import lifecycle as game_lifecycle
from apps.games import people, reliability
from apps.games import scheduling as game_scheduling
from apps.games.errors import ServiceError
from apps.games.models import Game, Seat
from apps.games.store import LockedGame, lock_game
from apps.notifications.notify import notify_invitation
from baogame.mailmessage import send_plain

from .auditlog import audit
from .models import Fixture, League, Membership, SubstituteOffer
from .permissions import require_organiser

log = logging.getLogger(__name__)


def _league_game(league: League, game_id: int, by: User) -> LockedGame:
    """The game, locked, when it is one of the league's and ``by`` does not play in it; refused when it
    is over. An organiser who holds a seat (or whose bot account does) has no power over the game."""
    if not Fixture.objects.filter(game_id=game_id, round__season__league=league).exists():
        raise ServiceError("not_found", "no such game in this league", status=404)
    locked = lock_game(game_id)
    people.refuse_own_game(game=locked.game, user=by)
    if locked.game.is_over:
        raise ServiceError("game_over", "this game has ended", status=409)
    return locked


def _league_seat(league: League, game_id: int, by: User, position: int) -> tuple[LockedGame, Seat]:
    """``_league_game`` and its player seat at ``position`` (a bot's seat or none: ``no_such_seat``)."""
    locked = _league_game(league, game_id, by)
    seat = locked.seats.get(position)
    if seat is None or seat.is_bot:
        raise ServiceError("no_such_seat", "no player seat at that position", status=404)
    return locked, seat


def game_deadline_extend(
    *, league: League, game_id: int, seat: int, hours: int, by: User, reason: str = ""
) -> None:
    """Give a seat's open decision ``hours`` more time."""
    require_organiser(league, by)
    with transaction.atomic():
        game = _league_game(league, game_id, by).game
        game_clock.decision_extend(game_id=game.pk, seat=seat, by=timedelta(hours=hours), actor=by)
        audit(
            league=league,
            actor=by,
            action="deadline_extended",
            game=game,
            reason=reason,
            seat=seat,
            hours=hours,
        )


def game_pause(*, league: League, game_id: int, by: User, reason: str = "") -> None:
    """Stop every clock of a league game."""
    require_organiser(league, by)
    with transaction.atomic():
        game = _league_game(league, game_id, by).game
        game_clock.game_pause(game_id=game.pk, by=by, reason=reason)
        audit(league=league, actor=by, action="game_paused", game=game, reason=reason)


def game_resume(*, league: League, game_id: int, by: User, reason: str = "") -> None:
    """Restart a paused league game's clocks."""
    require_organiser(league, by)
    with transaction.atomic():
        game = _league_game(league, game_id, by).game
        game_clock.game_resume(game_id=game.pk, by=by)
        audit(league=league, actor=by, action="game_resumed", game=game, reason=reason)


def seat_substitute(
    *,
    league: League,
    game_id: int,
    position: int,
    user: User,
    by: User,
    reason: str = "",
) -> SubstituteOffer:
    """Offer a seat to ``user``, an active member not seated in the game; they take it when they accept.

    Until then the seat is played as before (its player, or the bot). A pending offer for the same seat
    is withdrawn. The audit log names the newcomer for every member.
    """
    require_organiser(league, by)
    with transaction.atomic():
        locked, seat = _league_seat(league, game_id, by, position)
        game = locked.game
        _check_newcomer(league=league, game=game, user=user)
        SubstituteOffer.objects.filter(
            game=game, position=position, status=SubstituteOffer.Status.PENDING
        ).update(status=SubstituteOffer.Status.WITHDRAWN, answered_at=timezone.now())
        offer = SubstituteOffer.objects.create(
            league=league,
            game=game,
            position=position,
            newcomer=user,
            previous=seat.user,
            offered_by=by,
            reason=reason,
        )
        audit(
            league=league,
            actor=by,
            action="substitute_offered",
            game=game,
            reason=reason,
            **_offer_detail(offer),
        )
        transaction.on_commit(partial(_mail_offer, offer_id=offer.pk))
    return offer


def _check_newcomer(*, league: League, game: Game, user: User) -> None:
    """A substitute is an active member of the league who holds no seat in the game (nor their bots)."""
    if not league.memberships.filter(user=user, status=Membership.Status.ACTIVE).exists():
        raise ServiceError("not_a_member", "a substitute must be an active member of the league", status=409)
    if people.holds_seat(game=game, user=user):
        raise ServiceError("already_seated", "that player already has a seat in this game", status=409)


def _offer_detail(offer: SubstituteOffer) -> dict[str, Any]:
    """The audit detail of an offer: the seat and, by name, who leaves it and who takes it."""
    return {
        "seat": offer.position,
        "previous": offer.previous.get_username() if offer.previous else "",
        "previous_name": display_name(offer.previous) if offer.previous else "",
        "newcomer": offer.newcomer.get_username(),
        "newcomer_name": display_name(offer.newcomer),
        "offer": offer.pk,
    }


def _mail_offer(*, offer_id: int) -> None:
    """Tell the newcomer about the offer, with the link to accept or decline it."""
    offer = SubstituteOffer.objects.select_related("league", "newcomer__profile").get(pk=offer_id)
    if not offer.newcomer.email:
        return
    link = f"{settings.SITE_URL.rstrip('/')}{offer.get_absolute_url()}"
    fields = {"league": offer.league.name, "seat": offer.position, "game": offer.game, "link": link}
    with translation.override(mail_language(offer.newcomer)):  # the newcomer's language, not the organiser's
        subject = gettext("[%(league)s] A seat for you") % fields
        body = (
            gettext(
                "An organiser of %(league)s offers you seat %(seat)s of %(game)s.\n"
                "You play it (and see what it knows) only once you accept: %(link)s\n"
            )
            % fields
        )
    try:
        send_plain(subject, body, [offer.newcomer.email])
    except OSError:
        log.warning("substitute offer %s: mail not sent", offer_id)


def substitute_answer(*, offer_id: int, user: User, accept: bool) -> SubstituteOffer:
    """The newcomer accepts (takes the seat now) or declines a pending offer.

    Accepting is refused when the offer lapsed: the seat changed hands since, the game ended, the
    newcomer is no longer an active member or has a seat in the game by now.
    """
    game_id = (
        SubstituteOffer.objects.filter(pk=offer_id, newcomer=user).values_list("game_id", flat=True).first()
    )
    if game_id is None:
        raise ServiceError("no_such_offer", "no such seat offer for you", status=404)
    lapsed = False
    with transaction.atomic():
        # The game row first, then the offer: the order every organiser tool takes (no deadlock).
        locked = lock_game(game_id)
        game = locked.game
        offer = (
            SubstituteOffer.objects.select_for_update(of=("self",))
            .select_related("league", "newcomer__profile", "previous__profile")
            .get(pk=offer_id)
        )
        if offer.status != SubstituteOffer.Status.PENDING:
            raise ServiceError("offer_closed", f"this offer is {offer.status}", status=409)
        league = offer.league
        offer.answered_at = timezone.now()
        if not accept:
            offer.status = SubstituteOffer.Status.DECLINED
            offer.save(update_fields=["status", "answered_at"])
            audit(league=league, actor=user, action="substitute_declined", game=game, **_offer_detail(offer))
            return offer
        seat = locked.seats.get(offer.position)
        lapsed = game.is_over or seat is None or seat.user_id != offer.previous_id
        if lapsed:  # withdrawn for good (committed), then refused below
            offer.status = SubstituteOffer.Status.WITHDRAWN
            offer.save(update_fields=["status", "answered_at"])
        else:
            _take_offered_seat(offer=offer, locked=locked, seat=seat, user=user)
    if lapsed:
        raise ServiceError("offer_lapsed", "the seat is no longer the one offered", status=409)
    return offer


def _take_offered_seat(*, offer: SubstituteOffer, locked: LockedGame, seat: Seat | None, user: User) -> None:
    """The newcomer takes the offered seat (inside the caller's transaction, game and offer locked)."""
    assert seat is not None  # the caller checked that the seat is still the one offered
    game = locked.game
    league = offer.league
    _check_newcomer(league=league, game=game, user=user)
    reliability.seat_changed(seat=seat, previous_id=seat.user_id, newcomer_id=user.pk)
    people.seat_hand_to(seat, user)  # the orders were the previous player's: a newcomer starts without
    offer.status = SubstituteOffer.Status.ACCEPTED
    offer.save(update_fields=["status", "answered_at"])
    audit(
        league=league,
        actor=offer.offered_by,
        action="player_substituted",
        game=game,
        reason=offer.reason,
        **_offer_detail(offer),
    )
    if game.status == Game.Status.ACTIVE:
        game_scheduling.queue_game_tasks(locked)
    transaction.on_commit(partial(notify_invitation, game_id=game.pk, user=user))


def seat_bot_takeover(
    *, league: League, game_id: int, position: int, on: bool, by: User, reason: str = ""
) -> Seat:
    """Hand a seat to the server's bot (``on``) or give it back to its player.

    Handing it over sets the organiser's hold: the player cannot take the seat back themselves until
    an organiser who does not play in the game (or a site admin) gives it back. Giving back a seat the
    bot does not play is refused (``seat_not_with_bot``).
    """
    require_organiser(league, by)
    with transaction.atomic():
        locked, seat = _league_seat(league, game_id, by, position)
        game = locked.game
        if not on and not seat.bot_takeover:  # nothing to give back: the log must not say it was
            raise ServiceError(
                "seat_not_with_bot",
                "the bot is not playing this seat: there is nothing to give back",
                status=409,
            )
        people.seat_to_server_bot(seat, on=on)
        if on:
            reliability.handed_to_bot(seat)
        audit(
            league=league,
            actor=by,
            action="seat_to_bot" if on else "seat_from_bot",
            game=game,
            reason=reason,
            seat=position,
        )
        if on and game.status == Game.Status.ACTIVE:
            game_scheduling.queue_game_tasks(locked)
    return seat


def game_adjudicate(*, league: League, game_id: int, places: dict[int, int], by: User, reason: str) -> Game:
    """End a game with a result the organiser records: ``places`` maps every seat to its place (1 = best).

    The result counts in the standings like a played one.
    """
    require_organiser(league, by)
    if not reason.strip():
        raise ServiceError("reason_required", "say why the game is adjudicated")
    with transaction.atomic():
        locked = _league_game(league, game_id, by)
        game_lifecycle.game_adjudicate(locked, places=places, reason=reason)
        game = locked.game
        audit(league=league, actor=by, action="game_adjudicated", game=game, reason=reason, places=places)
    return game


def game_abort(*, league: League, game_id: int, by: User, reason: str) -> Game:
    """End a game without a result; it does not count in the standings."""
    require_organiser(league, by)
    if not reason.strip():
        raise ServiceError("reason_required", "say why the game is aborted")
    with transaction.atomic():
        locked = _league_game(league, game_id, by)
        game_lifecycle.game_abort(locked, reason=reason)
        game = locked.game
        audit(league=league, actor=by, action="game_aborted", game=game, reason=reason)
    return game
