"""A player's own controls on the pages: take the seat back from the bot, the plucking-window switch,
vacation. Each is a plain form (POST, then a redirect) that works without JavaScript; htmx posts of the
take-back button get the board fragment back. The API offers the same (``apps/api/views_clock.py``).
"""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.accounts.vacation import day_words, planned_return_set
from baogame.rules.core import RuleError

from . import clock, lifecycle
from .errortext import refusal
from .models import Game
from .presenters.timeleft import vacation_left_words
from .views import board_fragment, visible_game


def _back(request: AuthenticatedHttpRequest, default: str) -> HttpResponse:
    """Redirect to the form's ``next`` when it is a page of this site, else to ``default``."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = default
    return redirect(target)


def _refused(request: AuthenticatedHttpRequest, exc: RuleError) -> None:
    messages.error(request, refusal(exc))


@login_required
@require_POST
def seat_take_back(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """ "Take my seat back": the bot stops playing the user's seat in this game (refused, and said so,
    while an organiser's hold on the seat stands)."""
    game, _ = visible_game(request, public_id, seats="plain")
    error: RuleError | None = None
    try:
        lifecycle.seat_take_back(game_id=game.pk, user=request.user)
    except RuleError as exc:
        error = exc
    if request.htmx:  # the board answers: the banner has gone, or the refusal shows on it
        game = Game.objects.prefetch_related("seats__user__profile").get(pk=game.pk)
        return board_fragment(request, game, error=error)
    if error is not None:
        _refused(request, error)
    else:
        messages.success(
            request,
            gettext("You have your seat back in %(game)s: the bot no longer plays for you.") % {"game": game},
        )
    return _back(request, game.get_absolute_url())


@login_required
@require_POST
def seat_hand_over(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """ "Let the bot play my seat": the bot plays the user's seat in this game until they take it back."""
    game, _ = visible_game(request, public_id, seats="plain")
    try:
        lifecycle.seat_hand_to_bot(game_id=game.pk, user=request.user)
    except RuleError as exc:
        _refused(request, exc)
    else:
        messages.success(
            request,
            gettext("The bot plays your seat in %(game)s until you take it back.") % {"game": game},
        )
    return _back(request, game.get_absolute_url())


@login_required
@require_POST
def seat_settings(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """My seat's private settings: "don't wait for me on plucking windows"."""
    game, _ = visible_game(request, public_id, seats="plain")
    skip = request.POST.get("skip_pluck_windows") == "on"
    try:
        lifecycle.seat_set_skip_pluck_windows(game_id=game.pk, user=request.user, value=skip)
    except RuleError as exc:
        _refused(request, exc)
    else:
        messages.success(
            request,
            gettext("Plucking windows no longer wait for you: you pass them at once.")
            if skip
            else gettext("Plucking windows wait for you again."),
        )
    return redirect(game)


@login_required
@require_POST
def seat_add_bot(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """The creator puts a server bot into an open seat of a game waiting for players."""
    game, _ = visible_game(request, public_id, seats="plain")
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        messages.error(request, gettext("Refused: choose an open seat (no_open_seat)."))
        return redirect(game)
    try:
        lifecycle.seat_fill_bot(game_id=game.pk, user=request.user, position=position)
    except RuleError as exc:
        _refused(request, exc)
    return redirect(game)


def _date_field(text: str) -> date | None:
    """An optional ``YYYY-MM-DD`` form field; ``invalid_return_date`` when it is not one."""
    if not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise RuleError("invalid_return_date", "the planned return is not a date (YYYY-MM-DD)") from None


@login_required
@require_POST
def vacation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start (``action=start``) or end (``action=end``) the user's vacation."""
    action = request.POST.get("action")
    try:
        if action == "start":
            returns_on = _date_field(request.POST.get("returns_on", ""))
            with transaction.atomic():
                profile = clock.vacation_start(user=request.user)
                profile = planned_return_set(profile=profile, returns_on=returns_on)
            left = vacation_left_words(profile)
            said = gettext(
                "You are on vacation: your clocks are stopped in every game (%(left)s left this year)."
            ) % {"left": left}
            if returns_on is not None:
                today = timezone.localtime(timezone.now(), profile.zone).date()
                day = day_words(returns_on, today)
                said += " " + gettext("The others see you away until %(date)s.") % {"date": day}
            messages.success(request, said)
        elif action == "end":
            profile = clock.vacation_end(user=request.user)
            left = vacation_left_words(profile)
            said = gettext("Welcome back: your clocks run again (%(left)s of vacation left this year).") % {
                "left": left
            }
            messages.success(request, said)
        else:
            messages.error(
                request, gettext("Refused: choose to start or to end your vacation (invalid_action).")
            )
    except RuleError as exc:
        _refused(request, exc)
    return _back(request, reverse("accounts:profile"))
