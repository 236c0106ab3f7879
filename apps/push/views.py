"""Web Push pages: the service worker, and a browser's subscription (saved, switched, removed)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.games.errortext import code_detail
from apps.webhooks.urlguard import UrlRefused

from . import services
from .channels import CHANNEL_MODES
from .models import PushSubscription


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, served from the root so that its scope is the whole site."""
    path = finders.find("push/sw.js")
    if not path:
        raise Http404
    with open(path, "rb") as handle:  # noqa: PTH123 - a static file found by the finders
        response = HttpResponse(handle.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@login_required
@require_POST
def subscription_create(request: AuthenticatedHttpRequest) -> JsonResponse:
    """Store the browser's subscription (JSON: ``PushSubscription.toJSON()``); 201 with its id."""
    if not services.enabled():
        return JsonResponse({"code": "push_disabled", "detail": "this site has no VAPID keys"}, status=404)
    try:
        data = json.loads(request.body or b"{}")
        keys = data.get("keys") or {}
        sub = services.subscription_save(
            user=request.user,
            endpoint=str(data.get("endpoint") or ""),
            p256dh=str(keys.get("p256dh") or ""),
            auth=str(keys.get("auth") or ""),
            label=request.headers.get("User-Agent", "")[:200],
        )
    except UrlRefused as exc:
        return JsonResponse({"code": exc.code, "detail": code_detail(exc.code, exc.message)}, status=400)
    except (ValueError, AttributeError, TypeError) as exc:
        return JsonResponse({"code": "invalid", "detail": str(exc)}, status=400)
    return JsonResponse({"id": sub.pk}, status=201)


@login_required
@require_POST
def subscription_update(request: AuthenticatedHttpRequest, subscription_id: int) -> HttpResponse:
    """Save one browser's categories (form fields ``cat_<category>`` = immediately | off)."""
    modes = {
        c.value: request.POST.get(f"cat_{c.value}", "off")
        for c in services.PUSH_CATEGORIES
        if request.POST.get(f"cat_{c.value}", "off") in CHANNEL_MODES
    }
    try:
        services.subscription_set_categories(
            user=request.user, subscription_id=subscription_id, categories=modes
        )
    except PushSubscription.DoesNotExist:
        raise Http404 from None
    messages.success(request, gettext("Browser notices saved."))
    return redirect(settings.PUSH_SETTINGS_PAGE)


@login_required
@require_POST
def subscription_delete(request: AuthenticatedHttpRequest, subscription_id: int) -> HttpResponse:
    """Stop notifying one browser."""
    try:
        services.subscription_delete(user=request.user, subscription_id=subscription_id)
    except PushSubscription.DoesNotExist:
        raise Http404 from None
    messages.success(request, gettext("That browser will not be notified any more."))
    return redirect(settings.PUSH_SETTINGS_PAGE)
