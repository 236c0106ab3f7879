"""Mails tell the story: what happened since the reader's last move, in order and by name (bots
included); a Bao Huang turn mail shows the trick so far and the reader's own hand, never another's;
a deal's end mail gives its result and the totals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from apps.games.models import Decision
from apps.games.pipeline import submit_action
from apps.notifications.commands import parse_command
from apps.notifications.compose import choices, seat_names
from apps.notifications.inbound import inbound_process
from baogame.rules.baohuang.cards import CODES
from tests.factories import UserFactory
from tests.notifications.conftest import mails_to, play_game, reply_to

pytestmark = pytest.mark.django_db

#: wren (seat 0) gets the emperor card; each bot two cards that nobody else holds.
DEAL = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}


def _section(body: str, title: str) -> list[str]:
    """The lines of a text body's section that starts with ``title``."""
    if title not in body:
        return []
    part = body.split(title, 1)[1].split("\n\n", 1)[0]
    return [line.strip().removeprefix("- ") for line in part.splitlines()[1:]]


def _reply(game: Any, user: Any, command: str, capture: Any) -> None:
    last = mails_to(user)[-1]
    mail.outbox.clear()
    with capture(execute=True):
        record = inbound_process(message=reply_to(last, command))
    assert record.status == "applied", (record.code, record.detail)


def _play_on_the_page(game: Any, user: Any, command: str, capture: Any) -> None:
    mail.outbox.clear()
    with capture(execute=True):
        submit_action(game_id=game.pk, user=user, action=parse_command(engine=game.engine, text=command))


def _baohuang_against_bots(capture: Any) -> tuple[Any, Any]:
    wren = UserFactory(username="wren")
    with capture(execute=True):
        game = play_game("baohuang", [wren], 5, options={"deals": [DEAL, DEAL]})
    _reply(game, wren, "keep", capture)
    _reply(game, wren, "nodeclare", capture)
    return game, wren


def test_the_answer_to_a_reply_tells_my_move_then_the_bots_plays_in_order_bh_11(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BH-11: after wren leads a 6 the four bots beat it in turn; the answer says all of it."""
    capture = django_capture_on_commit_callbacks
    game, wren = _baohuang_against_bots(capture)

    _reply(game, wren, "play 6", capture)

    names = seat_names(game)
    answer = next(m for m in mails_to(wren) if "done: play 6" in m.subject)
    assert _section(answer.body, "What happened from your move on") == [
        "wren plays 6.",
        f"{names[1]} plays 7.",
        f"{names[2]} plays 9.",
        f"{names[3]} plays J.",
        f"{names[4]} plays A.",
    ]
    assert f"<li>{names[4]} plays A.</li>" in answer.alternatives[0][0]


def test_a_turn_mail_shows_the_trick_so_far_my_hand_and_my_bank_and_no_other_hand_bh_23(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BH-23: the reader's own hand, the public trick and the reader's own time bank; the bots'
    unplayed cards (8, 10, Q, BJ*) appear nowhere in the story or the view."""
    capture = django_capture_on_commit_callbacks
    game, wren = _baohuang_against_bots(capture)

    # On the page: a move made by mail is answered with this turn in the answer, and no turn mail.
    _play_on_the_page(game, wren, "play 6", capture)

    turn = next(m for m in mails_to(wren) if m.subject.endswith("Play or pass"))
    view = _section(turn.body, "Your view:")
    assert "Your hand (2): K RJ*" in view
    assert re.search(r"^Your clock: .+ left \(\+.+ per move, up to .+\)$", turn.body, re.MULTILINE)
    names = seat_names(game)
    assert (
        f"Trick so far: wren (seat 0) 6, {names[1]} (seat 1) 7, {names[2]} (seat 2) 9, "
        f"{names[3]} (seat 3) J, {names[4]} (seat 4) A." in view
    )
    cards_lines = [line for line in view if line.startswith(("Your hand", "Trick so far", "To beat"))]
    story = " ".join(cards_lines + _section(turn.body, "What happened since your last move"))
    story = re.sub(r"\((seat )?\d+\)", " ", story)  # seat numbers and card counts are no cards
    shown = {token for token in re.split(r"[\s,.:()]+", story) if token in CODES}
    assert shown == {"6", "7", "9", "J", "A", "K", "RJ*"}


def test_the_deal_result_mail_gives_outcome_partner_scores_and_totals_bh_15_bh_17(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BH-15 to BH-17: wren goes out first, seat 4 (BJ*) second: the emperor's side wins, x1."""
    capture = django_capture_on_commit_callbacks
    game, wren = _baohuang_against_bots(capture)
    _reply(game, wren, "play 6", capture)
    _reply(game, wren, "play RJ*", capture)

    _reply(game, wren, "play K", capture)

    _, one, two, three, puffin = seat_names(game)
    result = next(m for m in mails_to(wren) if "deal result" in m.subject)
    assert "A deal has ended" in result.body and "round" not in result.subject  # BH-16: deals, not rounds
    assert _section(result.body, "Result:") == [
        f"Deal 1: you, the emperor, played with {puffin} (seat 4) as partner and won (multiplier x1).",
        f"Finishing order: 1. wren, 2. {puffin}, 3. {one}, 4. {two}, 5. {three}.",
        f"Scores this deal: you +6, {one} -3, {two} -3, {three} -3, {puffin} +3.",
        f"Totals: you 6, {one} -3, {two} -3, {three} -3, {puffin} 3.",
    ]
    assert "<h3>Result</h3>" in result.alternatives[0][0]


def test_a_bao_bei_answer_tells_my_move_then_the_bots_moves_by_name_bb_21(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BB-21: after my turn the two bots play theirs; the answer to my reply lists my move first,
    then theirs, by name, in order."""
    capture = django_capture_on_commit_callbacks
    wren = UserFactory(username="wren")
    with capture(execute=True):
        game = play_game("baobei", [wren], 3)

    for _ in range(12):  # answer with the first choice until the bots have moved after me
        game.refresh_from_db()
        if not Decision.objects.filter(game=game, seat=0).exists():
            break
        command = choices(game, 0)[0].command
        _reply(game, wren, command, capture)
        answer = next(m for m in mails_to(wren) if "done:" in m.subject)
        story = _section(answer.body, "What happened from your move on")
        if any("(bot)" in line for line in story):
            break

    assert story and story[0].startswith(("wren ", "You "))
    first_bot = next(i for i, line in enumerate(story) if "(bot)" in line)
    assert first_bot > 0
