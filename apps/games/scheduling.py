"""What to queue after a commit, sent by task name (nothing imports tasks.py but Celery).

Every function that queues is named ``queue_*``: after a move (``queue_after_move``), after a seat was
handed to the bot (``queue_after_handover``), the bot loop's hand-over to a fresh task
(``queue_bots_continue``), a deadline task (``queue_settle``), the sweep's near deadlines
(``queue_upcoming_deadlines``) and lost bot tasks (``queue_stalled_bots``), and a fresh look at a game
after a service outside the move pipeline changed its seats or clocks (``queue_game_tasks``).

* **Bots: one task per game at a time.** ``Game.bot_task`` holds the version the game's bot task
  carries (null: none is queued). A move that leaves a server-played seat owning a decision queues
  ``autoplay.play_bots(game, version)`` after commit only if it can claim the empty marker; the bot loop
  advances the marker with every move it makes and clears it when no bot has anything left to do, so a
  task carrying any other version is stale and does nothing. Moves made inside the bot loop queue no
  bot task for the game being played (the loop goes on), and no deadline task for bot-owned decisions.
* **Queues by urgency** (``baogame.celery``): deadline tasks go to ``deadlines``; the bot task of a
  game where a person plays goes to ``people``, that of an all-bot game to ``background``.
* **Nothing lost.** Every publish goes through ``baogame.celery.publish``, which logs a broker failure
  instead of raising it into a committed move; the sweep then re-queues what is missing: due and near
  deadlines (``queue_upcoming_deadlines``) and bots whose seat has owned a decision for
  ``GAMES_BOT_STALL`` seconds (``queue_stalled_bots``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, Min, OuterRef, Q
from django.utils import timezone

from baogame.celery import BACKGROUND, PEOPLE, publish

from .clock import deadlines
from .models import Decision, Game, Seat
from .store import LockedGame, TaskPlan

#: Deadline tasks are queued with ``eta`` only for deadlines this close; the minute sweep queues the
#: later ones when they come this close. A broker then never holds a task for days (Redis would deliver
#: it again after every visibility timeout), and every deadline still gets its own task.
SCHEDULE_AHEAD = timedelta(minutes=2)

PLAY_BOTS = "apps.games.tasks.play_bots"
SETTLE_GAME = "apps.games.tasks.settle_game"
CLOSED_ACCOUNT = "apps.games.tasks.let_go_of_closed_account"

#: Server-played seats: a bot's, or an absent player's handed to the bot.
BOT_PLAYED = Q(bot__gt="") | Q(bot_takeover=True)


def bot_queue(seats: dict[int, Seat] | list[Seat]) -> str:
    """``people`` when a person plays one of the seats (someone waits for the bots), else ``background``."""
    rows = seats.values() if isinstance(seats, dict) else seats
    return PEOPLE if any(s.user_id is not None and not s.played_by_bot for s in rows) else BACKGROUND


def queue_after_move(locked: LockedGame, *, new_rows: list[Decision], now: datetime) -> None:
    """Plan, from this transaction's own rows (no queries), the tasks to queue when it commits.

    Called after every move on the locked game; queued once per game and transaction: the bot task if a
    server-played seat owns a decision (not from inside the bot loop), and tasks for near new deadlines.
    """
    game = locked.game
    if game.status != Game.Status.ACTIVE or not deadlines.scheduling_enabled():
        return
    plan = _plan(locked)
    loop = locked.bot_loop
    bots = {p for p, s in locked.seats.items() if s.played_by_bot}
    plan.version = game.version
    plan.bots = not loop and any(d.seat in bots for d in locked.decisions)
    plan.queue = bot_queue(locked.seats)
    horizon = now + SCHEDULE_AHEAD
    plan.deadlines.update(
        r.deadline
        for r in new_rows
        if r.deadline is not None and r.deadline <= horizon and not (loop and r.seat in bots)
    )


def queue_after_handover(locked: LockedGame) -> None:
    """After commit: the bot task, because a seat was just handed to the bot (absent player)."""
    game = locked.game
    if game.status == Game.Status.ACTIVE and deadlines.scheduling_enabled() and not locked.bot_loop:
        plan = _plan(locked)
        plan.version, plan.bots_handed_over = game.version, True


def queue_moved_deadline(locked: LockedGame, *, deadline: datetime, now: datetime) -> None:
    """After commit: the task of a deadline the locked game's settlement moved (a seat that left a
    sitting, back on its own bank: ``clock.leaving``), when it is near; the sweep queues a later one."""
    near = deadline <= now + SCHEDULE_AHEAD
    if near and locked.game.status == Game.Status.ACTIVE and deadlines.scheduling_enabled():
        _plan(locked).deadlines.add(deadline)


def queue_after_bot_timeout(locked: LockedGame) -> None:
    """After commit: a fresh bot task, because a server-played seat's decision timed out.

    Bots answer every decision they own at once, so a bot seat that reaches its deadline means its task
    was lost (a worker killed while holding it: its message comes back only after the broker's
    visibility timeout) while the marker still names it. Waiting for ``queue_stalled_bots`` is not
    enough: with deadlines shorter than ``GAMES_BOT_STALL`` (a live sitting's plucking windows, a short
    custom control) every bot decision would time out before the stall is noticed. The new task takes
    the marker at the committed version, so the lost one is stale if it ever comes back.
    """
    game = locked.game
    if game.status == Game.Status.ACTIVE and deadlines.scheduling_enabled() and not locked.bot_loop:
        plan = _plan(locked)
        plan.version, plan.bots_lost = game.version, True


def _plan(locked: LockedGame) -> TaskPlan:
    """The locked game's task plan, sent when the transaction commits (registered once)."""
    plan = locked.tasks
    if not plan.after_commit:
        plan.after_commit = True
        game_id = locked.pk
        if not plan.queue:
            plan.queue = BACKGROUND

        def run() -> None:
            if plan.bots_lost:
                _requeue_bots(game_id=game_id, version=plan.version, queue=plan.queue)
            elif plan.bots or plan.bots_handed_over:
                _queue_bots(game_id=game_id, version=plan.version, queue=plan.queue)
            for deadline in sorted(plan.deadlines):
                queue_settle(game_id=game_id, deadline=deadline)

        transaction.on_commit(run)
    return plan


