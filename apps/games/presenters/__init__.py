"""Turn a seat's ``view()`` into template-friendly data, one module per game.

Presenters read only what they are given — the seat's ``engine.view(state, seat)``, the seat labels,
the events the seat may see and, for simple choices, that seat's own ``legal_actions`` — so a page
can never show more than the engine allows the seat to know.

Each game's module (``baobei``, ``baohuang``) is its whole Django presentation: the board, the forms
that become its actions, its rules page and replay. It is registered in ``PRESENTERS`` by engine name
and provides the hooks of ``GamePresenter``; an engine without one (the test-only toy engine) gets
``generic``. Views and forms call the hooks and never branch on a game's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from django import forms
from django.http import QueryDict

from apps.games.rulebook import SECTION_TITLES, rules_url

from . import baobei, baohuang, generic
from .common import BoardInput

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class GamePresenter(Protocol):
    """The hooks a game's presenter module provides (``generic`` shows the plainest version of each)."""

    #: Actions may commit the end of the active player's turn (BB-20.7): the board is told whether
    #: the current turn is already committed.
    COMMITS_END_TURN: bool
    #: The game page's sentence on recomputing the shuffles from the seed (``revealed`` or not).
    SEED_TEMPLATE: str
    #: The game page's section of a seat's own settings; None: the game has none.
    SEAT_SETTINGS_TEMPLATE: str | None
    #: The vacation banner's sentence on what being away does in this game (clocks, windows passed).
    AWAY_TEXT: StrOrPromise
    #: The create form's fields for the game's options (BB-25.1, BH-25.1), by name; read by
    #: ``create_options``. The form shows every game's fields, after the timing.
    CREATE_FIELDS: dict[str, forms.Field]

    def wants_legal(self, decision: dict[str, Any]) -> bool:
        """Whether the board of ``decision``'s owner needs the seat's ``legal_actions``."""
        ...

    def present(self, board: BoardInput) -> dict[str, Any]:
        """The board's template data (see ``present`` below)."""
        ...

    def face_up_view(self, *, spectator: dict[str, Any], referee: dict[str, Any]) -> dict[str, Any]:
        """The spectator's view of a finished game with every card put in."""
        ...

    def face_up_cards(self, *, referee: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """The cards of a face-up replay that the board does not draw."""
        ...

    def rules_page(self) -> tuple[str, dict[str, Any]] | None:
        """The rules page's template and context; None: the game has none."""
        ...

    def rules_section(self, decision: dict[str, Any]) -> str | None:
        """The rules page's anchor that explains ``decision``; None: no rules page."""
        ...

    def create_options(self, data: dict[str, Any]) -> dict[str, Any]:
        """The engine options from the create form's cleaned data (unset ones: the defaults)."""
        ...

    def action_params(self, kind: str, data: QueryDict) -> dict[str, Any]:
        """The parameters of a posted action form of type ``kind``, in the rules' wire format."""
        ...

    def add_posted_flags(self, action: dict[str, Any], data: QueryDict) -> None:
        """Add what a posted box says to any posted action, form or button (Bao Bei's BB-20.7)."""
        ...


#: Engine name -> its presenter module.
PRESENTERS: dict[str, GamePresenter] = {"baobei": baobei, "baohuang": baohuang}


def presenter_for(engine: str) -> GamePresenter:
    """The presenter of ``engine``; ``generic`` for an engine without its own."""
    return PRESENTERS.get(engine, generic)


def present(
    *,
    engine: str,
    view: dict[str, Any],
    seat: int | None,
    names: list[str],
    legal: list[dict[str, Any]] | None = None,
    events: list[dict[str, Any]] | None = None,
    committed: bool = False,
    posted: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Template data for the board of ``engine`` as ``seat`` sees it (``names``: labels by seat).

    ``legal``: the seat's own legal actions, when its presenter ``wants_legal`` them. ``events`` are
    the events ``seat`` may see (``selectors.game_history``), oldest first: Bao Bei shows the last
    round's reveal from them (BB-25.7). ``committed``: ``seat`` has already committed the end of the
    current turn (BB-20.7). ``posted``: the seat's own refused form (``common.posted_choices``), whose
    choices the forms of the same decision show selected again.
    """
    board = presenter_for(engine).present(
        BoardInput(
            view=view,
            seat=seat,
            names=names,
            legal=legal,
            events=events or [],
            committed=committed,
            posted=posted,
        )
    )
    if board.get("decision") is not None:
        # Every decision box links to the rules section that explains it.
        board["decision"]["rules"] = decision_rules_link(engine, view.get("decision"))
    return board


def decision_rules_link(engine: str, decision: dict[str, Any] | None) -> dict[str, str] | None:
    """The link a decision box gives to its explanation (``url`` and ``title``), or None."""
    section = presenter_for(engine).rules_section(decision) if decision else None
    if section is None:
        return None
    return {"url": rules_url(engine, section), "title": str(SECTION_TITLES.get(section, "the rules"))}


def face_up_view(*, engine: str, spectator: dict[str, Any], referee: dict[str, Any]) -> dict[str, Any]:
    """A view of a game that is over with every card face up, for its replay.

    Once a game is over its seed is public (BB-25.10, BH-25.9), so every card of every step can be
    recomputed by anyone: the replay shows the spectator's view with the referee's cards put in.
    """
    return presenter_for(engine).face_up_view(spectator=spectator, referee=referee)


def face_up_cards(*, engine: str, referee: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The cards of a face-up replay that the board does not draw: Bao Bei's draw pile, Bao Huang's
    hands (``{"draw": [code, …]}`` top first, or ``{"hands": [{"name", "position", "cards"}, …]}``)."""
    return presenter_for(engine).face_up_cards(referee=referee, names=names)
