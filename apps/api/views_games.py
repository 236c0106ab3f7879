"""Game endpoints: list, create, join, a game as my seat sees it, its history, legal actions, moves."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.games import estimates, invitations
from apps.games import lifecycle as game_lifecycle
from apps.games import pipeline as game_pipeline
from apps.games import selectors as game_selectors
from apps.games.clock.controls import CONTROL_NAMES, CUSTOM_KEYS, DEFAULT_CONTROL
from apps.games.errors import ServiceError
from apps.games.models import Game, Move
from apps.games.pipeline import Admitting
from baogame.rules.registry import get_engine

from . import selectors
from .authentication import TokenAhead, read_with_token, token_ahead
from .inputs import JsonInput, QueryInput, length_field, parsed
from .lean import LeanApiView
from .plainmove import plain_action, with_plain_path
from .rendering import rendered
from .serializers import (
    ClockSerializer,
    DecisionSerializer,
    EventSerializer,
    GameSummarySerializer,
    game_summary,
)
from .throttling import AnonymousReadThrottle, WriteRateThrottle
from .views_estimate import EstimateSerializer, estimate_body

#: /legal answers at most this many actions per page (Bao Bei double plucks can run to thousands).
LEGAL_DEFAULT_LIMIT = 200
LEGAL_MAX_LIMIT = 2000
#: An offset past every legal action any position has (Bao Bei double plucks: thousands).
LEGAL_MAX_OFFSET = 10_000_000
HISTORY_DEFAULT_LIMIT = 500
HISTORY_MAX_LIMIT = 2000
#: The highest page number a list takes (a page past the last is empty; a larger number is refused).
MAX_PAGE = 100_000


class OpenDecisionSerializer(serializers.Serializer):
    kind = serializers.CharField()
    decision_id = serializers.CharField(allow_null=True)
    seats = serializers.ListField(child=serializers.IntegerField())


def _open_decisions(game: Game, viewer: int | None) -> list[dict[str, Any]]:
    """Who must decide now: the kind, the id and the owners ``viewer`` may know of (BB-30.6)."""
    if game.status != Game.Status.ACTIVE or game.state is None:
        return []
    return [
        {
            "kind": d["kind"],
            "decision_id": d.get("decision_id"),
            "seats": game_selectors.public_owner_seats(
                timing=d.get("timing", "turn"), seats=d["seats"], viewer=viewer
            ),
        }
        for d in get_engine(game.engine).pending(game.state)
    ]


class GameWatchApi(APIView):
    """The games anybody may watch, as the watch page lists them: public games of ``status``, not
    those of a private league; in play newest first, finished latest first, a page at a time. Like the
    page it needs no sign-in; anonymous callers are throttled per address (``API_ANON_READ_RATE``)."""

    PAGE_SIZE = game_selectors.WATCH_PAGE_SIZE
    permission_classes = [AllowAny]
    throttle_classes = [AnonymousReadThrottle, WriteRateThrottle]

    class FilterSerializer(QueryInput):
        status = serializers.ChoiceField(
            choices=[Game.Status.ACTIVE.value, Game.Status.FINISHED.value],
            required=False,
            default=Game.Status.ACTIVE.value,
            help_text="active: in play (newest start first); finished: over (latest end first).",
        )
        page = serializers.IntegerField(
            required=False, default=1, min_value=1, max_value=MAX_PAGE, help_text="From 1."
        )

    class PageSerializer(serializers.Serializer):
        count = serializers.IntegerField(help_text="Games in the list, over all pages.")
        page = serializers.IntegerField()
        pages = serializers.IntegerField(help_text="Pages in all (a page past the last is empty).")
        results = GameSummarySerializer(many=True)

    @extend_schema(operation_id="games_watch", parameters=[FilterSerializer], responses=PageSerializer)
    def get(self, request: Request) -> Response:
        filters = parsed(self.FilterSerializer, request.query_params)
        wanted, page = filters["status"], filters["page"]
        listed = game_selectors.game_list_watchable(status=wanted)
        count = listed.count()
        start = (page - 1) * self.PAGE_SIZE
        results = []
        for game in listed[start : start + self.PAGE_SIZE]:
            seat = game_selectors.seat_of(game, request.user)
            results.append(game_summary(game, seat.position if seat else None))
        pages = max(1, -(-count // self.PAGE_SIZE))
        return Response(
            rendered(self.PageSerializer, {"count": count, "page": page, "pages": pages, "results": results})
        )


class GameListApi(LeanApiView):
    """My games (GET) and creating a game (POST)."""

    class FilterSerializer(QueryInput):
        waiting = serializers.BooleanField(
            required=False, default=False, help_text="Only active games where one of my decisions is open."
        )

    class InputSerializer(JsonInput):
        engine = serializers.ChoiceField(choices=Game.Engine.choices)
        players = serializers.IntegerField(min_value=2, max_value=6)
        options = serializers.DictField(
            required=False, default=dict, help_text="Engine options (rules file)."
        )
        length = length_field(
            where="for the chosen game (by default Bao Huang standard, Bao Bei normal, scaled for players; "
            "a named length with options that set its values otherwise: length_conflict)",
            options="options",
        )
        control = serializers.ChoiceField(
            choices=list(CONTROL_NAMES),
            default=DEFAULT_CONTROL,
            help_text="The time control: each seat's bank runs only while it owes a decision; an answer adds "
            "the increment, up to the cap. live, daily (the default), relaxed, weekly, or custom.",
        )
        custom = serializers.DictField(
            child=serializers.IntegerField(),
            source="control_custom",
            required=False,
            default=None,
            allow_null=True,
            help_text=f"Seconds per key ({', '.join(CUSTOM_KEYS)}): required (reaction optional) with "
            "control=custom, else changes a named control's values. Bad values: invalid_options.",
        )
        weekends_off = serializers.BooleanField(
            default=False, help_text="Banks do not run on Saturdays and Sundays in each player's time zone."
        )
        title = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
        bots = serializers.IntegerField(
            min_value=0, max_value=5, default=0, help_text="Last seats played by bots."
        )
        bot = serializers.CharField(
            max_length=32, source="bot_name", required=False, allow_null=True, default=None
        )
        take_seat = serializers.BooleanField(
            source="creator_seat", default=True, help_text="Take seat 0 yourself."
        )
        bot_test = serializers.BooleanField(
            default=False,
            help_text="A bot-test game: one person's accounts (bot accounts included) may hold several "
            "seats. Otherwise joining with a second account of the same person is refused (same_person).",
        )
        visibility = serializers.ChoiceField(
            choices=Game.Visibility.choices,
            default=Game.Visibility.PUBLIC,
            help_text="public: anyone may watch; unlisted: anyone with the page link (public_id), not by "
            "number; private: the players only.",
        )
        open_table = serializers.BooleanField(
            default=False,
            help_text="List it among the open tables (GET games/open/) while it waits for players: anybody "
            "signed in may take a free seat without an invitation. A public game only (invalid_options).",
        )
        min_reliability = serializers.IntegerField(
            default=0,
            min_value=0,
            max_value=100,
            help_text="An open table's minimum record for who takes a seat: percent of decisions answered "
            "on time over the last 12 months, over at least 20 decisions (reliability.TABLE_MIN_DECISIONS; "
            "reliability_too_low otherwise, for a new account with no record too). 0: anybody. With "
            "open_table only (invalid_options).",
        )

    class CreatedSerializer(GameSummarySerializer):
        invite_token = serializers.CharField(
            allow_null=True, help_text="The game's first invitation (null when no seat is open)."
        )
        estimate = EstimateSerializer(
            help_text="How long the game is expected to take (GET /api/v1/estimate/)."
        )

    @extend_schema(
        operation_id="games_list", parameters=[FilterSerializer], responses=GameSummarySerializer(many=True)
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        filters = parsed(self.FilterSerializer, request.query_params)
        select = (
            game_selectors.game_list_awaiting if filters["waiting"] else game_selectors.game_list_for_user
        )
        games = select(user=request.user).prefetch_related("seats__user__profile")[:200]
        data = []
        for game in games:
            seat = game_selectors.seat_of(game, request.user)
            data.append(game_summary(game, seat.position if seat else None))
        return Response(rendered(GameSummarySerializer, data, many=True))

    @extend_schema(operation_id="games_create", request=InputSerializer, responses={201: CreatedSerializer})
    def post(self, request: AuthenticatedRequest) -> Response:
        d = parsed(self.InputSerializer, request.data)  # named as game_create's arguments (their sources)
        game_lifecycle.refuse_stacking_options(d["options"])
        # The answer is made from what the creation has in hand (its seats, its invitation), and a game
        # created just now has no sittings (they are agreed later, apps.sittings): no query reads them.
        created = game_lifecycle.game_create_with_table(creator=request.user, **d)
        # A league's games are made by its seasons, with their fixtures: this one is in no league.
        game = game_selectors.game_with_seats(created.game, seats=created.seats)
        game_selectors.game_in_no_league(game)
        my_seat = 0 if d["creator_seat"] else None
        invitation = created.invitation
        body = {
            **game_summary(game, my_seat),
            "invite_token": invitation.token if invitation else None,
            "estimate": estimate_body(estimates.for_game(game, sittings=False)),
        }
        return Response(rendered(self.CreatedSerializer, body), status=status.HTTP_201_CREATED)


class GameJoinApi(LeanApiView):
    """Take an open seat with an invitation token (404 ``invitation_invalid`` once revoked or used up)."""

    class InputSerializer(JsonInput):
        invite_token = serializers.CharField(max_length=64)
        position = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=0, max_value=5
        )

    @extend_schema(operation_id="games_join", request=InputSerializer, responses=GameSummarySerializer)
    def post(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        # The answer is made from what the join has in hand (the game as its start left it, its seats
        # with their people, its open decisions): the player now seated may see it, and nothing of a
        # game that has just started is due yet, so reading it again would find the same.
        joined = invitations.invitation_accept_with_table(
            token=values["invite_token"],
            user=request.user,
            position=values["position"],
        )
        game = game_selectors.game_with_seats(joined.game, seats=joined.seats)
        body = game_summary(game, joined.position, joined.decisions)
        return Response(rendered(GameSummarySerializer, body))


def _rounded(days: float | None) -> float | None:
    return None if days is None else round(days, 2)


class GameDetailApi(LeanApiView):
    """A game as my seat sees it (``view(state, my_seat)``), or the spectator view when I am not seated."""

    class OutputSerializer(GameSummarySerializer):
        view = serializers.JSONField(
            allow_null=True, help_text="engine.view(state, my_seat); null before the start."
        )
        decisions = DecisionSerializer(many=True, help_text="Every open decision and its deadline.")
        my_decisions = serializers.ListField(
            child=serializers.JSONField(),
            help_text="The engine's pending decisions that I own, with context.",
        )
        seed_hash = serializers.CharField(help_text="SHA-256 of the seed, published at the start.")
        seed = serializers.CharField(allow_null=True, help_text="The seed, once the game has ended.")
        result = serializers.JSONField(allow_null=True)
        clock = ClockSerializer(help_text="The time control and every seat's bank.")
        took_days = serializers.FloatField(
            allow_null=True, help_text="How long the finished game took, start to end, in days; null before."
        )

    @extend_schema(operation_id="games_retrieve", responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id, user=request.user)
        seat = selectors.seat_position(game=game, user=request.user)
        decisions = game_selectors.open_decisions(game=game)
        mine: list[dict[str, Any]] = []
        if seat is not None and game.state is not None and game.status == Game.Status.ACTIVE:
            engine = get_engine(game.engine)
            if any(seat in d["seats"] for d in engine.pending(game.state)):
                # the seat's own view of it: pending() would name a window's remaining owners (BB-30.6)
                own = engine.view(game.state, seat).get("decision")
                mine = [own] if own else []
        body = {
            **game_summary(game, seat, decisions),
            "view": game_selectors.game_view(game=game, seat=seat),
            "decisions": game_selectors.public_decision_rows(game=game, viewer=seat, rows=decisions),
            "my_decisions": mine,
            "seed_hash": game.seed_hash,
            "seed": game.seed_revealed,
            "result": game.result if game.is_over else None,
            "clock": game_selectors.game_clock(game=game, viewer=seat),
            "took_days": _rounded(estimates.took_days(game)),
        }
        return Response(rendered(self.OutputSerializer, body))


class GameHistoryApi(APIView):
    """The game's events that my seat may see (a spectator: the public ones), oldest first."""

    class FilterSerializer(QueryInput):
        after = serializers.IntegerField(
            required=False, default=0, min_value=0, help_text="Only moves with seq > after."
        )
        limit = serializers.IntegerField(
            required=False,
            default=HISTORY_DEFAULT_LIMIT,
            min_value=1,
            max_value=HISTORY_MAX_LIMIT,
            help_text="At most this many events.",
        )

    class OutputSerializer(serializers.Serializer):
        version = serializers.IntegerField()
        events = EventSerializer(many=True)
        more = serializers.BooleanField(
            help_text="More events follow: ask again with after=<last seq>. A page never splits a move."
        )

    @extend_schema(operation_id="games_history", parameters=[FilterSerializer], responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        filters = parsed(self.FilterSerializer, request.query_params)
        game = selectors.game_get(game_id=game_id, user=request.user, with_people=False)
        seat = selectors.seat_position(game=game, user=request.user)
        after, limit = filters["after"], filters["limit"]
        events = [e for e in game_selectors.game_history(game=game, seat=seat) if e["seq"] > after]
        page = _whole_moves(events, limit)
        body = {
            "version": game_selectors.viewer_version(game, seat),
            "events": page,
            "more": len(events) > len(page),
        }
        return Response(rendered(self.OutputSerializer, body))


def _whole_moves(events: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The first ``limit`` events, cut only between moves, so that ``after=<last seq>`` misses nothing:
    a page ends early rather than split a move, and one move with more events is sent whole."""
    if len(events) <= limit:
        return events
    end = limit
    while end > 0 and events[end]["seq"] == events[end - 1]["seq"]:
        end -= 1
    if end == 0:  # the first move alone has more than ``limit`` events
        end = limit
        while end < len(events) and events[end]["seq"] == events[0]["seq"]:
            end += 1
    return events[:end]


class LegalPageSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="How many legal actions there are in all.")
    offset = serializers.IntegerField()
    actions = serializers.ListField(child=serializers.JSONField(), help_text="Actions in the wire format.")


class GameLegalApi(LeanApiView):
    """My legal actions now (``engine.legal_actions(state, my_seat)``), a page at a time."""

    #: Its answer is codes, no words: no profile language to look up (``apps.api.language``).
    codes_only = True

    class FilterSerializer(QueryInput):
        offset = serializers.IntegerField(required=False, default=0, min_value=0, max_value=LEGAL_MAX_OFFSET)
        limit = serializers.IntegerField(
            required=False, default=LEGAL_DEFAULT_LIMIT, min_value=1, max_value=LEGAL_MAX_LIMIT
        )

    class OutputSerializer(LegalPageSerializer):
        version = serializers.IntegerField(help_text="The game version these actions belong to.")
        seat = serializers.IntegerField()

    @extend_schema(operation_id="games_legal", parameters=[FilterSerializer], responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        # The two hottest endpoints (a bot asks this before every move) answer by hand; the output
        # serializers describe the same shapes in the schema (schemathesis checks they agree).
        query = self.FilterSerializer.quick(request.query_params) or parsed(
            self.FilterSerializer, request.query_params
        )
        return Response(
            self.legal_answer(
                game_id=game_id,
                user=request.user,
                read=self.read_ahead,
                offset=query["offset"],
                limit=query["limit"],
            )
        )

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        """DRF's view, answering a program's plain read without DRF's objects around it
        (``apps.api.plainmove``: the same answer)."""
        return with_plain_path(cls, super().as_view(**initkwargs))

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """The token and the game are read in one round trip, before authentication checks the token."""
        self.read_ahead = read_with_token(request, game_id=kwargs["game_id"])
        super().initial(request, *args, **kwargs)

    @staticmethod
    def legal_answer(
        *, game_id: int, user: Any, read: list[Any] | None, offset: int, limit: int
    ) -> dict[str, Any]:
        """The reply of a ``/legal`` read, for DRF's view and the plain path alike: ``read`` is the game's
        row read with the token (``authentication.token_and_game``), None to read it here."""
        game, seat, version = selectors.game_get_with_my_seat(game_id=game_id, user=user, read=read)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat in this game", status=403)
        return {"version": version, "seat": seat, **_legal_page(game, seat, offset, limit)}


def _legal_page(game: Game, seat: int, offset: int, limit: int) -> dict[str, Any]:
    """``total``, ``offset`` and a page of ``actions``: the seat's legal actions now."""
    if game.status != Game.Status.ACTIVE or game.state is None:
        return {"total": 0, "offset": offset, "actions": []}
    engine = get_engine(game.engine)
    if hasattr(engine, "legal_page"):  # Bao Bei: counts its double plucks instead of building them
        total, page = engine.legal_page(game.state, seat, offset, limit)
    else:
        actions = engine.legal_actions(game.state, seat)
        total, page = len(actions), actions[offset : offset + limit]
    return {"total": total, "offset": offset, "actions": page}


#: The keys of a move's reply, in their order; ``?fields=`` picks some of them.
MOVE_REPLY_FIELDS = ("version", "seq", "number", "replayed", "status", "events", "decisions", "legal")


def _seat_seq(move: Move | None) -> int | None:
    return game_selectors.seat_seq(move) if move is not None else None


def _number(move: Move | None) -> int | None:
    """The move's line number, the same for every viewer (``apps.games.numbering``)."""
    return None if move is None else game_selectors.move_number(move)


class MoveSubmitApi(LeanApiView):
    """Submit one action; an ``Idempotency-Key`` header makes a retried request apply once."""

    #: Its answer is codes, no words: no profile language to look up (``apps.api.language``).
    codes_only = True

    class InputSerializer(JsonInput):
        action = serializers.DictField(help_text="One action in the rules file's wire format.")

    class QuerySerializer(QueryInput):
        # Parses the query; the schema's parameters below say the same (with the header beside them).
        legal = serializers.IntegerField(required=False, default=0, min_value=0, max_value=LEGAL_MAX_LIMIT)
        fields = serializers.CharField(  # type: ignore[assignment]  # the metaclass pops declared fields
            required=False, allow_blank=True, trim_whitespace=False
        )

        def validate_fields(self, raw: str) -> frozenset[str]:
            """The reply's keys a client asked for with ``?fields=a,b`` (absent: the whole reply)."""
            wanted = frozenset(name.strip() for name in raw.split(",") if name.strip())
            unknown = sorted(wanted - set(MOVE_REPLY_FIELDS))
            if unknown or not wanted:
                choices = ", ".join(MOVE_REPLY_FIELDS)
                problem = f"Unknown fields {', '.join(unknown)}." if unknown else "Name at least one field."
                raise serializers.ValidationError(f"{problem} Choose among {choices}.")
            return wanted

    class OutputSerializer(serializers.Serializer):
        version = serializers.IntegerField(help_text="The game version after the move, as you know it.")
        seq = serializers.IntegerField(
            allow_null=True, help_text="The move's place in the game's history, as you know it."
        )
        number = serializers.IntegerField(
            allow_null=True,
            help_text="The move's history line number, the same for everyone (history/'s number); null "
            "when the move is your answer that the others do not see (yet), or no move was made.",
        )
        replayed = serializers.BooleanField(
            help_text="True when the key had been used: nothing new was applied."
        )
        status = serializers.ChoiceField(choices=Game.Status.choices)
        events = serializers.ListField(child=serializers.JSONField(), help_text="The events you may see.")
        decisions = OpenDecisionSerializer(many=True, help_text="The decisions open now, and whose they are.")
        legal = LegalPageSerializer(
            required=False,
            help_text="With ?legal=N: the first N of your legal actions now, as GET /legal/ would answer "
            "(empty when nothing waits for you), so a client need not ask again.",
        )

    ahead: TokenAhead | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """``APIView.initial``, but with a token the authentication, permission and throttle checks wait
        for the round trip that locks the game, which reads the token too (``TokenAhead``)."""
        self.ahead = token_ahead(self, request)
        if self.ahead is None:
            super().initial(request, *args, **kwargs)
            return
        self.format_kwarg = self.get_format_suffix(**kwargs)
        request.accepted_renderer, request.accepted_media_type = self.perform_content_negotiation(request)
        request.version, request.versioning_scheme = self.determine_version(request, *args, **kwargs)

    @extend_schema(
        operation_id="games_act",
        request=InputSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\u0000-\u001f\u007f]*$"},
                OpenApiParameter.HEADER,
                required=False,
                description="1-128 characters, no control characters, unique per game; a retry with the "
                "same key and action changes nothing.",
            ),
            OpenApiParameter(
                "legal",
                {"type": "integer", "minimum": 0, "maximum": LEGAL_MAX_LIMIT},
                OpenApiParameter.QUERY,
                required=False,
                description=f"0-{LEGAL_MAX_LIMIT}: also answer the first N of my legal actions now.",
            ),
            OpenApiParameter(
                "fields",
                {"type": "string", "pattern": "^[a-z, ]*$"},
                OpenApiParameter.QUERY,
                required=False,
                description="Only these keys of the reply, comma-separated ("
                + ", ".join(MOVE_REPLY_FIELDS)
                + "): a smaller reply for a client that needs less. Without it, the whole reply.",
            ),
        ],
        responses={201: OutputSerializer, 200: OutputSerializer},
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        try:
            return self._post(request, game_id)
        except Exception:
            # Refused before the lock's round trip (a bad body, query or key): the checks held back
            # come first, as they would have, so an unauthenticated caller learns only that.
            if self.ahead is not None:
                self.ahead.admit()
            raise

    def _post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        query = self.QuerySerializer.quick(request.query_params) or parsed(
            self.QuerySerializer, request.query_params
        )
        # A body that is not a JSON object has no action: "action" is required, as for ``{}``.
        data = request.data if isinstance(request.data, dict) else {}
        action = plain_action(data)
        if action is None:
            action = parsed(self.InputSerializer, data)["action"]
        code, reply = self.move_answer(
            game_id=game_id,
            user=request.user if self.ahead is None else None,
            action=action,
            # META, not ``request.headers`` (which builds a dict of every header): the same value
            key=request.META.get("HTTP_IDEMPOTENCY_KEY") or None,
            ahead=self.ahead,
            legal=query["legal"],
            fields=query.get("fields"),
        )
        return Response(reply, status=code)

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        """DRF's view, answering a program's plain move request without DRF's objects around it
        (``apps.api.plainmove``: the same answer)."""
        return with_plain_path(cls, super().as_view(**initkwargs))

    @staticmethod
    def move_answer(
        *,
        game_id: int,
        action: dict[str, Any],
        key: str | None,
        ahead: Admitting | None,
        legal: int,
        fields: frozenset[str] | None,
        user: Any = None,
    ) -> tuple[int, dict[str, Any]]:
        """The status and reply of one move, for DRF's view and the plain path alike: ``user``'s, or,
        with ``ahead``, the user it admits in the lock's round trip."""
        try:
            result = game_pipeline.submit_action(  # Game.DoesNotExist: 404 (exception handler)
                game_id=game_id, user=user, action=action, key=key, ahead=ahead
            )
        except ServiceError as exc:
            # not seated: a game the caller may not see answers as if it did not exist
            if exc.code == "not_seated" and selectors.game_hidden_from(
                game_id=game_id, user=ahead.user if ahead is not None else user
            ):
                raise ServiceError("not_found", "no such game", status=404) from None
            raise
        seat = result.move.seat if result.move else None
        code = status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        return code, _move_reply(result, seat, legal, fields)


