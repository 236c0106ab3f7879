"""Profile form."""

from __future__ import annotations

from django import forms

from .models import Profile


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "time_zone"]
