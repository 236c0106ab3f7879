"""Leagues, seasons, memberships, rounds and their games, standings, ratings and the audit log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from apps.accounts.abstract import Timestamped
from apps.games.clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS
from apps.games.models import game_name
from baogame.rules import registry

from . import ratings


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def new_season_seed() -> str:
    return secrets.token_hex(8)


class League(Timestamped):
    """A league of one game, run by organisers, with a preset for the games it creates."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True)
    game = models.CharField(max_length=16, help_text="Engine name: baobei or baohuang.")
    description = models.TextField(blank=True)
    is_public = models.BooleanField(default=True, help_text="A private league is seen by its members only.")
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="leagues_organised")
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    # The preset for the league's games.
    players_per_table = models.PositiveSmallIntegerField(default=4)
    allow_smaller_tables = models.BooleanField(
        default=True, help_text="Seat leftover members at smaller tables when the game allows; else byes."
    )
    engine_options = models.JSONField(default=dict, blank=True)
    timing_preset = models.CharField(  # the name of the season games' time control
        max_length=16,
        default=DEFAULT_CONTROL,
        choices=[(p, p.title()) for p in NAMED_CONTROLS],
        help_text="The time control of the league's games (a named one: live, daily, relaxed, weekly).",
    )
    points_table = models.JSONField(
        default=list,
        blank=True,
        help_text="League points by finishing place, e.g. [3, 2, 1]; empty: table size minus place.",
    )
    confirmation_hours = models.PositiveSmallIntegerField(
        default=0,
        help_text="Hours a finished game's result stays provisional, open to an organiser's objection; "
        "0: results are confirmed at once.",
    )
    min_reliability = models.PositiveSmallIntegerField(
        default=0,
        help_text="Joining (and each new season) needs this share, in percent, of decisions answered on "
        "time over the last 12 months; 0: no minimum. Players with no decisions yet may join.",
    )
    # Divisions and pairing (see apps.leagues.divisions and apps.leagues.formats).
    divisions = models.PositiveSmallIntegerField(
        default=1, help_text="Number of divisions (1 = top); a new season moves players between them."
    )
    promotion = models.PositiveSmallIntegerField(
        default=1, help_text="How many move up (and down) between neighbouring divisions each season."
    )
    pairing_format = models.CharField(
        max_length=12,
        default="spread",
        choices=[
            ("spread", _("Spread the opponents")),
            ("swiss", _("Swiss")),
            ("round_robin", _("Round robin")),
        ],
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:detail", args=[self.slug])

    @property
    def game_name(self) -> str:
        """The game's name for pages in the reader's language ("Bao Bei", "宝贝"), as game pages name it."""
        return str(game_name(self.game, registry.get_game_type(self.game).display_name))


class Season(models.Model):
    """A season: a number of rounds, the first at ``starts_at`` and then every ``round_interval_days``."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    rounds = models.PositiveSmallIntegerField(default=5)
    round_interval_days = models.PositiveSmallIntegerField(default=7)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    seed = models.CharField(max_length=32, default=new_season_seed, editable=False)
    plan = models.JSONField(
        default=dict, blank=True, editable=False, help_text="The pairing plan of the remaining rounds."
    )
    divisions_confirmed_at = models.DateTimeField(
        null=True, blank=True, help_text="When an organiser confirmed who plays in which division."
    )
    length = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The match length of every game of the season, by name (apps.games.lengths: short, "
        "custom, …); empty: the league's game options decide (apps.leagues.season_length).",
    )
    length_options = models.JSONField(
        default=dict, blank=True, help_text='A custom length\'s values, e.g. {"deal_limit": 4}.'
    )

    class Meta:
        ordering = ["league", "-number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="season_unique_number")]

    def __str__(self) -> str:
        return f"{self.league} season {self.number}"


class Membership(Timestamped):
    """A user in a league: pending (asked to join), active, or withdrawn."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Asked to join")
        ACTIVE = "active", _("Member")
        WITHDRAWN = "withdrawn", pgettext_lazy("league membership", "Withdrawn")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    joined_at = models.DateTimeField(null=True, blank=True)
    requested_at = models.DateTimeField(null=True, blank=True, help_text="When the user last asked to join.")
    organisers_told_at = models.DateTimeField(
        null=True, blank=True, help_text="When the organisers were mailed this request to join (joinmail)."
    )
    member_told_at = models.DateTimeField(
        null=True, blank=True, help_text="When the member was told their request was approved (joinmail)."
    )

    class Meta:
        ordering = ["league", "user__username"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="membership_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.league} ({self.status})"


class DeclinedRequest(Timestamped):
    """A request to join that an organiser declined (``created_at``: when), kept so that the one who
    asked is told (``apps.leagues.joinmail``); the request's ``Membership`` row is gone, so nothing else
    of the league (members, counts, pairing, exports, asking again) sees it."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="declined_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    requested_at = models.DateTimeField(
        null=True, blank=True, help_text="When the declined request was made."
    )
    applicant_told_at = models.DateTimeField(
        null=True, blank=True, help_text="When the one who asked was mailed the decline (joinmail)."
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user}'s request to join {self.league}, declined"


class Round(models.Model):
    """One round of a season: its tables are Fixtures; ``byes`` lists the user ids who sat out."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    byes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["season", "number"]
        constraints = [models.UniqueConstraint(fields=["season", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.season} round {self.number}"


class Fixture(models.Model):
    """One table of a round: its game and the members the pairing seated there."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    table = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="league_fixture")
    players = models.JSONField(default=list, help_text="User ids as paired (the pairing history).")
    division = models.PositiveSmallIntegerField(default=1)
    counted_at = models.DateTimeField(
        null=True, blank=True, help_text="When its result entered the standings."
    )
    # The confirmation period (``apps.leagues.confirmation``): a counted result is provisional until
    # ``confirmed_at``; ``confirm_by`` ends the period; ``reopened_at``: withdrawn to be adjudicated.
    confirm_by = models.DateTimeField(null=True, blank=True, db_index=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reopened_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table"]

    def __str__(self) -> str:
        return f"{self.round} table {self.table}"


class Rated(models.Model):
    """A row holding a player's openskill rating, ``mu`` and ``sigma`` (each table has its own defaults)."""

    mu: float
    sigma: float

    class Meta:
        abstract = True

    @property
    def rating(self) -> float:
        """The displayed rating: openskill's ordinal, mu - 3 sigma (``ratings.ordinal``)."""
        return ratings.ordinal(self.mu, self.sigma)


class Standing(Rated):
    """A player's line in a season's table, with their openskill (Plackett-Luce) rating."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_standings"
    )
    games_played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)
    score_total = models.IntegerField(default=0)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    division = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["season", "-points"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="standing_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.season}: {self.points}"


class RatingHistory(Rated, Timestamped):
    """A player's rating after one counted game."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rating_history")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["season", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} {self.mu:.1f}±{self.sigma:.1f}"


class AuditLog(Timestamped):
    """Every organiser action, shown on the league page."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit_log")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=40)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    detail = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"

    @property
    def public_summary(self) -> str:
        """What every member may read of the entry's detail: who a seat goes to, which seat (the API's
        ``summary``, in English; the league page says the same in the reader's language in the entry's
        sentence, ``auditlog.audit_sentence``)."""
        d = self.detail or {}
        if self.action in {"substitute_offered", "player_substituted", "substitute_declined"}:
            previous = d.get("previous_name") or "(nobody)"
            return f"seat {d.get('seat')}: {previous} → {d.get('newcomer_name') or d.get('newcomer')}"
        if self.action == "table_shares_a_person":
            return f"table {d.get('table')} seats two accounts of one person: a bot-test game"
        if "seat" in d and self.action in {"seat_to_bot", "seat_from_bot", "deadline_extended"}:
            return f"seat {d['seat']}"
        return ""


class SubstituteOffer(Timestamped):
    """An organiser's offer of a seat in a league game to a member, who must accept it.

    Until the member accepts, the seat is played as before (by its player, or by the bot if it was
    handed to the bot). A new offer for the same seat withdraws the pending one.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", pgettext_lazy("substitute offer", "Withdrawn")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="substitute_offers")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    newcomer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="substitute_offers"
    )
    previous = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The seat's player when the offer was made: the offer lapses if that changes.",
    )
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "position"],
                condition=models.Q(status="pending"),
                name="substitute_offer_one_pending_per_seat",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position} offered to {self.newcomer} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("leagues:offer", args=[self.league.slug, self.pk])


class DivisionPlacement(models.Model):
    """Who plays in which division in a season, and why: proposed, moved by hand, then confirmed."""

    class Movement(models.TextChoices):
        UP = "up", _("Promoted")
        DOWN = "down", _("Relegated")
        STAYED = "stayed", _("Stays")
        NEW = "new", _("Newcomer")
        SEEDED = "seeded", _("First season")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="placements")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    division = models.PositiveSmallIntegerField()
    previous_division = models.PositiveSmallIntegerField(null=True, blank=True)
    movement = models.CharField(max_length=8, choices=Movement.choices)
    moved_by_hand = models.BooleanField(default=False)

    class Meta:
        ordering = ["season", "division", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="division_placement_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in division {self.division} of {self.season}"
