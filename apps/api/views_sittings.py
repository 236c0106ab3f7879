"""Sittings of a game: the table's proposals, answers, agreed sittings and presence (the table only).

A watcher who may see the game gets 403 ``not_at_table``; whoever may not see it, the usual 404.
"""

from __future__ import annotations

from datetime import time, timedelta
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.sittings import selectors as sitting_selectors
from apps.sittings import services as sitting_services
from apps.sittings.acceptance import Recurrence
from apps.sittings.models import Sitting

from . import selectors
from .inputs import JsonInput, parsed


class SittingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="agreed or ad_hoc.")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    status = serializers.CharField(help_text="scheduled, live, ended or cancelled.")


class SittingSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    present = serializers.BooleanField(help_text="The player's game page asked within the last 30 s.")


class ProposedTimeSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    status = serializers.CharField(help_text="open, accepted, declined or expired.")
    answers = serializers.DictField(child=serializers.BooleanField(), help_text="Seat position -> yes/no.")


class ProposalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="agreed, or ad_hoc (everyone is here: play now).")
    proposer = serializers.CharField()
    length_minutes = serializers.IntegerField()
    recurrence = serializers.DictField(
        allow_null=True, help_text="weekdays, at, weeks, first_day, time_zone."
    )
    times = ProposedTimeSerializer(many=True)


class SittingsSerializer(serializers.Serializer):
    my_seat = serializers.IntegerField(allow_null=True)
    seats = SittingSeatSerializer(many=True)
    everyone_here = serializers.BooleanField()
    current = SittingSerializer(allow_null=True)
    sittings = SittingSerializer(many=True)
    proposals = ProposalSerializer(many=True)
    proposal = serializers.IntegerField(required=False, help_text="After a proposal: its id.")
    agreed = SittingSerializer(
        many=True, required=False, help_text="After an answer: the sittings it agreed."
    )


def _sitting_body(sitting: Sitting) -> dict[str, Any]:
    return {
        "id": sitting.pk,
        "kind": sitting.kind,
        "starts_at": sitting.starts_at,
        "ends_at": sitting.ends_at,
        "status": sitting.status,
    }


def _panel_body(panel: sitting_selectors.Panel) -> dict[str, Any]:
    return {
        "my_seat": panel.my_seat,
        "seats": [
            {"position": p, "name": name, "present": p in panel.present}
            for p, name in sorted(panel.seats.items())
        ],
        "everyone_here": panel.everyone_here,
        "current": _sitting_body(panel.current) if panel.current else None,
        "sittings": [_sitting_body(s) for s in panel.sittings],
        "proposals": [
            {
                "id": p.id,
                "kind": p.kind,
                "proposer": p.proposer,
                "length_minutes": p.length_minutes,
                "recurrence": p.recurrence,
                "times": [
                    {
                        "index": t.index,
                        "starts_at": t.starts_at,
                        "status": t.status,
                        "answers": {str(seat): yes for seat, yes in sorted(t.answers.items())},
                    }
                    for t in p.times
                ],
            }
            for p in panel.proposals
        ],
    }


def _table_game(request: AuthenticatedRequest, game_id: int) -> Game:
    game = selectors.game_get(game_id=game_id, user=request.user, with_people=True)
    if not sitting_selectors.may_see(game=game, user=request.user):
        raise ServiceError("not_at_table", "sittings are the business of the game's players", status=403)
    return game


def _panel(request: AuthenticatedRequest, game: Game) -> dict[str, Any]:
    panel = sitting_selectors.panel(game=game, user=request.user)
    assert panel is not None  # _table_game checked
    return _panel_body(panel)


class RecurrenceInput(JsonInput):
    weekdays = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=6), min_length=1)
    at = serializers.RegexField(r"^[0-2][0-9]:[0-5][0-9]$", help_text="Wall-clock time, HH:MM.")
    weeks = serializers.IntegerField(min_value=1, max_value=26)
    first_day = serializers.DateField(help_text="The series starts on this day (YYYY-MM-DD).")
    time_zone = serializers.CharField(required=False, help_text="Default: your profile's time zone.")


class SittingListApi(APIView):
    """The game's sittings as its table sees them (GET); propose times or a weekly series (POST)."""

    class InputSerializer(JsonInput):
        times = serializers.ListField(
            child=serializers.DateTimeField(),
            required=False,
            default=list,
            help_text="RFC 3339, with offset.",
        )
        length_minutes = serializers.IntegerField(min_value=15, max_value=240, default=60)
        recurrence = RecurrenceInput(required=False)

    @extend_schema(operation_id="games_sittings_retrieve", responses=SittingsSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        game = _table_game(request, game_id)
        return Response(_panel(request, game))

    @extend_schema(
        operation_id="games_sittings_propose", request=InputSerializer, responses={201: SittingsSerializer}
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        game = _table_game(request, game_id)
        values = parsed(self.InputSerializer, request.data)
        zone = getattr(getattr(request.user, "profile", None), "time_zone", "UTC")
        recurrence = None
        if "recurrence" in values:
            r = values["recurrence"]
            try:
                at = time.fromisoformat(r["at"])
            except ValueError:
                raise ServiceError("bad_recurrence", "the time of day is HH:MM, 00:00 to 23:59") from None
            recurrence = Recurrence(
                weekdays=tuple(sorted(set(r["weekdays"]))),
                at=at,
                weeks=r["weeks"],
                first_day=r["first_day"],
                time_zone=r.get("time_zone") or zone,
            )
        proposal = sitting_services.proposal_create(
            game=game,
            user=request.user,
            times=values["times"],
            length=timedelta(minutes=values["length_minutes"]),
            recurrence=recurrence,
            time_zone=zone,
        )
        body = _panel(request, game)
        body["proposal"] = proposal.pk
        return Response(body, status=status.HTTP_201_CREATED)


class SittingAnswerApi(APIView):
    """Say yes or no to one time of a proposal (``index``) or to all its open times (no ``index``)."""

    class InputSerializer(JsonInput):
        accept = serializers.BooleanField()
        index = serializers.IntegerField(min_value=1, required=False)

    @extend_schema(
        operation_id="games_sittings_answer", request=InputSerializer, responses=SittingsSerializer
    )
    def post(self, request: AuthenticatedRequest, game_id: int, proposal_id: int) -> Response:
        game = _table_game(request, game_id)
        values = parsed(self.InputSerializer, request.data)
        agreed = sitting_services.answer(
            game=game,
            user=request.user,
            proposal_id=proposal_id,
            accept=values["accept"],
            index=values.get("index"),
        )
        body = _panel(request, game)
        body["agreed"] = [_sitting_body(s) for s in agreed]
        return Response(body)
