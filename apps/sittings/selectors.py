"""Reads of the sittings for the page, the API and the mails: the table's business only.

Proposals, answers, sittings and presence are shown to the table (its human players and the league's
organiser), never to watchers, never in public API answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from apps.accounts.models import display_name
from apps.games import people as game_people
from apps.games import selectors as game_selectors
from apps.games import sql
from apps.games.models import Game, Seat

from . import organisers
from .models import ProposedTime, SeatPresence, Sitting, SittingProposal

#: A seat is present when its player's game page asked the server within this span.
PRESENCE_WINDOW = timedelta(seconds=30)
#: How long an "everyone is here: play now" offer waits for answers.
AD_HOC_OFFER_LIFE = timedelta(minutes=5)
#: "Everyone is here: play now" needs at least this many people at the table: one person among bots
#: plays at the bots' speed already, with nobody to meet.
PLAY_NOW_PEOPLE = 2


def _human_seat_rows(game: Game) -> list[Seat]:
    return [
        s for s in game_selectors.seats_with_people(game) if game_people.held_by_person(s) and not s.bot_hold
    ]


def human_seats(game: Game) -> dict[int, int]:
    """The human seats, position -> user id: the seats a person holds with their own account.

    These are the table of the sittings: who proposes, answers, is present, is mailed, and whose yes a
    time waits for. Left out: bot seats and bot accounts' seats, whether a program plays them by API
    token or the server's bot does (a bot is never waited for, and has nobody to meet), and seats an
    organiser handed to the bot (their player cannot play until it is given back). A person whose seat
    the bot plays for now (timeouts, "hand over", a sitting they miss) keeps it: they may take it back
    (``apps.games.people.held_by_person``).
    """
    return {s.position: s.user_id for s in _human_seat_rows(game) if s.user_id is not None}


def human_seat_of(*, game: Game, user: User | AnonymousUser | None) -> int | None:
    """The user's seat when they hold one as a person, else None."""
    if user is None or not user.is_authenticated:
        return None
    return next((p for p, u in human_seats(game).items() if u == user.pk), None)


def table_of_one(game: Game) -> bool:
    """Whether the game has one person at most and no seat waiting for another (the rest are bots or bot
    accounts): no sittings panel, no proposal, no "if I miss a sitting" order."""
    return game_people.table_of_one(game_selectors.seats_with_people(game))


def may_see(*, game: Game, user: User | AnonymousUser | None) -> bool:
    """The table: a seated person or the league's organiser."""
    if user is None or not user.is_authenticated:
        return False
    return human_seat_of(game=game, user=user) is not None or organisers.is_organiser(game, user)


def present_seats(*, game: Game, now: datetime | None = None) -> set[int]:
    """Human seats whose player's page asked within ``PRESENCE_WINDOW``."""
    now = now or timezone.now()
    humans = human_seats(game)
    rows = SeatPresence.objects.filter(game=game, seen_at__gte=now - PRESENCE_WINDOW)
    return {p for p, u in rows.values_list("position", "user_id") if humans.get(p) == u}


def seat_here(game_id: int, position: int, user_id: int, now: datetime) -> bool:
    """Whether the seat's player (``user_id``) has the game page open now (asked within
    ``PRESENCE_WINDOW``): the games' clock asks when a live seat's bank runs out
    (``apps.games.clock.leaving``)."""
    return SeatPresence.objects.filter(
        game_id=game_id, position=position, user_id=user_id, seen_at__gte=now - PRESENCE_WINDOW
    ).exists()


def everyone_here(*, game: Game, now: datetime | None = None) -> bool:
    """Whether every human seat is present (a table without people never is)."""
    humans = set(human_seats(game))
    return bool(humans) and present_seats(game=game, now=now) >= humans


def current_sitting(*, game: Game, now: datetime | None = None) -> Sitting | None:
    """The sitting under way now (started, not ended), if any."""
    now = now or timezone.now()
    return (
        Sitting.objects.filter(game=game, starts_at__lte=now, ends_at__gt=now)
        .exclude(status__in=[Sitting.Status.ENDED, Sitting.Status.CANCELLED])
        .order_by("starts_at")
        .first()
    )


