"""League endpoints: leagues I may see (and a new one), a league with its seasons, a season's standings,
rounds and rating history, the organisers' audit log, membership."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth import get_user_model
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.accounts.models import display_name
from apps.games.clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS
from apps.games.errors import ServiceError
from apps.leagues import organisers, season_length, seasons
from apps.leagues import selectors as league_selectors
from apps.leagues import services as league_services
from apps.leagues.auditlog import audit_sentence
from apps.leagues.formats import FORMATS
from apps.leagues.models import League, Season

from .inputs import JsonInput, QueryInput, parsed
from .rendering import rendered
from .throttling import AnonymousReadThrottle, WriteRateThrottle

CONFIRMATION_HELP = (
    "Hours a finished game's result stays provisional, open to an organiser's objection; "
    "0: confirmed at once."
)
RELIABILITY_HELP = (
    "Percent of decisions answered on time over the last 12 months needed to join and at each new season; "
    "0: no minimum."
)
DIVISIONS_HELP = "Number of divisions (1 = top); used by the next season's proposal."
PROMOTION_HELP = "How many players move up (and down) between neighbouring divisions each season."
FORMAT_HELP = (
    "spread: opponents repeat as little as possible; swiss: similar standings meet, no rematch while "
    "avoidable; round_robin: every pair meets equally often, as far as table sizes allow."
)


class PublicLeagueReads(APIView):
    """A league's reads (GET) need no sign-in, as its web page: a public league's list entry, page,
    standings, rounds, ratings, log and exports; anonymous callers are throttled per address
    (``API_ANON_READ_RATE``). A private league still answers 404 to whoever is not in it, and every
    write still needs a signed-in caller (401)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [AnonymousReadThrottle, WriteRateThrottle]


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
    divisions_confirmed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When an organiser confirmed the divisions (null: not yet, or no divisions).",
    )
    length = serializers.CharField(
        allow_blank=True,
        help_text="The length of every game of the season by name (as games_create takes it); empty: the "
        "league's game options decide.",
    )
    length_options = serializers.DictField(help_text='A custom length\'s values, e.g. {"deal_limit": 4}.')
    length_text = serializers.SerializerMethodField(
        help_text="The length in words at the league's table size, e.g. 'Short: 3 deals, or first to 30'."
    )

    def get_length_text(self, season: Season) -> str:
        return season_length.season_length_text(season)


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
    division = serializers.IntegerField(help_text="The player's division this season (1 = top).")


class RoleSerializer(serializers.Serializer):
    organiser = serializers.BooleanField()
    membership = serializers.CharField(allow_null=True, help_text="My membership status, or null.")


class OrganiserSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()


class LeagueDetailSerializer(LeagueSerializer):
    allow_smaller_tables = serializers.BooleanField()
    engine_options = serializers.DictField(help_text="Engine options of the games the league creates.")
    points_table = serializers.ListField(
        child=serializers.IntegerField(), help_text="League points by place; empty: table size minus place."
    )
    confirmation_hours = serializers.IntegerField(help_text=CONFIRMATION_HELP)
    min_reliability = serializers.IntegerField(help_text=RELIABILITY_HELP)
    divisions = serializers.IntegerField(help_text="Number of divisions (1 = top).")
    promotion = serializers.IntegerField(
        help_text="Players moving up and down between divisions each season."
    )
    pairing_format = serializers.ChoiceField(choices=FORMATS, help_text="spread, swiss or round_robin.")
    seasons = SeasonSerializer(many=True)
    organisers = OrganiserSerializer(many=True, help_text="Who runs the league, by name.")
    me = RoleSerializer()


def _league_detail(league: League, user: Any) -> dict[str, Any]:
    return {
        **rendered(LeagueSerializer, league),
        "allow_smaller_tables": league.allow_smaller_tables,
        "engine_options": league.engine_options,
        "points_table": league.points_table,
        "confirmation_hours": league.confirmation_hours,
        "min_reliability": league.min_reliability,
        "divisions": league.divisions,
        "promotion": league.promotion,
        "pairing_format": league.pairing_format,
        "seasons": list(league.seasons.order_by("-number")),
        "organisers": [
            {"username": u.get_username(), "name": display_name(u)}
            for u in league.organisers.select_related("profile").order_by("username")
        ],
        "me": league_selectors.league_role(league=league, user=user),
    }


def visible_season(*, user: Any, slug: str, season_id: int) -> tuple[League, Season]:
    """A season of a league the user may see; 404 otherwise (a private league hides)."""
    league = league_selectors.league_get_visible(user=user, slug=slug)
    season = league.seasons.filter(pk=season_id).first()
    if season is None:
        raise ServiceError("not_found", "no such season", status=404)
    return league, season


