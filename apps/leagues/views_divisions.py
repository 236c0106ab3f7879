"""The organiser's proposal screen: a new season's divisions, moves by hand, confirmation."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.games.errortext import refusal
from baogame.rules.core import RuleError

from . import divisions, selectors, services
from .forms import DivisionMoveForm, errors_text
from .models import League, Season


def _season(request: AuthenticatedHttpRequest, slug: str, number: int) -> tuple[League, Season] | None:
    league = selectors.league_get_visible(user=request.user, slug=slug)
    if not services.league_may_manage(league=league, user=request.user):
        return None
    season = league.seasons.filter(number=number).first()
    if season is None:
        raise Http404("no such season")
    return league, season


@login_required
def season_divisions(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """The season's proposed (or confirmed) divisions, who moves up or down, and the tools."""
    found = _season(request, slug, number)
    if found is None:
        raise PermissionDenied("only the league's organisers can manage it")
    league, season = found
    context = {
        "league": league,
        "season": season,
        "divisions": divisions.season_proposal(season=season),
        "problems": [] if season.divisions_confirmed_at else divisions.division_problems(season=season),
        "division_numbers": range(1, league.divisions + 1),
    }
    return render(request, "leagues/divisions.html", context)


@login_required
@require_POST
def season_divisions_action(
    request: AuthenticatedHttpRequest, slug: str, number: int, action: str
) -> HttpResponse:
    """Move one member (``move``) or confirm the divisions (``confirm``)."""
    found = _season(request, slug, number)
    if found is None:
        raise PermissionDenied("only the league's organisers can manage it")
    league, season = found
    try:
        if action == "move":
            form = DivisionMoveForm(request.POST)
            if not form.is_valid():
                messages.error(request, gettext("Invalid move: %(errors)s") % {"errors": errors_text(form)})
            else:
                d = form.cleaned_data
                divisions.placement_move(
                    season=season,
                    user_id=d["user"],
                    division=d["division"],
                    by=request.user,
                    reason=d["reason"],
                )
                messages.success(request, gettext("Moved."))
        elif action == "confirm":
            divisions.divisions_confirm(season=season, by=request.user)
            messages.success(
                request, gettext("The divisions of season %(n)s are confirmed.") % {"n": season.number}
            )
        else:
            raise Http404("no such action")
    except RuleError as exc:
        messages.error(request, refusal(exc))
    return redirect("leagues:divisions", slug=league.slug, number=season.number)
