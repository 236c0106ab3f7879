"""Creating notifications from game events: who gets which mail, at most once.

The game's signals (through the outbox and its tasks) call ``notify_move_applied`` and
``notify_game_ended``; beat calls ``reminders_send_due`` and ``digests_send_due``. Each records
``Notification`` rows (a unique key makes that at most once) and queues their sending (``send``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.games import people, store
from apps.games import selectors as game_selectors
from apps.games.models import Game
from apps.sittings import selectors as sitting_selectors
from apps.sittings.models import SittingProposal

from . import clock, compose, outbox, selectors, send, timing
from .models import KIND_CATEGORY, Category, MailSettings, Mode, Notification


def _wants(user: User, game: Game | None, category: str) -> str:
    """The mode that applies to this user, game and category (live games: off by default)."""
    prefs = selectors.mail_settings_for(user=user)
    if not user.email or not user.is_active:
        return Mode.OFF
    profile = getattr(user, "profile", None)
    if profile is not None and profile.is_bot_account:
        return Mode.OFF
    if game is not None and _plays_live(user, game) and not prefs.live_games:
        return Mode.OFF
    return prefs.mode_for(category)


def _plays_live(user: User, game: Game) -> bool:
    """Whether the user plays this game at live speed: a live game, except, during a sitting, for a
    player who is not at the table (their seat runs on the game's own control: they are mailed)."""
    if game.control != "live":
        return False
    if game.live_clock is None:
        return True
    position = next((s.position for s in game.seats.all() if s.user_id == user.pk), None)
    return position is None or str(position) in game.live_clock.get("banks", {})


def notification_create(
    *,
    user: User,
    game: Game | None,
    version: int,
    kind: str,
    category: str,
    seat: int | None = None,
    decision_id: str = "",
    decision_kind: str = "",
    now: datetime | None = None,
) -> Notification | None:
    """Record one notification unless the user switched it off or it exists; send it when due.

    Decision and round-result mails wait ``timing.settle_seconds`` so that a burst of them becomes one mail;
    anything falling due inside the person's quiet hours waits for their end (``quiet.py``). Digest
    mails wait for the user's digest hour.
    """
    now = now or clock.now()
    mode = _wants(user, game, category) if kind != Notification.Kind.DIGEST else Mode.IMMEDIATE
    if mode == Mode.OFF:
        return None
    status = Notification.Status.QUEUED_DIGEST if mode == Mode.DIGEST else Notification.Status.PENDING
    due = now
    if kind in timing.BURST_KINDS:
        due = now + timedelta(seconds=timing.settle_seconds(game=game, seat=seat, now=now))
    deadline = timing.deadline_of(game, seat, decision_id)
    held_until = timing.hold_for_quiet(user=user, kind=kind, due=due, deadline=deadline)
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                user=user,
                game=game,
                version=version,
                kind=kind,
                category=category,
                seat=seat,
                decision_id=decision_id,
                decision_kind=decision_kind,
                status=status,
                due_at=held_until or due,
                held=held_until is not None,
            )
    except IntegrityError:
        return None  # already recorded: at most once
    if status == Notification.Status.PENDING:  # a lost task: notifications_requeue_pending sends it
        send.queue_send(note, now=now)
    return note


def _results_to_each(game: Game, players: dict[int, User], *, version: int, kind: str) -> int:
    """A result notification (a round's or the game's) to every seated person (``seated_people``: a
    seat the bot plays for its player included); how many were new."""
    return sum(
        bool(
            notification_create(
                user=player, game=game, version=version, kind=kind, category=Category.RESULTS, seat=position
            )
        )
        for position, player in players.items()
    )


def notify_move_applied(*, game_id: int, version: int, move_id: int | None, opened: list[list[Any]]) -> int:
    """Mail each human seat for which a decision opened; round results when a round ended.

    Then the move's outbox row is done (``outbox``); run twice, it records nothing twice.
    """
    game = game_selectors.game_get(game_id)
    if game is None:
        return 0
    made = _decision_mails(game, version=version, opened=opened)
    events = game_selectors.move_events(move_id) or []
    ended_round = any(e.get("type") in outbox.ROUND_END_EVENTS for e in events)
    if ended_round and not game.is_over:  # at the game's end the game result says it all
        people = game_selectors.seated_people(game)
        made += _results_to_each(game, people, version=version, kind=Notification.Kind.ROUND_RESULT)
    outbox.consume(game_id=game_id, version=version)
    return made


