"""Outgoing notifications, mail preferences, signed reply addresses and processed inbound mail."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.accounts.abstract import Timestamped


class Category(models.TextChoices):
    """What a mail is about; each category has its own preference and unsubscribe link."""

    TURN = "turn", _("Your turn")
    PLUCK = "pluck", _("Plucking windows")
    ABILITY = "ability", _("Abilities to resolve")
    SETUP = "setup", _("Setup peek")
    TRIBUTE = "tribute", _("Tribute")
    DECLARE = "declare", _("Emperor offer and declarations")
    REMINDER = "reminder", _("Reminders before a deadline")
    RESULTS = "results", _("Round and game results")
    INVITATION = "invitation", _("Invitations")
    LEAGUE = "league", _("League news")
    DIGEST = "digest", _("Daily digest")


#: Decision kind (both games and the test engine) -> mail category.
KIND_CATEGORY = {
    "setup_peek": Category.SETUP,
    "turn_action": Category.TURN,
    "after_draw": Category.TURN,
    "end_turn": Category.TURN,
    "pluck_window": Category.PLUCK,
    "ability": Category.ABILITY,
    "macaw_decide": Category.ABILITY,
    "shoebill_place": Category.ABILITY,
    "tribute": Category.TRIBUTE,
    "declare": Category.DECLARE,
    "turn": Category.TURN,
    "window": Category.PLUCK,
}


class Mode(models.TextChoices):
    IMMEDIATE = "immediate", _("Immediately")
    DIGEST = "digest", _("Daily digest")
    OFF = "off", _("Off")


class MailSettings(models.Model):
    """A user's mail preferences: a mode per category, the digest hour, and live games."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_settings"
    )
    modes = models.JSONField(default=dict, blank=True, help_text="Category -> mode; missing = immediate.")
    digest_hour = models.PositiveSmallIntegerField(default=8, help_text="Local hour (0-23) of the digest.")
    live_games = models.BooleanField(default=False, help_text="Also mail about live (fast) games.")
    channel_modes = models.JSONField(
        default=dict, blank=True, help_text="Channel (push, webhook) -> {table category -> mode}."
    )
    quiet_start = models.TimeField(null=True, blank=True, help_text="Local start of the quiet hours.")
    quiet_end = models.TimeField(null=True, blank=True, help_text="Local end of the quiet hours.")

    class Meta:
        verbose_name_plural = "mail settings"

    def __str__(self) -> str:
        return f"mail settings of {self.user}"

    def mode_for(self, category: str) -> str:
        """The mode for ``category`` (immediate unless set)."""
        return self.modes.get(category, Mode.IMMEDIATE)


class Notification(Timestamped):
    """One mail to one user, at most once: unique on (user, game, version, kind)."""

    class Kind(models.TextChoices):
        DECISION = "decision", "Decision opened"
        REMINDER = "reminder", "Reminder"
        ROUND_RESULT = "round_result", "Round result"
        GAME_RESULT = "game_result", "Game result"
        INVITATION = "invitation", "Invitation"
        DIGEST = "digest", "Daily digest"
        SEAT_TO_BOT = "seat_to_bot", "Seat handed to the bot"
        SEAT_TAKEN = "seat_taken", "Seat taken"
        SITTING_PROPOSAL = "sitting_proposal", "Sitting proposed"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"  # retried by the task while attempts remain; see SEND_MAX_ATTEMPTS
        QUEUED_DIGEST = "queued_digest", "Waiting for the digest"
        DIGESTED = "digested", "Sent in a digest"
        SKIPPED = "skipped", "Skipped"
        MERGED = "merged", "Sent within another mail"

    #: Attempts to send a mail before it is given up (``status`` failed for good; the owner's
    #: notifications page counts them).
    MAX_ATTEMPTS = 7

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE)
    version = models.PositiveIntegerField(
        help_text="Game version (digests: the local date as YYYYMMDD; a seat taken: the seat's position; "
        "a sitting proposed: the proposal's id)."
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    category = models.CharField(max_length=16, choices=Category.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    decision_id = models.CharField(max_length=64, blank=True)
    decision_kind = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    subject = models.CharField(max_length=200, blank=True)
    due_at = models.DateTimeField(
        default=timezone.now, db_index=True, help_text="Not sent before (settle time, quiet hours)."
    )
    held = models.BooleanField(default=False, help_text="Held by quiet hours: sent as one mail at their end.")
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "version", "kind"], name="notification_once"),
            models.UniqueConstraint(
                fields=["user", "version", "kind"],
                condition=models.Q(game__isnull=True),
                name="notification_once_without_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} (game {self.game_id} v{self.version}): {self.status}"


class ReplyAddress(Timestamped):
    """The nonce behind one signed Reply-To address: which user, game and decision it answers."""

    #: The decision of an address whose mail asks for no move (a result, a seat the bot plays, an answer
    #: after which the seat has nothing open): a reply to it may carry a seat, order or sitting command,
    #: never a move (``stale_decision``), so an old mail never plays on a decision it did not show.
    NO_DECISION = "-"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    decision_id = models.CharField(
        max_length=64,
        blank=True,
        help_text="The decision a reply acts on; '-': none; empty (addresses made before 2026-12-07): the "
        "user's open decision.",
    )

    def __str__(self) -> str:
        return f"reply address {self.pk} of {self.user} in game {self.game_id}"


class InboundMessage(models.Model):
    """One processed inbound mail (play by email); a Message-ID is processed at most once."""

    class Status(models.TextChoices):
        APPLIED = "applied", _("Applied")
        REFUSED = "refused", _("Refused")

    message_id = models.CharField(max_length=255, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL)
    reply_address = models.ForeignKey(ReplyAddress, null=True, blank=True, on_delete=models.SET_NULL)
    command = models.CharField(max_length=200, blank=True)
    action = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices)
    code = models.CharField(max_length=64, blank=True)
    detail = models.TextField(blank=True)
    move_seq = models.PositiveIntegerField(null=True, blank=True)
    shown_decision_id = models.CharField(
        max_length=64,
        blank=True,
        help_text="The decision whose choices the answer listed (empty: none): it is not mailed again as "
        "'Your move'.",
    )
    received_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"inbound {self.message_id}: {self.status} {self.code}"


