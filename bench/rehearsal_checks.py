"""The rehearsal's checks of every game it played (``bench.rehearsal``), once everything has stopped.

Each check returns its anomaly count (0: sound) and, where useful, figures:

* ``seq_anomalies``: games whose moves are not numbered 1..n without gaps or repeats;
* ``replay_anomalies``: games whose stored state differs from the replay of their seed and move log
  (``manage.py verify_games``, run on the rehearsal's games);
* ``timeouts_twice``: a decision answered by more than one timeout. A timeout move carries the id of the
  decision it answers (every Bao Bei action has a ``decision_id``), so the key of a timeout is (game,
  seat, decision id): a second timeout move with the same key settled one deadline twice;
* ``timeouts_early``: a timeout applied before its deadline (the deadline as last seen on the decision's
  row while the rehearsal ran, sampled every half second);
* ``deadlines_unsettled``: a decision still open whose deadline had passed by more than the grace (two
  sweep intervals and two seconds) when the processes were stopped;
* ``notifications_twice`` / ``notifications_lost``: per player, the mails the mail backend received
  against the notifications marked sent. A notification is recorded once (unique on user, game, version
  and kind) and claimed by a conditional update before it is sent, so each ``sent`` row is one mail; the
  one documented exception, a claim taken back from a dead worker (``Reclaimed: …``), may send again and
  is counted apart (``mails_after_reclaim``), not as an anomaly;
* ``outbox_left`` / ``webhooks_undelivered`` / ``webhooks_unreceived``: the outbox's effects of the run
  (moves made while the web nodes could not reach the broker among them): outbox rows never fanned
  out and webhook events not delivered (written before the last ``GRACE`` before the stop, as for
  deadlines), and delivered ones the receiver never got. A repeat of an event
  (the same ``Baogame-Webhook-Id``: at least once) is counted apart (``webhook_repeats``).
"""

from __future__ import annotations

import contextlib
import email
import json
from collections import Counter
from datetime import datetime, timedelta
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db.models import Count, Max, Min

from apps.games.models import Decision, Move
from apps.notifications.models import Notification

#: The separator the file mail backend writes after each message.
MAIL_SEPARATOR = b"\n" + b"-" * 79 + b"\n"


def seq_anomalies(game_ids: list[int]) -> int:
    """Games whose moves are not numbered 1..n, each number once."""
    rows = (
        Move.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(n=Count("id"), low=Min("seq"), high=Max("seq"), distinct=Count("seq", distinct=True))
    )
    return sum(1 for r in rows if not (r["low"] == 1 and r["high"] == r["n"] == r["distinct"]))


def replay_anomalies(game_ids: list[int]) -> tuple[int, list[dict[str, Any]]]:
    """``manage.py verify_games --game …`` on the games: the number that differ, and what differs."""
    if not game_ids:
        return 0, []
    out = StringIO()
    args = [arg for game_id in game_ids for arg in ("--game", str(game_id))]
    with contextlib.suppress(SystemExit):  # exit status 1: some game differs, the JSON line says which
        call_command("verify_games", *args, stdout=out)
    report = json.loads(out.getvalue().splitlines()[-1])
    return int(report["differing"]), report["discrepancies"]