def _decision_mails(game: Game, *, version: int, opened: list[list[Any]]) -> int:
    """A "your move" notification to the player of each seat in ``opened`` (seat, kind, decision_id)
    that a person plays; how many were new."""
    players = game_selectors.human_players(game)
    made = 0
    for position, kind, decision_id in opened:
        player = players.get(position)
        if player is None:
            continue
        category = KIND_CATEGORY.get(kind, Category.TURN)
        made += bool(
            notification_create(
                user=player,
                game=game,
                version=version,
                kind=Notification.Kind.DECISION,
                category=category,
                seat=position,
                decision_id=str(decision_id),
                decision_kind=kind,
            )
        )
    return made


def notify_left_live(*, game_id: int, version: int, opened: list[list[Any]]) -> int:
    """A seat that played live in a sitting is back on its own clock (its player left the table,
    ``apps.games.clock.leaving``): mail its player the decisions they owe, as the move that opened them
    would have had they not been playing live. How many were new."""
    game = game_selectors.game_get(game_id)
    if game is None:
        return 0
    return _decision_mails(game, version=version, opened=opened)


def notify_game_ended(*, game_id: int) -> int:
    """Mail every seated person the final result (those whose seat the bot played too); for a game
    cancelled before it started, that it was cancelled, to everyone seated but its creator, who did it."""
    game = game_selectors.game_get(game_id)
    if game is None:
        return 0
    people = game_selectors.seated_people(game)
    if game.cancelled:
        people = {p: user for p, user in people.items() if user.pk != game.created_by_id}
    made = _results_to_each(game, people, version=game.version, kind=Notification.Kind.GAME_RESULT)
    outbox.consume_game_end(game_id=game_id)
    return made


def notify_invitation(*, game_id: int, user: User) -> Notification | None:
    """Invite ``user`` to an open game (at most once per user and game)."""
    game = game_selectors.game_get(game_id)
    if game is None:
        return None
    return notification_create(
        user=user, game=game, version=0, kind=Notification.Kind.INVITATION, category=Category.INVITATION
    )


def notify_seat_to_bot(
    *, game_id: int, seat: int, version: int, organisers: Iterable[User] | None = None
) -> int:
    """A seat went to the bot after its player let ``game.absent_limit`` deadlines pass in a row (the
    timeout of game ``version`` did it): mail the player (their move's category), or with
    ``organisers``, those organisers of the game's league (league news; the leagues app asks), each at
    most once. How many were new."""
    game = game_selectors.game_get(game_id)
    if game is None:
        return 0
    held = next((s for s in game_selectors.seats_with_people(game) if s.position == seat), None)
    if held is None or held.user is None:
        return 0
    if organisers is None:
        recipients, category = [held.user], Category.TURN
    else:
        recipients, category = [u for u in organisers if u.pk != held.user_id], Category.LEAGUE
    return sum(
        bool(
            notification_create(
                user=user,
                game=game,
                version=version,
                kind=Notification.Kind.SEAT_TO_BOT,
                category=category,
                seat=seat,
            )
        )
        for user in recipients
    )


def notify_seat_taken(*, game_id: int, position: int) -> Notification | None:
    """Somebody took seat ``position`` of a game waiting for players that still has free seats, at its
    open table or by an invitation link (``signals.seat_taken``): mail its creator
    (invitations' category: who is coming to their table), unless the newcomer is the creator or one of
    their accounts. At most once per seat (its ``version`` is the seat's position); written when it is
    sent (``mails``), with the free seats of that moment."""
    game = game_selectors.game_get(game_id)
    if game is None or game.created_by is None or game.status != Game.Status.OPEN:
        return None
    creator = game.created_by
    seat = game.seats.select_related("user__profile").filter(position=position).first()
    if seat is None or seat.user is None or people.person_of(seat.user) == people.person_of(creator):
        return None
    return notification_create(
        user=creator,
        game=game,
        version=position,
        kind=Notification.Kind.SEAT_TAKEN,
        category=Category.INVITATION,
        seat=position,
    )


def notify_sitting_proposed(*, proposal: SittingProposal) -> int:
    """Times were proposed for a sitting: mail every other person at the table (not the proposer, no
    bot, no bot account: ``sittings.selectors.human_seats``) who they are from and how to answer, under
    "Invitations". At most once per proposal and person (its ``version`` is the proposal's id); written
    when it is sent (``mails``), with the times still open then. How many were new."""
    game = proposal.game
    seats = {
        position: user_id
        for position, user_id in sitting_selectors.human_seats(game).items()
        if user_id != proposal.proposer_id
    }
    users = get_user_model().objects.select_related("profile").in_bulk(list(seats.values()))
    return sum(
        bool(
            notification_create(
                user=users[user_id],
                game=game,
                version=proposal.pk,
                kind=Notification.Kind.SITTING_PROPOSAL,
                category=Category.INVITATION,
                seat=position,
            )
        )
        for position, user_id in seats.items()
        if user_id in users
    )