def _queue_bots(*, game_id: int, version: int, queue: str) -> bool:
    """Queue the game's bot task unless one is queued already (claiming the empty marker)."""
    claimed = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE, bot_task__isnull=True).update(
        bot_task=version
    )
    return claimed == 1 and publish(PLAY_BOTS, (game_id, version), queue=queue)


def _requeue_bots(*, game_id: int, version: int, queue: str) -> bool:
    """Queue a bot task that takes the marker whatever it holds, unless the game has moved on since."""
    claimed = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE, version=version).update(
        bot_task=version
    )
    return claimed == 1 and publish(PLAY_BOTS, (game_id, version), queue=queue)


def queue_bots_continue(*, game_id: int, version: int, queue: str) -> None:
    """After commit: the bot loop hands the rest of its game to a fresh task (other games get a turn)."""
    transaction.on_commit(lambda: publish(PLAY_BOTS, (game_id, version), queue=queue))


def queue_settle(*, game_id: int, deadline: datetime) -> bool:
    """Run ``settle_game`` at ``deadline`` (the beat sweep catches anything this misses)."""
    return publish(SETTLE_GAME, (game_id,), eta=deadline)


def queue_upcoming_deadlines(*, now: datetime | None = None) -> int:
    """Queue a deadline task for every game whose next deadline falls within ``SCHEDULE_AHEAD``.

    Called by the minute sweep; a task queued twice for one deadline settles once.
    """
    now = now or timezone.now()
    upcoming = (
        Decision.objects.filter(
            deadline__gt=now, deadline__lte=now + SCHEDULE_AHEAD, game__status=Game.Status.ACTIVE
        )
        .values("game_id")
        .annotate(first=Min("deadline"))
    )
    count = 0
    for row in upcoming:
        queue_settle(game_id=row["game_id"], deadline=row["first"])
        count += 1
    return count


def queue_stalled_bots(*, now: datetime | None = None) -> int:
    """Queue a fresh bot task for every game whose server-played seat has owned a decision for more than
    ``GAMES_BOT_STALL`` seconds: its task was lost (a publish that failed, a broker that dropped it).

    The marker takes the game's version, so any older task still queued becomes stale. Returns the
    number of games re-queued.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.GAMES_BOT_STALL)
    bot_seat = Seat.objects.filter(BOT_PLAYED, game_id=OuterRef("game_id"), position=OuterRef("seat"))
    stalled = dict(
        Decision.objects.filter(opened_at__lte=cutoff, game__status=Game.Status.ACTIVE)
        .filter(Exists(bot_seat))
        .values_list("game_id", "game__version")
        .distinct()
    )
    requeued = 0
    for game_id, version in sorted(stalled.items()):
        if not Game.objects.filter(pk=game_id, version=version).update(bot_task=version):
            continue  # the game moved meanwhile: its bots are playing
        queue = bot_queue(list(Seat.objects.filter(game_id=game_id)))
        requeued += publish(PLAY_BOTS, (game_id, version), queue=queue)
    return requeued


def queue_game_tasks(locked: LockedGame) -> None:
    """After commit: the bot task if a bot must act, and a task for the soonest deadline if it is near.

    For services outside the move pipeline that change seats or clocks (resume, extend, substitute,
    bot takeover). Queued once per locked game; the queries run after commit, on committed rows. The
    bot task takes the marker (any older one becomes stale). The sweep catches anything missed.
    """
    if locked.game.status != Game.Status.ACTIVE or not deadlines.scheduling_enabled():
        return
    plan = locked.tasks
    if plan.rescan:
        return
    plan.rescan = True
    game_id = locked.pk

    def schedule() -> None:
        _schedule_tasks(game_id)

    transaction.on_commit(schedule)


def _schedule_tasks(game_id: int) -> None:
    """Queue the bot task and the next deadline task of a game, from its committed rows."""
    seats = list(Seat.objects.filter(game_id=game_id, game__status=Game.Status.ACTIVE))
    owners = set(Decision.objects.filter(game_id=game_id).values_list("seat", flat=True))
    if any(s.played_by_bot and s.position in owners for s in seats):
        version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        if version is not None and Game.objects.filter(pk=game_id, version=version).update(bot_task=version):
            publish(PLAY_BOTS, (game_id, version), queue=bot_queue(seats))
    deadline = (
        Decision.objects.filter(game_id=game_id, deadline__isnull=False, game__status=Game.Status.ACTIVE)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    if deadline is not None and deadline <= timezone.now() + SCHEDULE_AHEAD:
        queue_settle(game_id=game_id, deadline=deadline)


def queue_closed_account(user_id: int) -> None:
    """After the closing of an account commits: the task that lets go of its games, one transaction
    each (``closing.closed_account_let_go``). A lost task is recovered by the closed accounts' sweep."""
    transaction.on_commit(lambda: publish(CLOSED_ACCOUNT, (user_id,)))
