"""A player's public page through the API (``apps.games.players``): ``GET players/<username>/``."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.games import players
from apps.games.models import Game
from apps.leagues import selectors as league_selectors

from .rendering import rendered
from .throttling import AnonymousReadThrottle, WriteRateThrottle
from .views_league_manage import ReliabilitySerializer, reliability_body


class PlayerSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="Display name; null for an open seat.")
    username = serializers.CharField(
        allow_null=True,
        help_text="The player's page is players/<username>/; null for a bot seat, an open seat or a closed "
        "account.",
    )
    is_bot = serializers.BooleanField(help_text="A seat of the server's bot (a bird's name).")


class PlayerGameSerializer(serializers.Serializer):
    """A game as the Watch page lists it: names, the game and dates, nothing of its state."""

    id = serializers.IntegerField(help_text="The game's number in the API's paths.")
    public_id = serializers.CharField(help_text="The game's identifier in links (/games/<public_id>/).")
    engine = serializers.ChoiceField(choices=Game.Engine.choices)
    title = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = PlayerSeatSerializer(many=True)
    url = serializers.CharField(help_text="The game's web page.")


class PlayerLeagueSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField(help_text="baobei or baohuang")
    season = serializers.IntegerField(
        allow_null=True, help_text="The newest season the player stands in; null: none yet."
    )
    games_played = serializers.IntegerField(help_text="The player's games counted in that season.")
    rating = serializers.FloatField(
        allow_null=True, help_text="Their rating there (mu - 3 sigma); null: none."
    )


class PlayerRecordSerializer(ReliabilitySerializer):
    games = serializers.IntegerField(
        allow_null=True,
        help_text="null but on your own page: the count takes in games others may not see, and its "
        "growth would tell when the player sits at one.",
    )
    answered = serializers.IntegerField(
        allow_null=True,
        help_text="Decisions answered on time; null but on your own page (the share, on_time_percent, "
        "is public, as in league standings).",
    )
    summary = serializers.CharField(help_text="The record in one line, in the reader's language.")


class PlayerDetailApi(APIView):
    """A player's public page: their name, when they joined, their reliability record over the last 12
    months, their games in play and lately finished that the caller may see (never an unlisted or
    private game, nor a private league's, to a stranger), and the public leagues they are an active
    member of. Readable signed out, as the page (anonymous callers are throttled per address); the name
    is matched whatever its case, and ``username`` gives its own spelling; 404 ``not_found`` for an
    unknown name or a closed account."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [AnonymousReadThrottle, WriteRateThrottle]

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(
            help_text="The username as the account spells it, whatever the case of the name asked for."
        )
        name = serializers.CharField(help_text="The name the player shows.")
        is_bot = serializers.BooleanField(help_text="A bot account: a program plays it through the API.")
        joined_at = serializers.DateTimeField()
        reliability = PlayerRecordSerializer()
        in_play = PlayerGameSerializer(many=True, help_text="Newest start first.")
        finished = PlayerGameSerializer(many=True, help_text="Latest end first, the last few.")
        leagues = PlayerLeagueSerializer(many=True, help_text="Public leagues only, by name.")
        url = serializers.CharField(help_text="The player's web page.")

    @extend_schema(operation_id="players_retrieve", responses=OutputSerializer)
    def get(self, request: Request, username: str) -> Response:
        user = players.player_get(username=username)  # any case: the body gives its own spelling
        profile = players.player_profile(user=user, viewer=request.user)
        body = {
            "username": profile.user.get_username(),
            "name": profile.name,
            "is_bot": profile.is_bot,
            "joined_at": profile.joined_at,
            "reliability": {
                **reliability_body(profile.record),
                **({} if profile.own else {"games": None, "answered": None}),
                "summary": profile.record.summary,
            },
            "in_play": [_game(g) for g in profile.in_play],
            "finished": [_game(g) for g in profile.finished],
            "leagues": [
                {
                    "slug": row.league.slug,
                    "name": row.league.name,
                    "game": row.league.game,
                    "season": row.season,
                    "games_played": row.games_played,
                    "rating": row.rating,
                }
                for row in league_selectors.leagues_of_player(user=profile.user)
            ],
            "url": reverse("games:player", args=[profile.user.get_username()]),
        }
        return Response(rendered(self.OutputSerializer, body))


def _game(game: Game) -> dict[str, Any]:
    return {
        "id": game.pk,
        "public_id": game.public_id,
        "engine": game.engine,
        "title": game.title,
        "status": game.status,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "seats": [
            {
                "position": seat.position,
                "name": None if seat.is_empty else seat.label,
                "username": seat.user.get_username()
                if not seat.bot and seat.user is not None and players.player_linked(seat.user)
                else None,
                "is_bot": seat.is_bot,
            }
            for seat in game.seats.all()
        ],
        "url": game.get_absolute_url(),
    }
