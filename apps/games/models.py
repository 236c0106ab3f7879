"""Games, seats, the move log and open decisions (DESIGN.md, "One move, end to end")."""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from apps.accounts.abstract import Timestamped
from apps.accounts.models import display_name
from apps.accounts.names import BOT_SEAT_NAME
from baogame.rules import registry

from . import leagues_link, lengths, numbering

if TYPE_CHECKING:
    from .clock.controls import Control


def new_seed() -> str:
    """A secret game seed from a secure source (BB-25.10, BH-25.9)."""
    return secrets.token_hex(16)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def new_public_id() -> str:
    """A game's identifier in links: 16 random URL-safe characters (96 bits), never all digits.

    Page URLs, invitation links and mail links name a game by it, so its sequential ``pk`` cannot be
    used to find games one was not given a link to (``selectors.game_may_view``).
    """
    while True:
        value = secrets.token_urlsafe(12)
        if not value.isdigit():  # all-digit paths are the integer ids of old links
            return value


#: Names of the server's bots: birds that are not Bao Bei cards, so a name never reads as a card (in
#: Chinese too: 苍鹭, 鹪鹩, …, none of them a card's name), in the reader's language.
BOT_NAMES = (
    pgettext_lazy("bot name", "Heron"),
    pgettext_lazy("bot name", "Wren"),
    pgettext_lazy("bot name", "Plover"),
    pgettext_lazy("bot name", "Lark"),
    pgettext_lazy("bot name", "Kestrel"),
    pgettext_lazy("bot name", "Puffin"),
    pgettext_lazy("bot name", "Egret"),
    pgettext_lazy("bot name", "Curlew"),
    pgettext_lazy("bot name", "Finch"),
    pgettext_lazy("bot name", "Robin"),
)


def bot_seat_name(*, game_id: int, position: int) -> str:
    """A bot seat's name in the reader's language, e.g. ``Heron (bot)``, ``苍鹭（机器人）``: distinct
    within a game (at most 6 seats, 10 names)."""
    return str(BOT_SEAT_NAME) % {"name": BOT_NAMES[(game_id + position) % len(BOT_NAMES)]}


#: The games' names as pages show them, in the reader's language (the engines' ``display_name``
#: is their English name).
GAME_NAMES = {
    "baobei": pgettext_lazy("game name", "Bao Bei"),
    "baohuang": pgettext_lazy("game name", "Bao Huang"),
}


def game_name(engine: str, default: str = "") -> str:
    """A game's name in the reader's language (lazy: a class attribute keeps it until rendered)."""
    return GAME_NAMES.get(engine, default or engine)  # type: ignore[return-value]


def stored_control(name: str, values: dict[str, int] | None, weekends_off: bool) -> Control:
    """A time control as a game stores it (its name, its seconds, weekends off). Made once for each
    such triple (a ``Control`` is frozen): a move asks for its game's control a few times."""
    return _stored_control(name, tuple(sorted(values.items())) if values else (), weekends_off)


@lru_cache(maxsize=512)
def _stored_control(name: str, items: tuple[tuple[str, int], ...], weekends_off: bool) -> Control:
    from .clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS, control_of  # the clock imports models

    values = dict(items)
    if not values:
        named = NAMED_CONTROLS.get(name, NAMED_CONTROLS[DEFAULT_CONTROL])
        return dataclasses.replace(named, weekends_off=weekends_off)
    return control_of(values, name, weekends_off)


