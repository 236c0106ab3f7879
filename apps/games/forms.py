"""Forms for creating games."""

from __future__ import annotations

from django import forms

from .timing import PRESETS


class GameCreateForm(forms.Form):
    engine = forms.ChoiceField(
        choices=[("baobei", "Bao Bei (2-6 players)"), ("baohuang", "Bao Huang (5 players)")]
    )
    players = forms.IntegerField(min_value=2, max_value=6, initial=3)
    bots = forms.IntegerField(min_value=0, max_value=5, initial=2, help_text="Seats filled with bots.")
    timing_preset = forms.ChoiceField(choices=[(k, k.capitalize()) for k in PRESETS], initial="daily")
    threshold = forms.IntegerField(min_value=1, required=False, help_text="Bao Bei: end-of-game threshold.")
    memory_aid = forms.BooleanField(required=False, initial=True, help_text="Bao Bei: show what I have seen.")
    target = forms.IntegerField(min_value=1, required=False, help_text="Bao Huang: target score.")
    invite = forms.CharField(required=False, help_text="Usernames to invite, comma-separated.")
    title = forms.CharField(required=False, max_length=100)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("engine") == "baohuang":
            data["players"] = 5
        return data
