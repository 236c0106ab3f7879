"""Turn a seat's ``view()`` into template-friendly data, one module per game.

Presenters read only what they are given — the seat's ``engine.view(state, seat)``, the seat labels,
the events the seat may see and, for simple choices, that seat's own ``legal_actions`` — so a page
can never show more than the engine allows the seat to know.
"""

from __future__ import annotations

from typing import Any

from apps.games.rulebook import decision_rules_link

from . import baobei, baohuang, generic


def present(
    *,
    engine: str,
    view: dict[str, Any],
    seat: int | None,
    names: list[str],
    legal: list[dict[str, Any]] | None = None,
    events: list[dict[str, Any]] | None = None,
    committed: bool = False,
) -> dict[str, Any]:
    """Template data for the board of ``engine`` as ``seat`` sees it (``names``: labels by seat).

    ``events`` are the events ``seat`` may see (``selectors.game_history``), oldest first: Bao Bei
    shows the last round's reveal from them (BB-25.7). ``committed``: Bao Bei's ``seat`` has already
    committed the end of the current turn (BB-20.7).
    """
    if engine == "baobei":
        board = baobei.present(view=view, seat=seat, names=names, events=events or [], committed=committed)
    elif engine == "baohuang":
        board = baohuang.present(view=view, seat=seat, names=names, plays=legal)
    else:
        board = generic.present(view=view, seat=seat, names=names, legal=legal)
    if board.get("decision") is not None:
        # Every decision box links to the rules section that explains it.
        board["decision"]["rules"] = decision_rules_link(engine, view.get("decision"))
    return board


def face_up_view(*, engine: str, spectator: dict[str, Any], referee: dict[str, Any]) -> dict[str, Any]:
    """A view of a game that is over with every card face up, for its replay.

    Once a game is over its seed is public (BB-25.10, BH-25.9), so every card of every step can be
    recomputed by anyone: the replay shows the spectator's view with the referee's cards put in.
    """
    if engine == "baobei":
        return baobei.face_up_view(spectator=spectator, referee=referee)
    if engine == "baohuang":
        return baohuang.face_up_view(spectator=spectator, referee=referee)
    return {**spectator, "referee": referee}


def face_up_cards(*, engine: str, referee: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The cards of a face-up replay that the board does not draw: Bao Bei's draw pile, Bao Huang's
    hands (``{"draw": [code, …]}`` top first, or ``{"hands": [{"name", "position", "cards"}, …]}``)."""
    if engine == "baobei":
        return {"draw": list(referee["draw"])}
    if engine == "baohuang":
        return {
            "hands": [
                {"name": names[s], "position": s, "cards": baohuang.sorted_hand(hand)}
                for s, hand in enumerate(referee["hands"])
            ]
        }
    return {}