#: The least time a reminder must leave before the deadline to be of use: enough to read it and act.
REMINDER_MIN_LEFT = timedelta(minutes=1)
#: The share of a decision's time that is gone when its reminder is due.
REMINDER_AT = 0.75


def reminder_worth_sending(*, opened_at: datetime, deadline: datetime, now: datetime) -> bool:
    """Whether a reminder recorded at ``now`` for a decision open from ``opened_at`` to ``deadline``
    is of use (the rule of ``reminders_send_due``).

    The sweep finds a due reminder up to ``NOTIFY_REMINDER_SWEEP_SECONDS`` after its time (75% of the
    decision's time gone), and a reminder needs ``REMINDER_MIN_LEFT`` before the deadline to be read
    and answered. A decision whose last quarter is shorter than the two together (a very short custom
    clock: under 8 minutes with the defaults) so gets no reminder at all, rather than one whose timing
    is down to the sweep's luck; nor does any decision when less than ``REMINDER_MIN_LEFT`` is left at
    ``now`` (a beat that ran late)."""
    sweep = timedelta(seconds=settings.NOTIFY_REMINDER_SWEEP_SECONDS)
    last_quarter = (deadline - opened_at) * (1 - REMINDER_AT)
    return last_quarter >= REMINDER_MIN_LEFT + sweep and deadline - now >= REMINDER_MIN_LEFT


def reminders_send_due(*, now: datetime | None = None) -> int:
    """Remind each human owner of a decision whose time is 75% gone; each decision once.

    The rule: a reminder is due when 75% of the decision's time (from its opening to its deadline) is
    gone, and the beat runs this sweep every ``NOTIFY_REMINDER_SWEEP_SECONDS`` (a minute), so it is
    recorded and queued at most that late. It is skipped, the decision marked reminded so that no
    later sweep sends it, when it would be of no use (``reminder_worth_sending``): the decision's last
    quarter is too short for the sweep's granularity and a minute to act (a very short custom clock),
    or less than a minute is left now. It is never sent after its deadline: the send checks again
    (``mails.build_message``), for a send task that runs late or a retry. Returns the reminders made."""
    now = now or clock.now()
    made = 0
    for decision in game_selectors.decisions_unreminded(now=now):
        assert decision.deadline is not None  # filtered on deadline__gt
        if decision.opened_at + (decision.deadline - decision.opened_at) * REMINDER_AT > now:
            continue
        if not store.decision_claim_reminder(decision, now=now):
            continue  # another sweep claimed it, or the row holds another decision now
        if not reminder_worth_sending(opened_at=decision.opened_at, deadline=decision.deadline, now=now):
            continue  # too short, or too late, to be of use: claimed, so skipped for good
        player = game_selectors.human_players(decision.game).get(decision.seat)
        profile = getattr(player, "profile", None)
        if player is None or (profile is not None and profile.on_vacation):
            continue
        made += bool(
            notification_create(
                user=player,
                game=decision.game,
                version=decision.game.version,
                kind=Notification.Kind.REMINDER,
                category=Category.REMINDER,
                seat=decision.seat,
                decision_id=decision.decision_id,
                decision_kind=decision.kind,
            )
        )
    return made


def digests_send_due(*, now: datetime | None = None) -> int:
    """Send each digest user whose local hour is now their digest hour one mail for the day."""
    now = now or clock.now()
    made = 0
    for prefs in MailSettings.objects.select_related("user__profile"):
        if Mode.DIGEST not in prefs.modes.values():
            continue
        local = timezone.localtime(now, compose.user_zone(prefs.user))
        if local.hour != prefs.digest_hour:
            continue
        has_queued = Notification.objects.filter(
            user=prefs.user, status=Notification.Status.QUEUED_DIGEST
        ).exists()
        if not has_queued and not selectors.digest_games(user=prefs.user):
            continue
        made += bool(
            notification_create(
                user=prefs.user,
                game=None,
                version=int(local.strftime("%Y%m%d")),
                kind=Notification.Kind.DIGEST,
                category=Category.DIGEST,
            )
        )
    return made