def timeout_checks(game_ids: list[int], deadlines: dict[tuple[int, int, str], datetime]) -> dict[str, Any]:
    """Timeouts applied twice or early, and how late they came (figures: median and max, seconds)."""
    timeouts = list(
        Move.objects.filter(game_id__in=game_ids, by_timeout=True).values_list(
            "game_id", "seat", "action", "created_at"
        )
    )
    keys = Counter((game_id, seat, str(action.get("decision_id"))) for game_id, seat, action, _ in timeouts)
    early, lateness = 0, []
    for game_id, seat, action, applied in timeouts:
        deadline = deadlines.get((game_id, seat, str(action.get("decision_id"))))
        if deadline is None:
            continue  # opened and settled between two samples
        late = (applied - deadline).total_seconds()
        lateness.append(late)
        early += late < 0
    lateness.sort()
    return {
        "timeouts": len(timeouts),
        "timeouts_twice": sum(n - 1 for n in keys.values()),
        "timeouts_early": early,
        "timeouts_sampled": len(lateness),
        "timeout_late_p50_s": round(lateness[len(lateness) // 2], 2) if lateness else None,
        "timeout_late_max_s": round(lateness[-1], 2) if lateness else None,
    }


def deadlines_unsettled(game_ids: list[int], *, stopped: datetime, grace: timedelta) -> int:
    """Open decisions whose deadline had passed by more than ``grace`` when the processes stopped."""
    return Decision.objects.filter(game_id__in=game_ids, deadline__lte=stopped - grace).count()


def mails_by_recipient(mail_dir: Path) -> Counter[str]:
    """The messages the file mail backend wrote, counted by recipient address."""
    counts: Counter[str] = Counter()
    for path in mail_dir.glob("*"):
        for chunk in path.read_bytes().split(MAIL_SEPARATOR):
            if chunk.strip():
                for address in (email.message_from_bytes(chunk).get("To") or "").split(","):
                    counts[address.strip()] += 1
    return counts


def notification_checks(prefix: str, mail_dir: Path) -> dict[str, int]:
    """Per player of the run, the mails received against the notifications marked sent."""
    mails = mails_by_recipient(mail_dir)
    sent: Counter[str] = Counter()
    reclaimed: Counter[str] = Counter()
    rows = Notification.objects.filter(
        user__username__startswith=f"{prefix}-", status=Notification.Status.SENT
    ).values_list("user__email", "last_error")
    for address, last_error in rows:
        sent[address] += 1
        reclaimed[address] += last_error.startswith("Reclaimed")
    ours = {a for a in mails if a.startswith(f"{prefix}-")} | set(sent)
    twice = lost = resent = 0
    for address in ours:
        extra = mails[address] - sent[address]
        resent += max(0, min(extra, reclaimed[address]))
        twice += max(0, extra - reclaimed[address])
        lost += max(0, -extra)
    return {
        "mails": sum(mails[a] for a in ours),
        "notifications_sent": sum(sent.values()),
        "mails_after_reclaim": resent,
        "notifications_twice": twice,
        "notifications_lost": lost,
    }


def notifications_lost_detail(prefix: str, mail_dir: Path) -> list[str]:
    """For each player of the run with fewer mails than notifications marked sent, a line naming the
    address and those notifications (kind, when made, when sent, the reclaim's note): what to look at
    when ``notification_checks`` counts a lost one."""
    mails = mails_by_recipient(mail_dir)
    rows = Notification.objects.filter(
        user__username__startswith=f"{prefix}-", status=Notification.Status.SENT
    ).order_by("sent_at")
    by_address: dict[str, list[Notification]] = {}
    for note in rows.select_related("user"):
        by_address.setdefault(note.user.email, []).append(note)
    lines = []
    for address, notes in sorted(by_address.items()):
        if mails[address] < len(notes):
            sent = "; ".join(
                f"#{n.pk} {n.kind} game {n.game_id} made {n.created_at:%H:%M:%S.%f} "
                f"sent {n.sent_at:%H:%M:%S.%f}{' ' + n.last_error if n.last_error else ''}"
                for n in notes
            )
            lines.append(f"{address}: {mails[address]} mails, {len(notes)} sent: {sent}")
    return lines


def outbox_checks(
    game_ids: list[int], received: Counter[str], *, stopped: datetime, grace: timedelta
) -> dict[str, int]:
    """What the outbox delivered for the run's games, and what it left: outbox rows not fanned out,
    webhook events not delivered (or delivered but never received), and repeats (same id: allowed).

    As for deadlines, what was written in the last ``grace`` before every process stopped (games left to
    their deadlines keep moving until then) had no time to go out and is not counted as left."""
    from apps.notifications.models import MoveMailOutbox
    from apps.webhooks.models import WebhookDelivery

    deliveries = WebhookDelivery.objects.filter(game_id__in=game_ids)
    delivered = {str(e) for e in deliveries.filter(status="delivered").values_list("event_id", flat=True)}
    cutoff = stopped - grace
    return {
        "webhook_events": deliveries.count(),
        "webhook_repeats": sum(n - 1 for n in received.values() if n > 1),
        "outbox_left": MoveMailOutbox.objects.filter(game_id__in=game_ids, created_at__lte=cutoff).count(),
        "webhooks_undelivered": deliveries.exclude(status="delivered").filter(created_at__lte=cutoff).count(),
        "webhooks_unreceived": len(delivered - set(received)),
    }
