"""League endpoints: leagues I may see, a league with its seasons, a season's standings, membership."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.games.errors import ServiceError
from apps.leagues import selectors as league_selectors
from apps.leagues import services as league_services


class LeagueSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField(help_text="baobei or baohuang")
    description = serializers.CharField(allow_blank=True)
    is_public = serializers.BooleanField()
    players_per_table = serializers.IntegerField()
    timing_preset = serializers.CharField()
    created_at = serializers.DateTimeField()


class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField()
    rounds = serializers.IntegerField()
    round_interval_days = serializers.IntegerField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    games_played = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    score_total = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField()


class RoleSerializer(serializers.Serializer):
    organiser = serializers.BooleanField()
    membership = serializers.CharField(allow_null=True, help_text="My membership status, or null.")


class LeagueListApi(APIView):
    """The leagues I may see: public ones, and private ones I organise or belong to."""

    @extend_schema(operation_id="leagues_list", responses=LeagueSerializer(many=True))
    def get(self, request: Request) -> Response:
        leagues = league_selectors.league_list_visible(user=request.user)
        return Response(LeagueSerializer(leagues, many=True).data)


class LeagueDetailApi(APIView):
    """One league, its seasons (newest first) and what I am in it."""

    class OutputSerializer(LeagueSerializer):
        seasons = SeasonSerializer(many=True)
        me = RoleSerializer()

    @extend_schema(operation_id="leagues_retrieve", responses=OutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        body = {
            **LeagueSerializer(league).data,
            "seasons": list(league.seasons.order_by("-number")),
            "me": league_selectors.league_role(league=league, user=request.user),
        }
        return Response(self.OutputSerializer(body).data)


class SeasonStandingsApi(APIView):
    """The table of one season, best first."""

    class OutputSerializer(serializers.Serializer):
        season = SeasonSerializer()
        standings = StandingSerializer(many=True)

    @extend_schema(operation_id="leagues_season_standings", responses=OutputSerializer)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        season = league.seasons.filter(pk=season_id).first()
        if season is None:
            raise ServiceError("not_found", "no such season", status=404)
        body: dict[str, Any] = {
            "season": season,
            "standings": league_selectors.season_standings(season=season),
        }
        return Response(self.OutputSerializer(body).data)


class LeagueJoinApi(APIView):
    """Join a league: with its invitation token at once, without one as a request the organisers approve."""

    class InputSerializer(serializers.Serializer):
        invite_token = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")

    @extend_schema(operation_id="leagues_join", request=InputSerializer, responses=RoleSerializer)
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = data.validated_data["invite_token"]
        league = _league_for_join(user=request.user, slug=slug, token=token)
        if token:
            league_services.membership_join_by_link(league=league, user=request.user, token=token)
        else:
            league_services.membership_request(league=league, user=request.user)
        return Response(RoleSerializer(league_selectors.league_role(league=league, user=request.user)).data)


class LeagueWithdrawApi(APIView):
    """Leave a league (my results stay in its tables)."""

    @extend_schema(operation_id="leagues_withdraw", request=None, responses=RoleSerializer)
    def post(self, request: Request, slug: str) -> Response:
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        league_services.membership_withdraw(league=league, user=request.user)
        return Response(RoleSerializer(league_selectors.league_role(league=league, user=request.user)).data)


def _league_for_join(*, user: Any, slug: str, token: str) -> Any:
    """A visible league, or a private one whose invitation token the caller holds."""
    from apps.leagues.models import League

    if token:
        league = League.objects.filter(slug=slug, invite_token=token).first()
        if league is not None:
            return league
    return league_selectors.league_get_visible(user=user, slug=slug)
