"""My standing orders in one game (DESIGN.md "Standing orders").

Own seat only: the endpoint has no seat or user in its address, so nobody can ask for another player's
orders; a user without a seat gets ``not_seated`` (403), and a game the user may not see the same 404 as
one that does not exist. Nothing here is ever shown to anyone else.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.games import orders
from baogame.rules import orders as rules

from . import selectors
from .inputs import JsonInput, parsed
from .rendering import rendered

KIND_HELP = "One of: " + "; ".join(f"{game}: {', '.join(kinds)}" for game, kinds in rules.KINDS.items()) + "."


class OrderSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text=KIND_HELP)
    params = serializers.DictField(
        help_text='play_if_beats: {"cards": [...]}; offer: {"answer": "keep"|"pass"}; declare: '
        '{"answer": "none"|"pledge"|"alone"}; the others: {}.'
    )
    bound = serializers.CharField(
        allow_null=True, help_text='The trick ("<deal>.<n>") or deal the order is for; null: until revoked.'
    )
    text = serializers.CharField(help_text="The order in words.")


class OrdersSerializer(serializers.Serializer):
    orders = OrderSerializer(many=True)


class OrderInput(JsonInput):
    kind = serializers.CharField(help_text=KIND_HELP)
    params = serializers.DictField(required=False, default=dict)


def _body(found: list[dict[str, Any]]) -> dict[str, Any]:
    return {"orders": found}


class MyOrdersApi(APIView):
    """My standing orders in this game: list (GET), set the whole list (PUT), clear them (DELETE).

    PUT replaces every order at once (all or nothing): an unknown kind is ``unknown_order``, bad
    parameters ``invalid_order``, cards not held ``card_not_in_hand``, a trick order outside play
    ``no_trick``, an answer ahead for a next deal that is not due ``no_next_deal`` (all 400);
    ``game_not_active`` (409) once the game is over; ``table_of_one`` (409) for ``sitting_bot`` in a
    game of one person against bots, which has no sittings. An order that already answers my open
    decision answers it at once.
    """

    class InputSerializer(JsonInput):
        orders = OrderInput(many=True)

    @extend_schema(operation_id="games_my_orders_retrieve", responses=OrdersSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        return Response(rendered(OrdersSerializer, _body(orders.mine(game=game, user=request.user))))

    @extend_schema(operation_id="games_my_orders_update", request=InputSerializer, responses=OrdersSerializer)
    def put(self, request: AuthenticatedRequest, game_id: int) -> Response:
        selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        values = parsed(self.InputSerializer, request.data)
        wanted = [dict(item) for item in values["orders"]]
        found = orders.replace(game_id=game_id, user=request.user, wanted=wanted)
        return Response(rendered(OrdersSerializer, _body(found)))

    @extend_schema(operation_id="games_my_orders_clear", request=None, responses={204: None})
    def delete(self, request: AuthenticatedRequest, game_id: int) -> Response:
        """Clear all my orders in this game: 204, no body."""
        selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        orders.revoke(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
