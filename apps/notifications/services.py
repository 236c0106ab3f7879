"""Outgoing notifications: who gets which mail, at most once, and preferences.

Rows are created by the signal receivers (through tasks) and sent by ``notification_send``, which
claims a row with a conditional update before sending, so a retried or duplicated task never sends
twice. A claim whose worker died is taken back by ``notifications_reclaim_stale`` (which makes that
one narrow case at-least-once, see there). Inbound mail (play by email) lives in ``inbound.py``.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from apps.games.models import Decision, Game, Move
from baogame.celery import publish

from . import bounces, clock, commands, compose, outbox, quiet, selectors, tokens
from .models import Category, MailSettings, Mode, Notification, ReplyAddress

log = logging.getLogger(__name__)

#: Decision kind (both games and the test engine) -> mail category.
KIND_CATEGORY = {
    "setup_peek": Category.SETUP,
    "turn_action": Category.TURN,
    "after_draw": Category.TURN,
    "end_turn": Category.TURN,
    "pluck_window": Category.PLUCK,
    "ability": Category.ABILITY,
    "macaw_decide": Category.ABILITY,
    "shoebill_place": Category.ABILITY,
    "tribute": Category.TRIBUTE,
    "declare": Category.DECLARE,
    "turn": Category.TURN,
    "window": Category.PLUCK,
}
#: Categories a user can set (the digest itself is not one).
PREFERENCE_CATEGORIES = [c for c in Category if c != Category.DIGEST]


SEND_NOTIFICATION = "apps.notifications.tasks.send_notification"

#: Claims of one notification before it is given up: a first try and the send task's six retries.
SEND_MAX_ATTEMPTS = 7

#: Kinds that wait the settle time and go out together, one mail per person and game.
BURST_KINDS = frozenset({Notification.Kind.DECISION, Notification.Kind.ROUND_RESULT})
#: Send tasks are queued with an ETA up to this far ahead; later ones are queued by the sweep.
NEAR = timedelta(minutes=15)


class SendFailed(Exception):
    """Sending a notification failed; the task retries it with backoff."""


# --- preferences ------------------------------------------------------------------------------------


def preferences_set(
    *,
    user: User,
    category: str | None = None,
    mode: str | None = None,
    digest_hour: int | None = None,
    live_games: bool | None = None,
) -> MailSettings:
    """Set a category's mode and/or the digest hour and live-games switch; ``ValueError`` if invalid."""
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    fields: list[str] = []
    if category is not None or mode is not None:
        if category not in {c.value for c in PREFERENCE_CATEGORIES}:
            raise ValueError(f"unknown category {category!r}")
        if mode not in Mode.values:
            raise ValueError(f"unknown mode {mode!r}")
        prefs.modes = {**prefs.modes, category: mode}
        fields.append("modes")
    if digest_hour is not None:
        if not 0 <= int(digest_hour) <= 23:
            raise ValueError("the digest hour is 0-23")
        prefs.digest_hour = int(digest_hour)
        fields.append("digest_hour")
    if live_games is not None:
        prefs.live_games = bool(live_games)
        fields.append("live_games")
    if fields:
        prefs.save(update_fields=fields)
    return prefs


def quiet_hours_set(*, user: User, start: time | None, end: time | None) -> MailSettings:
    """Set the person's quiet hours (local times; both None: none); ``ValueError`` if only one is set
    or they are equal."""
    if (start is None) != (end is None) or (start is not None and start == end):
        raise ValueError("quiet hours need a start and a different end, or neither")
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    prefs.quiet_start, prefs.quiet_end = start, end
    prefs.save(update_fields=["quiet_start", "quiet_end"])
    return prefs


