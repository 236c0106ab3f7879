"""The ladder's rungs: the move endpoint's work served in steps, from the stack's floor to the site.

Each rung is the one before it plus one layer, all answering ``POST /api/v1/games/<id>/actions/`` with
a token, as the site's move endpoint does:

========== ============================================================================================
``floor``     the floor (``../shared/floor/floor.py``): bare Django, no app, no middleware; the token
              looked up by a hand query, the game row locked, a move row inserted, the game updated,
              a small JSON answer (tables ``ladder_*`` of its own, as the floor has)
``settings``  + the project's settings, apps and middleware, and its URL map (the route of the move
              endpoint is pointed at this rung's view)
``auth``      + authentication as the API does it (``ApiTokenAuthentication``: the token's digest
              looked up with its user)
``throttle``  + the write-rate throttle (``WriteRateThrottle``)
``drf``       + DRF's request and response handling: ``APIView`` with the site's parser, negotiation,
              authentication, permission and throttle classes, ``Response`` rendered to JSON
``store``     + the real store: ``pipeline.submit_action`` on real games (lock, settle, the engine's
              ``apply``, the move's writes), without the move's signals and tasks
``events``    + events and notifications: the move's signals (mail outbox, webhook look-up, push) and
              the tasks queued on commit
``site``      + the reply's view: the site itself (``baogame.wsgi``), the real ``MoveSubmitApi``
========== ============================================================================================

The rungs from ``store`` on play real moves (``bench.ladder.games``); those below write the floor's
rows. Only this module's views and the muting of ``store`` exist for the ladder; everything else is
the site's own code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

RUNGS = ("floor", "settings", "auth", "throttle", "drf", "store", "events", "site")

#: What each rung adds to the one before it.
ADDS = {
    "floor": "bare Django view: token, lock, insert, update",
    "settings": "+ project settings, apps, middleware, URL map",
    "auth": "+ API token authentication",
    "throttle": "+ write throttle",
    "drf": "+ DRF request/response handling",
    "store": "+ real store (lock, engine apply, persist)",
    "events": "+ events and notifications",
    "site": "+ the reply's view (the site itself)",
}

#: The rungs that play real games (the others write the floor's tables).
PLAYING = frozenset({"store", "events", "site"})

FLOOR_TABLES = (
    "DROP TABLE IF EXISTS ladder_move, ladder_game, ladder_token",
    "CREATE TABLE ladder_token (key text PRIMARY KEY, user_id int)",
    "CREATE TABLE ladder_game (id int PRIMARY KEY, move_count int, state jsonb)",
    "CREATE TABLE ladder_move (id bigserial PRIMARY KEY, game_id int, number int, user_id int, "
    "action jsonb, UNIQUE (game_id, number))",
)
#: The floor's game state: five hands of 13 and a pile of 40.
FLOOR_STATE = json.dumps({"hands": [list(range(13)) for _ in range(5)], "pile": list(range(40))})
FLOOR_GAMES = 500


def _floor_move(game_id: int, user_id: int, body: Any) -> int:
    """The floor's work once the caller is known: lock the game row, insert a move, update the game."""
    with transaction.atomic(), connection.cursor() as c:
        c.execute("SELECT move_count, state FROM ladder_game WHERE id = %s FOR UPDATE", [game_id])
        n, state = c.fetchone()
        c.execute(
            "INSERT INTO ladder_move (game_id, number, user_id, action) VALUES (%s, %s, %s, %s)",
            [game_id, n + 1, user_id, json.dumps(body)],
        )
        c.execute("UPDATE ladder_game SET move_count = %s, state = %s WHERE id = %s", [n + 1, state, game_id])
    return int(n) + 1


