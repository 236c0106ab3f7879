"""Organiser endpoints of a season's divisions: the proposal, moves by hand, confirmation.

The same service functions as the web's proposal screen (``apps.leagues.divisions``); every write is
audited and refused (403) to anyone who does not manage the league.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.accounts.models import display_name
from apps.games.errors import ServiceError
from apps.leagues import divisions
from apps.leagues.models import DivisionPlacement, League, Season

from .inputs import NO_CONTROL_CHARACTERS, JsonInput, parsed
from .rendering import rendered
from .views_leagues import league_organised


class PlacementSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    division = serializers.IntegerField()
    previous_division = serializers.IntegerField(allow_null=True)
    movement = serializers.ChoiceField(choices=DivisionPlacement.Movement.values)
    moved_by_hand = serializers.BooleanField()


class DivisionsSerializer(serializers.Serializer):
    season = serializers.IntegerField(help_text="The season's number.")
    confirmed_at = serializers.DateTimeField(allow_null=True)
    placements = PlacementSerializer(many=True)


def _season(request: AuthenticatedRequest, slug: str, season_id: int) -> tuple[League, Season]:
    league = league_organised(request, slug)
    season = league.seasons.filter(pk=season_id).first()
    if season is None:
        raise ServiceError("not_found", "no such season", status=404)
    return league, season


def _body(season: Season) -> dict[str, object]:
    season.refresh_from_db()
    placements = season.placements.select_related("user__profile").order_by("division", "user__username")
    return {
        "season": season.number,
        "confirmed_at": season.divisions_confirmed_at,
        "placements": [
            {
                "user_id": p.user_id,
                "username": p.user.get_username(),
                "name": display_name(p.user),
                "division": p.division,
                "previous_division": p.previous_division,
                "movement": p.movement,
                "moved_by_hand": p.moved_by_hand,
            }
            for p in placements
        ],
    }


class SeasonDivisionsApi(APIView):
    """The season's divisions: proposed (who moves up, down, joins) or confirmed."""

    @extend_schema(operation_id="leagues_season_divisions", responses=DivisionsSerializer)
    def get(self, request: AuthenticatedRequest, slug: str, season_id: int) -> Response:
        _, season = _season(request, slug, season_id)
        return Response(rendered(DivisionsSerializer, _body(season)))


class SeasonDivisionMoveApi(APIView):
    """An organiser moves one member to another division before confirming (audited)."""

    class InputSerializer(JsonInput):
        user_id = serializers.IntegerField()
        division = serializers.IntegerField(min_value=1, max_value=20)
        reason = serializers.CharField(
            required=False, default="", allow_blank=True, max_length=500, validators=[NO_CONTROL_CHARACTERS]
        )

    @extend_schema(
        operation_id="leagues_season_division_move", request=InputSerializer, responses=DivisionsSerializer
    )
    def post(self, request: AuthenticatedRequest, slug: str, season_id: int) -> Response:
        _, season = _season(request, slug, season_id)
        d = parsed(self.InputSerializer, request.data)
        divisions.placement_move(
            season=season, user_id=d["user_id"], division=d["division"], by=request.user, reason=d["reason"]
        )
        return Response(rendered(DivisionsSerializer, _body(season)))


class SeasonDivisionsConfirmApi(APIView):
    """An organiser confirms the season's divisions (audited); round 1 may start from then on."""

    @extend_schema(
        operation_id="leagues_season_divisions_confirm", request=None, responses=DivisionsSerializer
    )
    def post(self, request: AuthenticatedRequest, slug: str, season_id: int) -> Response:
        _, season = _season(request, slug, season_id)
        divisions.divisions_confirm(season=season, by=request.user)
        return Response(rendered(DivisionsSerializer, _body(season)))