def unsubscribe(*, token: str) -> tuple[User, str]:
    """One-click unsubscribe: switch the token's category off (the digest: every digest category).

    Raises ``signing.BadSignature`` for a forged token.
    """
    data = tokens.unsubscribe_load(token)
    user = get_user_model().objects.get(pk=data["u"])
    category = data["c"]
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    if category == Category.DIGEST:
        prefs.modes = {c: (Mode.OFF if m == Mode.DIGEST else m) for c, m in prefs.modes.items()}
    else:
        prefs.modes = {**prefs.modes, category: Mode.OFF}
    prefs.save(update_fields=["modes"])
    return user, category


# --- creating notifications -------------------------------------------------------------------------


def _wants(user: User, game: Game | None, category: str) -> str:
    """The mode that applies to this user, game and category (live games: off by default)."""
    prefs = selectors.mail_settings_for(user=user)
    if not user.email or not user.is_active:
        return Mode.OFF
    profile = getattr(user, "profile", None)
    if profile is not None and profile.is_bot_account:
        return Mode.OFF
    if game is not None and game.timing_preset == "live" and not prefs.live_games:
        return Mode.OFF
    return prefs.mode_for(category)


def settle_seconds(*, game: Game | None, seat: int | None, now: datetime) -> float:
    """``NOTIFY_SETTLE_SECONDS``, but never more than a quarter of the time left to the seat's nearest
    deadline in ``game`` (so the mail always comes well before the reminder, at 75% of the time)."""
    settle = float(settings.NOTIFY_SETTLE_SECONDS)
    if game is None or seat is None:
        return settle
    nearest = (
        Decision.objects.filter(game=game, seat=seat, deadline__isnull=False)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    if nearest is not None:
        settle = min(settle, max(0.0, (nearest - now).total_seconds() / 4))
    return settle


def _deadline_of(game: Game | None, seat: int | None, decision_id: str) -> datetime | None:
    if game is None or seat is None:
        return None
    row = Decision.objects.filter(game=game, seat=seat, decision_id=decision_id).only("deadline").first()
    return row.deadline if row is not None else None


def _hold_for_quiet(*, user: User, kind: str, due: datetime, deadline: datetime | None) -> datetime | None:
    """When quiet hours hold a mail due at ``due``: their end; None when it may go out."""
    ends = quiet.quiet_until(selectors.mail_settings_for(user=user), compose.user_zone(user), due)
    if ends is None or kind == Notification.Kind.DIGEST:
        return None
    if kind == Notification.Kind.REMINDER and quiet.reminder_may_break(deadline, ends):
        return None
    return ends


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

    Decision and round-result mails wait ``settle_seconds`` so that a burst of them becomes one mail;
    anything falling due inside the person's quiet hours waits for their end (``quiet.py``). Digest
    mails wait for the user's digest hour.
    """
    now = now or clock.now()
    mode = _wants(user, game, category) if kind != Notification.Kind.DIGEST else Mode.IMMEDIATE
    if mode == Mode.OFF:
        return None
    status = Notification.Status.QUEUED_DIGEST if mode == Mode.DIGEST else Notification.Status.PENDING
    due = now
    if kind in BURST_KINDS:
        due = now + timedelta(seconds=settle_seconds(game=game, seat=seat, now=now))
    deadline = _deadline_of(game, seat, decision_id)
    held_until = _hold_for_quiet(user=user, kind=kind, due=due, deadline=deadline)
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
        _queue_send(note, now=now)
    return note


def _queue_send(note: Notification, *, now: datetime) -> None:
    """Queue the send task after commit: now, at its due time when that is near, else by the sweep."""
    if note.due_at <= now:
        transaction.on_commit(partial(publish, SEND_NOTIFICATION, (note.pk,)))
    elif note.due_at - now <= NEAR and not note.held:
        transaction.on_commit(partial(publish, SEND_NOTIFICATION, (note.pk,), eta=note.due_at))
    # later (quiet hours): notifications_requeue_pending queues it once due


def _human_players(game: Game) -> dict[int, User]:
    """The player of each seat a human plays now, by position."""
    return {
        s.position: s.user
        for s in game.seats.select_related("user__profile").all()
        if s.user is not None and not s.played_by_bot
    }


def notify_move_applied(*, game_id: int, version: int, move_id: int | None, opened: list[list[Any]]) -> int:
    """Mail each human seat for which a decision opened; round results when a round ended.

    Then the move's outbox row is done (``outbox``); run twice, it records nothing twice.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    players = _human_players(game)
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
    move = Move.objects.filter(pk=move_id).only("events").first() if move_id else None
    ended_round = move is not None and any(e.get("type") in outbox.ROUND_END_EVENTS for e in move.events)
    if ended_round and not game.is_over:  # at the game's end the game result says it all
        for position, player in players.items():
            made += bool(
                notification_create(
                    user=player,
                    game=game,
                    version=version,
                    kind=Notification.Kind.ROUND_RESULT,
                    category=Category.RESULTS,
                    seat=position,
                )
            )
    outbox.consume(game_id=game_id, version=version)
    return made


def notify_game_ended(*, game_id: int) -> int:
    """Mail every human seat the final result."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    made = 0
    for position, player in _human_players(game).items():
        made += bool(
            notification_create(
                user=player,
                game=game,
                version=game.version,
                kind=Notification.Kind.GAME_RESULT,
                category=Category.RESULTS,
                seat=position,
            )
        )
    outbox.consume_game_end(game_id=game_id)
    return made


def notify_invitation(*, game_id: int, user: User) -> Notification | None:
    """Invite ``user`` to an open game (at most once per user and game)."""
    game = Game.objects.get(pk=game_id)
    return notification_create(
        user=user, game=game, version=0, kind=Notification.Kind.INVITATION, category=Category.INVITATION
    )


def reminders_send_due(*, now: datetime | None = None) -> int:
    """Remind each human owner of a decision whose time is 75% gone; each decision once."""
    now = now or clock.now()
    made = 0
    due = Decision.objects.filter(
        reminded_at__isnull=True, deadline__gt=now, game__status=Game.Status.ACTIVE
    ).select_related("game")
    for decision in due:
        assert decision.deadline is not None  # filtered on deadline__gt
        if decision.opened_at + (decision.deadline - decision.opened_at) * 0.75 > now:
            continue
        claim = Decision.objects.filter(  # the row must still hold this decision (rows are reused)
            pk=decision.pk, seat=decision.seat, decision_id=decision.decision_id, reminded_at=None
        )
        if claim.update(reminded_at=now) != 1:
            continue  # another sweep claimed it
        player = _human_players(decision.game).get(decision.seat)
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


# --- sending ----------------------------------------------------------------------------------------


def notification_send(*, notification_id: int, now: datetime | None = None) -> bool:
    """Claim one due notification and send it; ``SendFailed`` (recorded on the row) when sending fails.

    A decision or round-result mail takes along every other one still pending for the same person
    and game (they become ``merged``): one mail per burst, naming what is open at sending time. A mail
    held by quiet hours takes along everything else held for the person: one mail when they end. A
    notification not yet due, or falling inside the person's quiet hours, is left (or put) back to
    wait. Returns False when nothing was sent.
    """
    now = now or clock.now()
    note = Notification.objects.select_related("user__profile", "game").filter(pk=notification_id).first()
    if note is None or note.due_at > now:
        return False  # gone, or not due yet: its ETA task or the sweep sends it
    if not note.held and note.status in {Notification.Status.PENDING, Notification.Status.FAILED}:
        deadline = _deadline_of(note.game, note.seat, note.decision_id)
        held_until = _hold_for_quiet(user=note.user, kind=note.kind, due=now, deadline=deadline)
        if held_until is not None:
            Notification.objects.filter(pk=note.pk, status=note.status).update(  # the sweep sends it
                due_at=held_until, held=True, status=Notification.Status.PENDING
            )
            return False
    claimed = Notification.objects.filter(  # a row that used up its attempts is never claimed again
        pk=notification_id,
        status__in=[Notification.Status.PENDING, Notification.Status.FAILED],
        attempts__lt=SEND_MAX_ATTEMPTS,
        due_at__lte=now,
    ).update(status=Notification.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    if claimed != 1:
        return False
    note.refresh_from_db()
    group = _claim_group(note, now=now)
    suppressed = bounces.address_suppressed(note.user.email)
    if suppressed is not None:
        Notification.objects.filter(pk__in=[note.pk, *group]).update(
            status=Notification.Status.SKIPPED, last_error=f"Not sent: {suppressed.get_reason_display()}."
        )
        return False
    try:
        message = build_message(note, group=group)
        if message is None:
            Notification.objects.filter(pk__in=[note.pk, *group]).update(status=Notification.Status.SKIPPED)
            return False
        message.send()
    except Exception as exc:
        Notification.objects.filter(pk__in=group).update(status=Notification.Status.PENDING)
        Notification.objects.filter(pk=note.pk).update(
            status=Notification.Status.FAILED, last_error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        raise SendFailed(str(exc)) from exc
    sent_at, subject = timezone.now(), message.subject[:200]
    Notification.objects.filter(pk=note.pk).update(
        status=Notification.Status.SENT, sent_at=sent_at, subject=subject, last_error=""
    )
    Notification.objects.filter(pk__in=group).update(
        status=Notification.Status.MERGED, sent_at=sent_at, subject=subject, last_error=""
    )
    if note.kind == Notification.Kind.DIGEST:
        Notification.objects.filter(
            user=note.user, status=Notification.Status.QUEUED_DIGEST, created_at__lte=note.created_at
        ).update(status=Notification.Status.DIGESTED)
    return True


def _claim_group(note: Notification, *, now: datetime) -> list[int]:
    """Claim the pending notifications that go out in ``note``'s mail; their ids."""
    pending = Notification.objects.filter(user=note.user, status=Notification.Status.PENDING)
    pending = pending.exclude(pk=note.pk)
    if note.held:
        rows = pending.filter(held=True, due_at__lte=now)
    elif note.kind in BURST_KINDS:
        rows = pending.filter(game=note.game, kind__in=BURST_KINDS, held=False)
    else:
        return []
    claimed = []
    for pk in rows.values_list("pk", flat=True):
        if Notification.objects.filter(pk=pk, status=Notification.Status.PENDING).update(
            status=Notification.Status.SENDING, claimed_at=now
        ):
            claimed.append(pk)
    return claimed


def notifications_reclaim_stale(*, now: datetime | None = None) -> int:
    """Take back claims whose worker died: re-queue them, or fail them past ``SEND_MAX_ATTEMPTS``.

    A row stays ``sending`` only if the worker that claimed it stopped before recording the outcome
    (killed, out of memory, lost its database connection). Such a row is stale once its ``claimed_at``
    is older than ``NOTIFICATIONS_CLAIM_TIMEOUT`` seconds, which must exceed the longest real send
    (the SMTP timeout). Below the attempt limit it goes back to ``pending`` and a new send task is
    queued after commit; at the limit it becomes ``failed`` with the reason in ``last_error``. Each
    row is taken back with a conditional update, so two sweeps (or a sweep racing the worker that
    finally records its outcome) act on it once. Returns the number of rows re-queued.

    Trade-off: a worker that died after the SMTP server accepted the mail but before writing
    ``sent`` cannot be told apart from one that died before sending, so reclaiming makes delivery
    at-least-once for that narrow case (the user may get the mail twice); everywhere else sending
    stays at most once. We prefer a rare duplicate to a mail that is silently never sent.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFICATIONS_CLAIM_TIMEOUT)
    stale = Notification.objects.filter(status=Notification.Status.SENDING, claimed_at__lt=cutoff)
    given_up = stale.filter(attempts__gte=SEND_MAX_ATTEMPTS).update(
        status=Notification.Status.FAILED,
        last_error=(
            f"Gave up after {SEND_MAX_ATTEMPTS} attempts: the last worker to claim this notification "
            "stopped before recording whether it was sent."
        ),
    )
    requeued = 0
    for pk, claimed_at in stale.filter(attempts__lt=SEND_MAX_ATTEMPTS).values_list("pk", "claimed_at"):
        taken = Notification.objects.filter(
            pk=pk, status=Notification.Status.SENDING, claimed_at=claimed_at
        ).update(
            status=Notification.Status.PENDING,
            last_error=f"Reclaimed: the claim made at {claimed_at:%Y-%m-%d %H:%M:%S%z} never finished.",
        )
        if taken != 1:
            continue  # the worker recorded its outcome meanwhile, or another sweep took it back
        transaction.on_commit(partial(publish, SEND_NOTIFICATION, (pk,)))
        requeued += 1
    if given_up or requeued:
        log.warning("stale notification claims: %d re-queued, %d given up", requeued, given_up)
    return requeued


def notifications_requeue_pending(*, now: datetime | None = None) -> int:
    """Queue the send task again for every notification still ``pending``
    ``NOTIFICATIONS_PENDING_RETRY`` seconds past its due time: its task was lost (a publish that
    failed after commit, a broker that dropped it). Sending claims the row first, so a task that was
    only late sends nothing twice. Mail held by quiet hours, and any other whose due time was too
    far ahead for an ETA task (``NEAR``), is queued here as soon as it is due. Returns the number
    of rows re-queued.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFICATIONS_PENDING_RETRY)
    pending = Notification.objects.filter(status=Notification.Status.PENDING).filter(
        Q(due_at__lt=cutoff)
        | Q(due_at__lte=now, held=True)
        | Q(due_at__lte=now, due_at__gt=F("created_at") + NEAR)
    )
    requeued = sum(publish(SEND_NOTIFICATION, (pk,)) for pk in pending.values_list("pk", flat=True))
    if requeued:
        log.warning("%d pending notifications queued again", requeued)
    return requeued


