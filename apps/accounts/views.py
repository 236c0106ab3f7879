"""The profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from . import panels
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