class Game(Timestamped):
    """One game of Bao Bei or Bao Huang. ``state`` is the engine's plain-data state (never shown)."""

    #: The games, from the engines' ``game_type`` (their names and display names).
    Engine = models.TextChoices(  # type: ignore[call-overload]
        "Engine",
        [(t.name.upper(), (t.name, game_name(t.name, t.display_name))) for t in registry.game_types()],
    )

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone may watch")
        UNLISTED = "unlisted", _("Unlisted: anyone with the link may watch")
        PRIVATE = "private", _("Private: players only")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        PAUSED = "paused", pgettext_lazy("game status", "Paused")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")
        ABORTED = "aborted", pgettext_lazy("game status", "Aborted")

    engine = models.CharField(max_length=16, choices=Engine.choices)
    title = models.CharField(max_length=100, blank=True)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    length = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The match length the options amount to: one of the game's named lengths (Bao Huang "
        "one_deal, short, standard; Bao Bei short, normal, long) or custom; empty for a game without "
        "lengths (apps.games.lengths). A stable key for pages, the API and duration estimates.",
    )
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    seed_hash = models.CharField(max_length=64, editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, help_text="Every applied move; internal (Move.seq).")
    public_version = models.PositiveIntegerField(
        default=0,
        help_text="The moves everyone may know of: all but a hidden answer to an open simultaneous decision "
        "(BB-30.6). Clients see this plus their own seat's hidden answers (selectors.viewer_version).",
    )
    hidden_answers_waiting = models.BooleanField(
        default=False,
        help_text="A player answered an open simultaneous decision in person, hidden from the others: its "
        "count in the reliability record waits for the move that closes it (reliability.hidden_told).",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    control = models.CharField(
        max_length=16,
        default="daily",
        help_text="The time control's name: live, daily, relaxed, weekly, custom.",
    )
    control_values = models.JSONField(
        default=dict,
        blank=True,
        help_text="The time control in seconds: initial bank, increment, cap, reaction (a plucking window).",
    )
    weekends_off = models.BooleanField(
        default=False, help_text="Banks do not run on Saturdays and Sundays in each player's own time zone."
    )
    live_clock = models.JSONField(
        null=True,
        blank=True,
        help_text="While a sitting runs the game on the live control: the game's own control and the banks "
        "the seats playing live had when they joined (apps.games.clock.live); null otherwise. Every other "
        "seat's bank runs on the game's own control (Game.seat_control).",
    )
    absent_limit = models.PositiveSmallIntegerField(
        default=3, help_text="Consecutive timeouts after which a bot takes the seat."
    )
    bot_test = models.BooleanField(
        default=False,
        help_text="A bot-test game: its creator lets one person's accounts (bot accounts included) hold "
        "several seats. Shown on the game page.",
    )
    public_id = models.CharField(max_length=24, default=new_public_id, unique=True, editable=False)
    open_table = models.BooleanField(
        default=False,
        help_text="Listed among the open tables while it waits for players: anyone signed in may take a "
        "free seat, without an invitation (apps.games.lobby). A public game only.",
    )
    min_reliability = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(100)],
        help_text="An open table's minimum record for who may take a seat: percent of decisions answered "
        "on time over the last 12 months (apps.games.reliability), over at least TABLE_MIN_DECISIONS "
        "decisions; 0: none. A new account with no record yet may not sit.",
    )
    visibility = models.CharField(
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        help_text="Who may watch (selectors.game_may_view); a private league's games follow the league.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games_created",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True, help_text="Final standings once finished.")
    status_reason = models.TextField(blank=True, help_text="Why the game was aborted or adjudicated.")
    bot_task = models.PositiveIntegerField(
        null=True,
        blank=True,
        editable=False,
        help_text="The version the game's queued or running bot task carries (null: none); a bot task "
        "carrying any other version is stale and does nothing (apps.games.scheduling).",
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The watch lists (``selectors.game_list_watchable``): public games in play, newest start
            # first, and finished ones, latest end first. None of these columns changes with a move.
            models.Index(fields=["visibility", "status", "-started_at"], name="game_watch_started"),
            models.Index(fields=["visibility", "status", "-finished_at"], name="game_watch_finished"),
        ]

    def __str__(self) -> str:
        return (
            leagues_link.title_shown(self.title) if self.title else f"{self.get_engine_display()} #{self.pk}"
        )

    def save(self, *args: object, **kwargs: object) -> None:
        self.fill_seed_hash()
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.public_id])

    def fill_seed_hash(self) -> None:
        """Set the seed's SHA-256, published from the start, unless set already (``save`` does it; an
        INSERT made without ``save``, a game's creation, calls it first)."""
        if not self.seed_hash:
            self.seed_hash = hashlib.sha256(self.seed.encode("utf-8")).hexdigest()

    @property
    def length_text(self) -> str:
        """The game's length in words (``Short: 3 deals, or first to 30``), from its options."""
        return lengths.length_text(engine=self.engine, players=self.players, options=self.options)

    @property
    def time_control(self) -> Control:
        """The game's time control (``apps.games.clock.controls``), from its stored seconds."""
        return stored_control(self.control, self.control_values, self.weekends_off)

    def seat_control(self, position: int) -> Control:
        """The control a seat's bank runs on: the game's control, except during a sitting for a seat that
        does not play live (its player is absent), which stays on the game's own control, so that a
        sitting never rushes an absent player (``apps.games.clock.live``)."""
        saved = self.live_clock
        if saved is None or str(position) in saved.get("banks", {}):
            return self.time_control
        return stored_control(saved["control"], saved["control_values"], saved["weekends_off"])

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED}

    @property
    def cancelled(self) -> bool:
        """Whether the game ended before it started: aborted while it waited for players (its creator
        cancelled it, ``lobby.game_cancel``, or its only player closed their account). No card was dealt:
        it has no moves, no result and no place in anybody's record."""
        return self.status == self.Status.ABORTED and self.started_at is None

    @property
    def seed_revealed(self) -> str | None:
        """The seed, only once the game has ended (BB-25.10)."""
        return self.seed if self.is_over else None

    @cached_property
    def league_of_game(self) -> tuple[int, bool] | None:
        """The game's league as ``(league_id, is_public)``, or None outside any league (read once; from
        the ``league_pk`` and ``league_public`` annotations when a list brought them: ``selectors.
        with_league``, so that a list asks no query per game)."""
        if hasattr(self, "league_pk") and hasattr(self, "league_public"):
            return None if self.league_pk is None else (self.league_pk, bool(self.league_public))
        return leagues_link.league_of(self)