def notifications_recover(*, now: datetime | None = None) -> int:
    """The recovery sweep: take back dead workers' claims, re-queue lost sends and lost move-mail tasks
    (the outbox); returns the re-queued."""
    return (
        notifications_reclaim_stale(now=now)
        + notifications_requeue_pending(now=now)
        + outbox.requeue_stale(now=now)
    )


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def game_link(game: Game, user: User) -> str:
    return absolute(
        reverse("notifications:go", args=[tokens.game_link_token(game_id=game.pk, user_id=user.pk)])
    )


def reply_address_for(*, user: User, game: Game, decision_id: str = "") -> str:
    """A fresh signed Reply-To address (its own nonce) for one mail about ``game``."""
    row = ReplyAddress.objects.create(user=user, game=game, decision_id=decision_id)
    return tokens.reply_address(game_id=game.pk, user_id=user.pk, nonce=row.pk)


def compose_mail(
    *,
    user: User,
    subject: str,
    template: str,
    context: dict[str, Any],
    category: str,
    reply_to: str | None = None,
    engine: str | None = None,
    headers: dict[str, str] | None = None,
) -> EmailMultiAlternatives:
    """A text + HTML mail with the footer, List-Unsubscribe headers and Reply-To."""
    unsubscribe_url = absolute(
        reverse(
            "notifications:unsubscribe", args=[tokens.unsubscribe_token(user_id=user.pk, category=category)]
        )
    )
    ctx = {
        **context,
        "user": user,
        "site_url": settings.SITE_URL,
        "unsubscribe_url": unsubscribe_url,
        "category_label": Category(category).label if category in Category.values else category,
        "preferences_url": absolute(reverse("notifications:preferences")),
        "summary": commands.summary(engine) if engine else [],
        "notation": commands.notation(engine) if engine else "",
        "reply_to": reply_to,
    }
    all_headers = {
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
        **(headers or {}),
    }
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"email/{template}.txt", ctx),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        reply_to=[reply_to] if reply_to else None,
        headers=all_headers,
    )
    message.attach_alternative(render_to_string(f"email/{template}.html", ctx), "text/html")
    return message


