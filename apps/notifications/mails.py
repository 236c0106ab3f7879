"""The mails themselves: subject, headers, text and HTML bodies, reply address and links.

``build_message`` turns a claimed notification into its mail (a move, a reminder, a result, an
invitation, a digest, what quiet hours held), ``answer_message`` the answer to a mail command;
``compose_mail`` adds what every mail carries (the footer, the command summary, the
List-Unsubscribe headers). What a mail says about a game (the recipient's view, the events, the
choices) comes from ``compose``.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import make_msgid
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.accounts.language import mail_language
from apps.accounts.models import display_name
from apps.games import selectors as game_selectors
from apps.games.models import Decision, Game
from apps.games.presenters.timeleft import clock_line
from apps.games.selectors import seat_of
from apps.sittings import selectors as sitting_selectors
from apps.sittings.acceptance import Recurrence, series_starts
from apps.sittings.models import ProposedTime
from baogame import wording
from baogame.mailmessage import MailMessage
from baogame.rules.mail import plain, seat_name

from . import clock, commands, compose, selectors, timing, tokens
from .models import KIND_CATEGORY, Category, InboundMessage, Notification, ReplyAddress
from .quiet import quiet_began


def absolute(path: str) -> str:
    """``path`` on this site, as a mail links to it."""
    return f"{settings.SITE_URL}{path}"


def game_link(game: Game, user: User) -> str:
    """A signed link that opens ``game`` for ``user``."""
    return absolute(
        reverse("notifications:go", args=[tokens.game_link_token(game_id=game.pk, user_id=user.pk)])
    )


@dataclass(frozen=True)
class ResultWords:
    """How a mail names the end of a part of a game: Bao Bei plays rounds (BB-25.7), Bao Huang deals
    (BH-16): whole sentences, so that each language words them its own way."""

    ended: str
    ended_your_move: str
    subject: str
    decision_subject: str
    reminder_subject: str


def _result_words(engine: str) -> ResultWords:
    if engine == "baohuang":
        return ResultWords(
            _("A deal has ended"),
            _("A deal has ended; your move"),
            _("%(prefix)s: deal result"),
            _("%(prefix)s: deal result, %(decision)s"),
            _("%(prefix)s: reminder, deal result, %(decision)s"),
        )
    return ResultWords(
        _("A round has ended"),
        _("A round has ended; your move"),
        _("%(prefix)s: round result"),
        _("%(prefix)s: round result, %(decision)s"),
        _("%(prefix)s: reminder, round result, %(decision)s"),
    )


def reply_address_for(*, user: User, game: Game, decision_id: str = ReplyAddress.NO_DECISION) -> str:
    """A fresh signed Reply-To address (its own nonce) for one mail about ``game``: a reply acts on
    ``decision_id``, the decision the mail shows; by default on none (``ReplyAddress.NO_DECISION``)."""
    row = ReplyAddress.objects.create(user=user, game=game, decision_id=decision_id)
    return tokens.reply_address(game_id=game.pk, user_id=user.pk, nonce=row.pk)


def expire_reply_addresses(*, now: datetime | None = None) -> int:
    """Delete nonces older than the reply-address lifetime (their addresses are refused anyway)."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.NOTIFICATIONS_REPLY_MAX_AGE)
    deleted, _ = ReplyAddress.objects.filter(created_at__lt=cutoff).delete()
    return deleted


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
    sittings: bool = True,
) -> EmailMultiAlternatives:
    """A text + HTML mail with the footer, List-Unsubscribe headers and Reply-To; with ``reply_to``,
    the commands of ``engine`` (``sittings`` False: without those about sittings, which the game's
    table cannot have)."""
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
        # The commands only where a reply is read (a final result or a digest cannot be answered).
        "summary": commands.summary(engine, sittings=sittings) if engine and reply_to else [],
        "notation": commands.notation(engine) if engine else "",
        "reply_to": reply_to,
        "mail_language": translation.get_language() or settings.LANGUAGE_CODE,
    }
    all_headers = {
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        **(headers or {}),
    }
    return render_mail(
        to=user.email, subject=subject, template=template, context=ctx, reply_to=reply_to, headers=all_headers
    )


