"""A finished game's full record as a JSON download (``records.game_record``), under the game's visibility."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse

from . import records, selectors
from .models import Game


def game_record_download(request: HttpRequest, public_id: str) -> HttpResponse:
    """``/games/<public_id>/record.json``: the record once the game is over (404 before, and for whoever
    may not see the game); ``manage.py verify_games --file`` checks it."""
    game_id = Game.objects.filter(public_id=public_id).values_list("pk", flat=True).first()
    game = selectors.game_read(game_id, seats="people") if game_id is not None else None
    if game is None:
        raise Http404("no such game")
    seat = selectors.seat_of(game, request.user if request.user.is_authenticated else None)
    if not selectors.game_may_view(game=game, user=request.user, seated=seat is not None) or not game.is_over:
        raise Http404("no such game record")
    body = json.dumps(records.game_record(game), indent=1, sort_keys=True)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.public_id}.json"'
    return response
