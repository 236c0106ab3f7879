"""Game pages: thin views that parse input, call one service and render."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from baogame.rules.core import RuleError

from . import selectors, services
from .forms import GameCreateForm
from .models import Game


def home(request: HttpRequest) -> HttpResponse:
    """Landing page; signed in, the dashboard with the games waiting for me first."""
    if not request.user.is_authenticated:
        return render(request, "home.html")
    games = selectors.game_list_for_user(user=request.user).prefetch_related("seats__user")
    return render(request, "games/dashboard.html", {"games": games})


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """Create a game: pick the game, seats, options and timing; fill seats with bots."""
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        options: dict[str, Any] = {}
        if d["engine"] == "baobei":
            options["memory_aid"] = d["memory_aid"]
            if d.get("threshold"):
                options["threshold"] = d["threshold"]
        elif d.get("target"):
            options["target"] = d["target"]
        try:
            game = services.game_create(
                creator=request.user,
                engine=d["engine"],
                players=d["players"],
                options=options,
                timing_preset=d["timing_preset"],
                bots=d["bots"],
                title=d["title"],
            )
        except RuleError as exc:
            form.add_error(None, f"{exc.message} ({exc.code})")
        else:
            return redirect(game)
    return render(request, "games/new.html", {"form": form})


def _seat_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    seat = services.seat_of(game, request.user)
    position = seat.position if seat else None
    view = selectors.game_view(game=game, seat=position)
    return {
        "game": game,
        "seat": seat,
        "view": view,
        "view_json": json.dumps(view, indent=1) if view is not None else "",
        "decisions": selectors.open_decisions(game=game),
        "history": selectors.game_history(game=game, seat=position)[-50:],
    }


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Play a game: my view, my open decision as a form, the history. Spectators see public state."""
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=pk)
    if game.status in {Game.Status.ACTIVE, Game.Status.PAUSED}:
        services.settle_due(game.pk)
        game.refresh_from_db()
    return render(request, "games/detail.html", _seat_context(request, game))


@login_required
@require_POST
def game_act(request: HttpRequest, pk: int) -> HttpResponse:
    """Submit an action posted as JSON in the field ``action`` (forms build it)."""
    game = get_object_or_404(Game, pk=pk)
    try:
        action = json.loads(request.POST.get("action", ""))
    except json.JSONDecodeError:
        action = None
    try:
        services.submit_action(
            game_id=game.pk, user=request.user, action=action, key=request.POST.get("idempotency_key") or None
        )
    except RuleError as exc:
        messages.error(request, f"{exc.message} ({exc.code})")
    return redirect(game)


def game_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: sign in, then take an open seat."""
    game = Game.objects.filter(invite_token=token).first()
    if game is None:
        raise Http404("no such invitation")
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next={request.path}")
    if request.method == "POST":
        try:
            services.game_join(game_id=game.pk, user=request.user)
        except RuleError as exc:
            messages.error(request, exc.message)
        return redirect(game)
    return render(request, "games/join.html", {"game": game})


def game_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole history, filtered by what my seat may see."""
    game = get_object_or_404(Game, pk=pk)
    seat = services.seat_of(game, request.user)
    history = selectors.game_history(game=game, seat=seat.position if seat else None)
    return render(request, "games/history.html", {"game": game, "history": history})
