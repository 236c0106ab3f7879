"""Forms: creating a game, and turning a posted action form into a wire-format action."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.http import QueryDict

from baogame import jsonlimits
from baogame.rules.core import RuleError

from .models import Game
from .timing import PRESETS

#: The seats each game takes (BB-1.1, BH-1.1).
SEAT_LIMITS = {"baobei": (2, 6), "baohuang": (5, 5)}


class GameCreateForm(forms.Form):
    """Pick the game, seats, options (BB-25.1, BH-25.1) and timing; invite players; fill with bots."""

    engine = forms.ChoiceField(
        label="Game", choices=[("baobei", "Bao Bei (2-6 players)"), ("baohuang", "Bao Huang (5 players)")]
    )
    players = forms.IntegerField(
        min_value=2, max_value=6, initial=3, help_text="Bao Huang always has 5 seats."
    )
    bots = forms.IntegerField(
        min_value=0, max_value=5, initial=2, help_text="Seats filled with bots (the last seats)."
    )
    timing_preset = forms.ChoiceField(
        label="Timing",
        choices=[(k, k.capitalize()) for k in PRESETS],
        initial="daily",
        help_text="How long each decision stays open: live (minutes), daily, weekly.",
    )
    threshold = forms.IntegerField(
        min_value=1,
        required=False,
        help_text="Bao Bei: the game ends when a total reaches it (default by seats).",
    )
    memory_aid = forms.BooleanField(
        required=False, initial=True, help_text="Bao Bei: show the cards I have seen in my view."
    )
    target_score = forms.IntegerField(
        min_value=1, required=False, help_text="Bao Huang: total that wins (default 30)."
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
        if engine == "baohuang":
            data["players"] = 5
        players = data.get("players")
        if engine in SEAT_LIMITS and players is not None:
            low, high = SEAT_LIMITS[engine]
            if not low <= players <= high:
                self.add_error("players", f"This game takes {low}-{high} players.")
            invited = data.get("invite") or []
            bots = data.get("bots") or 0
            if 1 + len(invited) + bots > players:
                self.add_error("bots", "More players and bots than seats.")
        return data

    def options(self) -> dict[str, Any]:
        """The game options the engine's ``setup`` receives (unset ones take their defaults)."""
        d = self.cleaned_data
        if d["engine"] == "baobei":
            options: dict[str, Any] = {"memory_aid": bool(d.get("memory_aid"))}
            if d.get("threshold"):
                options["threshold"] = d["threshold"]
            return options
        return {"target_score": d["target_score"]} if d.get("target_score") else {}


# --- action forms ------------------------------------------------------------------------------------


def _int(data: QueryDict, name: str) -> int:
    try:
        return int(data.get(name, ""))
    except ValueError:
        raise RuleError("malformed_action", f"choose a value for {name.replace('_', ' ')}") from None


def _opt_int(data: QueryDict, name: str) -> int | None:
    return None if data.get(name, "") in {"", "none"} else _int(data, name)


def _pos(data: QueryDict, name: str) -> dict[str, int]:
    """A position posted as ``"seat.slot"``."""
    try:
        seat, slot = str(data[name]).split(".")
        return {"seat": int(seat), "slot": int(slot)}
    except (KeyError, ValueError):
        raise RuleError("malformed_action", f"choose a card for {name.replace('_', ' ')}") from None


def _flag(data: QueryDict, name: str) -> bool:
    return data.get(name, "") in {"1", "true", "on", "yes"}


def _baobei_fields(kind: str, data: QueryDict) -> dict[str, Any]:
    """The parameters of BB-22's action ``kind`` from form fields."""
    if kind == "choose_peek":
        try:
            return {"slots": [int(s) for s in data.getlist("slots")]}
        except ValueError:
            raise RuleError("malformed_action", "slots are numbers") from None
    if kind in {"keep", "take_discard"}:
        return {"slot": _int(data, "slot")}
    if kind == "pluck":
        double = data.get("kind") == "double"
        targets = [_pos(data, "target1")] + ([_pos(data, "target2")] if double else [])
        gifts = [_opt_int(data, "gift1")] + ([_opt_int(data, "gift2")] if double else [])
        return {"kind": "double" if double else "single", "targets": targets, "gifts": gifts}
    if kind == "use_ability":
        ability = data.get("ability", "")
        out: dict[str, Any] = {"ability": ability}
        if ability in {"peek", "reveal"}:
            out["target"] = _pos(data, "target")
        elif ability in {"blind_swap", "macaw"}:
            out["targets"] = [_pos(data, "target_a"), _pos(data, "target_b")]
        elif ability == "toco":
            out["target_seat"] = _int(data, "target_seat")
        return out
    if kind == "macaw_decide":
        return {"swap": _flag(data, "swap")}
    if kind == "shoebill_place":
        mine_card, theirs_card = _opt_int(data, "mine_card"), _opt_int(data, "theirs_card")
        return {
            "mine": None if mine_card is None else {"card": mine_card, "slot": _int(data, "mine_slot")},
            "theirs": None
            if theirs_card is None
            else {"card": theirs_card, "target": _pos(data, "theirs_target")},
        }
    if kind == "end_turn":
        return {"bao": _flag(data, "bao")}
    return {}


def _baohuang_fields(kind: str, data: QueryDict) -> dict[str, Any]:
    """The parameters of BH-20's action ``kind`` from form fields."""
    if kind in {"play", "give_tribute"}:
        out: dict[str, Any] = {"cards": data.getlist("cards")}
        if kind == "play" and _flag(data, "no_beat_request"):
            out["no_beat_request"] = True
        return out
    if kind == "pledge":
        return {"side": data.get("side", "")}
    if kind == "guess_partner":
        return {"seat": _int(data, "seat")}
    return {}


def _commit_end_turn(action: dict[str, Any], data: QueryDict) -> None:
    """BB-20.7: a ticked "and end my turn without BAO" box adds ``commit_end_turn`` to the action.

    Every Bao Bei form of the active player's turn carries the box, button rows included, so it
    applies to a button's JSON action too. Never on ``end_turn`` (BB-20.3); whether the sender may
    commit is the engine's check (``commit_not_allowed``).
    """
    if _flag(data, "commit_end_turn") and action.get("type") != "end_turn":
        action["commit_end_turn"] = True


def action_from_post(*, engine: str, data: QueryDict) -> dict[str, Any]:
    """The wire-format action a game page posted.

    Buttons post a complete action as JSON in ``action``; forms with choices (plucks, plays,
    abilities) post ``type`` and one field per parameter, turned here into the rules file's
    wire format. Bao Bei forms may add a ``commit_end_turn`` box to either (BB-20.7).
    ``RuleError("malformed_action")`` when neither makes sense; the engine then validates the action
    itself.
    """
    raw = data.get("action")
    if raw:
        try:
            action = jsonlimits.loads(raw)
        except ValueError:  # not JSON, or nested too deep
            raise RuleError("malformed_action", "the action is not valid JSON") from None
        if not isinstance(action, dict):
            raise RuleError("malformed_action", "an action is a JSON object")
        if engine == "baobei":
            _commit_end_turn(action, data)
        return action
    kind = data.get("type", "")
    if not kind:
        raise RuleError("malformed_action", "no action was chosen")
    action = {"type": kind}
    if engine == "baobei":
        if data.get("decision_id"):
            action["decision_id"] = data["decision_id"]
        action.update(_baobei_fields(kind, data))
        _commit_end_turn(action, data)
    elif engine == "baohuang":
        action.update(_baohuang_fields(kind, data))
    return action