class CalendarFeed(models.Model):
    """A user's secret iCalendar address: the deadlines of their open decisions and their league rounds.

    The token is the only credential (calendar programs cannot log in), so it is long and random, and
    regenerating it (``calendar.feed_regenerate``) voids the old address at once.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar of {self.user}"


class MailSuppression(Timestamped):
    """An address we no longer mail: it bounced hard, or its owner marked our mail as spam.

    Keyed by the address (lower case), not the user: a player who changes their address is mailed
    again at the new one, and one who says they have fixed the old one clears it.
    """

    class Reason(models.TextChoices):
        HARD_BOUNCE = (
            "hard_bounce",
            _("Mail to this address bounced: the receiving server refused it for good"),
        )
        COMPLAINT = "complaint", _("A mail to this address was reported as spam")

    email = models.EmailField(unique=True)
    reason = models.CharField(max_length=16, choices=Reason.choices)
    detail = models.CharField(max_length=300, blank=True, help_text="The provider's description, if any.")

    def __str__(self) -> str:
        return f"{self.email}: {self.reason}"


class MoveMailOutbox(Timestamped):
    """A move's outgoing effects still to do, one row per channel: the transactional outbox of every
    effect of a move (mail, webhooks, push; ``channel``), named after its first channel, mail.

    A mail row is the outbox of ``notify_move_applied``; a webhook row of ``webhooks_fanout``, a push
    row of ``push_decisions`` (``apps.notifications.outbox.CHANNEL_TASKS``). What follows says it of
    mail; the other channels work the same way.

    Written in the move's own transaction (``apps.notifications.outbox``), so it exists exactly when
    the move does; the ``notify_move_applied`` task deletes it once the move's notifications are
    recorded, and the recovery sweep queues the task again for a row left past
    ``NOTIFICATIONS_OUTBOX_RETRY`` seconds (its task was lost). Recording is idempotent (a notification
    is unique per user, game, version and kind), so a task run twice mails nobody twice.

    A game's end has its row too (``kind`` "game_end", for ``notify_game_ended``), written in the
    transaction that ends the game (``game_ending``), so a lost result-mail task is queued again the
    same way.
    """

    class Kind(models.TextChoices):
        MOVE = "move", "A move"
        GAME_END = "game_end", "The end of the game"

    class Channel(models.TextChoices):
        MAIL = "mail", "Mail"
        WEBHOOK = "webhook", "Webhooks"
        PUSH = "push", "Web Push"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.MAIL)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MOVE)
    version = models.PositiveIntegerField()
    move_id = models.BigIntegerField(null=True, blank=True)
    opened = models.JSONField(default=list, help_text="[seat, kind, decision_id] to mail about.")
    queued_at = models.DateTimeField(help_text="When its task was last queued.", db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "channel", "kind", "version"], name="move_outbox_once_per_channel"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.channel} of game {self.game_id} v{self.version}"