def _game_name(game: Game) -> str:
    return f"{game} (#{game.pk})" if game.title else str(game)


def build_message(note: Notification, group: list[int] | None = None) -> EmailMultiAlternatives | None:
    """The mail for a claimed notification (with the ``group`` it takes along), or None when nothing
    in it applies any more (every decision closed, the seat changed hands)."""
    if note.kind == Notification.Kind.DIGEST:
        return _digest_message(note)
    if note.held:
        return _held_message(note, group or [])
    game, user, seat = note.game, note.user, note.seat
    assert game is not None
    if seat is not None and not game.seats.filter(position=seat, user=user).exists():
        return None  # the recipient no longer holds that seat (substituted): their view is not theirs
    decision_row = None
    round_ended = note.kind == Notification.Kind.ROUND_RESULT or (
        note.kind == Notification.Kind.DECISION
        and Notification.objects.filter(pk__in=group or [], kind=Notification.Kind.ROUND_RESULT).exists()
    )
    open_rows: list[Decision] = []
    if note.kind in BURST_KINDS and seat is not None:  # what is open for them now, not when it opened
        open_rows = list(Decision.objects.filter(game=game, seat=seat).order_by("deadline", "pk"))
        decision_row = open_rows[0] if open_rows else None
        if decision_row is None and not round_ended:
            return None  # they acted (or it closed) meanwhile and nothing is left for them
    elif note.kind == Notification.Kind.REMINDER:
        if seat is not None:
            decision_row = Decision.objects.filter(game=game, seat=seat, decision_id=note.decision_id).first()
        if decision_row is None:
            return None  # answered or closed before we got to send it
    context: dict[str, Any] = {"game": game, "game_name": _game_name(game), "link": game_link(game, user)}
    subject_prefix = f"[baogame] {_game_name(game)}"
    if note.kind == Notification.Kind.INVITATION:
        if game.status != Game.Status.OPEN:
            return None
        context["heading"] = "You are invited to a game"
        context["intro"] = (
            f"{game.created_by or 'Someone'} invites you to play {game.get_engine_display()} "
            f"({game.players} players). Follow the link to take a seat."
        )
        return compose_mail(
            user=user,
            subject=f"{subject_prefix}: you are invited",
            template="notification",
            context=context,
            category=note.category,
        )
    if seat is not None:
        context["view"] = compose.view_lines(game, seat)
        context["events"] = compose.events_since_last_move(game, seat)
    if decision_row is not None and seat is not None:
        decision = compose.open_decision(game, seat) or {"kind": note.decision_kind}
        context["decision_text"] = compose.describe_decision(game.engine, decision)
        context["deadline"] = compose.deadline_text(decision_row.deadline, user)
        context["choices"] = compose.choices(game, seat)
        if len(open_rows) > 1:
            context["also_open"] = [
                f"{compose.describe_decision(game.engine, {'kind': row.kind})} "
                f"Deadline: {compose.deadline_text(row.deadline, user)}"
                for row in open_rows[1:]
            ]
        reminder = note.kind == Notification.Kind.REMINDER
        context["heading"] = (
            "Reminder: the deadline is near"
            if reminder
            else ("A round has ended; your move" if round_ended else "Your move")
        )
        subject = (
            f"{subject_prefix}: "
            + ("reminder, " if reminder else "")
            + ("round result, " if round_ended else "")
            + context["decision_text"].rstrip(".")
        )
        reply_to = reply_address_for(user=user, game=game, decision_id=decision_row.decision_id)
    elif note.kind == Notification.Kind.ROUND_RESULT:
        context["heading"] = "A round has ended"
        subject = f"{subject_prefix}: round result"
        reply_to = reply_address_for(user=user, game=game)
    else:  # game result
        context["heading"] = "The game is over"
        context["result"] = _result_lines(game, seat)
        subject = f"{subject_prefix}: final result"
        reply_to = None
    return compose_mail(
        user=user,
        subject=subject,
        template="notification",
        context=context,
        category=note.category,
        reply_to=reply_to,
        engine=game.engine,
    )


