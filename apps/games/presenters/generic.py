"""A plain board for engines without their own presenter (the test-only toy engine).

It is also the list of hooks a game's presenter module provides (``presenters.GamePresenter``), each
with the plainest behaviour: the view as JSON, a button per legal action, no forms, no rules page.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from .common import BoardInput, button

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TEMPLATE = "games/boards/generic.html"
COMMITS_END_TURN = False
#: How the game page tells anyone to recompute the shuffles from the seed (``revealed``: it is out).
SEED_TEMPLATE = "games/boards/generic_seed.html"
#: No settings of a seat's own on the game page.
SEAT_SETTINGS_TEMPLATE: str | None = None
#: The vacation banner's sentence.
AWAY_TEXT: StrOrPromise = gettext_lazy("Your clocks in this game are stopped; the others see you as away.")


def wants_legal(decision: dict[str, Any]) -> bool:
    """Always: the buttons are the seat's legal actions."""
    return True


def present(board: BoardInput) -> dict[str, Any]:
    """The view as JSON (it is already this seat's view) and one button per legal action of mine."""
    view, legal = board.view, board.legal
    buttons = [
        button(" ".join(f"{k} {v}" for k, v in a.items() if k != "decision_id"), a) for a in (legal or [])
    ]
    return {
        "template": TEMPLATE,
        "decision_template": "games/boards/generic_decision.html",
        "view_json": json.dumps(view, indent=1),
        "decision": {"buttons": buttons} if buttons else None,
    }


def face_up_view(*, spectator: dict[str, Any], referee: dict[str, Any]) -> dict[str, Any]:
    """The spectator's view with the referee's view beside it."""
    return {**spectator, "referee": referee}


def face_up_cards(*, referee: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Nothing beside the board (the referee's view is in the JSON already)."""
    return {}


def rules_page() -> tuple[str, dict[str, Any]] | None:
    """No rules page."""
    return None


def rules_section(decision: dict[str, Any]) -> str | None:
    """No rules page, so no section."""
    return None


#: No options on the create form: every option takes its default.
CREATE_FIELDS: dict[str, forms.Field] = {}


def create_options(data: dict[str, Any]) -> dict[str, Any]:
    """Every option takes its default."""
    return {}


def action_params(kind: str, data: QueryDict) -> dict[str, Any]:
    """No form fields: the buttons post complete actions."""
    return {}


def add_posted_flags(action: dict[str, Any], data: QueryDict) -> None:
    """Nothing to add."""
