"""Game pages: thin views that parse input, call one service and render.

The board is one fragment (``games/_board.html``): the full page includes it, htmx polls it and the
action forms swap it. Everything on it comes from ``engine.view(state, my seat)`` and the history
filtered by visibility; never from ``game.state`` directly.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine

from . import (
    estimates,
    game_looks,
    invitations,
    lifecycle,
    lobby,
    people,
    pipeline,
    reliability,
    replay,
    selectors,
    table_talk,
)
from .errors import ServiceError
from .errortext import error_detail, refusal
from .forms import GameCreateForm, action_from_post, control_custom
from .models import Game, Move, Seat
from .order_panel import orders_panel
from .presenters import present, presenter_for
from .presenters.common import describe_decision, history_rows, posted_choices
from .presenters.replay import replay_board, step_rows
from .presenters.table import seat_away, table_clocks, table_seats, with_banks

#: How many recent history entries the game page shows (the history page has them all).
RECENT_HISTORY = 30
#: The session key of a page form the engine refused (without htmx): its game and the choices it
#: sent, shown chosen again by the page the refusal redirects to, once.
REFUSED_KEY = "refused_move"
#: Games in play a page of the watch list shows, and how many of the latest finished games it lists.
WATCH_PAGE = selectors.WATCH_PAGE_SIZE
WATCH_FINISHED = 10
#: How often the board asks whether the game has changed; faster while a bot is thinking.
POLL_SECONDS = 4
THINKING_POLL_SECONDS = 1


def home(request: HttpRequest) -> HttpResponse:
    """Landing page; signed in, the dashboard with the games waiting for me first."""
    if not request.user.is_authenticated:
        return render(request, "home.html")
    games = list(selectors.game_list_for_user(user=request.user).prefetch_related("seats__user__profile"))
    clocks = selectors.my_clocks(user=request.user, game_ids=[g.pk for g in games])
    for g in games:
        g.my_seat = next((s for s in g.seats.all() if s.user_id == request.user.pk), None)  # type: ignore[attr-defined]
        g.my_clock = clocks.get(g.pk)  # type: ignore[attr-defined]
    waiting = [g for g in games if g.waiting_for_me and g.status == Game.Status.ACTIVE]
    others = [g for g in games if g not in waiting]
    profile = getattr(request.user, "profile", None)
    return render(
        request,
        "games/dashboard.html",
        {
            "waiting": waiting,
            "others": others,
            "taken_over": [g for g in games if g.my_seat and g.my_seat.bot_takeover and not g.is_over],  # type: ignore[attr-defined]
            "me_away": profile is not None and profile.on_vacation,
            "bot_hold_text": lifecycle.BOT_HOLD_TEXT,
        },
    )


def games_watch(request: HttpRequest) -> HttpResponse:
    """The games anybody may watch: public games in play (newest first, a page at a time) and the
    latest finished ones. Names, game and dates only: nothing of a game's state, not even its number
    of moves (a hidden answer does not count in what others see, BB-30.6)."""
    in_play = Paginator(selectors.game_list_watchable(status=Game.Status.ACTIVE), WATCH_PAGE).get_page(
        request.GET.get("page")
    )
    finished = selectors.game_list_watchable(status=Game.Status.FINISHED)
    tables = list(lobby.open_tables()[: lobby.OPEN_TABLES_SHOWN])
    viewer = request.user if request.user.is_authenticated else None
    record = reliability.record_for(viewer) if viewer and any(g.min_reliability for g in tables) else None
    context = {
        "open_tables": [
            {
                "game": g,
                "taken": sum(not s.is_empty for s in g.seats.all()),
                "mine": viewer is not None and any(s.user_id == viewer.pk for s in g.seats.all()),
                "seat_check": lobby.record_check(record, g),
            }
            for g in tables
        ],
        "table_min_decisions": reliability.TABLE_MIN_DECISIONS,
        "in_play": in_play,
        "finished": finished[:WATCH_FINISHED],
    }
    return render(request, "games/watch.html", context)


def _say_refused(request: HttpRequest, exc: RuleError) -> None:
    """A refused change to a waiting game, said as a page's message; a game the user may not see
    (``not_found``) answers 404, as a link that leads nowhere does, so that no answer tells a stranger
    that the link leads to a game."""
    if isinstance(exc, ServiceError) and exc.status == 404:
        raise Http404("no such game") from None
    messages.error(request, f"{error_detail(exc)} ({exc.code})")


@login_required
@require_POST
def game_close_table(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """The creator takes their waiting game off the open tables (``lobby``); 404 for a game the user may
    not see, as for one that does not exist."""
    game = get_object_or_404(Game.objects.only("pk", "public_id"), public_id=public_id)
    try:
        lobby.open_table_close(game_id=game.pk, by=request.user)
    except RuleError as exc:
        _say_refused(request, exc)
    else:
        messages.success(
            request, gettext("It is off the open tables: players join with the invitation link.")
        )
    return redirect(game)


@login_required
@require_http_methods(["GET", "POST"])
def game_cancel(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """The creator cancels their game while it waits for players (POST, ``lobby.game_cancel``), after a
    page that says what cancelling means and asks to confirm (GET); anyone else is sent to the game."""
    if request.method == "POST":
        game = get_object_or_404(Game.objects.only("pk", "public_id"), public_id=public_id)
        try:
            lobby.game_cancel(game_id=game.pk, by=request.user)
        except RuleError as exc:
            _say_refused(request, exc)
        else:
            messages.success(request, gettext("The game is cancelled."))
        return redirect(game)
    game, _ = visible_game(request, public_id)
    if game.status != Game.Status.OPEN or game.created_by_id != request.user.pk:
        return redirect(game)
    told = [s for s in game.seats.all() if people.held_by_person(s) and s.user_id != request.user.pk]
    return render(request, "games/cancel.html", {"game": game, "told": len(told)})


@login_required
@require_POST
def game_take_seat(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Take a free seat of an open table (``lobby``); back to the Watch page when refused, and 404 for a
    game the user may not see, as for one that does not exist."""
    game = get_object_or_404(Game.objects.only("pk", "public_id"), public_id=public_id)
    try:
        lobby.open_table_join(game_id=game.pk, user=request.user)
    except RuleError as exc:
        _say_refused(request, exc)
        return redirect("games:watch")
    return redirect(game)


