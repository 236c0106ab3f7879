"""Organiser endpoints of a league: the same service functions as the web's organiser tools.

Every write checks ``league_may_manage`` (an organiser or a site admin) in its service (403 otherwise)
and writes the league's audit log; a private league answers 404 to whoever may not see it, before
anything else is checked. The game tools answer ``own_game`` (403) to anyone who holds a seat in that
game: another organiser or a site admin must act.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.accounts.models import display_name
from apps.games import reliability
from apps.games import selectors as game_selectors
from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.leagues import confirmation, game_tools, organisers, seasons
from apps.leagues import divisions as league_divisions
from apps.leagues import selectors as league_selectors
from apps.leagues import services as league_services

from .inputs import NO_CONTROL_CHARACTERS, JsonInput, length_field, parsed
from .rendering import rendered
from .serializers import GameSummarySerializer, game_summary
from .views_games import game_answer
from .views_leagues import SeasonSerializer, league_organised


class ReasonSerializer(JsonInput):
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=500)


class RequiredReasonSerializer(JsonInput):
    reason = serializers.CharField(max_length=500, help_text="Why; written to the audit log.")


class ReliabilitySerializer(serializers.Serializer):
    games = serializers.IntegerField()
    answered = serializers.IntegerField(help_text="Decisions answered on time.")
    timeouts = serializers.IntegerField()
    handed_to_bot = serializers.IntegerField(help_text="Games whose seat went to the bot.")
    abandoned = serializers.IntegerField(help_text="Games left before their end.")
    vacation_days = serializers.FloatField()
    on_time_percent = serializers.IntegerField(allow_null=True, help_text="null: no decisions yet.")


def reliability_body(record: reliability.Record) -> dict[str, Any]:
    return {
        "games": record.games,
        "answered": record.answered,
        "timeouts": record.timeouts,
        "handed_to_bot": record.handed_to_bot,
        "abandoned": record.abandoned,
        "vacation_days": record.vacation_days,
        "on_time_percent": record.on_time_percent,
    }


# --- members -------------------------------------------------------------------------------------------


class LeagueMemberListApi(APIView):
    """Every membership (pending requests, members, withdrawn), for the organisers."""

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField(help_text="The membership id (to approve or decline a request).")
        user_id = serializers.IntegerField()
        username = serializers.CharField()
        name = serializers.CharField()
        status = serializers.CharField(help_text="pending, active or withdrawn")
        created_at = serializers.DateTimeField()
        joined_at = serializers.DateTimeField(allow_null=True)
        reliability = ReliabilitySerializer(help_text="The player's record over the last 12 months.")

    @extend_schema(operation_id="leagues_members_list", responses=OutputSerializer(many=True))
    def get(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_organised(request, slug)
        members = list(league_selectors.league_members(league=league))
        records = reliability.records_for([m.user_id for m in members])
        body = [
            {
                "id": m.pk,
                "user_id": m.user_id,
                "username": m.user.get_username(),
                "name": display_name(m.user),
                "status": m.status,
                "created_at": m.created_at,
                "joined_at": m.joined_at,
                "reliability": reliability_body(records[m.user_id]),
            }
            for m in members
        ]
        return Response(rendered(self.OutputSerializer, body, many=True))


class MembershipDecisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    status = serializers.CharField(help_text="active once approved; declined: the request is gone.")


class YesOrNoApi(APIView):
    """A POST with no body that says yes or no to something waiting (a request to join, a seat offer).

    The yes class answers ``yes = True``; its no class is a subclass with ``yes = False``. Each names
    its schema operation (``operation_id``) and its answer's serializer (``answer``).
    """

    yes: ClassVar[bool] = True
    operation_id: ClassVar[str]
    answer: ClassVar[type[serializers.Serializer]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        schema = extend_schema(operation_id=cls.operation_id, request=None, responses=cls.answer)
        extend_schema_view(post=schema)(cls)


class MembershipApproveApi(YesOrNoApi):
    """An organiser approves a request to join."""

    operation_id = "leagues_member_approve"
    answer = MembershipDecisionSerializer

    def post(self, request: AuthenticatedRequest, slug: str, membership_id: int) -> Response:
        league = league_organised(request, slug)
        membership = league_services.membership_approve(
            league=league, membership_id=membership_id, by=request.user, approve=self.yes
        )
        body = {
            "id": membership_id,
            "username": membership.user.get_username(),
            "status": membership.status if self.yes else "declined",
        }
        return Response(rendered(MembershipDecisionSerializer, body))


class MembershipDeclineApi(MembershipApproveApi):
    """An organiser declines a request to join (the request is deleted)."""

    operation_id, yes = "leagues_member_decline", False


class OrganiserMadeSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The membership id.")
    username = serializers.CharField()
    organiser = serializers.BooleanField()


class MembershipOrganiserApi(APIView):
    """An organiser makes an active member a fellow organiser (written to the audit log)."""

    @extend_schema(
        operation_id="leagues_member_make_organiser", request=None, responses=OrganiserMadeSerializer
    )
    def post(self, request: AuthenticatedRequest, slug: str, membership_id: int) -> Response:
        league = league_organised(request, slug)
        made = organisers.organiser_add(league=league, membership_id=membership_id, by=request.user)
        body = {"id": membership_id, "username": made.user.get_username(), "organiser": True}
        return Response(rendered(OrganiserMadeSerializer, body))


class LeagueInviteApi(APIView):
    """The league's invitation token and link, for the organisers (anyone holding it may join)."""

    class OutputSerializer(serializers.Serializer):
        invite_token = serializers.CharField()
        join_url = serializers.CharField()

    @extend_schema(operation_id="leagues_invite", responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_organised(request, slug)
        url = request.build_absolute_uri(reverse("leagues:join", args=[league.slug, league.invite_token]))
        return Response(
            rendered(self.OutputSerializer, {"invite_token": league.invite_token, "join_url": url})
        )


class LeagueEmailApi(APIView):
    """An organiser emails every active member."""

    class InputSerializer(JsonInput):
        subject = serializers.CharField(
            max_length=150, trim_whitespace=False, validators=[NO_CONTROL_CHARACTERS], help_text="One line."
        )
        body = serializers.CharField(max_length=20000)

    class OutputSerializer(serializers.Serializer):
        sent = serializers.IntegerField(help_text="Messages sent.")

    @extend_schema(operation_id="leagues_email_members", request=InputSerializer, responses=OutputSerializer)
    def post(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_organised(request, slug)
        values = parsed(self.InputSerializer, request.data)
        sent = league_services.league_email_members(league=league, by=request.user, **values)
        return Response(rendered(self.OutputSerializer, {"sent": sent}))


# --- seasons --------------------------------------------------------------------------------------------


class SeasonCreateApi(APIView):
    """An organiser schedules a new season; round 1 starts at ``starts_at`` (or when started by hand).

    In a league of several divisions the season starts from the previous one (which must have
    finished): its divisions are proposed (``…/seasons/<id>/divisions/``) and round 1 waits until an
    organiser confirms them."""

    class InputSerializer(JsonInput):
        starts_at = serializers.DateTimeField(
            required=False, allow_null=True, default=None, help_text="Empty: now (start round 1 by hand)."
        )
        rounds = serializers.IntegerField(min_value=1, max_value=100, default=5)
        round_interval_days = serializers.IntegerField(min_value=1, max_value=90, default=7)
        length = length_field(
            where="of every game of the season, for the league's game (Bao Bei's thresholds follow each "
            "table's size; the league's game options decide when it is omitted; length_options without "
            "custom: invalid_length)",
            options="length_options",
        )
        length_options = serializers.DictField(
            required=False,
            default=dict,
            help_text='With length custom: the values, e.g. {"deal_limit": 4} or {"threshold": 40}.',
        )

    @extend_schema(
        operation_id="leagues_season_create", request=InputSerializer, responses={201: SeasonSerializer}
    )
    def post(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_organised(request, slug)
        values = parsed(self.InputSerializer, request.data)
        if league.divisions > 1:  # with the proposed divisions, which an organiser confirms
            season = league_divisions.season_propose(league=league, by=request.user, **values)
        else:
            season = seasons.season_create(league=league, by=request.user, **values)
        return Response(rendered(SeasonSerializer, season), status=status.HTTP_201_CREATED)


# --- league games ---------------------------------------------------------------------------------------


class LeagueOpenGameListApi(APIView):
    """The league's games still in play, for the organisers' tools."""

    class OutputSerializer(serializers.Serializer):
        season = serializers.IntegerField()
        round = serializers.IntegerField()
        table = serializers.IntegerField()
        game = GameSummarySerializer()

    @extend_schema(operation_id="leagues_games_open", responses=OutputSerializer(many=True))
    def get(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_organised(request, slug)
        body = []
        for f in league_selectors.league_fixtures_open(league=league):
            # each game is this league's: its visibility needs no query of its own
            game = game_selectors.game_league_known(f.game, league_id=league.pk, is_public=league.is_public)
            body.append(
                {
                    "season": f.round.season.number,
                    "round": f.round.number,
                    "table": f.table,
                    "game": game_summary(game, _position(game, request.user)),
                }
            )
        return Response(rendered(self.OutputSerializer, body, many=True))


def _position(game: Game, user: Any) -> int | None:
    seat = game_selectors.seat_of(game, user)
    return seat.position if seat else None


class LeagueGameToolApi(APIView):
    """An organiser's tool on one game of the league: parse the body, call the service, answer the game.

    A subclass names its input (``InputSerializer``), its ``service`` (called with ``league``,
    ``game_id``, ``by`` and the input's fields, as ``arguments`` passes them) and its schema.
    """

    InputSerializer: type[serializers.Serializer] = ReasonSerializer
    service: ClassVar[Callable[..., object]]
    #: The schema's name of the subclass's operation.
    operation_id: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        schema = extend_schema(
            operation_id=cls.operation_id, request=cls.InputSerializer, responses=GameSummarySerializer
        )
        extend_schema_view(post=schema)(cls)

    def arguments(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def post(self, request: AuthenticatedRequest, slug: str, game_id: int) -> Response:
        league = league_organised(request, slug)
        values = parsed(self.InputSerializer, request.data)
        self.service(league=league, game_id=game_id, by=request.user, **self.arguments(values))
        return game_answer(request, game_id)


def _game_tool(
    operation_id: str,
    service: Callable[..., object],
    doc: str,
    *,
    input: type[serializers.Serializer] = ReasonSerializer,
    base: type[LeagueGameToolApi] = LeagueGameToolApi,
) -> type[LeagueGameToolApi]:
    """A game tool that needs nothing of its own: its schema name, service, description and input."""
    name = "".join(part.title() for part in operation_id.split("_")[1:]) + "Api"
    attributes = {"__doc__": doc, "__module__": __name__, "operation_id": operation_id}
    return type(name, (base,), {**attributes, "service": staticmethod(service), "InputSerializer": input})


class GameDeadlineExtendInputSerializer(ReasonSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=5)
    hours = serializers.IntegerField(min_value=1, max_value=24 * 60, default=24)


class SubstituteOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    seat = serializers.IntegerField(source="position")
    newcomer = serializers.CharField(source="newcomer.username")
    status = serializers.CharField(help_text="pending, accepted, declined or withdrawn")
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class SeatSubstituteApi(APIView):
    """An organiser who does not play in the game offers a seat to an active member who has none there.

    The member takes the seat (and what it knows) only when they accept the offer; until then the seat
    is played as before. Refusals: ``own_game`` (403), ``not_a_member``, ``already_seated`` (409).
    """

    class InputSerializer(ReasonSerializer):
        seat = serializers.IntegerField(min_value=0, max_value=5)
        username = serializers.CharField(max_length=150, help_text="The newcomer.")

    @extend_schema(
        operation_id="leagues_game_substitute",
        request=InputSerializer,
        responses={201: SubstituteOfferSerializer},
    )
    def post(self, request: AuthenticatedRequest, slug: str, game_id: int) -> Response:
        league = league_organised(request, slug)
        d = parsed(self.InputSerializer, request.data)
        newcomer = get_user_model().objects.filter(username=d["username"]).first()
        if newcomer is None:
            raise ServiceError("no_such_user", "no user with that username", status=400)
        offer = game_tools.seat_substitute(
            league=league,
            game_id=game_id,
            position=d["seat"],
            user=newcomer,
            by=request.user,
            reason=d["reason"],
        )
        return Response(rendered(SubstituteOfferSerializer, offer), status=status.HTTP_201_CREATED)


class SubstituteOfferListApi(APIView):
    """The league's seat offers waiting for an answer: mine, or all of them for those who manage it."""

    @extend_schema(operation_id="leagues_offers_list", responses=SubstituteOfferSerializer(many=True))
    def get(self, request: AuthenticatedRequest, slug: str) -> Response:
        league = league_selectors.league_get_visible(user=request.user, slug=slug)
        if league_services.league_may_manage(league=league, user=request.user):
            offers = list(league.substitute_offers.filter(status="pending").select_related("newcomer"))
        else:
            offers = league_selectors.offers_pending_for(league=league, user=request.user)
        return Response(rendered(SubstituteOfferSerializer, offers, many=True))


class SubstituteOfferAcceptApi(YesOrNoApi):
    """The newcomer accepts a seat offer and plays the seat from now on (``offer_lapsed`` if the seat
    changed hands meanwhile)."""

    operation_id = "leagues_offer_accept"
    answer = SubstituteOfferSerializer

    def post(self, request: AuthenticatedRequest, slug: str, offer_id: int) -> Response:
        league_selectors.league_get_visible(user=request.user, slug=slug)
        offer = game_tools.substitute_answer(offer_id=offer_id, user=request.user, accept=self.yes)
        return Response(rendered(SubstituteOfferSerializer, offer))


class SubstituteOfferDeclineApi(SubstituteOfferAcceptApi):
    """The newcomer declines a seat offer."""

    operation_id, yes = "leagues_offer_decline", False


class SeatBotTakeoverInputSerializer(ReasonSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=5)
    on = serializers.BooleanField(help_text="True: the bot plays the seat; false: its player again.")


class SeatBotTakeoverApi(LeagueGameToolApi):
    """An organiser hands a seat to the server's bot (``on``: true) or gives it back (false)."""

    operation_id = "leagues_game_bot_takeover"
    InputSerializer = SeatBotTakeoverInputSerializer
    service = staticmethod(game_tools.seat_bot_takeover)

    def arguments(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"position": data["seat"], "on": data["on"], "reason": data["reason"]}


class GameAdjudicateInputSerializer(RequiredReasonSerializer):
    places = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        min_length=2,
        max_length=6,
        help_text="Places by seat (1 = best), e.g. [2, 1, 3].",
    )


class GameAdjudicateApi(LeagueGameToolApi):
    """An organiser ends a game with a result (counted like a played one): a place for every seat."""

    operation_id = "leagues_game_adjudicate"
    InputSerializer = GameAdjudicateInputSerializer
    service: ClassVar[Callable[..., object]] = staticmethod(game_tools.game_adjudicate)

    def arguments(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"places": dict(enumerate(data["places"])), "reason": data["reason"]}


# --- results: the confirmation period -------------------------------------------------------------------


#: The organiser's tools on one game, by the last part of their URL (``…/games/<game_id>/<action>/``).
GAME_TOOLS: dict[str, type[APIView]] = {
    "extend": _game_tool(
        "leagues_game_extend",
        game_tools.game_deadline_extend,
        "An organiser gives a seat's open decision more time (a plucking window: every owner's clock).",
        input=GameDeadlineExtendInputSerializer,
    ),
    "pause": _game_tool(
        "leagues_game_pause", game_tools.game_pause, "An organiser stops every clock of a league game."
    ),
    "resume": _game_tool(
        "leagues_game_resume",
        game_tools.game_resume,
        "An organiser restarts a paused league game's clocks with the time each decision had left.",
    ),
    "substitute": SeatSubstituteApi,
    "bot-takeover": SeatBotTakeoverApi,
    "adjudicate": GameAdjudicateApi,
    # the results' confirmation period
    "result-confirm": _game_tool(
        "leagues_result_confirm",
        confirmation.result_confirm,
        "An organiser confirms a provisional result at once (not in a game they hold a seat in).",
    ),
    "result-reopen": _game_tool(
        "leagues_result_reopen",
        confirmation.result_reopen,
        "Within the confirmation period, an organiser withdraws a provisional result to adjudicate it.",
        input=RequiredReasonSerializer,
    ),
    "result-adjudicate": _game_tool(
        "leagues_result_adjudicate",
        confirmation.result_adjudicate,
        "An organiser gives a reopened result its places; counted and confirmed at once.",
        input=GameAdjudicateInputSerializer,
        base=GameAdjudicateApi,
    ),
    "abort": _game_tool(
        "leagues_game_abort",
        game_tools.game_abort,
        "An organiser ends a game without a result; it does not count in the standings.",
        input=RequiredReasonSerializer,
    ),
}
