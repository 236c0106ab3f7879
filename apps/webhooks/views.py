"""The webhooks page: register a URL and secret, see each endpoint's state, remove or switch on."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from apps.accounts.http import AuthenticatedHttpRequest

from . import services, urlguard
from .models import WebhookDelivery, WebhookEndpoint


@login_required
def webhook_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List the user's webhooks (GET) or register one (POST: url, secret)."""
    new_secret = None
    if request.method == "POST":
        try:
            endpoint = services.endpoint_create(
                user=request.user, url=request.POST.get("url", ""), secret=request.POST.get("secret", "")
            )
        except urlguard.UrlRefused as exc:
            messages.error(request, gettext("That URL cannot be used: %(reason)s.") % {"reason": exc.message})
        except ValueError as exc:
            messages.error(request, f"{exc}.")
        else:
            messages.success(request, gettext("Events will be sent to %(url)s.") % {"url": endpoint.url})
            new_secret = endpoint.secret
    endpoints = WebhookEndpoint.objects.filter(user=request.user).annotate(
        given_up=Count("deliveries", filter=Q(deliveries__status=WebhookDelivery.Status.FAILED)),
        waiting=Count("deliveries", filter=Q(deliveries__status=WebhookDelivery.Status.PENDING)),
    )
    return render(
        request,
        "webhooks/list.html",
        {"endpoints": endpoints, "new_secret": new_secret, "max_attempts": settings.WEBHOOKS_MAX_ATTEMPTS},
    )


def _endpoint_action(
    request: AuthenticatedHttpRequest, endpoint_id: int, service: Callable[..., object], done: str
) -> HttpResponse:
    """POST only: ``service`` on one of my endpoints (404 for anyone else's), then back to the list."""
    if request.method == "POST":
        try:
            service(user=request.user, endpoint_id=endpoint_id)
        except WebhookEndpoint.DoesNotExist:
            raise Http404 from None
        messages.success(request, done)
    return redirect("webhooks:list")


@login_required
def webhook_delete(request: AuthenticatedHttpRequest, endpoint_id: int) -> HttpResponse:
    return _endpoint_action(request, endpoint_id, services.endpoint_delete, gettext("Webhook removed."))


@login_required
def webhook_enable(request: AuthenticatedHttpRequest, endpoint_id: int) -> HttpResponse:
    return _endpoint_action(
        request, endpoint_id, services.endpoint_enable, gettext("Webhook switched on again.")
    )
