"""Player clock endpoints: vacation and its yearly budget, my seat's settings in a game, taking a seat back.

The "skip plucking windows" switch is private to its player (others never see it: it would tell them
who has passed, BB-30.6); that a seat is away or bot-played is public and shown with every game's seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts import vacation
from apps.accounts.http import AuthenticatedRequest
from apps.accounts.models import Profile
from apps.games import clock
from apps.games import lifecycle as game_lifecycle
from apps.games import selectors as game_selectors
from apps.games.clock import deadlines
from apps.games.errors import ServiceError
from apps.games.models import Seat

from . import selectors
from .inputs import JsonInput, parsed
from .rendering import rendered


class VacationSerializer(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    budget_days = serializers.IntegerField(help_text="The yearly vacation budget.")
    seconds_left = serializers.IntegerField(help_text="Vacation time left this year, counting a running one.")
    ends_at_latest = serializers.DateTimeField(
        allow_null=True, help_text="While on vacation: when the budget runs out and the vacation ends."
    )
    returns_on = serializers.DateField(
        allow_null=True, help_text="While on vacation: the planned return I gave (what others see), or null."
    )


class VacationStartInput(JsonInput):
    returns_on = serializers.DateField(
        required=False, allow_null=True, help_text="Optional: the day I plan to be back, shown to others."
    )


def _vacation_body(profile: Profile) -> dict[str, Any]:
    now = timezone.now()
    left = deadlines.vacation_left(profile, now)
    return {
        "on_vacation": profile.on_vacation,
        "started_at": profile.vacation_started_at,
        "budget_days": deadlines.vacation_budget().days,
        "seconds_left": int(left.total_seconds()),
        "ends_at_latest": now + left if profile.on_vacation else None,
        "returns_on": vacation.planned_return(profile, now),
    }


class VacationApi(APIView):
    """My vacation: its state and yearly budget (GET), start it (POST), end it (DELETE).

    On vacation my clocks stop in every game and I pass every plucking window; others see my seats away.
    """

    @extend_schema(operation_id="vacation_retrieve", responses=VacationSerializer)
    def get(self, request: AuthenticatedRequest) -> Response:
        profile, _ = Profile.objects.get_or_create(user=request.user)
        return Response(rendered(VacationSerializer, _vacation_body(profile)))

    @extend_schema(operation_id="vacation_start", request=VacationStartInput, responses=VacationSerializer)
    def post(self, request: AuthenticatedRequest) -> Response:
        # a body that is not an object (null, a list) is refused
        given = parsed(VacationStartInput, request.data)
        Profile.objects.get_or_create(user=request.user)
        with transaction.atomic():
            profile = clock.vacation_start(user=request.user)
            profile = vacation.planned_return_set(profile=profile, returns_on=given.get("returns_on"))
        return Response(rendered(VacationSerializer, _vacation_body(profile)))

    @extend_schema(operation_id="vacation_end", request=None, responses={204: None})
    def delete(self, request: AuthenticatedRequest) -> Response:
        """End my vacation: 204, no body (GET tells the budget left)."""
        Profile.objects.get_or_create(user=request.user)
        clock.vacation_end(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MySeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    skip_pluck_windows = serializers.BooleanField(
        help_text="Don't wait for me on plucking windows: I pass each at once (private to me)."
    )
    bot_takeover = serializers.BooleanField(
        help_text="The server's bot plays my seat (after absence, or because I handed it over)."
    )
    bot_hold = serializers.BooleanField(
        help_text="An organiser handed my seat to the bot: I cannot take it back (organiser_hold); an "
        "organiser of the league who does not play in this game, or a site admin, gives it back."
    )
    consecutive_timeouts = serializers.IntegerField()


def _my_seat(request: AuthenticatedRequest, game_id: int) -> Seat:
    game = selectors.game_get(game_id=game_id, user=request.user, with_people=False)
    seat = game_selectors.seat_of(game, request.user)
    if seat is None:
        raise ServiceError("not_seated", "you have no seat in this game", status=403)
    return seat


def _my_seat_changed(request: AuthenticatedRequest, game_id: int, change: Callable[[], Seat]) -> Response:
    """The answer to a change of my seat: ``change()`` runs once the caller is known to hold a seat here
    (anyone else learns only that), and the answer is the seat as it is now."""
    _my_seat(request, game_id)
    seat = change()
    seat.refresh_from_db()
    return Response(rendered(MySeatSerializer, seat))


class MySeatApi(APIView):
    """My seat's settings in one game (GET); switch "don't wait for me on plucking windows" (PATCH)."""

    class InputSerializer(JsonInput):
        skip_pluck_windows = serializers.BooleanField()

    @extend_schema(operation_id="games_my_seat_retrieve", responses=MySeatSerializer)
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        seat = _my_seat(request, game_id)
        seat.refresh_from_db()
        return Response(rendered(MySeatSerializer, seat))

    @extend_schema(operation_id="games_my_seat_update", request=InputSerializer, responses=MySeatSerializer)
    def patch(self, request: AuthenticatedRequest, game_id: int) -> Response:
        return _my_seat_changed(
            request,
            game_id,
            lambda: game_lifecycle.seat_set_skip_pluck_windows(
                game_id=game_id,
                user=request.user,
                value=parsed(self.InputSerializer, request.data)["skip_pluck_windows"],
            ),
        )


class SeatTakeBackApi(APIView):
    """Take my seat back from the bot that played it while I was absent (one call).

    Refused with ``organiser_hold`` (403) while an organiser's "hand this seat to the bot" stands: an
    organiser of the league who does not play in the game, or a site admin, ends it.
    """

    @extend_schema(operation_id="games_my_seat_take_back", request=None, responses=MySeatSerializer)
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        return _my_seat_changed(
            request, game_id, lambda: game_lifecycle.seat_take_back(game_id=game_id, user=request.user)
        )


class SeatHandOverApi(APIView):
    """Let the bot play my seat from now on, until I take it back (``seat/take-back/``).

    For a player who cannot go on: the table need not wait for their deadlines. The seat is played as
    after an absence, and the player's record counts it as handed to the bot. Refused with
    ``game_not_active`` (409) once the game is over.
    """

    @extend_schema(operation_id="games_my_seat_hand_over", request=None, responses=MySeatSerializer)
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        return _my_seat_changed(
            request, game_id, lambda: game_lifecycle.seat_hand_to_bot(game_id=game_id, user=request.user)
        )