@csrf_exempt
def floor(request: HttpRequest, game_id: int) -> HttpResponse:
    """The floor's view (``floor.py``), its token read by a hand query from its own table."""
    token = request.headers.get("Authorization", "")[7:]  # "Bearer "
    body = json.loads(request.body)
    with connection.cursor() as c:
        c.execute("SELECT user_id FROM ladder_token WHERE key = %s", [token])
        row = c.fetchone()
    if row is None:
        return JsonResponse({"error": "unauthorised"}, status=401)
    return JsonResponse({"number": _floor_move(game_id, row[0], body), "ok": True})


def _authenticated(request: HttpRequest) -> Any:
    """The user of the request's token, as the API's authentication finds it (None: refused)."""
    from rest_framework.exceptions import AuthenticationFailed
    from rest_framework.request import Request

    from apps.api.authentication import ApiTokenAuthentication

    try:
        found = ApiTokenAuthentication().authenticate(Request(request))
    except AuthenticationFailed:
        return None
    return found[0] if found else None


@csrf_exempt
def auth(request: HttpRequest, game_id: int) -> HttpResponse:
    """The floor's work behind the API's token authentication."""
    user = _authenticated(request)
    if user is None:
        return JsonResponse({"error": "unauthorised"}, status=401)
    body = json.loads(request.body)
    return JsonResponse({"number": _floor_move(game_id, user.pk, body), "ok": True})


@csrf_exempt
def throttle(request: HttpRequest, game_id: int) -> HttpResponse:
    """``auth`` and the API's write throttle."""
    from apps.api.throttling import WriteRateThrottle

    user = _authenticated(request)
    if user is None:
        return JsonResponse({"error": "unauthorised"}, status=401)
    request.user = user
    if not WriteRateThrottle().allow_request(request, None):  # type: ignore[arg-type]
        return JsonResponse({"error": "throttled"}, status=429)
    body = json.loads(request.body)
    return JsonResponse({"number": _floor_move(game_id, user.pk, body), "ok": True})


def _api_views() -> dict[str, Callable[..., Any]]:
    """The DRF rungs' views (DRF is imported once the settings are configured)."""
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from apps.games import pipeline

    class DrfFloorApi(APIView):
        """The floor's work as a DRF view with the site's DRF settings."""

        def post(self, request: Request, game_id: int) -> Response:
            user_id = int(request.user.pk or 0)  # IsAuthenticated: a user
            return Response({"number": _floor_move(game_id, user_id, request.data), "ok": True})

    class StoreApi(APIView):
        """The move through the real pipeline; a small answer instead of the reply's view."""

        def post(self, request: Request, game_id: int) -> Response:
            result = pipeline.submit_action(
                game_id=game_id,
                user=request.user,  # type: ignore[arg-type]
                action=request.data["action"],  # type: ignore[call-overload]
                key=request.headers.get("Idempotency-Key") or None,
            )
            return Response({"number": result.seq, "ok": True}, status=201)

    return {"drf": DrfFloorApi.as_view(), "store": StoreApi.as_view(), "events": StoreApi.as_view()}


def mute_move_signals() -> None:
    """For ``store``: a move sends no signal and queues no task (the ``events`` rung adds them back)."""
    from types import SimpleNamespace

    from apps.games import pipeline

    def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    muted: Any = pipeline  # the module's own names, replaced for this rung only
    silent = SimpleNamespace(send=nothing)
    muted.signals = SimpleNamespace(
        move_sent=nothing, move_recording=nothing, move_applied=silent, game_ending=silent, game_ended=silent
    )
    muted.scheduling = SimpleNamespace(
        queue_after_move=nothing, queue_after_handover=nothing, queue_after_bot_timeout=nothing
    )


def route(rung: str) -> None:
    """Point the site's move route at the rung's view (before the first request resolves it)."""
    from apps.api import urls

    views: dict[str, Callable[..., Any]] = {"settings": floor, "auth": auth, "throttle": throttle}
    views.update(_api_views())
    pattern = next(p for p in urls.urlpatterns if getattr(p, "name", None) == "game-act")
    pattern.callback = views[rung]
