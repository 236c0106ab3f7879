"""Mail pages: preferences, one-click unsubscribe (no login), signed game links."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.games import selectors as game_selectors

from . import bounces, calendar, preferences, selectors, tokens
from .checks import inbound_webhook_secret
from .models import Category

MODE_LABELS = {
    "immediately": gettext_lazy("Immediately"),
    "digest": gettext_lazy("Daily digest"),
    "off": pgettext_lazy("notifications", "Off"),
}


class NotificationsForm(forms.Form):
    """The Notifications table (a select per cell that applies), the digest hour, live games and the
    quiet hours."""

    digest_hour = forms.IntegerField(
        min_value=0, max_value=23, label=gettext_lazy("Digest hour (your local time)")
    )
    live_games = forms.BooleanField(
        required=False, label=gettext_lazy("Also notify me about live (fast) games")
    )
    quiet_start = forms.TimeField(
        required=False, label=gettext_lazy("Quiet from"), widget=forms.TimeInput(attrs={"type": "time"})
    )
    quiet_end = forms.TimeField(
        required=False,
        label=pgettext_lazy("quiet hours", "until"),
        widget=forms.TimeInput(attrs={"type": "time"}),
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for row in preferences.ROWS:
            for channel in preferences.CHANNELS:
                offered = preferences.modes_for(row.key, channel)
                if offered:
                    self.fields[cell_field(row.key, channel)] = forms.ChoiceField(
                        choices=[(m, MODE_LABELS[m]) for m in offered],
                        label=f"{row.label}: {preferences.CHANNEL_LABELS[channel]}",
                    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(gettext("Quiet hours need both a start and an end (or neither)."))
        if start is not None and start == end:
            raise forms.ValidationError(gettext("Quiet hours need an end different from their start."))
        return data

    def table(self) -> list[dict[str, object]]:
        """The rows for the template: a label and, per channel, the bound select or None."""
        return [
            {
                "label": row.label,
                "cells": [
                    self[cell_field(row.key, channel)] if preferences.modes_for(row.key, channel) else None
                    for channel in preferences.CHANNELS
                ],
            }
            for row in preferences.ROWS
        ]


def cell_field(category: str, channel: str) -> str:
    return f"cell_{category}_{channel}"


@login_required
def preferences_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show and change the Notifications table, digest hour, live games and quiet hours."""
    current = selectors.preferences_get(user=request.user)
    quiet_hours = current["quiet_hours"] or {}
    initial: dict[str, object] = {
        "digest_hour": current["digest_hour"],
        "live_games": current["live_games"],
        "quiet_start": quiet_hours.get("start"),
        "quiet_end": quiet_hours.get("end"),
    }
    for row in current["table"]:
        initial.update({cell_field(row["category"], ch): cell["mode"] for ch, cell in row["cells"].items()})
    form = NotificationsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        for row in preferences.ROWS:
            for channel in preferences.CHANNELS:
                field = cell_field(row.key, channel)
                # Only what the person changed is stored: a push or webhook cell left as shown keeps
                # following its default (immediately once a browser or an endpoint exists).
                if preferences.modes_for(row.key, channel) and data[field] != initial.get(field):
                    preferences.cell_set(
                        user=request.user,
                        category=row.key,
                        channel=channel,
                        mode=data[cell_field(row.key, channel)],
                    )
        preferences.preferences_set(
            user=request.user, digest_hour=data["digest_hour"], live_games=data["live_games"]
        )
        preferences.quiet_hours_set(user=request.user, start=data["quiet_start"], end=data["quiet_end"])
        messages.success(request, gettext("Notification settings saved."))
        return redirect("notifications:preferences")
    feed = calendar.feed_get(user=request.user)
    return render(
        request,
        "notifications/preferences.html",
        {
            "form": form,
            "channels": [preferences.CHANNEL_LABELS[channel] for channel in preferences.CHANNELS],
            "calendar_url": calendar.feed_url(feed) if feed else None,
            "mails_given_up": selectors.mails_given_up(user=request.user),
        },
    )


@login_required
@require_POST
def calendar_regenerate(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Make the person's calendar address, or replace it (the old address stops working)."""
    had_one = calendar.feed_get(user=request.user) is not None
    calendar.feed_regenerate(user=request.user)
    messages.success(
        request,
        gettext("New calendar address made: the old one no longer works.")
        if had_one
        else gettext("Calendar address made."),
    )
    return redirect(f"{reverse('notifications:preferences')}#calendar")


@never_cache
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The secret iCalendar feed of a person's deadlines (no login: the address is the credential)."""
    user = calendar.feed_user(token=token)
    if user is None:
        raise Http404("unknown calendar address")
    response = HttpResponse(calendar.feed_ics(user=user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="baogame.ics"'
    return response


@csrf_exempt  # RFC 8058 one-click POSTs come from mail providers, without a session or CSRF token
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: confirm page; POST (one click, no login): switch the category off."""
    try:
        data = tokens.unsubscribe_load(token)
    except signing.BadSignature:
        raise Http404("unknown unsubscribe link") from None
    label = Category(data["c"]).label if data["c"] in Category.values else data["c"]
    if request.method == "POST":
        preferences.unsubscribe(token=token)
        return render(request, "notifications/unsubscribed.html", {"label": label})
    return render(request, "notifications/unsubscribe.html", {"label": label, "token": token})


def go(request: HttpRequest, token: str) -> HttpResponse:
    """A signed link from a mail: open the game (after logging in)."""
    try:
        data = tokens.game_link_load(token)
    except signing.BadSignature:
        raise Http404("unknown or expired link") from None
    game = game_selectors.game_get(data["g"])
    if game is None:
        raise Http404("no such game")
    # The game page decides who may see it (``game_may_view``); the link carries no invitation.
    target = game.get_absolute_url()
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={target}")
    return redirect(target)


def inbound_guarded(webhook: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The provider's inbound webhook view, refused (403) while no verification secret is configured.

    anymail accepts unauthenticated posts when ANYMAIL_WEBHOOK_SECRET is unset (with a warning), and
    several providers do not sign inbound webhooks: then anybody could play as anybody.
    """

    @csrf_exempt  # providers post without a session; anymail checks the secret and any signature
    def inbound(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if inbound_webhook_secret() is None:
            return HttpResponseForbidden("the inbound mail webhook has no ANYMAIL_WEBHOOK_SECRET")
        return webhook(request, *args, **kwargs)

    return inbound


@login_required
@require_POST
def mail_address_fixed(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player says their address accepts our mail again (after a bounce or a spam report)."""
    if bounces.suppression_clear(user=request.user):
        messages.success(request, gettext("We will mail %(email)s again.") % {"email": request.user.email})
    return redirect(request.POST.get("next") or "notifications:preferences")
