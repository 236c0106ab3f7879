"""Output shapes shared by several endpoints (each API class nests its own Input/Output serializers)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from rest_framework import serializers

from apps.accounts.vacation import planned_return
from apps.games import selectors as game_selectors
from apps.games.models import Decision, Game
from apps.games.selectors import viewer_version


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="Display name; null for an open seat.")
    is_bot = serializers.BooleanField(help_text="Played by the server (a bot seat or a taken-over seat).")
    bot_takeover = serializers.BooleanField(
        help_text="A player's seat that the server's bot plays for now (absence or an organiser)."
    )
    away = serializers.BooleanField(help_text="The seat's player is on vacation: their clock is stopped.")
    away_until = serializers.DateField(
        allow_null=True,
        help_text="While away: the planned return the player gave, if any (a date in "
        "their time zone); null otherwise. Never the end of their yearly vacation budget.",
    )
    away_since = serializers.DateTimeField(allow_null=True, help_text="While away: when the vacation began.")
    is_you = serializers.BooleanField()


class DecisionSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        allow_null=True,
        help_text="The owner; null for a simultaneous decision (plucking window, setup peek, tribute, "
        "declarations) that is not mine: who has answered it is published only when it closes.",
    )
    kind = serializers.CharField()
    decision_id = serializers.CharField()
    timing = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="Null while the clock is stopped.")
    clock_stopped = serializers.BooleanField(help_text="Paused game, or the seat's player is on vacation.")


class ControlSerializer(serializers.Serializer):
    name = serializers.CharField()
    initial = serializers.IntegerField(help_text="Seconds: the bank each seat starts with.")
    increment = serializers.IntegerField(help_text="Seconds added to a seat's bank when it answers.")
    cap = serializers.IntegerField(help_text="Seconds: the bank never exceeds this after an increment.")
    reaction = serializers.IntegerField(help_text="Seconds a plucking window stays open (the table's).")
    weekends_off = serializers.BooleanField(
        help_text="Banks stop on Saturdays and Sundays (each player's zone)."
    )
    summary = serializers.CharField(help_text="The control in words.")


class SeatBankSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    bank_seconds = serializers.IntegerField(
        help_text="The seat's bank when it last started or stopped running; a running bank counts down "
        "to runs_out_at (weekends off and vacation not counted)."
    )
    running = serializers.BooleanField(
        help_text="The seat owes a decision and its bank runs. While a simultaneous decision is open, "
        "every owner's bank shows as running until it closes: who has answered is never told (BB-30.6)."
    )
    runs_out_at = serializers.DateTimeField(allow_null=True, help_text="When the running bank is empty.")


class ClockSerializer(serializers.Serializer):
    control = ControlSerializer()
    seats = SeatBankSerializer(many=True)


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(
        help_text="The game's number in the API's paths. Unlisted games answer it only to their players."
    )
    public_id = serializers.CharField(
        help_text="The game's identifier in links (its page is /games/<public_id>/)."
    )
    visibility = serializers.ChoiceField(
        choices=Game.Visibility.choices,
        help_text="Who may see the game: public (anybody), unlisted (whoever has its link) or private (its "
        "players and creator; for a private league's game, whatever its own setting, also whoever may see "
        "that league).",
    )
    engine = serializers.ChoiceField(choices=Game.Engine.choices)
    title = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    players = serializers.IntegerField()
    version = serializers.IntegerField(
        help_text="The moves you may know of: every public move and your own seat's answers to "
        "simultaneous decisions. It never moves because another seat answered a decision that is still "
        "open (BB-30.6)."
    )
    control = serializers.CharField(
        help_text="The time control's name: live, daily, relaxed, weekly, custom."
    )
    length = serializers.CharField(
        allow_blank=True,
        help_text="The match length's name (Bao Huang one_deal, short, standard; Bao Bei short, normal, "
        "long; or custom), from the game's options.",
    )
    length_text = serializers.CharField(
        allow_blank=True, help_text="The length in words, e.g. 'Short: 3 deals, or first to 30'."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    my_seat = serializers.IntegerField(allow_null=True, help_text="Your seat, or null for a spectator.")
    waiting_for_me = serializers.BooleanField(help_text="One of the open decisions is yours.")
    seats = SeatSerializer(many=True)
    url = serializers.CharField(help_text="The game's web page.")
    bot_test = serializers.BooleanField(
        help_text="A bot-test game: its creator lets one person's accounts hold several seats."
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        help_text="The move that produced the event, numbered among the moves you may know of (as "
        "the game's version counts them): the cursor for ?after=, not a number to cite."
    )
    number = serializers.IntegerField(
        allow_null=True,
        help_text="The event's history line number, the same for every player and spectator: the "
        "public moves only, as the game pages and table talk's #N number them. Null for your own "
        "answer that the others do not see (it has no number of its own).",
    )
    follows = serializers.IntegerField(
        allow_null=True,
        help_text="For a line without a number: the number of the public line it follows (0: none "
        "yet). Null for a numbered line.",
    )
    at = serializers.DateTimeField()
    seat = serializers.IntegerField(help_text="The seat that moved.")
    by_timeout = serializers.BooleanField()
    event = serializers.JSONField(help_text="The event as the rules file describes it.")


def seats_data(game: Game, my_seat: int | None) -> list[dict[str, Any]]:
    """The table, without anything private (a seat's "skip plucking windows" switch stays hidden)."""
    now = timezone.now()
    out = []
    for seat in game.seats.all():
        name, away_until, away_since = None, None, None
        if not seat.is_empty:
            name = seat.label  # no query for a bot seat or an open one
        if not seat.bot and seat.user is not None:
            profile = getattr(seat.user, "profile", None)
            if profile is not None and profile.on_vacation:
                away_until, away_since = planned_return(profile, now), profile.vacation_started_at
        out.append(
            {
                "position": seat.position,
                "name": name,
                "is_bot": seat.played_by_bot,
                "bot_takeover": seat.bot_takeover,
                "away": away_since is not None,
                "away_until": away_until,
                "away_since": away_since,
                "is_you": seat.position == my_seat,
            }
        )
    return out


def game_summary(game: Game, my_seat: int | None, decisions: list[Decision] | None = None) -> dict[str, Any]:
    """The public facts of a game plus the caller's seat."""
    waiting: bool | None
    if game.status != Game.Status.ACTIVE:
        waiting = False  # only a game in play waits for anyone: no query for a new or finished game
    elif decisions is None:
        waiting = getattr(game, "waiting_for_me", None)
        if waiting is None:
            waiting = game_selectors.seat_waits(game=game, seat=my_seat)
    else:
        waiting = my_seat is not None and any(d.seat == my_seat for d in decisions)
    return {
        "id": game.pk,
        "public_id": game.public_id,
        "visibility": game_selectors.game_visibility(game),
        "engine": game.engine,
        "title": game.title,
        "status": game.status,
        "players": game.players,
        "version": viewer_version(game, my_seat),
        "control": game.control,
        "length": game.length,
        "length_text": game.length_text,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "my_seat": my_seat,
        "waiting_for_me": bool(waiting) and game.status == Game.Status.ACTIVE,
        "seats": seats_data(game, my_seat),
        "url": reverse("games:detail", args=[game.public_id]),
        "bot_test": game.bot_test,
    }
