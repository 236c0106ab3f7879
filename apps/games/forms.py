"""Forms: creating a game, and turning a posted action form into a wire-format action."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from baogame import jsonlimits, wording
from baogame.rules.core import RuleError
from baogame.rules.gametype import GameType
from baogame.rules.registry import game_types, get_game_type

from . import lengths, reliability
from .clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS, ControlError, control_from
from .clock.worst import worst_case_sentence
from .form_fitting import FittedForm, clean_length, length_choice_field, seat_limits
from .models import Game, game_name
from .presenters import presenter_for
from .presenters.timeleft import control_name, control_summary

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The games a person may create (``Game.Engine``), with their seat limits (BB-1.1, BH-1.1).
GAMES = [t for t in game_types() if t.name in Game.Engine.values]

#: Who takes the seats that are neither the creator's nor an invited player's.
OPPONENTS = [
    ("bots", gettext_lazy("Bots: every seat I do not invite someone to")),
    ("people", gettext_lazy("People: the other seats wait for players with the invitation link")),
    ("some", gettext_lazy("Some bots: the number below, the other seats wait for players")),
]


TOO_MANY_SEATS = gettext_lazy(
    "%(game)s has %(players)s seats: you, %(invited)s invited and %(bots)s bots make %(total)s."
)

#: The custom control's form fields, by the control's key (hours in the form, seconds in the control).
CUSTOM_CONTROL_FIELDS = {
    "initial": "control_initial_hours",
    "increment": "control_increment_hours",
    "cap": "control_cap_hours",
}


def control_custom(data: dict[str, Any]) -> dict[str, int] | None:
    """The custom control's seconds from a form's cleaned data (None for a named control)."""
    if data.get("control") != "custom":
        return None
    return {key: round(float(data.get(name) or 0) * 3600) for key, name in CUSTOM_CONTROL_FIELDS.items()}


def _custom_hours(label: StrOrPromise, *, least: float, initial: float) -> forms.FloatField:
    """A custom control's duration field (``CUSTOM_CONTROL_FIELDS``): optional, in hours, 60 days at most."""
    return forms.FloatField(label=label, required=False, min_value=least, max_value=60 * 24, initial=initial)


def seats_words(game_type: GameType) -> str:
    """``2-6 players`` or ``5 players``: a game's seat limits in the reader's language."""
    if game_type.fixed_players is not None:
        n = game_type.fixed_players
        return ngettext("%(n)s player", "%(n)s players", n) % {"n": n}
    return _("%(low)s-%(high)s players") % {"low": game_type.min_players, "high": game_type.max_players}


def length_field_name(engine: str) -> str:
    """The create form's length field of a game (one per game: their names differ, ``short`` too)."""
    return f"length_{engine}"


def _min_record_help() -> str:
    """The minimum record's help, in the reader's language, naming the table's floor of decisions."""
    return _(
        "An open table only: who takes a seat must have answered at least this share of their decisions "
        "on time over the last 12 months, over at least %(n)s decisions (a new account has none, so it "
        "may not sit). Empty or 0: anybody."
    ) % {"n": reliability.TABLE_MIN_DECISIONS}


