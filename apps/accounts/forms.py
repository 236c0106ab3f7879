"""Profile form."""

from __future__ import annotations

from django import forms

from .models import Profile
from .names import display_name_problem


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "time_zone"]

    def clean_display_name(self) -> str:
        """Unique without regard to case, and not another user's username (``display_name_taken``)."""
        name = str(self.cleaned_data.get("display_name") or "").strip()
        problem = display_name_problem(name=name, user=self.instance.user if self.instance.pk else None)
        if problem:
            raise forms.ValidationError(problem, code="display_name_taken")
        return name