def _result_lines(game: Game, seat: int | None) -> list[str]:
    result = game.result or {}
    names = compose.seat_names(game)
    lines = []
    for row in result.get("standings") or []:
        you = " (you)" if row.get("seat") == seat else ""
        who = compose.seat_name(names, int(row.get("seat", -1)))
        lines.append(f"{row.get('position')}. {who}{you}: {row.get('total')}")
    if not lines and isinstance(result.get("totals"), list):
        for position, total in enumerate(result["totals"]):
            you = " (you)" if position == seat else ""
            lines.append(f"{compose.seat_name(names, position)}{you}: {compose.plain(total)}")
        winners = [compose.seat_name(names, int(w)) for w in result.get("winners") or []]
        lines.append(f"Winner{'s' if len(winners) != 1 else ''}: {', '.join(winners) or 'none'}")
    if game.status == Game.Status.ABORTED:
        lines.append(f"The game was aborted. {game.status_reason}")
    return lines


def _digest_message(note: Notification) -> EmailMultiAlternatives | None:
    queued = list(
        Notification.objects.filter(
            user=note.user, status=Notification.Status.QUEUED_DIGEST, created_at__lte=note.created_at
        ).select_related("game")
    )
    return _summary_message(note.user, queued, heading="Your daily digest", subject="daily digest")


