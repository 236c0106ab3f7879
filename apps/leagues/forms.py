"""Forms of the league pages."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from apps.accounts.zone_names import active_zone_label
from apps.games import lengths as game_lengths
from apps.games.clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS
from apps.games.form_fitting import FittedForm, clean_length, length_choice_field, seat_limits
from apps.games.models import game_name
from apps.games.presenters import presenter_for
from apps.games.presenters.timeleft import control_name, control_summary
from baogame import wording
from baogame.rules import registry

from . import season_length
from .confirmation import PROVISIONAL, REOPENED
from .formats import FORMATS
from .formats import LABELS as FORMAT_LABELS
from .models import League

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def game_choices() -> list[tuple[str, str]]:
    """Every registered engine (tests register a toy one), by its name in the reader's language."""
    return [(t.name, str(game_name(t.name, t.display_name))) for t in registry.game_types()]


def _int_list(raw: str) -> list[int]:
    """ "3,2,1" -> [3, 2, 1]; empty -> []."""
    raw = raw.strip()
    if not raw:
        return []
    try:
        return [int(p) for p in raw.split(",")]
    except ValueError:
        raise forms.ValidationError(_("whole numbers separated by commas")) from None


def _optional_number(
    least: int, most: int, *, initial: int, label: StrOrPromise, help_text: StrOrPromise
) -> forms.IntegerField:
    """One of the preset's optional whole numbers, from ``least`` to ``most``."""
    return forms.IntegerField(
        required=False, min_value=least, max_value=most, initial=initial, label=label, help_text=help_text
    )


