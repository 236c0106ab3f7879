"""Writes of the sittings: propose times, answer them, agree sittings, record presence.

Every write takes the proposal's (or the game's presence) rows under a lock in one transaction, so two
answers that arrive together decide a time exactly once. What others learn goes out after commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from apps.games import people as game_people
from apps.games import selectors as game_selectors
from apps.games.errors import ServiceError
from apps.games.models import Game
from baogame.celery import publish

from . import acceptance, lifecycle, organisers, selectors
from .acceptance import Outcome, Recurrence
from .models import ProposedTime, SeatPresence, Sitting, SittingAnswer, SittingProposal
from .signals import sitting_proposed, sittings_agreed

#: A proposal's time must be at least this far ahead (an answer takes a moment).
MIN_LEAD = timedelta(minutes=1)
#: ... and at most this far ahead.
MAX_LEAD = timedelta(days=366)
#: The shortest sitting.
MIN_LENGTH = timedelta(minutes=15)


def _refuse_over(game: Game) -> None:
    if game.is_over:
        raise ServiceError("game_over", "the game is over: there is nothing left to play", 409)


def may_propose(*, game: Game, user: User | AnonymousUser | None) -> bool:
    """A seated player (not a bot seat) or the organiser of the game's league."""
    if user is None or not user.is_authenticated:
        return False
    return selectors.human_seat_of(game=game, user=user) is not None or organisers.is_organiser(game, user)


def proposal_create(
    *,
    game: Game,
    user: User,
    times: Sequence[datetime] = (),
    length: timedelta = timedelta(hours=1),
    recurrence: Recurrence | None = None,
    time_zone: str = "UTC",
    now: datetime | None = None,
) -> SittingProposal:
    """Offer the table ``times`` (aware datetimes), or one weekly ``recurrence``, each ``length`` long.

    The proposer's own answer is yes to every time they propose, when they hold a seat; every other
    person at the table is told (``sitting_proposed``: the notifications app records a mail each).
    """
    now = now or timezone.now()
    if not may_propose(game=game, user=user):
        raise ServiceError(
            "not_at_table", "only the game's players or its league's organiser may propose", 403
        )
    _refuse_over(game)
    game_people.refuse_table_of_one(game_selectors.seats_with_people(game))
    if not MIN_LENGTH <= length <= acceptance.MAX_LENGTH:
        raise ServiceError("bad_length", "a sitting lasts 15 minutes to 4 hours")
    if recurrence is not None:
        if times:
            raise ServiceError("bad_times", "propose either times or a weekly series, not both")
        try:
            acceptance.check_recurrence(recurrence)
        except (ValueError, KeyError) as exc:
            raise ServiceError("bad_recurrence", str(exc) or "unknown time zone") from None
        starts = [s for s in acceptance.series_starts(recurrence) if s >= now + MIN_LEAD]
        if not starts:
            raise ServiceError("bad_recurrence", "every time of that series has passed")
        times = [starts[0]]
        time_zone = recurrence.time_zone
    if not times:
        raise ServiceError("no_times", "propose at least one time")
    times = [at.replace(microsecond=0) for at in times]  # calendars keep whole seconds
    if len(times) > acceptance.MAX_TIMES:
        raise ServiceError("bad_times", f"propose at most {acceptance.MAX_TIMES} times at once")
    for at in times:
        if timezone.is_naive(at):
            raise ServiceError("bad_times", "a time needs its time zone")
        if not now + MIN_LEAD <= at <= now + MAX_LEAD:
            raise ServiceError("bad_times", "a time must lie between a minute and a year ahead")
    if len(set(times)) < len(times):
        raise ServiceError("bad_times", "the same time is proposed twice")
    if recurrence is None:
        _refuse_overlap(game, times, length)
    with transaction.atomic():
        proposal = SittingProposal.objects.create(
            game=game,
            proposer=user,
            length=length,
            time_zone=time_zone,
            recurrence=recurrence.to_json() if recurrence else None,
            created_at=now,
        )
        ProposedTime.objects.bulk_create(
            ProposedTime(proposal=proposal, index=i, starts_at=at) for i, at in enumerate(sorted(times), 1)
        )
        if selectors.human_seat_of(game=game, user=user) is not None:
            answer(game=game, user=user, proposal_id=proposal.pk, accept=True, now=now)
        sitting_proposed.send(SittingProposal, proposal=proposal)  # the others are told: a mail each
    return proposal


