"""Forms: creating a game, and turning a posted action form into a wire-format action."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.http import QueryDict

from baogame import jsonlimits
from baogame.rules.core import RuleError
from baogame.rules.registry import game_types, get_game_type

from .models import Game
from .presenters import presenter_for
from .timing import PRESETS

#: The games a person may create (``Game.Engine``), with their seat limits (BB-1.1, BH-1.1).
GAMES = [t for t in game_types() if t.name in Game.Engine.values]


class GameCreateForm(forms.Form):
    """Pick the game, seats, options (BB-25.1, BH-25.1) and timing; invite players; fill with bots."""

    engine = forms.ChoiceField(
        label="Game", choices=[(t.name, f"{t.display_name} ({t.seats_text()})") for t in GAMES]
    )
    players = forms.IntegerField(
        min_value=min(t.min_players for t in GAMES),
        max_value=max(t.max_players for t in GAMES),
        initial=3,
        help_text=" ".join(
            f"{t.display_name} always has {t.fixed_players} seats." for t in GAMES if t.fixed_players
        ),
    )
    bots = forms.IntegerField(
        min_value=0,
        max_value=max(t.max_players for t in GAMES) - 1,
        initial=2,
        help_text="Seats filled with bots (the last seats).",
    )
    timing_preset = forms.ChoiceField(
        label="Timing",
        choices=[(k, k.capitalize()) for k in PRESETS],
        initial="daily",
        help_text="How long each decision stays open: live (minutes), daily, weekly.",
    )
    invite = forms.CharField(
        required=False,
        label="Invite by username",
        help_text="Comma-separated usernames; each gets a seat at once. Others join by the link.",
    )
    title = forms.CharField(required=False, max_length=100)
    bot_test = forms.BooleanField(
        required=False,
        label="Bot-test game",
        help_text="Let one person's accounts (you and your bot accounts) take several seats; shown on the "
        "game page. Otherwise each person plays one seat.",
    )
    visibility = forms.ChoiceField(
        label="Who may watch",
        required=False,
        choices=Game.Visibility.choices,
        initial=Game.Visibility.PUBLIC,
        help_text="Unlisted: only people given the game's link; private: only its players.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Each game's option fields come from its presenter (``CREATE_FIELDS``), after the timing."""
        super().__init__(*args, **kwargs)
        order = list(self.fields)
        at = order.index("timing_preset") + 1
        options: dict[str, forms.Field] = {}
        for game_type in GAMES:
            for name, field in presenter_for(game_type.name).CREATE_FIELDS.items():
                options.setdefault(name, copy.deepcopy(field))
        self.fields.update(options)
        self.order_fields(order[:at] + list(options) + order[at:])

    def clean_invite(self) -> list[Any]:
        names = [n.strip() for n in self.cleaned_data.get("invite", "").split(",") if n.strip()]
        users = list(get_user_model().objects.filter(username__in=names))
        missing = sorted(set(names) - {u.username for u in users})
        if missing:
            raise forms.ValidationError(f"No such user: {', '.join(missing)}.")
        return users

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        engine = data.get("engine")
        game_type = get_game_type(engine) if engine else None
        if game_type is not None and game_type.fixed_players is not None:
            data["players"] = game_type.fixed_players
        players = data.get("players")
        if game_type is not None and players is not None:
            low, high = game_type.min_players, game_type.max_players
            if not low <= players <= high:
                self.add_error("players", f"This game takes {low}-{high} players.")
            invited = data.get("invite") or []
            bots = data.get("bots") or 0
            if 1 + len(invited) + bots > players:
                self.add_error("bots", "More players and bots than seats.")
        return data

    def options(self) -> dict[str, Any]:
        """The game options the engine's ``setup`` receives (unset ones take their defaults)."""
        return presenter_for(self.cleaned_data["engine"]).create_options(self.cleaned_data)


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