@login_required
def game_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a game: pick the game, seats, length, options and timing; invite players; add bots."""
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            with transaction.atomic():
                game = lifecycle.game_create(
                    creator=request.user,
                    engine=d["engine"],
                    players=d["players"],
                    options=form.options(),
                    length=form.length(),
                    control=d["control"],
                    control_custom=control_custom(d),
                    weekends_off=d["weekends_off"],
                    bots=d["bots"],
                    title=d["title"],
                    bot_test=d["bot_test"],
                    visibility=d["visibility"] or Game.Visibility.PUBLIC,
                    open_table=d["open_table"],
                    min_reliability=d.get("min_reliability") or 0,
                )
                # Invited by username: each takes a seat at once (the game starts when all are taken).
                for invitee in d["invite"]:
                    if invitee.pk != request.user.pk:
                        lifecycle.game_join(game_id=game.pk, user=invitee)
        except RuleError as exc:
            form.add_error(None, f"{error_detail(exc)} ({exc.code})")
        else:
            return redirect(game)
    return render(request, "games/new.html", {"form": form, "estimate": estimates.form_context(form)})


def board_fragment(
    request: HttpRequest,
    game: Game,
    error: RuleError | None = None,
    posted: dict[str, list[str]] | None = None,
) -> HttpResponse:
    """The board as htmx swaps it in (a poll that found the game changed, a move, a seat taken back),
    with the viewer's "Standing orders" panel swapped out of band: a move changes the hand its
    "play these if they beat" picker offers, and an order the server has just given goes from the list."""
    context = board_context(request, game, error=error, posted=posted)
    return render(request, "games/_board_fragment.html", {**context, **orders_panel(game, context["seat"])})


def poll_key(game: Game, seat: Seat | None, version: int) -> str:
    """What the board's poll sends as ``since``: a poll whose key still matches answers 204.

    The viewer's version and the game's status; ``-bot`` while the bot plays the viewer's seat (handed
    back: show the form again); ``-live<seats>`` while a sitting runs the game on the live control for
    those seats (``Game.live_clock``): a sitting's start, a late arrival joining it, a player leaving it
    and its end change every clock on the board without a move, so the page must be drawn again
    (docs/playing.md "Sittings").
    """
    taken = "-bot" if seat is not None and seat.bot_takeover else ""
    live = game.live_clock
    joined = sorted(live.get("banks") or {}, key=int) if isinstance(live, dict) else None
    sitting = "" if joined is None else "-live" + ".".join(joined)
    return f"{version}-{game.status}{taken}{sitting}"


def board_context(
    request: HttpRequest,
    game: Game,
    error: RuleError | None = None,
    posted: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Everything the board fragment shows, for the signed-in user's seat (or a spectator).

    ``posted``: the choices of the viewer's own form that was just refused, shown chosen again.
    """
    seats = list(game.seats.all())
    seat = selectors.seat_of(game, request.user if request.user.is_authenticated else None)
    position = seat.position if seat else None
    names = [s.label for s in sorted(seats, key=lambda s: s.position)]
    decisions = selectors.open_decisions(game=game)
    view = selectors.game_view(game=game, seat=position)
    visible_history = selectors.game_history(game=game, seat=position)
    board = None
    if view is not None:
        legal = None
        decision = view.get("decision")
        presenter = presenter_for(game.engine)
        # Only my own legal actions, for simple choices (Bao Huang plays, the toy engine's buttons),
        # when the game's presenter wants them.
        if position is not None and decision and presenter.wants_legal(decision) and game.state is not None:
            legal = get_engine(game.engine).legal_actions(game.state, position)
        committed = (
            presenter.COMMITS_END_TURN
            and decision is not None
            and position is not None
            and position == view.get("active")
            and _committed_this_turn(game, position, visible_history)
        )
        board = present(
            engine=game.engine,
            view=view,
            seat=position,
            names=names,
            legal=legal,
            events=[h["event"] for h in visible_history],
            committed=committed,
            posted=posted if position is not None else None,
        )
    version = selectors.viewer_version(game, position)
    # What is new since this person's last look is marked; this look is recorded for the next one.
    user = request.user if request.user.is_authenticated else None
    last_look = game_looks.looked(game=game, user=user, seat=position, version=version) if user else None
    recent = game_looks.new_history(
        visible_history, last=last_look, version=version, recent=RECENT_HISTORY, seat=position
    )
    history = history_rows(engine=game.engine, history=recent.rows, names=names)
    history.reverse()
    clocks = table_clocks(
        rows=selectors.public_decision_rows(game=game, viewer=position, rows=decisions),
        viewer=position,
        names=names,
        bot_played={s.position for s in seats if s.played_by_bot},
        control=game.time_control,
        paused=game.status == Game.Status.PAUSED,
        phase=view.get("phase") if view else None,
        viewer_away=seat_away(seat),
        answered=selectors.seat_answer_hidden(game=game, seat=position),
    )
    mine = [c for c in clocks if c["mine"]]
    taken_over = {s.position for s in seats if s.bot_takeover and not s.is_bot}
    thinking = [
        gettext("The bot playing %(name)s") % {"name": c["who"]} if c["seat"] in taken_over else c["who"]
        for c in clocks
        if c["thinking"]
    ]
    return {
        "game": game,
        "version": version,
        "poll_key": poll_key(game, seat, version),
        "seat": seat,
        "names": names,
        "board": board,
        "decision_text": describe_decision(game.engine, view["decision"])
        if view and view.get("decision")
        else "",
        "my_clock": mine[0] if mine else None,
        "clocks": clocks,
        "thinking": sorted(set(thinking)),
        "table_seats": with_banks(
            table_seats(seats=seats, viewer=position, now=timezone.now(), over=game.is_over),
            selectors.game_clock(game=game, viewer=position),
        ),
        "control": game.time_control,
        "me_away": seat_away(seat),
        "poll_seconds": THINKING_POLL_SECONDS if thinking else POLL_SECONDS,
        "history": history,
        "history_new_moves": recent.new_moves,
        "history_new_hidden": recent.hidden_new,
        "error": error,
        "error_message": error_detail(error) if error is not None else "",
        "act_url": reverse("games:act", args=[game.public_id]),
        "seed_template": presenter_for(game.engine).SEED_TEMPLATE,
        "seat_settings_template": presenter_for(game.engine).SEAT_SETTINGS_TEMPLATE,
        "away_text": presenter_for(game.engine).AWAY_TEXT,
        "bot_hold_text": lifecycle.BOT_HOLD_TEXT,
        **_invitation_context(request, game, seated=seat is not None),
        "seat_check": lobby.seat_check(game, request.user if request.user.is_authenticated else None)
        if game.status == Game.Status.OPEN and game.open_table
        else "",
        "table_min_decisions": reliability.TABLE_MIN_DECISIONS,
    }


