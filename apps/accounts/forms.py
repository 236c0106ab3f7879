"""Profile form."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext_lazy

from .models import Profile, time_zone_keys
from .names import bot_name_problem, display_name_problem, one_line
from .zone_names import zone_option


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "time_zone", "language"]
        labels = {"display_name": gettext_lazy("Display name"), "time_zone": gettext_lazy("Time zone")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = cast(forms.ChoiceField, self.fields["language"])
        # The empty choice is a real setting, not a missing answer: say what it does.
        language.choices = [("", gettext_lazy("My browser's language")), *settings.LANGUAGES]
        # The model's keys in key order, each named in the language of the page being built.
        zone = cast(forms.ChoiceField, self.fields["time_zone"])
        reader = get_language()
        zone.choices = [(key, zone_option(key, reader)) for key in time_zone_keys()]

    def clean_display_name(self) -> str:
        """Unique without regard to case, not another user's username (``display_name_taken``), and not
        ending as the server's bots' names do ("(bot)", "（机器人）": ``bot_name_problem``)."""
        name = one_line(str(self.cleaned_data.get("display_name") or ""))
        reserved = bot_name_problem(name=name)
        if reserved:
            raise forms.ValidationError(reserved, code="reserved_name")
        problem = display_name_problem(name=name, user=self.instance.user if self.instance.pk else None)
        if problem:
            raise forms.ValidationError(problem, code="display_name_taken")
        return name