def has_open_sittings(*, game_id: int) -> bool:
    """Whether the game has a sitting still to come or under way (what its end closes): asked at every
    game's end, so its SELECT is compiled once (``apps.games.sql``)."""
    if not sql.hand_sql():
        return _open_sittings(game_id).exists()
    select = _open_sittings_select(sql.vendor())
    return bool(sql.fetch(select.sql, select.statement(game_id=game_id).params))


def _open_sittings(game_id: int) -> QuerySet[Sitting, tuple[int]]:
    """One of the game's sittings still to come or under way, as its id."""
    return Sitting.objects.filter(
        game_id=game_id, status__in=[Sitting.Status.SCHEDULED, Sitting.Status.LIVE]
    ).values_list("pk")[:1]


#: A stand-in for the game's id in ``_open_sittings_select``, replaced when it runs.
_GAME_OF_SITTINGS = -740_301


@cache
def _open_sittings_select(vendor: str) -> sql.Select:
    return sql.compile_select(_open_sittings(_GAME_OF_SITTINGS), game_id=_GAME_OF_SITTINGS)


def has_weekly_sittings(game: Game, now: datetime | None = None) -> bool:
    """Whether the table has agreed a weekly series of sittings with one still to come (the game's
    duration estimate counts on them)."""
    now = now or timezone.now()
    return (
        Sitting.objects.filter(
            game=game, kind=Sitting.Kind.AGREED, ends_at__gt=now, proposal__recurrence__isnull=False
        )
        .exclude(status__in=[Sitting.Status.ENDED, Sitting.Status.CANCELLED])
        .exists()
    )


def upcoming_sittings(*, game: Game, now: datetime | None = None, limit: int = 10) -> list[Sitting]:
    now = now or timezone.now()
    return list(
        Sitting.objects.filter(game=game, ends_at__gt=now)
        .exclude(status__in=[Sitting.Status.ENDED, Sitting.Status.CANCELLED])
        .order_by("starts_at")[:limit]
    )


def open_proposals(*, game: Game, now: datetime | None = None) -> list[SittingProposal]:
    """Proposals with a time still open, newest first, times and answers read."""
    now = now or timezone.now()
    proposals = list(
        SittingProposal.objects.filter(game=game, closed_at=None)
        .select_related("proposer__profile")
        .prefetch_related("times__answers")
        .order_by("-created_at", "-pk")
    )
    return [p for p in proposals if any(_time_open(p, t, now) for t in p.times.all())]


def _time_open(proposal: SittingProposal, row: ProposedTime, now: datetime) -> bool:
    if row.status != ProposedTime.Status.OPEN:
        return False
    if proposal.kind == SittingProposal.Kind.AD_HOC:
        return row.starts_at + AD_HOC_OFFER_LIFE > now
    return row.starts_at > now or proposal.recurrence is not None


def latest_open_proposal(*, game: Game, now: datetime | None = None) -> SittingProposal | None:
    found = open_proposals(game=game, now=now)
    return found[0] if found else None


@dataclass
class TimeRow:
    index: int
    starts_at: datetime
    status: str
    answers: dict[int, bool]
    mine: bool | None
    #: (seat name, "yes" | "no" | "?" in the reader's language) for every human seat, for the page.
    words: list[tuple[str, str]] = field(default_factory=list)

    @property
    def status_text(self) -> str:
        """The time's state as the panel says it, in the reader's language."""
        return str(STATUS_TEXT.get(self.status, self.status))  # type: ignore[call-overload]


@dataclass
class ProposalRow:
    id: int
    kind: str
    proposer: str
    length_minutes: int
    recurrence: dict[str, object] | None
    times: list[TimeRow] = field(default_factory=list)

    @property
    def offer_until(self) -> datetime | None:
        """When an ad-hoc offer ("everyone is here: play now?") lapses unanswered; None for others."""
        if self.kind != SittingProposal.Kind.AD_HOC or not self.times:
            return None
        return self.times[0].starts_at + AD_HOC_OFFER_LIFE


