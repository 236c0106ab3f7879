"""Play by email: replies apply commands once; forged, expired, replayed and stale replies are refused."""

from __future__ import annotations

import time
from typing import Any
from unittest import mock

import pytest
from django.core import mail

from apps.games.models import Decision, Move
from apps.games.pipeline import submit_action
from apps.notifications import tokens
from apps.notifications.models import InboundMessage
from tests.notifications.conftest import mails_to, play_game, process_reply, reply_to

pytestmark = pytest.mark.django_db


def _start(started: Any, capture: Any) -> Any:
    with capture(execute=True):
        return started(2)


def test_reply_with_a_command_plays_it_and_confirms(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    card = game.state["hands"][0][1]

    result = process_reply(reply_to(mail.outbox[0], f"play card={card}"), django_capture_on_commit_callbacks)

    assert result.status == "applied"
    assert Move.objects.get(game=game).action["card"] == card
    answer = [m for m in mails_to(users[0]) if "done" in m.subject]
    body = answer[0].body if len(answer) == 1 else ""
    # the toy engine has no text module: its events are listed field by field, in stored key order
    # (PostgreSQL's JSONB sorts keys, SQLite keeps them as written)
    assert "  - played (" in body and f"card: {card}" in body.split("  - played (", 1)[1].split(")")[0]


def test_html_only_reply_is_understood(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    card = game.state["hands"][0][0]

    result = process_reply(
        reply_to(mail.outbox[0], f"play card={card}", html_only=True), django_capture_on_commit_callbacks
    )

    assert result.status == "applied"


def test_same_message_id_twice_applies_once(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    message = reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}")

    first = process_reply(message, django_capture_on_commit_callbacks)
    outbox_after_first = len(mail.outbox)
    replay = process_reply(message, django_capture_on_commit_callbacks)

    assert (first.status, replay.status) == ("applied", "duplicate")
    assert Move.objects.filter(game=game).count() == 1
    assert len(mail.outbox) == outbox_after_first  # a replay gets no answer


def test_reply_to_a_decision_that_has_passed_gets_the_stale_decision_error(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    turn_mail = mail.outbox[0]
    hand = game.state["hands"][0]
    process_reply(reply_to(turn_mail, f"play card={hand[0]}"), django_capture_on_commit_callbacks)

    late = process_reply(reply_to(turn_mail, f"play card={hand[1]}"), django_capture_on_commit_callbacks)

    assert (late.status, late.code) == ("refused", "stale_decision")
    assert Move.objects.filter(game=game).count() == 1
    refusal = mails_to(users[0])[-1]
    assert "stale_decision" in refusal.subject and "stale_decision" in refusal.body


def test_the_answer_to_a_stale_reply_acts_on_the_decision_it_shows(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """A reply to an old mail is refused (stale_decision); its answer shows the decision open now and
    its choices, so replying to that answer with one of them is applied, not refused again."""
    game = _start(started, django_capture_on_commit_callbacks)
    first_turn = mail.outbox[0]
    mine = f"play card={game.state['hands'][0][0]}"
    process_reply(reply_to(first_turn, mine), django_capture_on_commit_callbacks)
    game.refresh_from_db()
    for move in ({"type": "pass"}, {"type": "play", "card": game.state["hands"][1][0]}):
        theirs = Decision.objects.get(game=game, seat=1).decision_id
        with django_capture_on_commit_callbacks(execute=True):
            submit_action(game_id=game.pk, user=users[1], action={**move, "decision_id": theirs})
    assert Decision.objects.filter(game=game, seat=0).exists()  # my window on their card is open

    late = process_reply(reply_to(first_turn, "pass"), django_capture_on_commit_callbacks)
    refusal = mails_to(users[0])[-1]
    fixed = process_reply(reply_to(refusal, "pass"), django_capture_on_commit_callbacks)

    assert (late.status, late.code) == ("refused", "stale_decision")
    assert "pass" in refusal.body.split("Your choices", 1)[1]
    assert (fixed.status, fixed.code) == ("applied", "")
    assert Move.objects.filter(game=game).count() == 4


def test_illegal_command_is_refused_with_the_engines_code_and_can_be_corrected(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)

    refused = process_reply(reply_to(mail.outbox[0], "play card=99"), django_capture_on_commit_callbacks)
    refusal = mails_to(users[0])[-1]
    fixed = process_reply(
        reply_to(refusal, f"play card={game.state['hands'][0][0]}"), django_capture_on_commit_callbacks
    )

    assert (refused.status, refused.code) == ("refused", "card_not_in_hand")
    assert "card_not_in_hand" in refusal.body
    assert fixed.status == "applied"


def test_unknown_command_is_refused(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    _start(started, django_capture_on_commit_callbacks)

    result = process_reply(reply_to(mail.outbox[0], ""), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "no_command")
    assert "no_command" in mails_to(users[0])[-1].body


def test_forged_address_is_refused_silently(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    message = reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}")
    real = str(message["To"])
    local, domain = real.split("@")
    # Same game and nonce, but claiming another user: the signature no longer matches.
    forged = local.replace(f".u{users[0].pk}.", f".u{users[1].pk}.") + "@" + domain
    del message["To"]
    message["To"] = forged
    outbox = len(mail.outbox)

    result = process_reply(message, django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "forged_address")
    assert not Move.objects.filter(game=game).exists()
    assert len(mail.outbox) == outbox


def test_mail_to_no_reply_address_is_refused(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    _start(started, django_capture_on_commit_callbacks)
    message = reply_to(mail.outbox[0], "snap")
    del message["To"]
    message["To"] = "games@baogame.localhost"

    assert process_reply(message, django_capture_on_commit_callbacks).code == "forged_address"


def test_expired_address_is_refused_and_the_player_told(
    started: Any, users: list, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    message = reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}")

    with mock.patch("apps.notifications.tokens.time.time", return_value=time.time() + 31 * 24 * 3600):
        result = process_reply(message, django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "reply_expired")
    assert not Move.objects.filter(game=game).exists()
    assert "reply_expired" in mails_to(users[0])[-1].body


def test_reply_from_another_sender_is_refused(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    message = reply_to(
        mail.outbox[0], f"play card={game.state['hands'][0][0]}", sender="mallory@evil.example"
    )

    result = process_reply(message, django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "sender_mismatch")
    assert not Move.objects.filter(game=game).exists()


def test_address_signature_depends_on_every_field() -> None:
    address = tokens.reply_address(game_id=3, user_id=4, nonce=5)
    local, domain = address.split("@")

    assert tokens.reply_address_parse(address).nonce == 5
    for forged in (
        local.replace("r5", "r6"),
        local.replace("g3", "g33"),
        local[:-1] + ("0" if local[-1] != "0" else "1"),
    ):
        with pytest.raises(tokens.RuleError) as exc:
            tokens.reply_address_parse(f"{forged}@{domain}")
        assert exc.value.code == "forged_address"


def test_case_folded_address_still_verifies() -> None:
    address = tokens.reply_address(game_id=3, user_id=4, nonce=5)

    assert tokens.reply_address_parse(address.upper()).game_id == 3


def test_bao_huang_reply_to_a_passed_decision_is_stale(
    users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Bao Huang actions carry no decision_id (BH-19.1): the service checks the answered decision."""
    with django_capture_on_commit_callbacks(execute=True):
        game = play_game("baohuang", users[:5], 5)
    decision = Decision.objects.get(game=game)
    user = users[decision.seat]
    offer_mail = mails_to(user)[-1]
    process_reply(reply_to(offer_mail, "keep"), django_capture_on_commit_callbacks)

    again = process_reply(reply_to(offer_mail, "pass emperor"), django_capture_on_commit_callbacks)

    assert again.code == "stale_decision"
    assert InboundMessage.objects.filter(status="applied").count() == 1
