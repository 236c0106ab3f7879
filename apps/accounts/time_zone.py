"""A player's time zone, defaulting from the browser.

A profile starts in UTC. While it still is, every page a signed-in player opens carries
``static/js/zone.js``, which posts the browser's own zone (``Intl.DateTimeFormat().resolvedOptions()``)
here once; the zone is taken only while the profile is still in UTC, so a zone the player chose on the
profile page is never replaced. ``UserTimezoneMiddleware`` then shows every date and time in it.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_POST

from .http import AuthenticatedHttpRequest
from .models import Profile, is_time_zone_key

#: The zone a new profile has: "not chosen yet".
UNSET = "UTC"


def zone_from_browser(*, profile: Profile, zone: str) -> bool:
    """Take the browser's ``zone`` for ``profile`` when it has none of its own yet; whether it did."""
    if profile.time_zone != UNSET or zone == UNSET or not is_time_zone_key(zone):
        return False
    updated = Profile.objects.filter(pk=profile.pk, time_zone=UNSET).update(time_zone=zone)
    return updated == 1


@login_required
@require_POST
def browser_time_zone(request: AuthenticatedHttpRequest) -> HttpResponse:
    """POST ``zone``: the browser's IANA time zone. 204 when taken, 409 when the profile has its own
    zone already, 400 for a name that is not a zone."""
    zone = request.POST.get("zone", "")
    if not is_time_zone_key(zone):
        return HttpResponse(status=400)
    profile, _ = Profile.objects.get_or_create(user=request.user)
    return HttpResponse(status=204 if zone_from_browser(profile=profile, zone=zone) else 409)
