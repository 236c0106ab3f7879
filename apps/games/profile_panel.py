"""The games' part of a person's profile page: their reliability record and their vacation."""

from __future__ import annotations

from django.utils import timezone

from apps.accounts.models import Profile

from . import reliability
from .clock.deadlines import vacation_budget, vacation_left
from .presenters.timeleft import vacation_left_words


def profile_context(profile: Profile) -> dict[str, object]:
    """The reliability record, this year's vacation budget, what is left of it and, while away, its end."""
    now = timezone.now()
    left = vacation_left(profile, now)
    return {
        "record": reliability.records_for([profile.user_id]).get(profile.user_id, reliability.Record()),
        "vacation_budget_days": vacation_budget().days,
        "vacation_left_words": vacation_left_words(profile, now),
        "vacation_ends_at": now + left if profile.on_vacation else None,
        "vacation_length": vacation_budget(),
    }
