"""Mails name the players in "what happened" exactly as the game pages' history does."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from apps.games import pipeline
from apps.notifications.compose import name_players, seat_names
from apps.notifications.inbound import inbound_process
from baogame.rules.registry import get_engine
from tests.factories import GameFactory, UserFactory
from tests.notifications.conftest import mails_to, reply_to
from tests.web.boards import EX_13

pytestmark = pytest.mark.django_db


def _what_happened(body: str) -> list[str]:
    """The lines of the text body's "What happened" section."""
    section = body.split("What happened", 1)[1].split("\n\n", 1)[0]
    return [line.removeprefix("  - ") for line in section.splitlines()[1:]]


def _start(capture: Any, display_names: dict[str, str], bots: int = 0) -> tuple[Any, list[Any]]:
    """EX-13 (seat 2 to act in round 4) for ann, bob and cy, the last ``bots`` seats bots."""
    users = [UserFactory(username=name) for name in ("ann", "bob", "cy")[: 3 - bots]]
    for user in users:
        if user.username in display_names:
            user.profile.display_name = display_names[user.username]
            user.profile.save()
    with capture(execute=True):
        game = GameFactory(engine="baobei", players=3, bots=bots, options=EX_13, seated=users)
    return game, users


def _act(game: Any, user: Any, seat: int, kind: str, capture: Any) -> None:
    game.refresh_from_db()
    decision = next(d for d in get_engine("baobei").pending(game.state) if seat in d["seats"])
    with capture(execute=True):
        pipeline.submit_action(
            game_id=game.pk, user=user, action={"type": kind, "decision_id": decision["decision_id"]}
        )


def test_turn_mail_names_the_players_by_display_name_or_username(django_capture_on_commit_callbacks):
    """ann goes by "Alice"; bob and cy have no display name, so their usernames show, as on the pages."""
    capture = django_capture_on_commit_callbacks
    game, users = _start(capture, {"ann": "Alice"})
    _act(game, users[2], 2, "draw", capture)
    mail.outbox.clear()

    _act(game, users[2], 2, "discard", capture)

    window = [m for m in mails_to(users[0]) if "plucking window" in m.subject]
    assert _what_happened(window[0].body) == [
        "cy drew a card.",
        "cy discarded the drawn card, a Hummingbird.",
        "Alice and bob may pluck against a Hummingbird.",
    ]
    assert "<li>Alice and bob may pluck against a Hummingbird.</li>" in window[0].alternatives[0][0]


def test_names_replace_only_the_wording_not_which_events_a_seat_sees_bb_30(
    django_capture_on_commit_callbacks,
):
    """cy's own draw event names the card (a Hummingbird); ann's mail has the public one (BB-30)."""
    capture = django_capture_on_commit_callbacks
    game, users = _start(capture, {})
    _act(game, users[2], 2, "draw", capture)

    _act(game, users[2], 2, "discard", capture)

    lines = _what_happened(mails_to(users[0])[-1].body)
    assert "cy drew a card." in lines
    assert not any("drew a Hummingbird" in line or line.startswith("You drew") for line in lines)


def test_answer_mail_names_the_players(django_capture_on_commit_callbacks):
    """A reply ``pass`` to the window mail is answered with the move's events, players named."""
    capture = django_capture_on_commit_callbacks
    game, users = _start(capture, {"bob": "Bobby"})
    _act(game, users[2], 2, "draw", capture)
    _act(game, users[2], 2, "discard", capture)
    _act(game, users[0], 0, "pass", capture)
    window = [m for m in mails_to(users[1]) if "plucking window" in m.subject][-1]

    with capture(execute=True):
        inbound_process(message=reply_to(window, "pass"))

    answer = [m for m in mails_to(users[1]) if ": done: pass" in m.subject][0]
    lines = _what_happened(answer.body)
    assert "The plucking window closed; ann and Bobby passed." in lines
    assert not any(re.search(r"\b[Ss]eats? \[?\d", line) for line in lines)


def test_a_display_name_is_text_in_the_text_body_and_escaped_in_the_html_body(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    game, users = _start(capture, {"cy": "<b>Cy & Co</b>"})
    _act(game, users[2], 2, "draw", capture)

    _act(game, users[2], 2, "discard", capture)

    message = mails_to(users[0])[-1]
    assert "<b>Cy & Co</b> drew a card." in _what_happened(message.body)
    html = message.alternatives[0][0]
    assert "<li>&lt;b&gt;Cy &amp; Co&lt;/b&gt; drew a card.</li>" in html
    assert "<b>Cy" not in html


def test_each_bot_seat_has_its_own_name_in_mails_as_on_the_pages(django_capture_on_commit_callbacks):
    """Two bots of one game are told apart by their own names ("Heron (bot)"), as in the page history."""
    game, users = _start(django_capture_on_commit_callbacks, {}, bots=2)
    names = seat_names(game)

    assert names == [s.label for s in sorted(game.seats.all(), key=lambda s: s.position)]
    assert names[1] != names[2] and names[1].endswith(" (bot)") and names[2].endswith(" (bot)")
    assert name_players("Seats [1, 2] may pluck; seat 1 slot 0.", names) == (
        f"{names[1]} and {names[2]} may pluck; {names[1]}'s slot 0."
    )
    lines = _what_happened(mails_to(users[0])[-1].body)  # the bot at seat 2 played its turn
    assert lines[0].startswith(f"{names[2]} ")
    assert lines[-1].startswith(f"ann and {names[1]} may pluck against ")