@transaction.atomic
def answer(
    *,
    game: Game,
    user: User,
    proposal_id: int,
    accept: bool,
    index: int | None = None,
    now: datetime | None = None,
) -> list[Sitting]:
    """The user's seat says yes or no to time ``index`` of the proposal (every open time when None).

    Returns the sittings this answer agreed (a time all human seats accepted). A table of one person
    (``table_of_one``, 409) answers nothing: a proposal left open there from before bot accounts counted
    as bots would otherwise be agreed by that one person.
    """
    now = now or timezone.now()
    seat = selectors.human_seat_of(game=game, user=user)
    if seat is None:
        raise ServiceError("not_at_table", "only the game's players answer a proposed sitting", 403)
    _refuse_over(game)
    game_people.refuse_table_of_one(game_selectors.seats_with_people(game))
    proposal = SittingProposal.objects.select_for_update().filter(pk=proposal_id, game=game).first()
    if proposal is None:
        raise ServiceError("unknown_proposal", "no such proposed sitting in this game", 404)
    if proposal.closed_at is not None:
        raise ServiceError("proposal_closed", "every time of that proposal is already decided", 409)
    _expire(proposal, now=now)
    rows = list(proposal.times.filter(status=ProposedTime.Status.OPEN).order_by("index"))
    if index is not None:
        rows = [r for r in rows if r.index == index]
        if not rows:
            raise ServiceError("unknown_time", f"time {index} of that proposal is not open", 409)
    if not rows:
        raise ServiceError("proposal_closed", "every time of that proposal is already decided", 409)
    for row in rows:
        SittingAnswer.objects.update_or_create(
            time=row, position=seat, defaults={"user": user, "accept": accept, "answered_at": now}
        )
    humans = selectors.human_seats(game)
    agreed: list[Sitting] = []
    for row in rows:
        answers = dict(row.answers.values_list("position", "accept"))
        result = acceptance.outcome(human_seats=set(humans), answers=answers)
        if result is Outcome.OPEN:
            continue
        row.status = (
            ProposedTime.Status.ACCEPTED if result is Outcome.ACCEPTED else ProposedTime.Status.DECLINED
        )
        row.save(update_fields=["status"])
        if result is Outcome.ACCEPTED:
            agreed += _agree(proposal, row, now=now)
    _close_if_decided(proposal, now=now)
    if any(s.starts_at <= now for s in agreed):
        lifecycle.advance(now=now, game=game)  # an ad-hoc sitting starts at once: the live control too
    if agreed:
        ids = [s.pk for s in agreed]
        transaction.on_commit(partial(publish, "apps.sittings.tasks.send_invitations", (ids,)))
        transaction.on_commit(partial(sittings_agreed.send, Sitting, sittings=agreed))
    return agreed


def _refuse_overlap(game: Game, times: Sequence[datetime], length: timedelta) -> None:
    """A time that overlaps a sitting already agreed could never become one (``_agree`` leaves it out):
    refused at once rather than answered by everyone in vain."""
    taken = [
        (s.starts_at, s.ends_at)
        for s in Sitting.objects.filter(game=game, status__in=[Sitting.Status.SCHEDULED, Sitting.Status.LIVE])
    ]
    for at in times:
        if acceptance.overlaps(at, at + length, taken):
            raise ServiceError("bad_times", "a time overlaps a sitting already agreed")


def _starts_of(proposal: SittingProposal, row: ProposedTime, *, now: datetime) -> list[datetime]:
    if proposal.recurrence is None:
        return [row.starts_at]
    series = acceptance.series_starts(Recurrence.from_json(proposal.recurrence))
    return [s for s in series if s + proposal.length > now]


def _agree(proposal: SittingProposal, row: ProposedTime, *, now: datetime) -> list[Sitting]:
    """The sittings of an accepted time; one that overlaps a sitting already agreed is left out."""
    kind = Sitting.Kind.AD_HOC if proposal.kind == SittingProposal.Kind.AD_HOC else Sitting.Kind.AGREED
    taken = [
        (s.starts_at, s.ends_at)
        for s in Sitting.objects.filter(game=proposal.game).exclude(
            status__in=[Sitting.Status.ENDED, Sitting.Status.CANCELLED]
        )
    ]
    made = []
    for start in _starts_of(proposal, row, now=now):
        end = start + proposal.length
        if kind == Sitting.Kind.AD_HOC:
            # It starts when the last seat says yes, and gives way to the next agreed sitting.
            start, end = now, min([now + proposal.length, *(s for s, _ in taken if s > now)])
        if acceptance.overlaps(start, end, taken):
            continue
        made.append(
            Sitting.objects.create(
                game=proposal.game, proposal=proposal, kind=kind, starts_at=start, ends_at=end
            )
        )
        taken.append((start, end))
    return made


