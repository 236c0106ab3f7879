"""League pages: thin views that parse input, call one service and render."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.accounts.models import display_name
from apps.games import estimates, reliability
from apps.games.errortext import error_detail, refusal
from apps.games.players import player_linked
from baogame.rules.core import RuleError

from . import (
    charts,
    confirmation,
    divisions,
    exports,
    game_tools,
    organisers,
    permissions,
    season_length,
    seasons,
    selectors,
    services,
)
from .auditlog import audit_sentence
from .forms import (
    EmailForm,
    GameToolForm,
    LeagueCreateForm,
    LeagueSettingsForm,
    SeasonCreateForm,
    errors_text,
)
from .models import League, Membership, Season

#: ``?season=`` of a league's page: ASCII digits, a few of them (``int`` refuses ``²``, and reads
#: thousands of digits slowly or not at all).
_SEASON_NUMBER = re.compile(r"[0-9]{1,18}")


def league_list(request: HttpRequest) -> HttpResponse:
    """The leagues the user may see."""
    return render(request, "leagues/list.html", {"rows": selectors.league_rows(user=request.user)})


@login_required
def league_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a league; the creator organises it."""
    form = LeagueCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(creator=request.user, **form.cleaned_data)
        except RuleError as exc:
            form.add_error(None, f"{error_detail(exc)} ({exc.code})")
        else:
            return redirect(league)
    estimate = estimates.form_context(
        form, engine_field="game", players_field="players_per_table", control_field="timing_preset"
    )
    return render(request, "leagues/new.html", {"form": form, "estimate": estimate})


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings, the rating chart, rounds and their games, the audit log."""
    league = selectors.league_get_visible(user=request.user, slug=slug)
    season = selectors.season_current(league=league)
    wanted = request.GET.get("season", "")
    if _SEASON_NUMBER.fullmatch(wanted):  # an earlier season: ?season=<number>
        season = league.seasons.filter(number=int(wanted)).first() or season
    views = selectors.season_divisions(season=season) if season else []
    for view in views:
        _with_result_states(view.rounds)
    table = [row for view in views for row in view.table]
    names = {row.user_id: row.name for row in table}
    divisions = [
        {
            "division": view.division,
            "table": view.table,
            "rounds": view.rounds,
            "chart": charts.rating_chart(
                series={names.get(uid, str(uid)): line for uid, line in view.history.items()}
            ),
        }
        for view in views
    ]
    chart = divisions[0]["chart"] if len(divisions) == 1 else None
    over = season is not None and season.status == Season.Status.FINISHED
    context: dict[str, Any] = {
        "league": league,
        "role": selectors.league_role(league=league, user=request.user),
        "season": season,
        "season_length_text": season_length.season_length_text(season) if season else "",
        # a finished season took what it took: no estimate, but who won it (each division's)
        "season_estimate": season_length.season_estimate(season) if season and not over else None,
        "champions": [
            {"division": view.division, "names": [row.name for row in view.table if row.rank == 1]}
            for view in views
            if over and any(row.games_played for row in view.table)
        ],
        "next_round": _next_round(season),
        # a finished season whose standings may still change: its provisional or reopened results
        "results_open": len(confirmation.results_open(season)) if over and season else 0,
        "table": table,
        "names": names,
        "chart": chart,
        "divisions": divisions,
        "many_divisions": len(divisions) > 1,
        "season_numbers": list(league.seasons.order_by("number").values_list("number", flat=True)),
        "provisional": confirmation.provisional_players(season) if season else {},
        "reliability": reliability.records_for([row.user_id for row in table]),
        "audit_log": [
            {"entry": entry, "sentence": audit_sentence(entry)}
            for entry in selectors.league_audit_log(league=league)
        ],
        "offers": selectors.offers_pending_for(league=league, user=request.user),
        "may_manage": services.league_may_manage(league=league, user=request.user),
        **_organisers(league),
        "members": [] if table else _member_names(league),  # before the first round: no standings yet
    }
    return render(request, "leagues/detail.html", context)


def _next_round(season: Season | None) -> dict[str, Any] | None:
    """The season's next round by the schedule: ``number`` and ``due`` (when beat starts it), or None."""
    if season is None or season.status == Season.Status.FINISHED:
        return None
    started = season.round_set.count()
    if started >= season.rounds:
        return None
    return {
        "number": started + 1,
        "due": season.starts_at + timedelta(days=season.round_interval_days * started),
    }