def _move_reply(
    result: game_pipeline.MoveResult, seat: int | None, legal: int, fields: frozenset[str] | None
) -> dict[str, Any]:
    """The reply to a move as ``seat`` knows it; with ``fields``, only those keys (and only their work:
    a reply without ``decisions`` or ``legal`` does not ask the engine for them)."""
    parts: dict[str, Any] = {
        "version": lambda: game_selectors.viewer_version(result.game, seat, seats=result.seats),
        "seq": lambda: result.seq if result.seq is not None else _seat_seq(result.move),
        "number": lambda: _number(result.move),
        "replayed": lambda: result.replayed,
        "status": lambda: result.game.status,
        "events": lambda: result.events,
        "decisions": lambda: _open_decisions(result.game, seat),
    }
    if legal and seat is not None:
        parts["legal"] = lambda: _legal_page(result.game, seat, 0, legal)
    return {key: make() for key, make in parts.items() if fields is None or key in fields}


class GameInviteApi(APIView):
    """The game's invitation link: seated players and the creator see it (the creator alone at an open
    table with a minimum record); the creator replaces, adds single-use links and revokes them (a token
    only seats people; the game's id is ``public_id``)."""

    class OutputSerializer(serializers.Serializer):
        invite_token = serializers.CharField(allow_null=True, help_text="Null: no standing link (revoked).")
        join_url = serializers.CharField(allow_null=True)
        single_use = serializers.BooleanField()

    class InputSerializer(serializers.Serializer):
        single_use = serializers.BooleanField(
            default=False,
            help_text="A link that seats one person; otherwise a new standing link replacing the old one.",
        )

    class RevokeSerializer(serializers.Serializer):
        invite_token = serializers.CharField(
            required=False, allow_null=True, default=None, help_text="Only this one; default: every link."
        )

    class RevokedSerializer(serializers.Serializer):
        revoked = serializers.IntegerField()

    def _body(self, request: AuthenticatedRequest, invitation: Any) -> dict[str, Any]:
        if invitation is None:
            return {"invite_token": None, "join_url": None, "single_use": False}
        url = request.build_absolute_uri(reverse("games:join", args=[invitation.token]))
        return {"invite_token": invitation.token, "join_url": url, "single_use": invitation.single_use}

    @extend_schema(operation_id="games_invite", responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id, user=request.user)
        seated = selectors.seat_position(game=game, user=request.user) is not None
        if not game_selectors.game_may_invite(game=game, user=request.user, seated=seated):
            raise ServiceError("forbidden", "only the game's players can invite", status=403)
        invitation = game_selectors.invitation_current(game=game)
        return Response(rendered(self.OutputSerializer, self._body(request, invitation)))

    @extend_schema(
        operation_id="games_invite_create", request=InputSerializer, responses={201: OutputSerializer}
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        values = parsed(self.InputSerializer, request.data)
        invitation = invitations.invitation_create(
            game_id=game_id, user=request.user, single_use=values["single_use"]
        )
        return Response(
            rendered(self.OutputSerializer, self._body(request, invitation)), status=status.HTTP_201_CREATED
        )

    @extend_schema(operation_id="games_invite_revoke", request=RevokeSerializer, responses=RevokedSerializer)
    def delete(self, request: AuthenticatedRequest, game_id: int) -> Response:
        values = parsed(self.RevokeSerializer, request.data)
        count = invitations.invitation_revoke(
            game_id=game_id, user=request.user, token=values["invite_token"]
        )
        return Response(rendered(self.RevokedSerializer, {"revoked": count}))


class GameBotAddApi(APIView):
    """The creator puts a server bot into an open seat (the game starts when the table is full)."""

    class InputSerializer(JsonInput):
        position = serializers.IntegerField(min_value=0, max_value=5)
        bot = serializers.CharField(max_length=32, required=False, allow_null=True, default=None)

    @extend_schema(operation_id="games_add_bot", request=InputSerializer, responses=GameSummarySerializer)
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        values = parsed(self.InputSerializer, request.data)
        game = selectors.game_get(game_id=game_id, user=request.user)
        game_lifecycle.seat_fill_bot(
            game_id=game.pk,
            user=request.user,
            position=values["position"],
            bot_name=values["bot"],
        )
        return game_answer(request, game.pk)


def game_answer(request: AuthenticatedRequest, game_id: int) -> Response:
    """The game's summary for the caller, read afresh: the answer of the tools that change a game."""
    game = game_selectors.game_get(game_id)
    assert game is not None  # the tool that answers has just changed it
    game_selectors.game_with_seats(game)
    seat = selectors.seat_position(game=game, user=request.user)
    return Response(rendered(GameSummarySerializer, game_summary(game, seat)))


class GameRecordApi(APIView):
    """A finished game's full record: seed, options, every move with its events, status and result.

    404 while the game is in play (its seed is secret until it ends) and for whoever may not see the game.
    ``manage.py verify_games --file`` replays a saved record and checks it.
    """

    @extend_schema(operation_id="games_record", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        from apps.games import records

        game = selectors.game_get(game_id=game_id, user=request.user, with_people=True)
        if not game.is_over:
            raise ServiceError("not_found", "a game's record exists once it is over", status=404)
        return Response(records.game_record(game))