def _expire(proposal: SittingProposal, *, now: datetime) -> None:
    """Times that passed while waiting for answers are expired (an ad-hoc offer after a few minutes)."""
    limit = now - selectors.AD_HOC_OFFER_LIFE if proposal.kind == SittingProposal.Kind.AD_HOC else now
    proposal.times.filter(status=ProposedTime.Status.OPEN, starts_at__lt=limit).update(
        status=ProposedTime.Status.EXPIRED
    )


def _close_if_decided(proposal: SittingProposal, *, now: datetime) -> None:
    if not proposal.times.filter(status=ProposedTime.Status.OPEN).exists():
        proposal.closed_at = now
        proposal.save(update_fields=["closed_at"])


def presence_seen(*, game: Game, user: User | AnonymousUser | None, now: datetime | None = None) -> bool:
    """Record that the user's game page asked the server now (their human seat only). True if seated."""
    seat = selectors.human_seat_of(game=game, user=user)
    if seat is None or user is None or not user.is_authenticated:
        return False
    SeatPresence.objects.update_or_create(
        game=game, position=seat, defaults={"user_id": user.pk, "seen_at": now or timezone.now()}
    )
    return True


def answer_latest(
    *, game: Game, user: User, accept: bool, index: int | None = None, now: datetime | None = None
) -> tuple[SittingProposal, list[Sitting]]:
    """Answer the game's latest open proposal (a mail reply's ``sitting yes``): the proposal, and the
    sittings the answer agreed."""
    if selectors.human_seat_of(game=game, user=user) is None:
        raise ServiceError("not_at_table", "only the game's players answer a proposed sitting", 403)
    proposal = selectors.latest_open_proposal(game=game, now=now)
    if proposal is None:
        raise ServiceError("no_open_proposal", "no proposed sitting waits for an answer in this game", 409)
    return proposal, answer(
        game=game, user=user, proposal_id=proposal.pk, accept=accept, index=index, now=now
    )


def ad_hoc_offer(*, game: Game, user: User, now: datetime | None = None) -> SittingProposal:
    """ "Everyone is here: play now": offer the table an ad-hoc sitting of up to an hour, from now.

    Only while every human seat is present and no sitting is under way; the offerer says yes at once,
    the others have ``AD_HOC_OFFER_LIFE`` to answer. An offer already open is answered instead.
    """
    now = now or timezone.now()
    seat = selectors.human_seat_of(game=game, user=user)
    if seat is None:
        raise ServiceError("not_at_table", "only the game's players start a sitting", 403)
    _refuse_over(game)
    if selectors.current_sitting(game=game, now=now) is not None:
        raise ServiceError("sitting_under_way", "a sitting is already under way", 409)
    if len(selectors.human_seats(game)) < selectors.PLAY_NOW_PEOPLE:
        raise ServiceError("no_one_to_meet", "playing now needs at least two people at the table", 409)
    if not selectors.everyone_here(game=game, now=now):
        raise ServiceError("not_everyone_here", "every player must have the game page open", 409)
    with transaction.atomic():
        # Two players pressing at once make one offer: the table's presence rows serialise them (they all
        # exist, since everyone is here); the game row is the moves' lock and stays theirs.
        list(SeatPresence.objects.select_for_update().filter(game=game).order_by("position"))
        open_offer = next(
            (
                p
                for p in selectors.open_proposals(game=game, now=now)
                if p.kind == SittingProposal.Kind.AD_HOC
            ),
            None,
        )
        if open_offer is not None:
            answer(game=game, user=user, proposal_id=open_offer.pk, accept=True, now=now)
            return open_offer
        proposal = SittingProposal.objects.create(
            game=game,
            proposer=user,
            kind=SittingProposal.Kind.AD_HOC,
            length=acceptance.AD_HOC_LENGTH,
            time_zone="UTC",
            created_at=now,
        )
        ProposedTime.objects.create(proposal=proposal, index=1, starts_at=now)
        answer(game=game, user=user, proposal_id=proposal.pk, accept=True, now=now)
    return proposal