def _invitation_context(request: HttpRequest, game: Game, *, seated: bool) -> dict[str, Any]:
    """The invitation links a viewer is shown: the game's players and creator only (a link seats anyone)."""
    if game.status != Game.Status.OPEN or not selectors.game_may_invite(
        game=game, user=request.user, seated=seated
    ):
        return {"invite_url": None, "manage_invitations": False}
    current = selectors.invitation_current(game=game)
    manage = selectors.game_may_manage_invitations(game=game, user=request.user)
    return {
        "invite_url": request.build_absolute_uri(current.get_absolute_url()) if current else None,
        "manage_invitations": manage,
        "single_use_urls": [
            (i.token, request.build_absolute_uri(i.get_absolute_url()))
            for i in (selectors.invitation_list_single_use(game=game) if manage else [])
        ],
    }


def _committed_this_turn(game: Game, seat: int, history: list[dict[str, Any]]) -> bool:
    """Whether ``seat``, the active player, already committed the end of this turn (BB-20.7).

    The turn began with the latest ``turn_started`` event of ``seat`` (a turn begun by the game's
    setup has none; every earlier move is then of this turn). Only the seat's own actions are read.
    """
    started = max(
        (
            h["move_seq"]
            for h in history
            if h["event"].get("type") == "turn_started" and h["event"].get("seat") == seat
        ),
        default=-1,
    )
    return Move.objects.filter(game=game, seat=seat, seq__gt=started, action__commit_end_turn=True).exists()


