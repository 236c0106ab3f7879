"""An organiser's mail subject is one line; control characters are refused, nothing is sent."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from apps.games.errors import ServiceError
from apps.leagues import services
from apps.leagues.models import League


@pytest.mark.parametrize("subject", ["News\r\nBcc: everyone@example.com", "News\nmore", "Bell\x07"])
def test_a_subject_with_control_characters_is_refused(
    toy_league: League, members: list[Any], organiser: Any, subject: str
) -> None:
    """A line break used to reach the mail header (Django then raised BadHeaderError: a 500 on the page)."""
    with pytest.raises(ServiceError) as exc:
        services.league_email_members(league=toy_league, subject=subject, body="Hi", by=organiser)

    assert exc.value.code == "invalid_message"
    assert mail.outbox == []