class LeagueCreateApi(APIView):
    """Create a league (POST): I organise it, and play in it when ``join``; the same form as the web's."""

    class InputSerializer(JsonInput):
        name = serializers.CharField(max_length=100)
        game = serializers.CharField(max_length=16, help_text="The engine: baobei or baohuang.")
        description = serializers.CharField(required=False, default="", allow_blank=True, max_length=5000)
        is_public = serializers.BooleanField(
            default=True, help_text="A private league is seen by members only."
        )
        players_per_table = serializers.IntegerField(
            min_value=2,
            max_value=6,
            required=False,
            allow_null=True,
            default=None,
            help_text="Omitted: the game's one table size (Bao Huang: 5), else 4.",
        )
        allow_smaller_tables = serializers.BooleanField(default=True)
        engine_options = serializers.DictField(required=False, default=dict, help_text="Engine options.")
        timing_preset = serializers.ChoiceField(choices=sorted(NAMED_CONTROLS), default=DEFAULT_CONTROL)
        points_table = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=1000),
            required=False,
            default=list,
            max_length=6,
            help_text="League points by place, e.g. [3, 2, 1]; empty: table size minus place.",
        )
        join = serializers.BooleanField(default=True, help_text="I play in the league too.")
        confirmation_hours = serializers.IntegerField(
            min_value=0, max_value=720, default=0, help_text=CONFIRMATION_HELP
        )
        min_reliability = serializers.IntegerField(
            min_value=0, max_value=100, default=0, help_text=RELIABILITY_HELP
        )
        divisions = serializers.IntegerField(min_value=1, max_value=20, default=1, help_text=DIVISIONS_HELP)
        promotion = serializers.IntegerField(min_value=0, max_value=50, default=1, help_text=PROMOTION_HELP)
        pairing_format = serializers.ChoiceField(choices=FORMATS, default="spread", help_text=FORMAT_HELP)

    @extend_schema(
        operation_id="leagues_create", request=InputSerializer, responses={201: LeagueDetailSerializer}
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        league = league_services.league_create(creator=request.user, **values)
        body = _league_detail(league, request.user)
        return Response(rendered(LeagueDetailSerializer, body), status=status.HTTP_201_CREATED)


class LeagueListApi(PublicLeagueReads, LeagueCreateApi):
    """The leagues I may see: public ones, and private ones I organise or belong to (POST: a new one)."""

    @extend_schema(operation_id="leagues_list", responses=LeagueSerializer(many=True))
    def get(self, request: Request) -> Response:
        leagues = league_selectors.league_list_visible(user=request.user)
        return Response(rendered(LeagueSerializer, leagues, many=True))


def league_organised(request: AuthenticatedRequest, slug: str) -> League:
    """A league the caller may see (404 otherwise) and manages, as an organiser or a site admin (403
    otherwise)."""
    league = league_selectors.league_get_visible(user=request.user, slug=slug)
    if not league_services.league_may_manage(league=league, user=request.user):
        raise ServiceError("forbidden", "only the league's organisers can do that", status=403)
    return league


class LeagueDetailApi(PublicLeagueReads):
    """One league, its seasons (newest first) and what I am in it (PATCH: an organiser edits it)."""

    class InputSerializer(JsonInput):
        """Only the fields sent change; the game and the slug stay."""

        name = serializers.CharField(max_length=100, required=False)
        description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
        is_public = serializers.BooleanField(
            required=False, help_text="A private league is seen by members only."
        )
        players_per_table = serializers.IntegerField(min_value=2, max_value=6, required=False)
        allow_smaller_tables = serializers.BooleanField(required=False)
        engine_options = serializers.DictField(
            required=False, help_text="Engine options (replace the old ones)."
        )
        timing_preset = serializers.ChoiceField(choices=sorted(NAMED_CONTROLS), required=False)
        points_table = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=1000),
            required=False,
            max_length=6,
            help_text="League points by place, e.g. [3, 2, 1]; empty: table size minus place.",
        )
        confirmation_hours = serializers.IntegerField(
            min_value=0, max_value=720, required=False, help_text=CONFIRMATION_HELP
        )
        min_reliability = serializers.IntegerField(
            min_value=0, max_value=100, required=False, help_text=RELIABILITY_HELP
        )
        divisions = serializers.IntegerField(
            min_value=1, max_value=20, required=False, help_text=DIVISIONS_HELP
        )
        promotion = serializers.IntegerField(
            min_value=0, max_value=50, required=False, help_text=PROMOTION_HELP
        )
        pairing_format = serializers.ChoiceField(choices=FORMATS, required=False, help_text=FORMAT_HELP)

    @extend_schema(operation_id="leagues_retrieve", responses=LeagueDetailSerializer)
    def get(self, request: Request, slug: str) -> Response:
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        return Response(rendered(LeagueDetailSerializer, _league_detail(league, request.user)))

    @extend_schema(
        operation_id="leagues_partial_update",
        request=InputSerializer,
        responses=LeagueDetailSerializer,
        description=(
            "An organiser changes the league's name, description, visibility or game preset. The preset "
            "applies to the games of the rounds started from then on; games already created keep their "
            "options and clocks. A new points table counts for results recorded from then on."
        ),
    )
    def patch(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_organised(request, slug)
        values = parsed(self.InputSerializer, request.data)
        league = league_services.league_update(league=league, by=request.user, **values)
        return Response(rendered(LeagueDetailSerializer, _league_detail(league, request.user)))


class SeasonStandingsApi(PublicLeagueReads):
    """The table of one season, best first."""

    class OutputSerializer(serializers.Serializer):
        season = SeasonSerializer()
        standings = StandingSerializer(many=True)

    @extend_schema(operation_id="leagues_season_standings", responses=OutputSerializer)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        _, season = visible_season(user=request.user, slug=slug, season_id=season_id)
        body: dict[str, Any] = {
            "season": season,
            "standings": league_selectors.season_standings(season=season),
        }
        return Response(rendered(self.OutputSerializer, body))


class LeagueJoinApi(APIView):
    """Join a league: with its invitation token at once, without one as a request the organisers approve."""

    class InputSerializer(JsonInput):
        refuse_unknown_fields = True  # a mistyped invite_token must not turn the join into a request
        invite_token = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")

    @extend_schema(operation_id="leagues_join", request=InputSerializer, responses=RoleSerializer)
    def post(self, request: AuthenticatedRequest, slug: str) -> Response:
        token = parsed(self.InputSerializer, request.data)["invite_token"]
        league = _league_for_join(user=request.user, slug=slug, token=token)
        if token:
            league_services.membership_join_by_link(league=league, user=request.user, token=token)
        else:
            league_services.membership_request(league=league, user=request.user)
        return Response(
            rendered(RoleSerializer, league_selectors.league_role(league=league, user=request.user))
        )


class _MyRoleChangeApi(APIView):
    """A POST with no body that changes what I am in a league (``change``) and answers my role. Each
    subclass names its schema operation (``operation_id``)."""

    operation_id: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        schema = extend_schema(operation_id=cls.operation_id, request=None, responses=RoleSerializer)
        extend_schema_view(post=schema)(cls)

    def change(self, league: League, user: Any) -> None:
        raise NotImplementedError

    def post(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        self.change(league, request.user)
        return Response(
            rendered(RoleSerializer, league_selectors.league_role(league=league, user=request.user))
        )


class LeagueWithdrawApi(_MyRoleChangeApi):
    """Leave a league (my results stay in its tables)."""

    operation_id = "leagues_withdraw"

    def change(self, league: League, user: Any) -> None:
        league_services.membership_withdraw(league=league, user=user)


class LeagueStepDownApi(_MyRoleChangeApi):
    """Stop organising a league (``last_organiser`` while nobody else organises it; I stay a member)."""

    operation_id = "leagues_step_down"

    def change(self, league: League, user: Any) -> None:
        organisers.organiser_step_down(league=league, by=user)


def _league_for_join(*, user: Any, slug: str, token: str) -> Any:
    """A visible league, or a private one whose invitation token the caller holds."""
    from apps.leagues.models import League

    if token:
        league = League.objects.filter(slug=slug, invite_token=token).first()
        if league is not None:
            return league
    return league_selectors.league_get_visible(user=user, slug=slug)


class SeasonRatingHistoryApi(PublicLeagueReads):
    """Each player's rating (mu - 3 sigma) after each counted game of the season, from the initial one."""

    class OutputSerializer(serializers.Serializer):
        user_id = serializers.IntegerField()
        username = serializers.CharField()
        name = serializers.CharField()
        ratings = serializers.ListField(child=serializers.FloatField())

    @extend_schema(operation_id="leagues_season_ratings", responses=OutputSerializer(many=True))
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        _, season = visible_season(user=request.user, slug=slug, season_id=season_id)
        history = league_selectors.season_rating_history(season=season)
        people = {u.pk: u for u in get_user_model().objects.filter(pk__in=history).select_related("profile")}
        body = [
            {
                "user_id": user_id,
                "username": people[user_id].get_username(),
                "name": display_name(people[user_id]),
                "ratings": [round(r, 4) for r in line],
            }
            for user_id, line in sorted(history.items())
            if user_id in people
        ]
        return Response(rendered(self.OutputSerializer, body, many=True))


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    actor = serializers.CharField(allow_null=True, help_text="The organiser's username; null: the schedule.")
    action = serializers.CharField()
    game_id = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    summary = serializers.CharField(
        allow_blank=True,
        help_text="What every member may read of the particulars, e.g. who a substitute seat went to.",
    )
    sentence = serializers.CharField(
        help_text="The entry as the league page says it, in the caller's language, e.g. "
        '"ann started round 2 of season 1 (3 tables).".'
    )
    detail = serializers.JSONField(
        allow_null=True, help_text="The action's particulars; shown to organisers only (as on the web)."
    )


class LeagueAuditLogApi(PublicLeagueReads):
    """The organisers' actions, newest first: whoever may see the league sees the log, as on its web page."""

    class FilterSerializer(QueryInput):
        limit = serializers.IntegerField(required=False, default=100, min_value=1, max_value=1000)

    @extend_schema(
        operation_id="leagues_audit_log",
        parameters=[FilterSerializer],
        responses=AuditEntrySerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        filters = parsed(self.FilterSerializer, request.query_params)
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        organiser = league_services.league_is_organiser(league=league, user=request.user)
        entries = league_selectors.league_audit_log(league=league, limit=filters["limit"])
        body = [
            {
                "id": e.pk,
                "created_at": e.created_at,
                "actor": e.actor.get_username() if e.actor else None,
                "action": e.action,
                "game_id": e.game_id,
                "reason": e.reason,
                "summary": e.public_summary,
                "sentence": audit_sentence(e),
                "detail": e.detail if organiser else None,
            }
            for e in entries
        ]
        return Response(rendered(AuditEntrySerializer, body, many=True))


class FixtureSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    division = serializers.IntegerField(help_text="The division whose table it is (1 = top).")
    game_id = serializers.IntegerField()
    status = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Names, by seat.")
    counted = serializers.BooleanField(help_text="Its result is in the standings.")


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="User ids who sat out.")
    fixtures = FixtureSerializer(many=True)


def round_body(rnd: Any) -> dict[str, Any]:
    """A round and its tables (public: who plays where, each game's status)."""
    fixtures = []
    for f in rnd.fixtures.all():
        seats = sorted(f.game.seats.all(), key=lambda s: s.position)
        fixtures.append(
            {
                "table": f.table,
                "division": f.division,
                "game_id": f.game_id,
                "status": f.game.status,
                "players": [s.label for s in seats],
                "counted": f.counted_at is not None,
            }
        )
    return {"number": rnd.number, "started_at": rnd.started_at, "byes": rnd.byes, "fixtures": fixtures}


class RoundStartApi(APIView):
    """An organiser starts the season's next round (POST): members are seated at tables, games created."""

    @extend_schema(operation_id="leagues_round_start", request=None, responses={201: RoundSerializer})
    def post(self, request: AuthenticatedRequest, slug: str, season_id: int) -> Response:
        _, season = visible_season(user=request.user, slug=slug, season_id=season_id)
        rnd = seasons.round_start(season_id=season.pk, by=request.user)
        rnd = next(r for r in league_selectors.season_rounds(season=season) if r.pk == rnd.pk)
        return Response(rendered(RoundSerializer, round_body(rnd)), status=status.HTTP_201_CREATED)


class RoundListApi(PublicLeagueReads, RoundStartApi):
    """The season's rounds with their tables and games (POST: start the next round, organisers)."""

    @extend_schema(operation_id="leagues_rounds_list", responses=RoundSerializer(many=True))
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        _, season = visible_season(user=request.user, slug=slug, season_id=season_id)
        body = [round_body(r) for r in league_selectors.season_rounds(season=season)]
        return Response(rendered(RoundSerializer, body, many=True))


class SeasonExportApi(PublicLeagueReads):
    """A season's ``standings``, ``ratings`` (every rating change, in counted order) or ``games`` as JSON
    rows: the same columns as the CSV downloads of the league page."""

    @extend_schema(
        operation_id="leagues_season_export",
        responses={200: build_array_type(build_basic_type(OpenApiTypes.OBJECT) or {})},
    )
    def get(self, request: Request, slug: str, season_id: int, kind: str) -> Response:
        from apps.leagues import exports

        _, season = visible_season(user=request.user, slug=slug, season_id=season_id)
        if kind not in exports.KINDS:
            raise ServiceError(
                "not_found", f"no export {kind!r}: one of {', '.join(exports.KINDS)}", status=404
            )
        return Response(exports.rows(kind, season))