#: What the panel says of a proposed time's state, in the reader's language.
STATUS_TEXT = {
    ProposedTime.Status.OPEN: pgettext_lazy("a proposed sitting time", "waiting for answers"),
    ProposedTime.Status.ACCEPTED: pgettext_lazy("a proposed sitting time", "everyone said yes"),
    ProposedTime.Status.DECLINED: pgettext_lazy("a proposed sitting time", "someone said no"),
    ProposedTime.Status.EXPIRED: pgettext_lazy("a proposed sitting time", "its time passed first"),
}
_YES = pgettext_lazy("a player's answer to a proposed sitting time", "yes")
_NO = pgettext_lazy("a player's answer to a proposed sitting time", "no")


def _words(rows: list[Seat], answers: dict[int, bool]) -> list[tuple[str, str]]:
    """Each human seat's answer, in the reader's language ("?" while it has not answered)."""
    return [
        (s.label, "?" if s.position not in answers else str(_YES if answers[s.position] else _NO))
        for s in rows
    ]


@dataclass
class Panel:
    """What the table sees of the game's sittings."""

    my_seat: int | None
    may_propose: bool
    #: Offer "everyone is here: play now": all present, nothing under way, no ad-hoc offer open.
    offer_play_now: bool
    seats: dict[int, str]
    present: set[int]
    everyone_here: bool
    proposals: list[ProposalRow]
    sittings: list[Sitting]
    current: Sitting | None


def panel(*, game: Game, user: User | AnonymousUser | None, now: datetime | None = None) -> Panel | None:
    """The sittings panel for ``user``; None for anyone outside the table (watchers, strangers)."""
    now = now or timezone.now()
    if not may_see(game=game, user=user):
        return None
    seat = human_seat_of(game=game, user=user)
    rows = _human_seat_rows(game)
    present = present_seats(game=game, now=now)
    proposals = []
    # A table of one has no sittings: a proposal left open there from before is not shown (nor answered).
    for proposal in [] if table_of_one(game) else open_proposals(game=game, now=now):
        proposals.append(
            ProposalRow(
                id=proposal.pk,
                kind=proposal.kind,
                proposer=display_name(proposal.proposer) if proposal.proposer else "(gone)",
                length_minutes=int(proposal.length.total_seconds() // 60),
                recurrence=proposal.recurrence,
                times=[
                    TimeRow(
                        index=t.index,
                        starts_at=t.starts_at,
                        status=t.status,
                        answers={a.position: a.accept for a in t.answers.all()},
                        mine=next((a.accept for a in t.answers.all() if a.position == seat), None),
                        words=_words(rows, {a.position: a.accept for a in t.answers.all()}),
                    )
                    for t in proposal.times.all()
                ],
            )
        )
    current = current_sitting(game=game, now=now)
    everyone = bool(rows) and present >= {s.position for s in rows}
    return Panel(
        my_seat=seat,
        may_propose=not game.is_over,
        offer_play_now=everyone
        and len(rows) >= PLAY_NOW_PEOPLE
        and seat is not None
        and current is None
        and not game.is_over
        and not any(p.kind == SittingProposal.Kind.AD_HOC for p in proposals),
        seats={s.position: s.label for s in rows},
        present=present,
        everyone_here=everyone,
        proposals=proposals,
        sittings=upcoming_sittings(game=game, now=now),
        current=current,
    )


def sittings_for_user(*, user: User, now: datetime | None = None) -> list[Sitting]:
    """The agreed sittings still to come (or under way) of the games where ``user`` holds a seat as a
    person, for the calendar feed."""
    now = now or timezone.now()
    return list(
        Sitting.objects.filter(
            game__seats__user=user,
            game__seats__bot="",
            game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.PAUSED],
            ends_at__gt=now,
        )
        .exclude(status__in=[Sitting.Status.ENDED, Sitting.Status.CANCELLED])
        .select_related("game")
        .order_by("starts_at", "pk")
        .distinct()
    )
