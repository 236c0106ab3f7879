"""The profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from .forms import ProfileForm
from .http import AuthenticatedHttpRequest
from .models import Profile


@login_required
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show and edit the signed-in user's profile."""
    prof, _ = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=prof)
        if form.is_valid():
            form.save()
            messages.success(request, "Profile saved.")
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=prof)
    from apps.games import reliability

    record = reliability.record_for(request.user)
    return render(
        request, "accounts/profile.html", {"form": form, "profile": prof, "record": record, **_vacation(prof)}
    )


def _vacation(profile: Profile) -> dict[str, object]:
    """The vacation panel: this year's budget, what is left of it and, while away, when it runs out."""
    from apps.games.clock.deadlines import vacation_budget, vacation_left  # the games' clocks
    from apps.games.presenters.timeleft import vacation_left_words

    now = timezone.now()
    left = vacation_left(profile, now)
    return {
        "vacation_budget_days": vacation_budget().days,
        "vacation_left_words": vacation_left_words(profile, now),
        "vacation_ends_at": now + left if profile.on_vacation else None,
        "vacation_length": vacation_budget(),
    }