def _organisers(league: League) -> dict[str, Any]:
    """The league's organisers for a page: ``organisers``, their names in order, and ``organiser_ids``."""
    people = list(league.organisers.select_related("profile"))
    return {
        "organisers": sorted((display_name(u) for u in people), key=str.lower),
        "organiser_ids": {u.pk for u in people},
    }


def _member_names(league: League) -> list[dict[str, Any]]:
    """The active members (the league page before its first round, which has no standings yet), by
    name: each row's ``name``, ``username`` and ``has_page``, so that a name links to the player's page
    as the standings' names do (``player_links.player_page``), but a closed account's."""
    active = selectors.league_members(league=league).filter(status=Membership.Status.ACTIVE)
    rows = [
        {"name": display_name(m.user), "username": m.user.get_username(), "has_page": player_linked(m.user)}
        for m in active
    ]
    return sorted(rows, key=lambda row: str(row["name"]).lower())


def _with_result_states(rounds: list[Any]) -> list[Any]:
    """Each fixture of a division's rounds gets ``result_state`` (provisional, confirmed, …) for the page."""
    for rnd in rounds:
        for fixture in rnd.tables:
            fixture.result_state = confirmation.result_state(fixture)
    return rounds


def _with_records(memberships: Any) -> list[Any]:
    """Each membership gets its player's reliability ``record`` (the organiser's member list)."""
    rows = list(memberships)
    records = reliability.records_for([m.user_id for m in rows])
    for membership in rows:
        membership.record = records[membership.user_id]
    return rows


@login_required
def offer_detail(request: AuthenticatedHttpRequest, slug: str, offer_id: int) -> HttpResponse:
    """A seat offered to a member: they accept (and play the seat from then on) or decline."""
    league = selectors.league_get_visible(user=request.user, slug=slug)
    offer = selectors.offer_get(league=league, offer_id=offer_id, user=request.user)
    return render(request, "leagues/offer.html", {"league": league, "offer": offer})


@login_required
@require_POST
def offer_answer(request: AuthenticatedHttpRequest, slug: str, offer_id: int, answer: str) -> HttpResponse:
    """The newcomer accepts or declines a seat offer."""
    league = selectors.league_get_visible(user=request.user, slug=slug)
    if answer not in {"accept", "decline"}:
        raise Http404("no such answer")
    try:
        offer = game_tools.substitute_answer(offer_id=offer_id, user=request.user, accept=answer == "accept")
    except RuleError as exc:
        messages.error(request, refusal(exc))
        return redirect("leagues:offer", slug=league.slug, offer_id=offer_id)
    if answer == "accept":
        messages.success(request, gettext("You play seat %(n)s from now on.") % {"n": offer.position})
        return redirect(offer.game)
    messages.success(request, gettext("You declined the seat."))
    return redirect(league)


