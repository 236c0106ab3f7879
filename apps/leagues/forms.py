"""Forms of the league pages."""

from __future__ import annotations

from django import forms

from apps.games.timing import PRESETS
from baogame.rules import registry

from .formats import FORMATS
from .formats import LABELS as FORMAT_LABELS
from .models import League


def game_choices() -> list[tuple[str, str]]:
    """Every registered engine (tests register a toy one), by its display name."""
    return [(t.name, t.display_name) for t in registry.game_types()]


def _int_list(raw: str) -> list[int]:
    """ "3,2,1" -> [3, 2, 1]; empty -> []."""
    raw = raw.strip()
    if not raw:
        return []
    try:
        return [int(p) for p in raw.split(",")]
    except ValueError:
        raise forms.ValidationError("whole numbers separated by commas") from None


class LeaguePresetForm(forms.Form):
    """The league fields an organiser sets when creating the league and may change later."""

    name = forms.CharField(max_length=100)
    description = forms.CharField(widget=forms.Textarea, required=False)
    is_public = forms.BooleanField(required=False, initial=True, label="Public")
    players_per_table = forms.IntegerField(min_value=2, max_value=6, initial=4)
    allow_smaller_tables = forms.BooleanField(required=False, initial=True)
    timing_preset = forms.ChoiceField(choices=[(p, p.title()) for p in PRESETS], initial="weekly")
    points_table = forms.CharField(
        required=False,
        help_text="League points by place, comma-separated (e.g. 3,2,1); empty: table size minus place.",
    )

    confirmation_hours = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=720,
        initial=0,
        label="Confirmation period (hours)",
        help_text="A result stays provisional this long, open to an organiser's objection; 0: none.",
    )
    min_reliability = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=100,
        initial=0,
        label="Minimum reliability (%)",
        help_text="Share of decisions answered on time over 12 months needed to join and at each new "
        "season; 0: none.",
    )
    divisions = forms.IntegerField(
        min_value=1,
        max_value=20,
        initial=1,
        required=False,
        help_text="1 = no divisions; division 1 is the top.",
    )
    promotion = forms.IntegerField(
        min_value=0,
        max_value=50,
        initial=1,
        required=False,
        label="Promoted and relegated",
        help_text="How many players move up (and down) between neighbouring divisions each season.",
    )
    pairing_format = forms.ChoiceField(
        choices=[(f, FORMAT_LABELS[f]) for f in FORMATS],
        initial="spread",
        required=False,
        help_text="Spread: opponents repeat as little as possible. Swiss: similar standings meet, "
        "no rematch while avoidable. Round robin: every pair meets equally often.",
    )

    def clean_points_table(self) -> list[int]:
        return _int_list(self.cleaned_data["points_table"])

    def clean_pairing_format(self) -> str | None:
        return self.cleaned_data["pairing_format"] or None


class LeagueCreateForm(LeaguePresetForm):
    game = forms.ChoiceField(choices=game_choices)
    join = forms.BooleanField(required=False, initial=True, label="I play too")

    field_order = [
        "name",
        "game",
        "description",
        "is_public",
        "players_per_table",
        "allow_smaller_tables",
        "timing_preset",
        "points_table",
        "confirmation_hours",
        "min_reliability",
        "join",
        "divisions",
        "promotion",
        "pairing_format",
    ]

    #: What a field left out of the form means for a new league.
    DEFAULTS = {"divisions": 1, "promotion": 1, "pairing_format": "spread"}

    def clean(self) -> dict:
        data = super().clean() or {}
        for field, default in self.DEFAULTS.items():
            if data.get(field) is None:
                data[field] = default
        return data


class LeagueSettingsForm(LeaguePresetForm):
    """The organiser's edit of a league: its name, visibility and the preset of the games to come."""

    engine_options = forms.JSONField(
        required=False, help_text='Engine options as JSON, e.g. {"threshold": 30}; empty: the defaults.'
    )

    @classmethod
    def for_league(cls, league: League) -> LeagueSettingsForm:
        """The form filled in with the league's current settings."""
        initial = {field: getattr(league, field) for field in cls.base_fields if field != "points_table"}
        initial["points_table"] = ",".join(str(p) for p in league.points_table)
        return cls(initial=initial)

    def clean_engine_options(self) -> dict:
        options = self.cleaned_data["engine_options"]
        if options in (None, ""):
            return {}
        if not isinstance(options, dict):
            raise forms.ValidationError('a JSON object, e.g. {"threshold": 30}')
        return options


class SeasonCreateForm(forms.Form):
    starts_at = forms.DateTimeField(required=False, help_text="Empty: now (start round 1 by hand).")
    rounds = forms.IntegerField(min_value=1, max_value=100, initial=5)
    round_interval_days = forms.IntegerField(min_value=1, max_value=90, initial=7)


class EmailForm(forms.Form):
    subject = forms.CharField(max_length=150)
    body = forms.CharField(widget=forms.Textarea)


class GameToolForm(forms.Form):
    """One organiser action on a league game; the fields used depend on the action."""

    ACTIONS = [
        ("extend", "Extend a deadline"),
        ("pause", "Pause"),
        ("resume", "Resume"),
        ("substitute", "Substitute a player"),
        ("bot_on", "Hand a seat to a bot"),
        ("bot_off", "Give a seat back"),
        ("adjudicate", "Adjudicate"),
        ("abort", "Abort"),
        ("confirm", "Confirm a provisional result"),
        ("reopen", "Reopen a provisional result"),
        ("adjudicate_result", "Adjudicate a reopened result"),
    ]
    action = forms.ChoiceField(choices=ACTIONS)
    seat = forms.IntegerField(min_value=0, max_value=5, required=False)
    hours = forms.IntegerField(min_value=1, max_value=24 * 60, required=False)
    username = forms.CharField(required=False, help_text="Newcomer for a substitution.")
    places = forms.CharField(required=False, help_text="Adjudication: places by seat, e.g. 2,1,3.")
    reason = forms.CharField(required=False, max_length=500)

    def clean_places(self) -> list[int]:
        return _int_list(self.cleaned_data["places"])


class DivisionMoveForm(forms.Form):
    """The organiser moves one member to another division of a proposed season."""

    user = forms.IntegerField(widget=forms.HiddenInput)
    division = forms.IntegerField(min_value=1, max_value=20)
    reason = forms.CharField(required=False, max_length=500)