class LeaguePresetForm(forms.Form):
    """The league fields an organiser sets when creating the league and may change later."""

    name = forms.CharField(max_length=100, label=pgettext_lazy("league", "Name"))
    description = forms.CharField(widget=forms.Textarea, required=False, label=gettext_lazy("Description"))
    is_public = forms.BooleanField(required=False, initial=True, label=pgettext_lazy("league", "Public"))
    players_per_table = forms.IntegerField(
        min_value=2,
        max_value=6,
        initial=4,
        label=gettext_lazy("Players per table"),
    )
    allow_smaller_tables = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Allow smaller tables")
    )
    timing_preset = forms.ChoiceField(label=gettext_lazy("Time control"), choices=[], initial=DEFAULT_CONTROL)
    points_table = forms.CharField(
        required=False,
        label=gettext_lazy("Points table"),
        help_text=gettext_lazy(
            "League points by place, comma-separated (e.g. 3,2,1); empty: table size minus place."
        ),
    )

    confirmation_hours = _optional_number(
        0,
        720,
        initial=0,
        label=gettext_lazy("Confirmation period (hours)"),
        help_text=gettext_lazy(
            "A result stays provisional this long, open to an organiser's objection; 0: none."
        ),
    )
    min_reliability = _optional_number(
        0,
        100,
        initial=0,
        label=gettext_lazy("Minimum reliability (%)"),
        help_text=gettext_lazy(
            "Share of decisions answered on time over 12 months needed to join and at each new "
            "season; 0: none."
        ),
    )
    divisions = _optional_number(
        1,
        20,
        initial=1,
        label=gettext_lazy("Divisions"),
        help_text=gettext_lazy("1 = no divisions; division 1 is the top."),
    )
    promotion = _optional_number(
        0,
        50,
        initial=1,
        label=gettext_lazy("Promoted and relegated"),
        help_text=gettext_lazy(
            "How many players move up (and down) between neighbouring divisions each season."
        ),
    )
    pairing_format = forms.ChoiceField(
        choices=[(f, FORMAT_LABELS[f]) for f in FORMATS],
        initial="spread",
        required=False,
        label=gettext_lazy("Pairing format"),
        help_text=gettext_lazy(
            "Spread: opponents repeat as little as possible. Swiss: similar standings meet, "
            "no rematch while avoidable. Round robin: every pair meets equally often."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The choices and help texts built from names and numbers, in the language of this request."""
        super().__init__(*args, **kwargs)
        self.fields["players_per_table"].help_text = wording.sentences(
            _("%(game)s: always %(n)s.") % {"game": game_name(t.name, t.display_name), "n": t.fixed_players}
            for t in registry.game_types()
            if t.fixed_players
        )
        self.fields["timing_preset"].choices = [  # type: ignore[attr-defined]
            (name, f"{control_name(name)}: {control_summary(c)}") for name, c in NAMED_CONTROLS.items()
        ]
        self.fields["timing_preset"].help_text = _(
            "Each player's time bank. The default, %(default)s, is the same as for a single game."
        ) % {"default": control_name(DEFAULT_CONTROL)}

    def clean_points_table(self) -> list[int]:
        return _int_list(self.cleaned_data["points_table"])

    def clean_pairing_format(self) -> str | None:
        return self.cleaned_data["pairing_format"] or None


class LeagueCreateForm(LeaguePresetForm):
    game = forms.ChoiceField(choices=game_choices, label=gettext_lazy("Game"))
    join = forms.BooleanField(required=False, initial=True, label=gettext_lazy("I play too"))

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
        """A game with one table size (Bao Huang's 5) takes it, whatever the table box says (the page
        without JavaScript shows the box for every game, with the size in its help)."""
        data = super().clean() or {}
        for field, default in self.DEFAULTS.items():
            if data.get(field) is None:
                data[field] = default
        game = data.get("game")
        fixed = registry.get_game_type(game).fixed_players if game else None
        if fixed is not None:
            data["players_per_table"] = fixed
        return data

    @staticmethod
    def client_data() -> dict[str, Any]:
        """What ``gameforms.js`` needs: each game's table sizes."""
        return {t.name: seat_limits(t) for t in registry.game_types()}


class LeagueSettingsForm(LeaguePresetForm):
    """The organiser's edit of a league: its name, visibility and the preset of the games to come."""

    engine_options = forms.JSONField(
        required=False,
        label=gettext_lazy("Engine options"),
        help_text=gettext_lazy('Engine options as JSON, e.g. {"threshold": 30}; empty: the defaults.'),
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
            raise forms.ValidationError(_('a JSON object, e.g. {"threshold": 30}'))
        return options


class SeasonCreateForm(FittedForm):
    """A new season: when, how many rounds, and the length of all its games (``season_length``)."""

    starts_at = forms.DateTimeField(
        required=False,
        label=gettext_lazy("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    rounds = forms.IntegerField(min_value=1, max_value=100, initial=5, label=gettext_lazy("Rounds"))
    round_interval_days = forms.IntegerField(
        min_value=1, max_value=90, initial=7, label=gettext_lazy("Days between rounds")
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        """The league's game gives the length choices, described for its table size; the one first
        chosen is what the league's game options amount to, so that a season scheduled without a
        look at it plays as the league always has."""
        super().__init__(*args, **kwargs)
        self.league = league
        self.fields["starts_at"].help_text = _(
            "In your time zone (%(zone)s). Empty: now (the schedule starts round 1 within 5 minutes, "
            "unless you start it by hand first)."
        ) % {"zone": active_zone_label(timezone.get_current_timezone_name())}
        self.field_games, self.field_when = {}, {}
        keys = game_lengths.length_keys(league.game)
        if not keys:
            return
        preset, values = season_length.preset_length(league)
        several = len(season_length.table_sizes(league)) > 1
        smaller = " " + _("Smaller tables take their own size's value.") if several else ""
        self.fields["length"] = length_choice_field(
            league.game,
            league.players_per_table,
            label=_("Length of every game of the season"),
            initial=preset or game_lengths.default_name(league.game, league.players_per_table),
        )
        self.fields["length"].help_text += smaller
        fields = presenter_for(league.game).CREATE_FIELDS
        for key in keys:
            self.fields[key] = copy.deepcopy(fields[key])
            self.fields[key].initial = values.get(key)
            self.field_when[key] = f"length={game_lengths.CUSTOM}"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "length" in self.fields:
            data["length"] = clean_length(self, data, field="length", engine=self.league.game)
        return data

    def season_kwargs(self) -> dict[str, Any]:
        """The arguments of ``seasons.season_create`` (and ``divisions.season_propose``)."""
        data = self.cleaned_data
        length = data.get("length")
        keys = game_lengths.length_keys(self.league.game)
        custom = length == game_lengths.CUSTOM
        values = {k: data[k] for k in keys if data.get(k) is not None} if custom else {}
        return {
            "starts_at": data.get("starts_at"),
            "rounds": data["rounds"],
            "round_interval_days": data["round_interval_days"],
            "length": length,
            "length_options": values,
        }


class EmailForm(forms.Form):
    subject = forms.CharField(max_length=150, label=gettext_lazy("Subject"))
    body = forms.CharField(widget=forms.Textarea, label=gettext_lazy("Text"))


class GameToolForm(forms.Form):
    """One organiser action on a league game; the fields used depend on the action."""

    ACTIONS = [
        ("extend", gettext_lazy("Extend a deadline")),
        ("pause", pgettext_lazy("organiser action", "Pause")),
        ("resume", pgettext_lazy("organiser action", "Resume")),
        ("substitute", gettext_lazy("Substitute a player")),
        ("bot_on", gettext_lazy("Hand a seat to a bot")),
        ("bot_off", gettext_lazy("Give a seat back")),
        ("adjudicate", pgettext_lazy("organiser action", "Adjudicate")),
        ("abort", pgettext_lazy("organiser action", "Abort")),
        ("confirm", gettext_lazy("Confirm a provisional result")),
        ("reopen", gettext_lazy("Reopen a provisional result")),
        ("adjudicate_result", gettext_lazy("Adjudicate a reopened result")),
    ]
    #: The actions on a game in play, and on a finished game's result by its state (a provisional
    #: result is confirmed or reopened; a reopened one is adjudicated): a finished game cannot be paused.
    PLAY_ACTIONS = ("extend", "pause", "resume", "substitute", "bot_on", "bot_off", "adjudicate", "abort")
    RESULT_ACTIONS = {PROVISIONAL: ("confirm", "reopen"), REOPENED: ("adjudicate_result",)}
    #: The fields each action reads besides the reason (``views._game_tool``).
    FIELDS = {
        "extend": ("seat", "hours"),
        "substitute": ("seat", "username"),
        "bot_on": ("seat",),
        "bot_off": ("seat",),
        "adjudicate": ("places",),
        "adjudicate_result": ("places",),
    }
    action = forms.ChoiceField(choices=ACTIONS, label=pgettext_lazy("organiser tool", "Action"))
    seat = forms.IntegerField(
        min_value=0, max_value=5, required=False, label=pgettext_lazy("organiser tool", "Seat")
    )
    hours = forms.IntegerField(
        min_value=1, max_value=24 * 60, required=False, label=pgettext_lazy("organiser tool", "Hours")
    )
    username = forms.CharField(
        required=False, label=gettext_lazy("Username"), help_text=gettext_lazy("Newcomer for a substitution.")
    )
    places = forms.CharField(
        required=False,
        label=gettext_lazy("Places"),
        help_text=gettext_lazy("Adjudication: places by seat, e.g. 2,1,3."),
    )
    reason = forms.CharField(required=False, max_length=500, label=gettext_lazy("Reason"))

    def __init__(self, *args: Any, actions: Sequence[str] | None = None, **kwargs: Any) -> None:
        """``actions``: offer only these, with only the fields they read; None: every action (a post)."""
        super().__init__(*args, **kwargs)
        if actions is None:
            return
        self.fields["action"].choices = [(a, label) for a, label in self.ACTIONS if a in actions]  # type: ignore[attr-defined]
        used = {name for a in actions for name in self.FIELDS.get(a, ())}
        for name in ("seat", "hours", "username", "places"):
            if name not in used:
                del self.fields[name]

    @classmethod
    def for_play(cls) -> GameToolForm:
        """The tools of a game in play."""
        return cls(actions=cls.PLAY_ACTIONS)

    @classmethod
    def for_result(cls, state: str) -> GameToolForm:
        """The tools of a finished game's result in ``state`` (``confirmation.result_state``)."""
        return cls(actions=cls.RESULT_ACTIONS.get(state, ()))

    def clean_places(self) -> list[int]:
        return _int_list(self.cleaned_data["places"])

    def clean(self) -> dict[str, Any]:
        """An action on one seat names it: an empty field must not act on seat 0 unasked."""
        cleaned = super().clean() or {}
        names_a_seat = "seat" in self.FIELDS.get(cleaned.get("action", ""), ())
        if names_a_seat and cleaned.get("seat") is None and "seat" not in self.errors:
            self.add_error("seat", self.fields["seat"].error_messages["required"])
        return cleaned


class DivisionMoveForm(forms.Form):
    """The organiser moves one member to another division of a proposed season."""

    user = forms.IntegerField(widget=forms.HiddenInput)
    division = forms.IntegerField(min_value=1, max_value=20)
    reason = forms.CharField(required=False, max_length=500)


def errors_text(form: forms.Form) -> str:
    """A form's errors as plain text for a page's notice, each under its field's label ("Points table:
    whole numbers separated by commas"): not ``errors.as_text()``, which names the fields by their code
    and escapes the messages, so that the notice, escaped again, showed ``&quot;``."""
    colon = pgettext("label colon", ":")
    parts = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        text = " ".join(str(error) for error in errors)
        parts.append(f"{field.label}{colon} {text}" if field is not None and field.label else text)
    return " ".join(parts)