def league_join(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The invite link: sign in, then join (also a private league)."""
    league = League.objects.filter(slug=slug, invite_token=token).first()
    if league is None:
        return render(request, "leagues/join.html", {"league": None}, status=404)
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next={request.path}")
    member = Membership.objects.filter(league=league, user=request.user, status=Membership.Status.ACTIVE)
    if request.method == "POST":
        try:
            services.membership_join_by_link(league=league, user=request.user, token=token)
        except RuleError as exc:  # reliability_too_low: the page says why, not a server error
            messages.error(request, refusal(exc))
            return render(
                request, "leagues/join.html", {"league": league}, status=getattr(exc, "status", 400)
            )
        messages.success(request, gettext("You are a member of %(league)s.") % {"league": league.name})
        return redirect(league)
    return render(request, "leagues/join.html", {"league": league, "already_member": member.exists()})


def _member_action(request: AuthenticatedHttpRequest, slug: str, action: str) -> HttpResponse:
    league = selectors.league_get_visible(user=request.user, slug=slug)
    try:
        if action == "request":
            services.membership_request(league=league, user=request.user)
            messages.success(request, gettext("Your request to join was sent to the organisers."))
        else:
            services.membership_withdraw(league=league, user=request.user)
            messages.success(request, gettext("You have withdrawn from the league."))
    except RuleError as exc:
        messages.error(request, error_detail(exc))
    return redirect(league)


@login_required
@require_POST
def league_request(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Ask to join a public league."""
    return _member_action(request, slug, "request")


@login_required
@require_http_methods(["GET", "POST"])
def league_withdraw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Leave the league (POST), after a page that says what leaving means and asks to confirm (GET)."""
    if request.method == "POST":
        return _member_action(request, slug, "withdraw")
    league = selectors.league_get_visible(user=request.user, slug=slug)
    if selectors.league_role(league=league, user=request.user)["membership"] != Membership.Status.ACTIVE:
        return redirect(league)
    return render(request, "leagues/withdraw.html", {"league": league})


def _organised(request: AuthenticatedHttpRequest, slug: str) -> League | None:
    league = selectors.league_get_visible(user=request.user, slug=slug)
    return league if services.league_may_manage(league=league, user=request.user) else None


@login_required
def league_manage(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The organiser tools."""
    league = _organised(request, slug)
    if league is None:
        raise PermissionDenied("only the league's organisers can manage it")
    fixtures = list(selectors.league_fixtures_open(league=league))
    season = selectors.season_current(league=league)
    context = {
        "league": league,
        "season": season,
        "members": _with_records(selectors.league_members(league=league)),
        "results": (results := exports.results_open_to_organisers(league=league)),
        "own_result_games": selectors.games_played_by(games=[f.game for f in results], user=request.user),
        "fixtures": fixtures,
        "own_games": selectors.games_played_by(games=[f.game for f in fixtures], user=request.user),
        "sole_organiser_plays": (sole := permissions.league_sole_organiser_plays(league=league)),
        "may_gain_organiser": sole and permissions.league_may_gain_organiser(league=league),
        **_organisers(league),
        "i_organise": permissions.league_is_organiser(league=league, user=request.user),
        "invite_url": request.build_absolute_uri(f"/leagues/{league.slug}/join/{league.invite_token}/"),
        "season_form": SeasonCreateForm(league=league),
        "results_open": len(confirmation.results_open(season)) if season else 0,
        "season_length_text": season_length.season_length_text(season) if season else "",
        "next_round": _next_round(season),
        "email_form": EmailForm(),
        "tool_form": GameToolForm.for_play(),
        "provisional_tool_form": GameToolForm.for_result(confirmation.PROVISIONAL),
        "reopened_tool_form": GameToolForm.for_result(confirmation.REOPENED),
        "settings_form": LeagueSettingsForm.for_league(league),
    }
    return render(request, "leagues/manage.html", context)


@login_required
@require_POST
def league_manage_action(request: AuthenticatedHttpRequest, slug: str, action: str) -> HttpResponse:
    """One organiser action posted from the tools page."""
    league = _organised(request, slug)
    if league is None:
        raise PermissionDenied("only the league's organisers can manage it")
    try:
        done = _run_manage_action(request, league, action)
    except RuleError as exc:
        messages.error(request, f"{error_detail(exc)} ({exc.code})")
    except _Invalid as exc:
        messages.error(request, str(exc))
    else:
        if done:
            messages.success(request, done)
    if not services.league_may_manage(league=league, user=request.user):  # stepped down
        return redirect(league.get_absolute_url())
    return redirect("leagues:manage", slug=league.slug)


class _Invalid(Exception):
    """A tool's form that cannot be acted on (invalid, or nothing to act on): said as an error."""


def _run_manage_action(request: AuthenticatedHttpRequest, league: League, action: str) -> str:
    user = request.user
    if action in {"approve", "decline"}:
        answered = services.membership_approve(
            league=league, membership_id=int(request.POST["membership"]), by=user, approve=action == "approve"
        )
        name = {"name": display_name(answered.user)}
        if action == "approve":
            return gettext("%(name)s is a member now: the next round seats them.") % name
        return gettext("%(name)s's request to join was declined.") % name
    if action == "organiser":
        made = organisers.organiser_add(league=league, membership_id=int(request.POST["membership"]), by=user)
        return gettext("%(name)s is now an organiser of this league.") % {"name": display_name(made.user)}
    if action == "step_down":
        organisers.organiser_step_down(league=league, by=user)
        return gettext("You no longer organise this league.")
    if action == "settings":
        settings_form = LeagueSettingsForm(request.POST)
        if not settings_form.is_valid():
            raise _Invalid(gettext("Invalid settings: %(errors)s") % {"errors": errors_text(settings_form)})
        services.league_update(league=league, by=user, **settings_form.cleaned_data)
        return gettext("Settings saved; they apply to the games of the rounds started from now on.")
    if action == "season":
        season_form = SeasonCreateForm(request.POST, league=league)
        if not season_form.is_valid():
            raise _Invalid(gettext("Invalid season: %(errors)s") % {"errors": errors_text(season_form)})
        if league.divisions > 1:
            season = divisions.season_propose(league=league, by=user, **season_form.season_kwargs())
            return gettext("Season %(n)s scheduled: review and confirm its divisions below.") % {
                "n": season.number
            }
        season = seasons.season_create(league=league, by=user, **season_form.season_kwargs())
        return gettext("Season %(n)s scheduled.") % {"n": season.number}
    if action == "round":
        current = selectors.season_current(league=league)
        if current is None:
            raise _Invalid(gettext("Create a season first."))
        rnd = seasons.round_start(season_id=current.pk, by=user)
        return gettext("Round %(n)s started.") % {"n": rnd.number}
    if action == "email":
        email_form = EmailForm(request.POST)
        if not email_form.is_valid():
            raise _Invalid(gettext("A message needs a subject and a text."))
        sent = services.league_email_members(league=league, by=user, **email_form.cleaned_data)
        return ngettext("%(n)s message sent.", "%(n)s messages sent.", sent) % {"n": sent}
    if action == "game":
        return _game_tool(request, league)
    raise _Invalid(gettext("Unknown action."))


def _game_tool(request: AuthenticatedHttpRequest, league: League) -> str:
    form = GameToolForm(request.POST)
    if not form.is_valid():
        raise _Invalid(gettext("Invalid: %(errors)s") % {"errors": errors_text(form)})
    d = form.cleaned_data
    game_id, user, reason, seat = int(request.POST["game"]), request.user, d["reason"], d["seat"]
    common: dict[str, Any] = {"league": league, "game_id": game_id, "by": user}
    match d["action"]:
        case "extend":
            game_tools.game_deadline_extend(**common, seat=seat or 0, hours=d["hours"] or 24, reason=reason)
        case "pause":
            game_tools.game_pause(**common, reason=reason)
        case "resume":
            game_tools.game_resume(**common, reason=reason)
        case "substitute":
            newcomer = get_user_model().objects.filter(username=d["username"]).first()
            if newcomer is None:
                raise _Invalid(gettext("No such user."))
            offer = game_tools.seat_substitute(**common, position=seat or 0, user=newcomer, reason=reason)
            return gettext(
                "Seat %(n)s offered to %(user)s: they take it when they accept; "
                "until then it is played as before."
            ) % {"n": offer.position, "user": newcomer.get_username()}
        case "bot_on" | "bot_off":
            game_tools.seat_bot_takeover(
                **common, position=seat or 0, on=d["action"] == "bot_on", reason=reason
            )
        case "adjudicate":
            game_tools.game_adjudicate(**common, places=dict(enumerate(d["places"])), reason=reason)
        case "abort":
            game_tools.game_abort(**common, reason=reason)
        case "confirm":
            confirmation.result_confirm(**common, reason=reason)
            return gettext("Result confirmed.")
        case "reopen":
            confirmation.result_reopen(**common, reason=reason)
            return gettext("Result reopened: it left the standings until you adjudicate it.")
        case "adjudicate_result":
            confirmation.result_adjudicate(**common, places=dict(enumerate(d["places"])), reason=reason)
            return gettext("Result adjudicated and confirmed.")
    return gettext("Done.")


def season_export_csv(request: HttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    """``/leagues/<slug>/seasons/<n>/<standings|ratings|games>.csv`` for whoever may see the league."""
    league = selectors.league_get_visible(user=request.user, slug=slug)
    season = league.seasons.filter(number=number).first()
    if season is None or kind not in exports.KINDS:
        raise Http404("no such export")
    response = HttpResponse(
        exports.to_csv(kind, exports.rows(kind, season)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-season-{number}-{kind}.csv"'
    return response