class GameCreateForm(FittedForm):
    """Pick the game, seats, length, options (BB-25.1, BH-25.1) and timing; invite players; fill with bots.

    Every game's fields are in the form, each marked with its game (``field_games``): without
    JavaScript a person sees them all, each help text naming its game, and the server reads only the
    chosen game's; ``static/js/gameforms.js`` shows the chosen game's alone and switches the seats.
    """

    engine = forms.ChoiceField(label=gettext_lazy("Game"), choices=[(t.name, t.display_name) for t in GAMES])
    players = forms.IntegerField(
        min_value=min(t.min_players for t in GAMES),
        max_value=max(t.max_players for t in GAMES),
        initial=3,
        required=False,
        label=gettext_lazy("Players"),
    )
    opponents = forms.ChoiceField(
        label=gettext_lazy("The other seats"),
        choices=OPPONENTS,
        initial="bots",
        required=False,
        widget=forms.RadioSelect,
    )
    bots = forms.IntegerField(
        min_value=0,
        max_value=max(t.max_players for t in GAMES) - 1,
        initial=2,
        required=False,
        label=gettext_lazy("Bots"),
        help_text=gettext_lazy("With “some bots”: how many seats bots take (the last seats)."),
    )
    control = forms.ChoiceField(label=gettext_lazy("Time control"), choices=[], initial=DEFAULT_CONTROL)
    control_initial_hours = _custom_hours(gettext_lazy("Initial bank (hours)"), least=1 / 60, initial=72)
    control_increment_hours = _custom_hours(gettext_lazy("Added per move (hours)"), least=0, initial=24)
    control_cap_hours = _custom_hours(gettext_lazy("Bank at most (hours)"), least=1 / 60, initial=120)
    weekends_off = forms.BooleanField(
        required=False,
        label=gettext_lazy("No clock on weekends"),
        help_text=gettext_lazy(
            "Banks do not run on Saturdays and Sundays, each in the player's own time zone."
        ),
    )
    invite = forms.CharField(
        required=False,
        label=gettext_lazy("Invite by username"),
        help_text=gettext_lazy(
            "Comma-separated usernames; each gets a seat at once. Others join by the link."
        ),
    )
    title = forms.CharField(required=False, max_length=100, label=pgettext_lazy("game", "Title"))
    bot_test = forms.BooleanField(
        required=False,
        label=gettext_lazy("Bot-test game"),
        help_text=gettext_lazy(
            "Let one person's accounts (you and your bot accounts) take several seats; shown on the "
            "game page. Otherwise each person plays one seat."
        ),
    )
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who may watch"),
        required=False,
        choices=Game.Visibility.choices,
        initial=Game.Visibility.PUBLIC,
        help_text=gettext_lazy("Unlisted: only people given the game's link; private: only its players."),
    )
    open_table = forms.BooleanField(
        required=False,
        label=gettext_lazy("Open table"),
        help_text=gettext_lazy(
            "List it on the Watch page while it waits for players: anyone signed in may take a free seat "
            "without an invitation. A public game only."
        ),
    )
    min_reliability = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=100,
        label=gettext_lazy("Minimum record (percent on time)"),
        help_text=lazy(_min_record_help, str)(),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Each game's length (``lengths.choices``) and option fields (its presenter's ``CREATE_FIELDS``)
        come after the timing."""
        super().__init__(*args, **kwargs)
        self._translated_texts()
        order = list(self.fields)
        at = order.index("weekends_off") + 1
        options: dict[str, forms.Field] = {}
        self.field_games = {}
        self.field_when = {"bots": "opponents=some"}
        for name in CUSTOM_CONTROL_FIELDS.values():
            self.field_when[name] = "control=custom"
        for game_type in GAMES:
            engine = game_type.name
            if lengths.length_keys(engine):
                name = length_field_name(engine)
                options[name] = length_choice_field(
                    engine,
                    None,
                    label=_("Length of a %(game)s game") % {"game": game_name(engine)},
                    initial=lengths.form_name(engine, game_type.min_players),
                )
                self.field_games[name] = engine
            for name, field in presenter_for(engine).CREATE_FIELDS.items():
                if name not in options:
                    options[name] = copy.deepcopy(field)
                    self.field_games[name] = engine
                    if name in lengths.length_keys(engine):
                        self.field_when[name] = f"{length_field_name(engine)}={lengths.CUSTOM}"
        self.fields.update(options)
        self.order_fields(order[:at] + list(options) + order[at:])

    def _translated_texts(self) -> None:
        """The choices and help texts built from numbers and names, in the language of this request."""
        self.fields["engine"].choices = [  # type: ignore[attr-defined]
            (t.name, _("%(game)s (%(seats)s)") % {"game": game_name(t.name), "seats": seats_words(t)})
            for t in GAMES
        ]
        self.fields["players"].help_text = wording.sentences(
            _("%(game)s: %(low)s-%(high)s.")
            % {"game": game_name(t.name), "low": t.min_players, "high": t.max_players}
            if t.fixed_players is None
            else _("%(game)s always has %(n)s seats.") % {"game": game_name(t.name), "n": t.fixed_players}
            for t in GAMES
        )
        self.fields["control"].choices = [  # type: ignore[attr-defined]
            *[(name, f"{control_name(name)}: {control_summary(c)}") for name, c in NAMED_CONTROLS.items()],
            ("custom", _("Custom: your own bank, increment and cap")),
        ]
        self.fields["control"].help_text = _(
            "Each player has a time bank that runs only while they owe a decision; each answer adds "
            "the increment, up to the cap. The default is %(default)s, for games and leagues alike."
        ) % {"default": control_name(DEFAULT_CONTROL)}
        self.field_more = {
            "control": (
                _("How long a game can last at most, if every seat lets its bank run out"),
                [worst_case_sentence(c) for c in NAMED_CONTROLS.values()],
            )
        }

    def client_data(self) -> dict[str, Any]:
        """What ``gameforms.js`` needs per game: its seats and each length's label per table size."""
        return {
            t.name: {
                **seat_limits(t),
                "lengths": {
                    str(n): dict(lengths.choices(t.name, n)) for n in range(t.min_players, t.max_players + 1)
                },
            }
            for t in GAMES
        }

    def clean_invite(self) -> list[Any]:
        names = [n.strip() for n in self.cleaned_data.get("invite", "").split(",") if n.strip()]
        users = list(get_user_model().objects.filter(username__in=names))
        missing = sorted(set(names) - {u.username for u in users})
        if missing:
            raise forms.ValidationError(_("No such user: %(names)s.") % {"names": wording.listed(missing)})
        return users

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        self._clean_control(data)
        if data.get("open_table") and data.get("visibility") not in ("", None, Game.Visibility.PUBLIC):
            self.add_error("open_table", _("An open table is a public game: anyone may find and watch it."))
        if data.get("min_reliability") and not data.get("open_table"):
            self.add_error(
                "min_reliability",
                _("A minimum record is for an open table: tick “Open table”, or leave this empty."),
            )
        engine = data.get("engine")
        game_type = get_game_type(engine) if engine else None
        if game_type is None:
            return data
        self._clean_seats(data, game_type)
        engine = game_type.name
        data["length"] = clean_length(self, data, field=length_field_name(engine), engine=engine)
        return data

    def _clean_control(self, data: dict[str, Any]) -> None:
        """A custom control needs its three values, and they must make a control."""
        if data.get("control") != "custom":
            return
        missing = [name for name in CUSTOM_CONTROL_FIELDS.values() if data.get(name) is None]
        for name in missing:
            self.add_error(name, _("A custom time control needs this."))
        if missing:
            return
        try:
            control_from("custom", control_custom(data), bool(data.get("weekends_off")))
        except ControlError as exc:
            self.add_error("control", str(exc))

    def _clean_seats(self, data: dict[str, Any], game_type: GameType) -> None:
        """The table size (a game with one size takes it whatever was asked) and the number of bots."""
        if game_type.fixed_players is not None:
            data["players"] = game_type.fixed_players
        players = data.get("players")
        low, high = game_type.min_players, game_type.max_players
        if players is None:
            if "players" not in self.errors:
                words = {"game": game_name(game_type.name), "low": low, "high": high}
                self.add_error("players", _("%(game)s takes %(low)s-%(high)s players: how many?") % words)
            return
        if not low <= players <= high:
            words = {"game": game_name(game_type.name), "low": low, "high": high}
            self.add_error("players", _("%(game)s takes %(low)s-%(high)s players.") % words)
            return
        invited = data.get("invite") or []
        opponents = data.get("opponents") or ("some" if data.get("bots") is not None else "bots")
        data["opponents"] = opponents
        taken = 1 + len(invited)
        if opponents == "bots":
            data["bots"] = max(players - taken, 0)
        elif opponents == "people":
            data["bots"] = 0
        elif data.get("bots") is None:
            self.add_error("bots", _("How many bots? (Or choose bots in every other seat.)"))
            return
        if data.get("open_table") and taken + data["bots"] >= players:
            self.add_error(
                "open_table",
                _("An open table needs a free seat: choose people (or some bots) for the other seats."),
            )
        if taken + data["bots"] > players:
            self.add_error(
                "bots" if opponents == "some" else "invite",
                str(TOO_MANY_SEATS)
                % {
                    "game": game_name(game_type.name),
                    "players": players,
                    "invited": len(invited),
                    "bots": data["bots"],
                    "total": taken + data["bots"],
                },
            )

    def options(self) -> dict[str, Any]:
        """The game options the engine's ``setup`` receives (unset ones take their defaults); a
        custom length's values only with a custom length (``length``)."""
        engine = self.cleaned_data["engine"]
        options = presenter_for(engine).create_options(self.cleaned_data)
        if self.cleaned_data.get("length") != lengths.CUSTOM:
            options = lengths.without_length(engine, options)
        return options

    def length(self) -> str | None:
        """The chosen length's name (``custom``: the values in ``options``); None: the rules' default."""
        length: str | None = self.cleaned_data.get("length")
        return length


