"""Receivers: a league game that ended updates the season's standings and ratings; a seat of a league
game handed to the bot is told to the league's organisers."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.dispatch import receiver
from django.utils import timezone

from apps.accounts.closing import CLOSED_NAME, account_closing
from apps.accounts.models import display_name
from apps.games import selectors as game_selectors
from apps.games import sql
from apps.games.signals import closed_seat_to_bot, game_ended, seat_handed_to_bot
from apps.notifications.notify import notify_seat_to_bot

from . import results
from .models import AuditLog, DeclinedRequest, Fixture, League, Membership, SubstituteOffer
from .organisers import organiser_succeed

logger = logging.getLogger(__name__)


@receiver(game_ended, dispatch_uid="leagues.record_result")
def record_result(sender: Any, game_id: int, **kwargs: Any) -> None:
    """Count the game's result if it is a league game (idempotent). Most games are not: one SELECT
    compiled once asks first, and only a league game's end opens the transaction that counts it."""
    sql.when_any(_fixtures, game_id, partial(results.fixture_record_result, game_id=game_id))


def _fixtures(game_id: int) -> QuerySet[Fixture]:
    return Fixture.objects.filter(game_id=game_id)


@receiver(seat_handed_to_bot, dispatch_uid="leagues.seat_handed_to_bot")
def tell_organisers(sender: Any, *, game_id: int, seat: int, version: int, **kwargs: Any) -> None:
    """In the transaction that hands an absent player's seat of a league game to the bot: record the
    mails of the league's organisers (league news), who may offer the seat to a substitute. A failure is
    logged and rolls back only its savepoint."""
    try:
        with transaction.atomic():
            organisers = get_user_model().objects.filter(
                leagues_organised__seasons__round_set__fixtures__game_id=game_id, is_active=True
            )
            if organisers.exists():
                notify_seat_to_bot(
                    game_id=game_id, seat=seat, version=version, organisers=organisers.distinct()
                )
    except Exception:
        logger.exception(
            "could not tell the organisers of game %s that seat %s went to the bot", game_id, seat
        )


@receiver(closed_seat_to_bot, dispatch_uid="leagues.closed_seat_to_bot")
def tell_organisers_of_closed_seat(
    sender: Any, *, game_id: int, seat: int, version: int, **kwargs: Any
) -> None:
    """In the transaction that lets the bot play a closed account's seat of a league game to its end
    (``apps.games.closing``): the league's organisers are told as after an absence, and may offer the
    seat to a substitute (the closed account, inactive, is none of them)."""
    tell_organisers(sender, game_id=game_id, seat=seat, version=version)


@receiver(account_closing, dispatch_uid="leagues.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """A closed account leaves every league: its memberships end (no table from the next round on; its
    results stay in the standings), it organises none, its seat offers are declined, and the organiser
    logs name it as its games do from now on (``closed-<id>``), not by its old name; its declined requests
    go with their mails. A league it alone organised passes to its longest-standing member
    (``organisers.organiser_succeed``). The organisers of each league game it sat in are mailed (league
    news): the bot plays that seat now, and they may offer it to a substitute; here for a seat the bot
    played already, for the others when the closing hands each to the bot (``closed_seat_to_bot``)."""
    _rename_in_audit_logs(user)
    _tell_organisers_of_seats(user)
    Membership.objects.filter(user=user, status=Membership.Status.PENDING).delete()
    DeclinedRequest.objects.filter(user=user).delete()  # nothing is mailed to a closed account
    Membership.objects.filter(user=user, status=Membership.Status.ACTIVE).update(
        status=Membership.Status.WITHDRAWN
    )
    for league in League.objects.filter(organisers=user):
        organiser_succeed(league=league, leaving=user)  # when they were its only organiser
        league.organisers.remove(user)
    SubstituteOffer.objects.filter(newcomer=user, status=SubstituteOffer.Status.PENDING).update(
        status=SubstituteOffer.Status.DECLINED, answered_at=timezone.now()
    )


def _tell_organisers_of_seats(user: Any) -> None:
    """Record the league news of every league game in play where the bot plays ``user``'s seat already,
    for its other organisers: the mail is written when it is sent, once the account is closed. (A seat
    the bot does not play yet is told when the closing hands it over, game by game: a mail sent before
    would find no bot in the seat and say nothing.)"""
    seats = [s for s in game_selectors.seats_in_play_held_by(user) if s.bot_takeover]
    league_games = set(
        Fixture.objects.filter(game_id__in=[s.game_id for s in seats]).values_list("game_id", flat=True)
    )
    for seat in (s for s in seats if s.game_id in league_games):
        organisers = get_user_model().objects.filter(
            leagues_organised__seasons__round_set__fixtures__game_id=seat.game_id, is_active=True
        )
        notify_seat_to_bot(
            game_id=seat.game_id,
            seat=seat.position,
            version=seat.game.version,
            organisers=organisers.exclude(pk=user.pk).distinct(),
        )


#: The organiser log's details that hold a person's username or display name.
_NAMED_DETAILS = ("user", "name", "previous", "previous_name", "newcomer", "newcomer_name")


def _rename_in_audit_logs(user: Any) -> None:
    """Every organiser-log entry of the person's leagues that names them by their old username or display
    name names them ``closed-<id>`` instead (called before the account is emptied)."""
    old = {str(user.get_username()), display_name(user)} - {""}
    new = CLOSED_NAME.format(pk=user.pk)
    leagues = (
        set(Membership.objects.filter(user=user).values_list("league_id", flat=True))
        | set(League.objects.filter(organisers=user).values_list("pk", flat=True))
        | set(SubstituteOffer.objects.filter(newcomer=user).values_list("league_id", flat=True))
    )
    for entry in AuditLog.objects.filter(league_id__in=leagues).exclude(detail={}):
        detail = dict(entry.detail or {})
        renamed = {k: new for k in _NAMED_DETAILS if detail.get(k) in old}
        if renamed:
            entry.detail = {**detail, **renamed}
            entry.save(update_fields=["detail"])
