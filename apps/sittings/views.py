"""The "Sittings" panel of the game page: it polls its own address (which records the seat's presence),
and its forms propose times (in the viewer's own time zone), answer them and start an ad-hoc sitting.

Each form works without JavaScript (POST, then back to the game page); htmx posts get the panel back.
Outside the table (watchers, strangers) the panel is empty and its forms answer 403.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.accounts.zone_names import active_zone_label
from apps.games.errors import ServiceError
from apps.games.errortext import refusal
from apps.games.models import Game
from apps.games.views import visible_game

from . import lifecycle, selectors, services
from .acceptance import Recurrence

#: How often the panel asks the server: often enough for presence (``PRESENCE_WINDOW``), and every
#: 2 s while a sitting is under way.
POLL_SECONDS = 10
LIVE_POLL_SECONDS = 2
#: A proposed time's number from a form: ASCII digits, a few of them (``int`` refuses ``²``, and reads
#: thousands of digits slowly or not at all).
_TIME_INDEX = re.compile(r"[0-9]{1,18}")
WEEKDAYS = (
    pgettext_lazy("weekday", "Mon"),
    pgettext_lazy("weekday", "Tue"),
    pgettext_lazy("weekday", "Wed"),
    pgettext_lazy("weekday", "Thu"),
    pgettext_lazy("weekday", "Fri"),
    pgettext_lazy("weekday", "Sat"),
    pgettext_lazy("weekday", "Sun"),
)


def panel_context(request: HttpRequest, game: Game, error: str = "") -> dict[str, object]:
    """The panel's context; no panel at a table of one person against bots (``table_of_one``: nobody
    to agree a time with), where the game page shows none."""
    panel = None if selectors.table_of_one(game) else selectors.panel(game=game, user=request.user)
    return {
        "game": game,
        "panel": panel,
        "error": error,
        "zone": active_zone_label(timezone.get_current_timezone_name()),
        "weekdays": list(enumerate(WEEKDAYS)),
        "poll_seconds": LIVE_POLL_SECONDS if panel and panel.current else POLL_SECONDS,
        "today": timezone.localdate().isoformat(),
    }


def _table_game(request: HttpRequest, public_id: str) -> Game:
    """The game, for a member of its table; 404 for whoever may not see the game, 403 for watchers."""
    game, _ = visible_game(request, public_id, seats="plain")
    if not selectors.may_see(game=game, user=request.user):
        raise PermissionDenied("sittings are the business of the game's players")
    return game


def sitting_panel(request: HttpRequest, public_id: str) -> HttpResponse:
    """The panel (an htmx poll of the game page): records the viewer's presence at their seat."""
    game = _table_game(request, public_id)
    services.presence_seen(game=game, user=request.user)
    lifecycle.advance(game=game)
    seat = selectors.human_seat_of(game=game, user=request.user)
    if seat is not None:
        lifecycle.arrive(game=game, position=seat)
    context = panel_context(request, game)
    response = render(request, "sittings/_live.html", context)
    if context["poll_seconds"] == LIVE_POLL_SECONDS:
        # During a sitting the board asks for news at this pace too (its own 204 when nothing moved).
        response["HX-Trigger"] = "sittings-tick"
    return response


#: The tag of a refusal the "Sittings" panel shows itself (``base.html`` leaves it out on a game page).
PANEL_TAG = "sittings"


def _done(request: AuthenticatedHttpRequest, game: Game, error: ServiceError | None = None) -> HttpResponse:
    text = refusal(error) if error else ""
    if request.htmx:
        return render(request, "sittings/_live.html", panel_context(request, game, text))
    if error:
        # Shown in the panel (``sittings_panel``), where the redirect scrolls, not out of sight at the top.
        messages.error(request, text, extra_tags=PANEL_TAG)
    return redirect(game.get_absolute_url() + "#sittings")


def _local(day: str, at: str) -> datetime:
    """A wall-clock date and time in the viewer's zone, as an aware datetime."""
    try:
        naive = datetime.combine(date.fromisoformat(day), time.fromisoformat(at))
    except ValueError:
        raise ServiceError("bad_times", "give each time as a date and a time of day") from None
    return timezone.make_aware(naive, timezone.get_current_timezone())


@login_required
@require_POST
def sitting_propose(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Propose up to three times, or a weekly series, in the proposer's own time zone."""
    game = _table_game(request, public_id)
    post = request.POST
    zone = str(timezone.get_current_timezone())
    try:
        length = timedelta(minutes=int(post.get("length", "60") or 60))
        if post.get("repeat"):
            recurrence = Recurrence(
                weekdays=tuple(sorted({int(d) for d in post.getlist("weekday")})),
                at=time.fromisoformat(post.get("at", "")),
                weeks=int(post.get("weeks", "0") or 0),
                first_day=date.fromisoformat(post.get("first_day", "")),
                time_zone=zone,
            )
            services.proposal_create(game=game, user=request.user, recurrence=recurrence, length=length)
        else:
            times = [
                _local(post.get(f"day{i}", ""), post.get(f"at{i}", ""))
                for i in range(1, 4)
                if post.get(f"day{i}") or post.get(f"at{i}")
            ]
            services.proposal_create(game=game, user=request.user, times=times, length=length, time_zone=zone)
    except ServiceError as exc:
        return _done(request, game, exc)
    except ValueError:
        return _done(request, game, ServiceError("bad_times", "a number, date or time did not read"))
    return _done(request, game)


@login_required
@require_POST
def sitting_answer(request: AuthenticatedHttpRequest, public_id: str, proposal_id: int) -> HttpResponse:
    """Yes or no to one time of a proposal (``index``) or to all its open times."""
    game = _table_game(request, public_id)
    index = request.POST.get("index", "")
    try:
        services.answer(
            game=game,
            user=request.user,
            proposal_id=proposal_id,
            accept=request.POST.get("accept") == "yes",
            index=int(index) if _TIME_INDEX.fullmatch(index) else None,  # ASCII digits only ("²")
        )
    except ServiceError as exc:
        return _done(request, game, exc)
    return _done(request, game)


@login_required
@require_POST
def sitting_play_now(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """ "Everyone is here: play now": offer (or accept) an ad-hoc sitting of up to an hour."""
    return _act(request, public_id, services.ad_hoc_offer)


@login_required
@require_POST
def sitting_end(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Ask to end the sitting under way: it ends once everyone present has asked."""
    return _act(request, public_id, lifecycle.end_vote)


def _act(request: AuthenticatedHttpRequest, public_id: str, act: Callable[..., object]) -> HttpResponse:
    """Run one of the table's sitting actions for the signed-in player and show the panel again (with the
    refusal, if the service refused)."""
    game = _table_game(request, public_id)
    try:
        act(game=game, user=request.user)
    except ServiceError as exc:
        return _done(request, game, exc)
    return _done(request, game)