# --- action forms ------------------------------------------------------------------------------------


def action_from_post(*, engine: str, data: QueryDict) -> dict[str, Any]:
    """The wire-format action a game page posted.

    Buttons post a complete action as JSON in ``action``; forms with choices (plucks, plays,
    abilities) post ``type`` and one field per parameter, turned by the game's presenter
    (``action_params``) into the rules file's wire format, with the ``decision_id`` they answer when
    the game's actions carry one. A presenter may add what a ticked box says to either
    (``add_posted_flags``: Bao Bei's ``commit_end_turn``, BB-20.7).
    ``RuleError("malformed_action")`` when neither makes sense; the engine then validates the action
    itself.
    """
    presenter = presenter_for(engine)
    raw = data.get("action")
    if raw:
        try:
            action = jsonlimits.loads(raw)
        except ValueError:  # not JSON, or nested too deep
            raise RuleError("malformed_action", "the action is not valid JSON") from None
        if not isinstance(action, dict):
            raise RuleError("malformed_action", "an action is a JSON object")
        presenter.add_posted_flags(action, data)
        return action
    kind = data.get("type", "")
    if not kind:
        raise RuleError("malformed_action", "no action was chosen")
    action = {"type": kind}
    if data.get("decision_id") and get_game_type(engine).decision_ids:
        action["decision_id"] = data["decision_id"]
    action.update(presenter.action_params(kind, data))
    presenter.add_posted_flags(action, data)
    return action
