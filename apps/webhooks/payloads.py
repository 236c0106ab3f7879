"""The JSON body of a webhook event: built from the seat's own view, never from the state.

What a seat receives is what the API would answer that seat: the move's events filtered by
``visible`` (as the history and the move reply are), the seat's version (BB-30.6: another seat's
hidden answer to a simultaneous decision is no event for anybody else), and the seat's own open
decisions as ``view(state, seat)`` and the public decision rows show them.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import reverse

from apps.games import selectors as game_selectors
from apps.games.models import Game, Move
from baogame.rules.core import visible
from baogame.rules.registry import get_engine


def seat_decisions(*, game: Game, seat: int) -> list[dict[str, Any]]:
    """The decisions ``seat`` owns now, with their deadlines and the seat's own view of each."""
    if game.status != Game.Status.ACTIVE or game.state is None:
        return []
    own = get_engine(game.engine).view(game.state, seat).get("decision") or {}
    out = []
    for row in game_selectors.public_decision_rows(game=game, viewer=seat):
        if row["seat"] != seat:
            continue
        detail = own if own.get("decision_id", row["decision_id"]) == row["decision_id"] else {}
        out.append({**detail, **row})
    return out


def _game_ref(game: Game) -> dict[str, Any]:
    return {
        "id": game.pk,
        "public_id": game.public_id,
        "engine": game.engine,
        "url": settings.SITE_URL + game.get_absolute_url(),
        "api": settings.SITE_URL + reverse("api:game-detail", args=[game.pk]),
    }


def webhook_body(
    *, game: Game, seat: int, move: Move | None, bot_takeover: bool = False
) -> dict[str, Any] | None:
    """The event ``seat`` is sent about ``move`` (None: the game started), or None when it is told nothing.

    Another seat's hidden answer (``move.hidden``) tells this seat nothing, not even that it happened.
    ``number`` is the move's history line number, the same for every seat (``apps.games.numbering``);
    None for the seat's own hidden answer.
    ``by_bot`` says the server's bot made the move (a bot seat's, or an absent player's seat played by
    the bot); ``bot_takeover`` that the server's bot plays this seat now (after missed deadlines, a hand
    over or an organiser's hand-over), so a program learns from the next event that it was replaced,
    and takes the seat back (``POST games/{id}/seat/take-back/``).
    """
    if move is not None and move.hidden and move.seat != seat:
        return None
    events = [e for e in move.events if visible(e, seat)] if move is not None else []
    return {
        "type": "game.move" if move is not None else "game.started",
        "game": _game_ref(game),
        "seat": seat,
        "version": game_selectors.seat_version_after(move, seat) if move is not None else 0,
        "number": game_selectors.move_number(move) if move is not None else None,
        "by_timeout": bool(move.by_timeout) if move is not None else False,
        "by_bot": bool(move.by_bot) if move is not None else False,
        "bot_takeover": bot_takeover,
        "events": events,
        "status": game.status,
        "decisions": [] if bot_takeover else seat_decisions(game=game, seat=seat),  # the bot answers
    }


def webhook_end_body(*, game: Game, seat: int, bot_takeover: bool = False) -> dict[str, Any]:
    """The event ``seat`` is sent when its game ends (finished, adjudicated or aborted): the result is
    public by then (the API detail shows it to anyone who may see the game)."""
    return {
        "type": "game.ended",
        "game": _game_ref(game),
        "seat": seat,
        "version": game_selectors.viewer_version(game, seat),
        "number": None,
        "by_timeout": False,
        "by_bot": False,
        "bot_takeover": bot_takeover,
        "events": [],
        "status": game.status,
        "result": game.result if game.is_over else None,
        "decisions": [],
    }


def encode(body: dict[str, Any]) -> str:
    """The body's JSON text, compact and with sorted keys (what is signed is what is sent)."""
    return json.dumps(body, cls=DjangoJSONEncoder, separators=(",", ":"), sort_keys=True)