class Seat(models.Model):
    """A place at the table: a user, or a bot."""

    # db_index=False: the unique constraint below starts with game_id and serves every lookup by game,
    # so a separate index would only cost each write.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    bot = models.CharField(max_length=32, blank=True, help_text="Bot name for a bot seat, else empty.")
    bot_takeover = models.BooleanField(default=False, help_text="An absent player's seat played by the bot.")
    bot_hold = models.BooleanField(
        default=False,
        help_text="An organiser handed the seat to the bot: its player cannot take it back; an organiser "
        "who does not play in the game, or a site admin, gives it back.",
    )
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    hidden_moves = models.PositiveIntegerField(
        default=0, help_text="This seat's answers to simultaneous decisions that others were not told of."
    )
    skip_pluck_windows = models.BooleanField(
        default=False, help_text="Don't wait for me on plucking windows: counts as an immediate pass."
    )
    sitting_bot = models.BooleanField(
        default=False,
        help_text="Standing order: if I miss a sitting, the bot plays my seat until I arrive.",
    )
    has_orders = models.BooleanField(
        default=False,
        help_text="The seat's player has standing orders (StandingOrder rows); only then are they read.",
    )
    joined_at = models.DateTimeField(null=True, blank=True)
    # The seat's time bank (apps.games.clock.banks). Public: what everyone may see of the bank.
    bank_seconds = models.FloatField(
        null=True,
        blank=True,
        help_text="Bank left when it last stopped or started running; null: the initial bank.",
    )
    bank_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Since when the seat owes a decision (its bank is in use); null: owes none.",
    )
    bank_runs_out_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the running bank is empty; null: not running (owes none, or stopped).",
    )
    bank_pending_seconds = models.FloatField(
        null=True,
        blank=True,
        help_text="Private: the bank after an answer to a simultaneous decision that is still hidden from "
        "the others; it becomes the bank when the answer is public.",
    )

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False), name="seat_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def played_by_bot(self) -> bool:
        """Whether the server plays this seat (a bot seat, or an absent player's)."""
        return self.is_bot or self.bot_takeover

    @property
    def is_empty(self) -> bool:
        return not self.bot and self.user_id is None

    @property
    def label(self) -> str:
        """How the seat is named everywhere: pages, mails and the API (a bot by its own bird name)."""
        if self.bot:
            return bot_seat_name(game_id=self.game_id, position=self.position)
        if self.user is None:
            return gettext("(open seat)")  # pages only: the API gives an open seat no name
        return display_name(self.user)


class Move(Timestamped):
    """One applied action: the game's log, in lock order (``seq``)."""

    # db_index=False: the unique constraint below starts with game_id and serves every lookup by game,
    # so a separate index would only cost each write.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.JSONField()
    events = models.JSONField(default=list)
    by_timeout = models.BooleanField(default=False)
    by_bot = models.BooleanField(default=False)
    idempotency_key = models.CharField(max_length=128, null=True, blank=True)  # noqa: DJ001 - NULL = no key
    public_seq = models.PositiveIntegerField(default=0, help_text="Game.public_version after this move.")
    hidden = models.BooleanField(
        default=False,
        help_text="An answer to a simultaneous decision that stayed open, with nothing any other seat may "
        "see (BB-30.6): only its own seat is told it happened.",
    )

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="move_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.seq}"


class Decision(models.Model):
    """An open decision of one seat, with its deadline; rewritten after every move."""

    # db_index=False: the unique constraint below starts with game_id and serves every lookup by game,
    # so a separate index would only cost each write.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="decisions", db_index=False)
    seat = models.PositiveSmallIntegerField()
    decision_id = models.CharField(max_length=64)
    kind = models.CharField(max_length=32)
    timing = models.CharField(max_length=16)
    opened_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    remaining = models.DurationField(
        null=True,
        blank=True,
        help_text="Time left on a stopped clock (paused game, player on vacation); deadline is then null.",
    )
    reminded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["deadline"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "decision_id"], name="decision_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.kind}"

    @property
    def clock_stopped(self) -> bool:
        """Whether this decision's clock is stopped (paused game or player on vacation)."""
        return self.deadline is None


