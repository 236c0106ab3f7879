"""A game's table talk (``apps.games.table_talk``): read by whoever may see the game, written by its
players, a message reported to the site's staff by any reader but its writer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.games import table_talk
from apps.games.models import TableMessage

from . import selectors
from .inputs import JsonInput, parsed
from .rendering import rendered


class TableMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    name = serializers.CharField(source="writer", help_text="The writer, as the game names its player.")
    text = serializers.CharField()
    references = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The history line numbers the text names as #N: the history's number, the same line "
        "for every reader.",
    )
    created_at = serializers.DateTimeField()


class GameTalkApi(APIView):
    """The game's newest table-talk messages, oldest first (GET); write one as a player (POST, 201)."""

    class InputSerializer(JsonInput):
        text = serializers.CharField(max_length=table_talk.LONGEST, trim_whitespace=False)

    @extend_schema(operation_id="games_talk_list", responses=TableMessageSerializer(many=True))
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        return Response(rendered(TableMessageSerializer, table_talk.messages_shown(game), many=True))

    @extend_schema(
        operation_id="games_talk_create", request=InputSerializer, responses={201: TableMessageSerializer}
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        text = parsed(self.InputSerializer, request.data)["text"]
        game = selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        message: TableMessage = table_talk.message_post(game=game, user=request.user, text=text)
        return Response(rendered(TableMessageSerializer, message), status=status.HTTP_201_CREATED)


class TalkReportApi(APIView):
    """Report a message of the game's table talk to the site's staff as abusive: 201 the first time, 200
    when you had reported it already (``no_such_message`` 404, ``own_message``)."""

    class ReportedSerializer(serializers.Serializer):
        reported = serializers.BooleanField(help_text="Always true: the staff have your report.")

    @extend_schema(
        operation_id="games_talk_report",
        request=None,
        responses={201: ReportedSerializer, 200: ReportedSerializer},
    )
    def post(self, request: AuthenticatedRequest, game_id: int, message_id: int) -> Response:
        game = selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        created = table_talk.message_report(game=game, user=request.user, message_id=message_id)
        return Response({"reported": True}, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