def visible_game(request: HttpRequest, public_id: str, *, seats: str = "people") -> tuple[Game, Any]:
    """The game ``public_id`` (settled when due) and the viewer's seat; 404 for whoever may not see it."""
    game_id = Game.objects.filter(public_id=public_id).values_list("pk", flat=True).first()
    game = selectors.game_read(game_id, seats=seats) if game_id is not None else None
    if game is None:
        raise Http404("no such game")
    seat = selectors.seat_of(game, request.user if request.user.is_authenticated else None)
    if not selectors.game_may_view(game=game, user=request.user, seated=seat is not None):
        raise Http404("no such game")
    return game, seat


def game_detail(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Play a game: my view, my open decision as a form, the history. Spectators see public state.

    htmx polls ``?since=<version>``: an unchanged game answers 204 (nothing to swap), a changed one
    the board fragment. The version is the viewer's (``selectors.viewer_version``), so a page never
    refreshes because somebody else answered a simultaneous decision (BB-30.6).
    """
    game, seat = visible_game(request, public_id)  # settled first when a deadline has passed
    if request.htmx:
        version = selectors.viewer_version(game, seat.position if seat else None)
        if request.GET.get("since", "") == poll_key(game, seat, version):
            return HttpResponse(status=204)
        return board_fragment(request, game)
    refused = request.session.pop(REFUSED_KEY, None) if hasattr(request, "session") else None
    posted = refused["choices"] if refused and refused.get("game") == public_id else None
    return render(
        request,
        "games/detail.html",
        {
            **board_context(request, game, posted=posted),
            **orders_panel(game, seat),
            **estimates.page_context(game),
            **table_talk.panel_context(
                game, seat, request.user, draft=table_talk.draft_take(request.session, game=game)
            ),
        },
    )


def game_by_number(request: HttpRequest, pk: int, page: str = "detail") -> HttpResponse:
    """An old link by the game's number: redirect to its page, for viewers who may see it; else 404.

    By number, an unlisted game is found only by its players and creator (``game_may_view``).
    """
    game = Game.objects.filter(pk=pk).first()
    if game is None:
        raise Http404("no such game")
    seated = selectors.seat_of(game, request.user if request.user.is_authenticated else None) is not None
    if not selectors.game_may_view(game=game, user=request.user, by_number=True, seated=seated):
        raise Http404("no such game")
    return redirect(reverse(f"games:{page}", args=[game.public_id]))


@login_required
@require_POST
def game_act(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Submit one action from a page form; a refusal is shown on the page and writes nothing."""
    game, _ = visible_game(request, public_id, seats="plain")
    error: RuleError | None = None
    try:
        action = action_from_post(engine=game.engine, data=request.POST)
        pipeline.submit_action(
            game_id=game.pk, user=request.user, action=action, key=request.POST.get("idempotency_key") or None
        )
    except RuleError as exc:
        error = exc
    # A refused form comes back with the player's own choices, not its defaults (``posted_choices``).
    posted = posted_choices(request.POST) if error is not None else None
    if request.htmx:
        game = Game.objects.prefetch_related("seats__user__profile").get(pk=game.pk)
        return board_fragment(request, game, error=error, posted=posted)
    if error is not None:
        messages.error(request, refusal(error))
        request.session[REFUSED_KEY] = {"game": public_id, "choices": posted}
    return redirect(game)


@login_required
@require_POST
def game_invitations(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """The creator's invitation tools: a new standing link, a single-use link, revoke one or all."""
    game, _ = visible_game(request, public_id, seats="plain")
    what = request.POST.get("do", "")
    try:
        if what in {"replace", "single_use"}:
            made = invitations.invitation_create(
                game_id=game.pk, user=request.user, single_use=what == "single_use"
            )
            if made.single_use:
                url = request.build_absolute_uri(made.get_absolute_url())
                messages.success(request, gettext("New single-use invitation link: %(url)s") % {"url": url})
            else:
                messages.success(request, gettext("New invitation link: the previous one no longer works."))
        elif what == "revoke":
            count = invitations.invitation_revoke(
                game_id=game.pk, user=request.user, token=request.POST.get("token") or None
            )
            messages.success(
                request,
                ngettext("Revoked %(n)s invitation link.", "Revoked %(n)s invitation links.", count)
                % {"n": count},
            )
        else:
            messages.error(request, gettext("Unknown invitation action."))
    except ServiceError as exc:
        if exc.status == 404:
            raise Http404("no such game") from None
        messages.error(request, f"{error_detail(exc)} ({exc.code})")
    return redirect(game)


def game_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: it shows the game (name and seats) to whoever holds it, signed in or not;
    a signed-in holder takes an open seat, anybody else is asked to sign in or sign up first. A player
    who already sits in its game (the creator, or someone opening the link again) is taken to the game,
    whether it still waits for players or has started since."""
    try:
        invitation = invitations.invitation_get(token=token)
    except invitations.GameCancelled as exc:  # the link says so rather than that it is unknown
        return render(
            request, "games/join.html", {"game": exc.game, "seats": exc.game.seats.all()}, status=410
        )
    except ServiceError:
        seated = _seated_game(request, token)
        if seated is not None:
            return redirect(seated)
        # A 404, as for a link that never existed, but saying what an invitation link's holder needs.
        return render(request, "games/join_invalid.html", status=404)
    game = invitation.game
    if _seated_game(request, token) is not None:
        return redirect(game)
    if request.method == "POST":
        user = request.user
        if not isinstance(user, User):  # not signed in: nothing is taken
            return redirect(f"{reverse('account_login')}?next={request.path}")
        try:
            invitations.invitation_accept(token=token, user=user)
        except RuleError as exc:
            messages.error(request, f"{error_detail(exc)} ({exc.code})")
            if not selectors.game_may_view(game=game, user=user):
                return redirect(request.path)
        return redirect(game)
    return render(
        request, "games/join.html", {"game": game, "seats": game.seats.all(), **estimates.page_context(game)}
    )


def _seated_game(request: HttpRequest, token: str) -> Game | None:
    """The invitation's game when the signed-in visitor already holds a seat in it."""
    user = request.user
    return invitations.invitation_game_seating(token=token, user=user) if isinstance(user, User) else None


def game_history(request: HttpRequest, public_id: str) -> HttpResponse:
    """The whole history, filtered by what my seat may see."""
    game, seat = visible_game(request, public_id)
    names = [s.label for s in sorted(game.seats.all(), key=lambda s: s.position)]
    history = history_rows(
        engine=game.engine,
        history=selectors.game_history(game=game, seat=seat.position if seat else None),
        names=names,
    )
    return render(request, "games/history.html", {"game": game, "history": history})


#: The replay's ``seat`` parameter for every card face up.
FACE_UP = "all"


def game_replay(request: HttpRequest, public_id: str) -> HttpResponse:
    """Step through a game that is over: ``?step=N&seat=S`` (``seat=all``: every card face up).

    Nothing of it exists while the game is in play: a page says the replay opens when the game ends,
    with a link back to the game. A seat's replay draws that seat's ``engine.view`` of each replayed
    state, so it shows exactly what that seat saw at that step.
    """
    game, _ = visible_game(request, public_id)
    if not game.is_over or game.state is None:
        return render(request, "games/replay_pending.html", {"game": game})
    try:
        step, seat = _replay_params(request.GET, players=game.players)
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    at = replay.replay_step(game=game, step=step, seat=seat)
    names = _distinct_names([s.label for s in sorted(game.seats.all(), key=lambda s: s.position)])
    me = selectors.seat_of(game, request.user if request.user.is_authenticated else None)
    seat_param = FACE_UP if seat is None else str(seat)
    steps = step_rows(engine=game.engine, at=at, seat=seat, names=names)
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "at": at,
            "seat": seat,
            "seat_param": seat_param,
            "seat_choices": [
                (FACE_UP, gettext("Every card face up")),
                *((str(p), gettext("As %(player)s saw it") % {"player": n}) for p, n in enumerate(names)),
            ],
            "viewer_name": None if seat is None else names[seat],
            "steps": steps,
            "current": steps[at.step - 1] if at.step else None,
            "links": {
                name: f"?step={target}&seat={seat_param}"
                for name, target in (
                    ("first", 0),
                    ("prev", at.step - 1),
                    ("next", at.step + 1),
                    ("last", at.steps),
                )
                if 0 <= target <= at.steps and target != at.step
            },
            **replay_board(
                engine=game.engine, at=at, seat=seat, names=names, mine=me is not None and me.position == seat
            ),
        },
    )


def _distinct_names(names: list[str]) -> list[str]:
    """Seat labels with the seat number added where two seats share a label (two bots)."""
    return [
        gettext("%(name)s (seat %(seat)s)") % {"name": n, "seat": p} if names.count(n) > 1 else n
        for p, n in enumerate(names)
    ]


#: A step or seat number of a replay URL (a longer one is no step of any game).
_NUMBER = re.compile(r"[0-9]{1,9}")


def _replay_params(query: QueryDict, *, players: int) -> tuple[int, int | None]:
    """``step`` (default 0, clamped later) and ``seat`` (default face up) of a replay URL."""
    raw_step = query.get("step", "0").strip() or "0"
    raw_seat = query.get("seat", FACE_UP).strip() or FACE_UP
    if not _NUMBER.fullmatch(raw_step):
        raise ValueError("invalid_step: step is a move number, 0 for the deal")
    if raw_seat == FACE_UP:
        return int(raw_step), None
    if not _NUMBER.fullmatch(raw_seat) or int(raw_seat) >= players:
        raise ValueError(f"invalid_seat: seat is {FACE_UP} or a seat number from 0 to {players - 1}")
    return int(raw_step), int(raw_seat)