class Heartbeat(models.Model):
    """When a background process last did its work: the sweep, and each queue's worker (/healthz)."""

    name = models.CharField(max_length=32, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class Invitation(Timestamped):
    """A link that seats its holder in an open game: revocable, and optionally good for one seat only.

    The token does nothing else (it is not the game's identifier): revoking it, or its single use,
    ends what it grants. The creator makes, replaces and revokes invitations (``invitations``).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=32, default=new_token, unique=True)
    single_use = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True, help_text="When a single-use invitation was used.")

    class Meta:
        ordering = ["game", "-created_at", "-pk"]

    def __str__(self) -> str:
        kind = "single-use invitation" if self.single_use else "invitation"
        return f"{self.game} {kind}"

    def get_absolute_url(self) -> str:
        return reverse("games:join", args=[self.token])

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and self.used_at is None


class SeatTenure(models.Model):
    """One player's time in one seat of one game, with what they did there (``apps.games.reliability``).

    A tenure starts when the player takes the seat (the game starts, or they accept it as a substitute)
    and ends when the game ends or the seat goes to someone else; a substitute starts a tenure of their
    own and does not inherit the predecessor's record.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tenures")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_tenures")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    answered = models.PositiveIntegerField(default=0, help_text="Decisions the player answered in time.")
    answered_hidden = models.PositiveIntegerField(
        default=0,
        help_text="Answers to a simultaneous decision still open, which nobody else may know of yet "
        "(BB-30.6); added to answered when it closes.",
    )
    timeouts = models.PositiveIntegerField(default=0, help_text="Decisions left to their deadline.")
    handed_to_bot = models.BooleanField(
        default=False, help_text="The seat was handed to the bot (repeated timeouts, or an organiser)."
    )
    abandoned = models.BooleanField(
        default=False,
        help_text="Left before the game's end: replaced by a substitute, or in the bot's hands at the end.",
    )

    class Meta:
        ordering = ["game", "position", "started_at"]
        indexes = [models.Index(fields=["user", "started_at"], name="tenure_user_started")]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "position"],
                condition=models.Q(ended_at=None),
                name="tenure_one_open_per_seat",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game} seat {self.position}"


class StandingOrder(Timestamped):
    """A seat's answer given ahead (DESIGN.md "Standing orders", ``baogame.rules.orders``).

    Private to its owner: no page, reply, mail or log shows it to anyone else. ``bound`` names the trick
    (``"<deal>.<lead decision>"``) or the deal the order is for, empty for one that lasts until revoked.
    Only the orders of the seat's current player (``user``) are applied; a substitute starts with none.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="standing_orders", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    params = models.JSONField(default=dict, blank=True)
    bound = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["seat", "id"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "kind"], name="standing_order_one_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.kind}"


class TableMessage(models.Model):
    """One line of a game's table talk: written by a seated person, read by whoever may see the game
    (``apps.games.table_talk``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="table_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    seat = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)
    #: When the staff were mailed about its first report (``apps.notifications.moderation``); None while
    #: not reported, or reported and not told yet (the recovery sweep queues the mail again).
    staff_told_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "created_at"], name="table_message_game_time")]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.text[:40]}"

    @property
    def references(self) -> list[int]:
        """The history line numbers it names as ``#N``: lines every reader numbers alike (``numbering``)."""
        return numbering.references(self.text)

    @property
    def writer(self) -> str:
        """Who wrote it, as the game names its player (a closed account as ``closed-<id>``)."""
        return display_name(self.user) if self.user is not None else gettext("seat %(n)s") % {"n": self.seat}


class TalkReport(models.Model):
    """Somebody who may read a game's table talk told the site's staff that one of its messages is
    abusive (``table_talk.message_report``): once per message and person; the staff read the reports
    in the admin and remove the message there."""

    message = models.ForeignKey(TableMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="talk_report_once_per_person")
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by user {self.reporter_id}"


class GameLook(models.Model):
    """How far a game had gone when a signed-in person last looked at its page: ``seen`` is the
    number of moves they could know of then (``selectors.viewer_version`` from ``seat``, the seat they
    looked from; None as a spectator), so that the page marks what happened since (``game_looks``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seen = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="game_look_once_per_person")]

    def __str__(self) -> str:
        return f"user {self.user_id} saw {self.seen} moves of game {self.game_id}"
