"""Games waiting for players through the API (``apps.games.lobby``): the open tables, taking a free seat
of one, taking one off the list, and cancelling a game before it starts."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.games import lobby
from apps.games import selectors as game_selectors

from . import selectors
from .inputs import JsonInput, parsed
from .rendering import rendered
from .serializers import GameSummarySerializer, game_summary
from .throttling import AnonymousReadThrottle, WriteRateThrottle


class OpenTableSerializer(GameSummarySerializer):
    min_reliability = serializers.IntegerField(
        help_text="Who may take a seat: a record of at least this percent of decisions answered on time "
        "over the last 12 months, over at least 20 decisions (a new account with no record yet may not "
        "sit: reliability_too_low); 0: anybody."
    )


class OpenTableListApi(APIView):
    """The open tables, newest first, as the Watch page lists them: public games waiting for players
    that anybody signed in may join without an invitation (``POST games/{id}/take-seat/``). Like the
    page it needs no sign-in; anonymous callers are throttled per address."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousReadThrottle, WriteRateThrottle]

    @extend_schema(operation_id="games_open_tables", responses=OpenTableSerializer(many=True))
    def get(self, request: Request) -> Response:
        results = []
        for game in lobby.open_tables()[: lobby.OPEN_TABLES_SHOWN]:
            seat = game_selectors.seat_of(game, request.user)
            summary = game_summary(game, seat.position if seat else None)
            results.append({**summary, "min_reliability": game.min_reliability})
        return Response(rendered(OpenTableSerializer, results, many=True))


class OpenTableJoinApi(APIView):
    """Take a free seat of an open table (403 ``not_an_open_table`` for a game joined by invitation
    only, ``reliability_too_low`` below the table's minimum record); the game starts when its table is
    full."""

    class InputSerializer(JsonInput):
        refuse_unknown_fields = True
        position = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=0, max_value=5, help_text="A seat."
        )

    @extend_schema(operation_id="games_take_seat", request=InputSerializer, responses=GameSummarySerializer)
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        values = parsed(self.InputSerializer, request.data)
        lobby.open_table_join(game_id=game_id, user=request.user, position=values["position"])
        return _summary(request, game_id)


class OpenTableCloseApi(APIView):
    """The creator takes their waiting game off the open tables (403 ``forbidden`` for anyone else,
    ``game_not_open`` once it started); who sits keeps their seat, and the invitation link works."""

    @extend_schema(operation_id="games_close_table", request=None, responses=GameSummarySerializer)
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        lobby.open_table_close(game_id=game_id, by=request.user)
        return _summary(request, game_id)


class GameCancelApi(APIView):
    """The creator cancels their game while it waits for players: it ends aborted (``status``
    ``aborted``, ``started_at`` null), and the people already seated are told. Refused: 403
    ``forbidden`` for anyone else, 403 ``league_game`` for a league's game, 409 ``game_not_open`` once
    it has started or ended."""

    @extend_schema(operation_id="games_cancel", request=None, responses=GameSummarySerializer)
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        lobby.game_cancel(game_id=game_id, by=request.user)
        return _summary(request, game_id)


def _summary(request: AuthenticatedRequest, game_id: int) -> Response:
    """The answer of a change made to a waiting game: the game as the caller now sees it."""
    game = selectors.game_get(game_id=game_id, user=request.user)
    return Response(
        rendered(
            GameSummarySerializer, game_summary(game, selectors.seat_position(game=game, user=request.user))
        )
    )