def _held_message(note: Notification, group: list[int]) -> EmailMultiAlternatives | None:
    """One mail for everything quiet hours held: the games waiting for them now, and the news."""
    held = [note, *Notification.objects.filter(pk__in=group).select_related("game")]
    return _summary_message(
        note.user,
        held,
        heading="While your quiet hours lasted",
        subject="after your quiet hours",
        category=note.category,
    )


def _summary_message(
    user: User, queued: list[Notification], *, heading: str, subject: str, category: str = Category.DIGEST
) -> EmailMultiAlternatives | None:
    """A digest-like mail: every game waiting for ``user`` now, and the news among ``queued``."""
    waiting = []
    for game in selectors.digest_games(user=user):
        seat = next(s.position for s in game.seats.all() if s.user_id == user.pk)
        row = Decision.objects.filter(game=game, seat=seat).order_by("deadline").first()
        decision = compose.open_decision(game, seat) or {"kind": row.kind if row else ""}
        waiting.append(
            {
                "name": _game_name(game),
                "what": compose.describe_decision(game.engine, decision),
                "deadline": compose.deadline_text(row.deadline if row else None, user),
                "link": game_link(game, user),
                "reply": reply_address_for(user=user, game=game),
            }
        )
    news = [
        f"{_game_name(n.game)}: {n.get_kind_display().lower()}"
        for n in queued
        if n.game is not None
        and (
            n.kind
            in {Notification.Kind.ROUND_RESULT, Notification.Kind.GAME_RESULT, Notification.Kind.INVITATION}
        )
    ]
    if not waiting and not news:
        return None
    return compose_mail(
        user=user,
        subject=f"[baogame] {subject}: {len(waiting)} game(s) waiting for you",
        template="digest",
        context={"waiting": waiting, "news": news, "heading": heading},
        category=category,
    )


def expire_reply_addresses(*, now: datetime | None = None) -> int:
    """Delete nonces older than the reply-address lifetime (their addresses are refused anyway)."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.NOTIFICATIONS_REPLY_MAX_AGE)
    deleted, _ = ReplyAddress.objects.filter(created_at__lt=cutoff).delete()
    return deleted