def render_mail(
    *,
    to: str,
    subject: str,
    template: str,
    context: dict[str, Any],
    reply_to: str | None = None,
    headers: dict[str, str] | None = None,
) -> EmailMultiAlternatives:
    """A text + HTML mail to ``to`` from the site's address, its bodies ``email/<template>.txt`` and
    ``.html`` rendered with ``context``, marked as sent by a machine (``Auto-Submitted``). The subject is
    one line: a name or title somebody chose with a line break in it would fail the header, and the mail
    with it; a long non-ASCII one is folded counting ``Subject: `` (``baogame.mailmessage``)."""
    message = MailMessage(
        subject=" ".join(subject.split()),
        body=render_to_string(f"email/{template}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        reply_to=[reply_to] if reply_to else None,
        headers={"Auto-Submitted": "auto-generated", **(headers or {})},
    )
    message.attach_alternative(render_to_string(f"email/{template}.html", context), "text/html")
    return message


def game_label(game: Game) -> str:
    """A game as a mail names it: its title and number, or its game and number."""
    return f"{game} (#{game.pk})" if game.title else str(game)


def build_message(note: Notification, group: list[int] | None = None) -> EmailMultiAlternatives | None:
    """The mail for a claimed notification (with the ``group`` it takes along), or None when nothing
    in it applies any more (every decision closed, the seat changed hands); written in the
    recipient's language (``mail_language``), whoever's request caused it."""
    with translation.override(mail_language(note.user)):
        return _build_message(note, group)


def _build_message(note: Notification, group: list[int] | None) -> EmailMultiAlternatives | None:
    if note.kind == Notification.Kind.DIGEST:
        return _digest_message(note)
    if note.held:
        return _held_message(note, group or [])
    game, user, seat = note.game, note.user, note.seat
    assert game is not None
    if note.kind == Notification.Kind.SEAT_TO_BOT:
        return _seat_to_bot_message(note, game, user)
    if note.kind == Notification.Kind.SEAT_TAKEN:
        return _seat_taken_message(note, game, user)
    if note.kind == Notification.Kind.SITTING_PROPOSAL:
        return _sitting_proposal_message(note, game, user)
    if seat is not None and not game.seats.filter(position=seat, user=user).exists():
        return None  # the recipient no longer holds that seat (substituted): their view is not theirs
    decision_row = None
    round_ended = note.kind == Notification.Kind.ROUND_RESULT or (
        note.kind == Notification.Kind.DECISION
        and Notification.objects.filter(pk__in=group or [], kind=Notification.Kind.ROUND_RESULT).exists()
    )
    if round_ended and game.is_over:
        return None  # the game ended while it waited: the game result says it all, as in notify_move_applied
    open_rows: list[Decision] = []
    if note.kind in timing.BURST_KINDS and seat is not None:  # what is open for them now, not when it opened
        open_rows = list(game_selectors.seat_decisions(game=game, seat=seat).order_by("deadline", "pk"))
        decision_row = open_rows[0] if open_rows else None
        if decision_row is None and not round_ended:
            return None  # they acted (or it closed) meanwhile and nothing is left for them
        if (
            note.kind == Notification.Kind.DECISION
            and not round_ended
            and selectors.decisions_told_in_answers(
                user=user, game=game, decision_ids={row.decision_id for row in open_rows}
            )
        ):
            return None  # the answer to their mail command listed it already (the bots played at once)
    elif note.kind == Notification.Kind.REMINDER:
        if seat is not None:
            mine = game_selectors.seat_decision(game=game, seat=seat, decision_id=note.decision_id)
            decision_row = mine.first()
        if decision_row is None:
            return None  # answered or closed before we got to send it
        if decision_row.deadline is not None and decision_row.deadline <= clock.now():
            return None  # its deadline passed (the clock settles it soon): a reminder never comes after it
    context: dict[str, Any] = {"game": game, "game_name": game_label(game), "link": game_link(game, user)}
    subject_prefix = f"[baogame] {game_label(game)}"
    category = note.category
    if note.kind == Notification.Kind.INVITATION:
        if game.status != Game.Status.OPEN:
            return None
        context["heading"] = _("You are invited to a game")
        context["intro"] = ngettext(
            "%(host)s invites you to play %(game)s (%(players)s player). Follow the link to take a seat.",
            "%(host)s invites you to play %(game)s (%(players)s players). Follow the link to take a seat.",
            game.players,
        ) % {
            "host": display_name(game.created_by) if game.created_by else _("Someone"),
            "game": _(game.get_engine_display()),
            "players": game.players,
        }
        return compose_mail(
            user=user,
            subject=_("%(prefix)s: you are invited") % {"prefix": subject_prefix},
            template="notification",
            context=context,
            category=note.category,
        )
    if note.kind == Notification.Kind.GAME_RESULT and game.cancelled:
        return _cancelled_message(note, game, user, context, subject_prefix)
    if seat is not None:
        context["view"] = compose.view_lines(game, seat)
        context["events"] = compose.events_since_last_move(game, seat)
        if round_ended:
            context["round_result"] = compose.round_result(game, seat)
    if decision_row is not None and seat is not None:
        decision = compose.row_decision(game, decision_row)
        context["decision_text"] = compose.describe_decision(game.engine, decision)
        context["deadline"] = compose.deadline_text(decision_row.deadline, user)
        own = game.seats.filter(position=seat).select_related("user__profile").first()
        if own is not None:
            context["clock_line"] = clock_line(game=game, seat=own, decision=decision_row)
        context["choices"] = compose.choices(game, seat)
        if len(open_rows) > 1:
            context["also_open"] = [
                _("%(decision)s Deadline: %(deadline)s")
                % {
                    "decision": compose.describe_row(game, row),
                    "deadline": compose.deadline_text(row.deadline, user),
                }
                for row in open_rows[1:]
            ]
        reminder = note.kind == Notification.Kind.REMINDER
        words = _result_words(game.engine)
        context["heading"] = (
            _("Reminder: the deadline is near")
            if reminder
            else (words.ended_your_move if round_ended else _("Your move"))
        )
        subject_fields = {"prefix": subject_prefix, "decision": context["decision_text"].rstrip(".。")}
        if reminder and round_ended:
            subject = words.reminder_subject % subject_fields
        elif reminder:
            subject = _("%(prefix)s: reminder, %(decision)s") % subject_fields
        elif round_ended:
            subject = words.decision_subject % subject_fields
        else:
            subject = _("%(prefix)s: %(decision)s") % subject_fields
        reply_to = reply_address_for(user=user, game=game, decision_id=decision_row.decision_id)
        if note.kind == Notification.Kind.DECISION:
            # The decision open now, which may not be the one that was opened (a burst, or answered
            # meanwhile): its category is what the mail is about, and what its unsubscribe link names.
            category = KIND_CATEGORY.get(decision_row.kind, note.category)
    elif round_ended:  # a round result, or a burst that took one along and whose decisions closed since
        words = _result_words(game.engine)
        context["heading"] = words.ended
        subject = words.subject % {"prefix": subject_prefix}
        reply_to = reply_address_for(user=user, game=game)
    else:  # game result
        context["heading"] = _("The game is over")
        context["result"] = _result_lines(game, seat)
        subject = _("%(prefix)s: final result") % {"prefix": subject_prefix}
        reply_to = None
    return compose_mail(
        user=user,
        subject=subject,
        template="notification",
        context=context,
        category=category,
        reply_to=reply_to,
        engine=game.engine,
        sittings=reply_to is None or not sitting_selectors.table_of_one(game),
    )


def _seat_to_bot_message(note: Notification, game: Game, user: User) -> EmailMultiAlternatives | None:
    """The player's mail (their seat went to the bot: one click takes it back), or an organiser's (a
    substitute may be offered); None once the bot no longer plays the seat, or the player's mail once
    somebody else holds it."""
    held = next((s for s in game_selectors.seats_with_people(game) if s.position == note.seat), None)
    if held is None or held.user is None or not held.bot_takeover or game.is_over:
        return None
    to_organiser = note.category == Category.LEAGUE
    if not to_organiser and held.user_id != user.pk:
        return None
    fields = {"game": game_label(game), "n": game.absent_limit, "seat": held.position, "player": held.label}
    if not to_organiser:
        heading = _("A bot plays your seat")
        intro = ngettext(
            "You let %(n)s deadline pass in %(game)s, so a bot plays your seat from now on. It plays "
            "until you take your seat back: one click on the game page, or reply “take back” to this "
            "mail.",
            "You let %(n)s deadlines in a row pass in %(game)s, so a bot plays your seat from now on. It "
            "plays until you take your seat back: one click on the game page, or reply “take back” to "
            "this mail.",
            game.absent_limit,
        )
        subject = _("[baogame] %(game)s: a bot plays your seat")
        reply_to: str | None = reply_address_for(user=user, game=game)
    elif not held.user.is_active:  # the player closed their account: the bot plays to the end
        heading = _("A bot plays a seat of your league's game")
        intro = _(
            "%(player)s closed their account, so a bot plays seat %(seat)s of %(game)s until the game ends. "
            "As an organiser you can offer the seat to a substitute (the league's organiser tools)."
        )
        subject = _("[baogame] %(game)s: a bot plays seat %(seat)s")
        reply_to = None
    else:
        heading = _("A bot plays a seat of your league's game")
        intro = ngettext(
            "%(player)s let %(n)s deadline pass in %(game)s, so a bot plays seat %(seat)s until they "
            "take it back. As an organiser you can offer the seat to a substitute (the league's "
            "organiser tools).",
            "%(player)s let %(n)s deadlines in a row pass in %(game)s, so a bot plays seat %(seat)s until "
            "they take it back. As an organiser you can offer the seat to a substitute (the league's "
            "organiser tools).",
            game.absent_limit,
        )
        subject = _("[baogame] %(game)s: a bot plays seat %(seat)s")
        reply_to = None
    return compose_mail(
        user=user,
        subject=(subject % fields)[:200],
        template="notification",
        context={
            "game": game,
            "game_name": game_label(game),
            "link": game_link(game, user),
            "heading": heading,
            "intro": intro % fields,
        },
        category=note.category,
        reply_to=reply_to,
    )


def _cancelled_message(
    note: Notification, game: Game, user: User, context: dict[str, Any], subject_prefix: str
) -> EmailMultiAlternatives:
    """The game's end, for a game cancelled before it started: who cancelled it, and that it counts
    nowhere. No result, no view and no events: nothing was dealt, nothing was played."""
    context["heading"] = _("The game was cancelled")
    context["intro"] = _(
        "%(host)s cancelled %(game)s before it started. No card was dealt, and the game counts in nobody's "
        "record."
    ) % {
        "host": display_name(game.created_by) if game.created_by else _("Its creator"),
        "game": game_label(game),
    }
    return compose_mail(
        user=user,
        subject=_("%(prefix)s: cancelled") % {"prefix": subject_prefix},
        template="notification",
        context=context,
        category=note.category,
    )


def _seat_taken_message(note: Notification, game: Game, user: User) -> EmailMultiAlternatives | None:
    """The creator's mail: somebody took seat ``note.seat`` of their game (at its open table or by an
    invitation link), and how many seats are still free now; None once the game no longer waits for
    players (the last seat started it, and its own mails tell) or the seat is free again. Only who sits:
    the game has not begun, and no view of it is shown."""
    if game.status != Game.Status.OPEN:
        return None
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    taken = next((s for s in seats if s.position == note.seat), None)
    if taken is None or taken.user is None:
        return None
    free = sum(1 for s in seats if s.is_empty)
    fields = {"name": taken.label, "game": game_label(game), "count": free}
    intro = ngettext(
        "%(name)s took a seat at %(game)s. %(count)s seat is still free: the game starts when it is taken.",
        "%(name)s took a seat at %(game)s. %(count)s seats are still free: the game starts when they "
        "are all taken.",
        free,
    )
    return compose_mail(
        user=user,
        subject=(_("[baogame] %(game)s: %(name)s took a seat") % fields)[:200],
        template="notification",
        context={
            "game": game,
            "game_name": game_label(game),
            "link": game_link(game, user),
            "heading": _("%(name)s took a seat at your table") % fields,
            "intro": intro % fields,
        },
        category=note.category,
    )


def _span(start: datetime, end: datetime, user: User) -> str:
    """A sitting's time in the person's zone: its start, and its end's time of day."""
    return _("%(start)s to %(end)s") % {
        "start": compose.local_time(start, user),
        "end": f"{timezone.localtime(end, compose.user_zone(user)):%H:%M}",
    }


def _sitting_proposal_message(note: Notification, game: Game, user: User) -> EmailMultiAlternatives | None:
    """Somebody proposed times for a sitting (``note.version`` is the proposal): who, the times still
    open in the reader's zone (a weekly series: its first week), and how to answer, on the game page or
    by replying ``sitting yes`` / ``sitting no``. None once there is nothing for the reader to answer:
    the game is over, every time is decided or past, the reader has answered every open time, or left
    the table. The reply is offered only while this is the game's latest open proposal, the one a reply
    answers (``sittings.services.answer_latest``)."""
    seat = sitting_selectors.human_seat_of(game=game, user=user)
    if game.is_over or seat is None or sitting_selectors.table_of_one(game):
        return None
    now = timezone.now()
    open_proposals = sitting_selectors.open_proposals(game=game, now=now)
    proposal = next((p for p in open_proposals if p.pk == note.version), None)
    if proposal is None:
        return None
    rows = [
        t
        for t in proposal.times.all()
        if t.status == ProposedTime.Status.OPEN and (t.starts_at > now or proposal.recurrence is not None)
    ]
    if not rows or all(any(a.position == seat for a in t.answers.all()) for t in rows):
        return None
    fields: dict[str, str | int] = {
        "name": display_name(proposal.proposer) if proposal.proposer else _("Someone"),
        "game": game_label(game),
    }
    if proposal.recurrence is not None:
        recurrence = Recurrence.from_json(proposal.recurrence)
        first = rows[0].starts_at
        starts = [s for s in series_starts(recurrence) if first <= s < first + timedelta(days=7)]
        times = [_span(s, s + proposal.length, user) for s in starts]
        fields["weeks"] = recurrence.weeks
        intro = ngettext(
            "%(name)s proposes to play %(game)s together at live speed every week for %(weeks)s week, "
            "answered as a whole. Its first week:",
            "%(name)s proposes to play %(game)s together at live speed every week for %(weeks)s weeks, "
            "answered as a whole. Its first week:",
            recurrence.weeks,
        )
    else:
        times = [f"{t.index}. {_span(t.starts_at, t.starts_at + proposal.length, user)}" for t in rows]
        intro = ngettext(
            "%(name)s proposes to play %(game)s together at live speed at this time:",
            "%(name)s proposes to play %(game)s together at live speed at these times, each answered on its "
            "own:",
            len(rows),
        )
    latest = open_proposals[0].pk == proposal.pk
    return compose_mail(
        user=user,
        subject=(_("[baogame] %(game)s: %(name)s proposes a sitting") % fields)[:200],
        template="sitting",
        context={
            "game_name": game_label(game),
            "proposal": True,
            "intro": intro % fields,
            "times": times,
            "several": proposal.recurrence is None and len(rows) > 1,
            "latest": latest,
            "link": game_link(game, user),
        },
        category=note.category,
        reply_to=reply_address_for(user=user, game=game) if latest else None,
        engine=game.engine,
    )


def _result_lines(game: Game, seat: int | None) -> list[str]:
    result = game.result or {}
    names = compose.seat_names(game)
    lines = []
    for row in result.get("standings") or []:
        who = seat_name(names, int(row.get("seat", -1)))
        if row.get("seat") == seat:
            who = _("%(player)s (you)") % {"player": who}
        lines.append(f"{row.get('position')}. {who}: {row.get('total')}")
    if not lines and isinstance(result.get("totals"), list):
        for position, total in enumerate(result["totals"]):
            who = seat_name(names, position)
            if position == seat:
                who = _("%(player)s (you)") % {"player": who}
            lines.append(f"{who}: {plain(total)}")
        winners = [seat_name(names, int(w)) for w in result.get("winners") or []]
        if winners:
            lines.append(
                ngettext("Winner: %(players)s", "Winners: %(players)s", len(winners))
                % {"players": wording.listed(winners)}
            )
        else:
            lines.append(_("Winners: none"))
    if game.status == Game.Status.ABORTED:
        lines.append(_("The game was aborted. %(reason)s") % {"reason": game.status_reason})
    return lines


def _digest_message(note: Notification) -> EmailMultiAlternatives | None:
    queued = list(
        Notification.objects.filter(
            user=note.user, status=Notification.Status.QUEUED_DIGEST, created_at__lte=note.created_at
        ).select_related("game")
    )
    return _summary_message(note.user, queued, heading=_("Your daily digest"), quiet=False)


def _held_message(note: Notification, group: list[int]) -> EmailMultiAlternatives | None:
    """One mail for everything quiet hours held: the games waiting for them now, and the news. A game
    whose open decisions an answer to their mail command listed during those hours is left out: the
    answer told them (the rule of the "Your move" mail, ``selectors.decisions_told_in_answers``)."""
    user = note.user
    held = [note, *Notification.objects.filter(pk__in=group).select_related("game")]
    began = quiet_began(selectors.mail_settings_for(user=user), compose.user_zone(user), note.due_at)
    if began is None:  # the quiet hours were switched off since: from when the first of it was recorded
        began = min(n.created_at for n in held)
    return _summary_message(
        user,
        held,
        heading=_("While your quiet hours lasted"),
        quiet=True,
        category=note.category,
        told=selectors.decisions_told_since(user=user, since=began),
    )


def _summary_message(
    user: User,
    queued: list[Notification],
    *,
    heading: str,
    quiet: bool,
    category: str = Category.DIGEST,
    told: Set[tuple[int, str]] = frozenset(),
) -> EmailMultiAlternatives | None:
    """A digest-like mail: every game waiting for ``user`` now but those whose open decisions are all
    among ``told`` (game id, decision id), and the news among ``queued``."""
    told_games = {game_id for game_id, _decision in told}
    waiting = []
    for game in selectors.digest_games(user=user):
        seat = next(s.position for s in game.seats.all() if s.user_id == user.pk)
        open_rows = game_selectors.seat_decisions(game=game, seat=seat)
        if game.pk in told_games:
            open_ids = {
                (game.pk, decision_id) for decision_id in open_rows.values_list("decision_id", flat=True)
            }
            if open_ids and open_ids <= told:
                continue  # an answer to their mail command listed what is open there
        row = open_rows.order_by("deadline").first()
        if row is not None:
            decision = compose.row_decision(game, row)
        else:
            decision = compose.open_decision(game, seat) or {"kind": ""}
        waiting.append(
            {
                "name": game_label(game),
                "what": compose.describe_decision(game.engine, decision),
                "deadline": compose.deadline_text(row.deadline if row else None, user),
                "link": game_link(game, user),
                "reply": reply_address_for(
                    user=user, game=game, decision_id=row.decision_id if row else ReplyAddress.NO_DECISION
                ),
                "engine": game.engine,
            }
        )
    news = [
        _("%(game)s: %(kind)s") % {"game": game_label(n.game), "kind": _news_kind(n)}
        for n in queued
        if n.game is not None
        and (
            n.kind
            in {
                Notification.Kind.ROUND_RESULT,
                Notification.Kind.GAME_RESULT,
                Notification.Kind.INVITATION,
                Notification.Kind.SEAT_TO_BOT,
                Notification.Kind.SEAT_TAKEN,
                Notification.Kind.SITTING_PROPOSAL,
            }
        )
    ]
    if not waiting and not news:
        return None
    fields = {"count": len(waiting)}
    subject = (
        ngettext(
            "[baogame] after your quiet hours: %(count)s game waiting for you",
            "[baogame] after your quiet hours: %(count)s games waiting for you",
            len(waiting),
        )
        if quiet
        else ngettext(
            "[baogame] daily digest: %(count)s game waiting for you",
            "[baogame] daily digest: %(count)s games waiting for you",
            len(waiting),
        )
    ) % fields
    # With one game waiting, answering the mail plays it, as for any mail about one decision.
    only = waiting[0] if len(waiting) == 1 else None
    return compose_mail(
        user=user,
        subject=subject,
        template="digest",
        context={"waiting": waiting, "news": news, "heading": heading},
        category=category,
        reply_to=only["reply"] if only else None,
        engine=only["engine"] if only else None,
    )


#: What a digest's news line calls each kind of notification.
NEWS_KINDS: dict[str, Promise] = {
    Notification.Kind.ROUND_RESULT: gettext_lazy("round result"),
    Notification.Kind.GAME_RESULT: gettext_lazy("game result"),
    Notification.Kind.INVITATION: gettext_lazy("invitation"),
    Notification.Kind.SEAT_TO_BOT: gettext_lazy("a bot took over a seat"),
    Notification.Kind.SEAT_TAKEN: gettext_lazy("a player took a seat at your table"),
    Notification.Kind.SITTING_PROPOSAL: gettext_lazy("a sitting proposed: answer on the game page"),
}


def _news_kind(note: Notification) -> str:
    """A digest's news line for ``note``: its kind, or, for the end of a game cancelled before it
    started, that it was cancelled (it has no result)."""
    if note.kind == Notification.Kind.GAME_RESULT and note.game is not None and note.game.cancelled:
        return _("cancelled before it started")
    return str(NEWS_KINDS.get(note.kind, note.kind))


def _answer_binding(record: InboundMessage, game: Game, position: int | None, shown: str | None) -> str:
    """The decision a reply to the answer mail acts on: the one whose choices the answer lists
    (``shown``), or none (``ReplyAddress.NO_DECISION``) when it lists none, so that a reply to an old
    answer never plays on a decision that opened after it (``stale_decision``). A refused reply may be
    corrected by answering its answer: the same decision as before while it is open; once that one has
    passed (the refusal was ``stale_decision``), the decision the answer shows, so that replying with
    one of the choices it lists is not refused in turn."""
    if record.status == InboundMessage.Status.APPLIED or record.reply_address is None:
        return shown or ReplyAddress.NO_DECISION
    asked = record.reply_address.decision_id
    if asked in ("", ReplyAddress.NO_DECISION) or shown is None:
        return shown or asked or ReplyAddress.NO_DECISION
    if shown == asked:
        return asked
    if game_selectors.seat_decisions(game=game, seat=position).filter(decision_id=asked).exists():
        return asked
    return shown


def answer_message(record: InboundMessage) -> EmailMultiAlternatives | None:
    """The answer to a processed inbound mail: what its command did, or why it was refused, with the
    sender's view now and a fresh reply address; None when there is nobody to answer. Written in the
    sender's language (``mail_language``), whichever language their command was in. The decision whose
    choices it lists is noted on ``record`` (``shown_decision_id``, not saved: the sender saves it)."""
    user, game = record.user, record.game
    if user is None or game is None or not user.email:
        return None
    with translation.override(mail_language(user)):
        return _answer_message(record, user, game)


def _answer_message(record: InboundMessage, user: User, game: Game) -> EmailMultiAlternatives:
    seat = seat_of(game, user)
    position = seat.position if seat is not None else None
    context: dict[str, Any] = {
        "game": game,
        "game_name": game_label(game),
        "link": game_link(game, user),
        "command": record.command,
        "applied": record.status == InboundMessage.Status.APPLIED,
        "code": record.code,
        "detail": record.detail,
    }
    if record.status == InboundMessage.Status.APPLIED and position is not None:
        seq = record.move_seq
        context["heading"] = _("Done")
        # Your move, then what the others (bots included) did after it, in order.
        context["events"] = compose.events_from(game, seq, position) if seq is not None else []
    else:
        context["heading"] = _("Your command was refused")
    shown: str | None = None  # the decision whose choices this mail lists
    if position is not None:
        context["view"] = compose.view_lines(game, position)
        # A seat the bot plays (``hand over``) is not asked anything: the bot answers for it.
        decision = None if seat is not None and seat.bot_takeover else compose.open_decision(game, position)
        if decision is not None:
            row = game_selectors.seat_decisions(game=game, seat=position).order_by("deadline").first()
            shown = row.decision_id if row is not None else None
            context["decision_text"] = compose.describe_decision(game.engine, decision)
            context["deadline"] = compose.deadline_text(row.deadline if row else None, user)
            context["choices"] = compose.choices(game, position)
        if not context["applied"] and decision is None:
            # A refusal with nothing to correct: say so, rather than ask for a corrected command.
            context["nothing_open"] = (
                _("The bot plays your seat: reply “take back” to play it yourself again.")
                if seat is not None and seat.bot_takeover
                else _(
                    "Nothing is waiting for your move in this game now: a mail will tell you when "
                    "something is."
                )
            )
    record.shown_decision_id = shown or ""
    bound = _answer_binding(record, game, position, shown)
    reply_to = reply_address_for(user=user, game=game, decision_id=bound) if not game.is_over else None
    fields = {"game": game_label(game), "command": record.command or _("(no command)"), "code": record.code}
    subject = (
        _("[baogame] %(game)s: done: %(command)s")
        if context["applied"]
        else _("[baogame] %(game)s: refused (%(code)s): %(command)s")
    ) % fields
    return compose_mail(
        user=user,
        subject=subject[:200],
        template="answer",
        context=context,
        category=Category.TURN,
        reply_to=reply_to,
        engine=game.engine,
        sittings=reply_to is None or not sitting_selectors.table_of_one(game),
        headers={
            "In-Reply-To": record.message_id,
            "References": record.message_id,
            "Message-ID": make_msgid(),
        },
    )
