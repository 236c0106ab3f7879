"""The profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from baogame.errors import ServiceError

from . import panels
from .closing import account_close
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
            messages.success(request, gettext("Profile saved."))
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=prof)
    return render(
        request, "accounts/profile.html", {"form": form, "profile": prof, **panels.context_for(prof)}
    )


@login_required
@require_POST
def close(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Close the signed-in account (``accounts.closing``), confirmed with its password and a tick."""
    if request.POST.get("understood") != "yes":
        messages.error(request, gettext("Tick the box to say that you understand what closing does."))
        return redirect("accounts:profile")
    try:
        account_close(user=request.user, password=request.POST.get("password", ""))
    except ServiceError:
        messages.error(request, gettext("That is not your password: your account stays open."))
        return redirect("accounts:profile")
    logout(request)
    messages.success(
        request,
        gettext(
            "Your account is closed. Thank you for playing. Your games go on without you: within a few "
            "minutes the bot takes over your seats in games in play, and your seats in games not started "
            "yet are free again."
        ),
    )
    return redirect("/")
