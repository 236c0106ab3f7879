"""Sittings: proposals of times to play together, each seat's answers, the agreed sittings, presence."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from apps.games.models import Game


class SittingProposal(models.Model):
    """Times offered to a table by a seated player or the league's organiser.

    Either a list of one-off times (``ProposedTime`` rows, answered one by one) or one weekly series
    (``recurrence``, answered as a whole: its one ``ProposedTime`` is the first start). An ad-hoc
    proposal ("everyone is here: play now") has one time, the moment it was made.
    """

    class Kind(models.TextChoices):
        AGREED = "agreed", "Agreed times"
        AD_HOC = "ad_hoc", "Everyone is here: play now"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sitting_proposals")
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.AGREED)
    length = models.DurationField(help_text="How long each sitting of the proposal lasts.")
    time_zone = models.CharField(max_length=64, help_text="The proposer's time zone when proposing.")
    recurrence = models.JSONField(
        null=True, blank=True, help_text="A weekly series (acceptance.Recurrence.to_json), or null."
    )
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="Every time is decided (or the proposal expired)."
    )

    class Meta:
        ordering = ["game", "-created_at", "-pk"]
        indexes = [models.Index(fields=["game", "closed_at"], name="sitting_proposal_open")]

    def __str__(self) -> str:
        return f"{self.game} sitting proposal {self.pk}"


class ProposedTime(models.Model):
    """One time of a proposal, with its outcome once decided."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for answers"
        ACCEPTED = "accepted", "Everyone said yes"
        DECLINED = "declined", "Someone said no"
        EXPIRED = "expired", "Its time passed first"

    proposal = models.ForeignKey(SittingProposal, on_delete=models.CASCADE, related_name="times")
    index = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)

    class Meta:
        ordering = ["proposal", "index"]
        constraints = [
            models.UniqueConstraint(fields=["proposal", "index"], name="proposed_time_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.proposal} time {self.index}"


class SittingAnswer(models.Model):
    """One seat's yes or no to one proposed time (a later answer replaces an earlier one)."""

    time = models.ForeignKey(ProposedTime, on_delete=models.CASCADE, related_name="answers")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accept = models.BooleanField()
    answered_at = models.DateTimeField()

    class Meta:
        ordering = ["time", "position"]
        constraints = [
            models.UniqueConstraint(fields=["time", "position"], name="sitting_answer_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.time} seat {self.position}: {'yes' if self.accept else 'no'}"


class Sitting(models.Model):
    """An agreed span when the table plays at live speed."""

    class Kind(models.TextChoices):
        AGREED = "agreed", "Agreed"
        AD_HOC = "ad_hoc", "Ad hoc"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        LIVE = "live", "Under way"
        ENDED = "ended", "Ended"
        CANCELLED = "cancelled", "Cancelled"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sittings")
    proposal = models.ForeignKey(
        SittingProposal, null=True, blank=True, on_delete=models.SET_NULL, related_name="sittings"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.AGREED)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    ended_at = models.DateTimeField(
        null=True, blank=True, help_text="When it really ended (early or late), or was cancelled."
    )
    ended_early = models.BooleanField(
        default=False,
        help_text="The table ended it before its agreed end: its calendar entry is sent again, updated.",
    )
    end_votes = models.JSONField(default=list, blank=True, help_text="Seats that asked to end it early.")
    stand_ins = models.JSONField(
        default=list,
        blank=True,
        help_text="Seats the bot plays because their player missed the sitting and asked for it (standing "
        "order sitting_bot); handed back on arrival or when the sitting ends.",
    )
    saved_clock = models.JSONField(
        null=True,
        blank=True,
        help_text="The game's own control and the banks of the seats that played live, as they were when "
        "they started (apps.games.clock.live); restored when the sitting ends. Who plays live now is the "
        "game's copy (Game.live_clock): a seat whose player left the sitting is gone from it.",
    )

    class Meta:
        ordering = ["game", "starts_at", "pk"]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="sitting_status_start"),
            models.Index(fields=["status", "ended_at"], name="sitting_status_end"),
        ]

    def __str__(self) -> str:
        return f"{self.game} sitting {self.starts_at:%Y-%m-%d %H:%M}"


class SeatPresence(models.Model):
    """When a seat's player last had the game page open (the page's own requests)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_presence_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position} seen {self.seen_at:%H:%M:%S}"


class SittingReminder(models.Model):
    """One message about one sitting to one person: its row makes sending at-most-once.

    A mail about several sittings (the invitation of a weekly series, the cancellation of a game's
    sittings still to come) has a row for each: the invitation's rows say whose calendar each sitting
    went to, and so who is sent its update or cancellation.
    """

    class Kind(models.TextChoices):
        INVITATION = "invitation", "Invitation mail with a calendar file"
        MAIL = "mail", "Reminder mail"
        PUSH = "push", "Reminder push"
        STARTING = "starting", "'We are starting' push to a player not yet here"
        UPDATE = "update", "Calendar update: the sitting ended early"
        CANCEL = "cancel", "Calendar cancellation: the game ended before the sitting"

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="reminders")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sitting", "user", "kind"], name="sitting_reminder_once"),
        ]

    def __str__(self) -> str:
        return f"{self.sitting} {self.kind} to {self.user}"
