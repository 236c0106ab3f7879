"""No hidden card in any mail: seeded bot games of both games with human seats, every mail scanned.

After each move the mails just sent are checked against that seat's ``view`` and the referee view:
Bao Bei displays in a mail name exactly the cards the seat's view names (BB-30, BB-31); Bao Huang
mails show the seat's own hand and never another seat's (BH-23); no private event of another seat
is described in a mail.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.core import mail

from apps.games import pipeline as game_pipeline
from apps.games.models import Game, Move
from apps.games.presenters.baobei import card_label
from apps.notifications.compose import describe_event, describe_event_named, seat_names
from baogame.rules.core import visible
from baogame.rules.registry import get_bots, get_engine
from tests.notifications.conftest import play_game

pytestmark = pytest.mark.django_db

# "You" or a player's name, then the display's slots ("0: Macaw  1: —") or "no cards"; a line of the final
# standings ("1. Ann (seat 2): 20") is no display.
DISPLAY_LINE = re.compile(r"^\s*\S.*? \(seat (\d+)\): (\d+: .*|no cards)$", re.MULTILINE)


def _private_descriptions(game: Game, seat: int) -> set[str]:
    """Descriptions of events other seats saw privately and ``seat`` did not (nor publicly).

    Each in both wordings: with seat numbers, and naming the players as mails do.
    """
    hidden, shown = set(), set()
    names = seat_names(game)
    for move in Move.objects.filter(game=game):
        for event in move.events:
            described = {describe_event(game.engine, event), describe_event_named(game.engine, event, names)}
            (shown if visible(event, seat) else hidden).update(described)
    return hidden - shown


def _check_baobei(body: str, view: dict[str, Any]) -> None:
    lines = DISPLAY_LINE.findall(body)
    assert sorted(int(seat) for seat, _ in lines) == sorted(view["participants"])  # every display, once
    for seat_text, slots_text in lines:
        display = view["displays"][int(seat_text)]
        for token in slots_text.split("  "):
            slot, _, card = token.partition(": ")
            expected = display[int(slot)]
            assert card == ("—" if expected is None else card_label(expected)), (seat_text, slot, card)


def _check_baohuang(body: str, view: dict[str, Any], referee: dict[str, Any], seat: int) -> None:
    assert f"Your hand ({len(view['hand'])}): {' '.join(view['hand']) or 'empty'}" in body
    for other, hand in enumerate(referee["hands"]):
        if other != seat and hand and hand != view["hand"]:
            assert f"): {' '.join(hand)}\n" not in body
    if view.get("partner") is None and referee.get("partner") is not None:
        assert "Partner: " not in body  # the view line appears only once the partner is known to you


def _scan(game: Game, seat_of_email: dict[str, int], start: int) -> int:
    engine = get_engine(game.engine)
    referee = engine.referee_view(game.state)
    scanned = 0
    for message in mail.outbox[start:]:
        seat = seat_of_email[message.to[0]]
        view = engine.view(game.state, seat)
        body = message.body + message.alternatives[0][0]
        for secret in _private_descriptions(game, seat):
            assert secret not in body, secret
        if "Your view:" in message.body:
            if game.engine == "baobei":
                _check_baobei(message.body, view)
            else:
                _check_baohuang(message.body, view, referee, seat)
        scanned += 1
    return scanned


@pytest.mark.parametrize(("engine", "players", "moves"), [("baobei", 3, 140), ("baohuang", 5, 160)])
def test_no_mail_names_a_card_its_reader_may_not_know(
    engine: str, players: int, moves: int, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    seat_of_email = {users[s].email: s for s in range(players)}
    with django_capture_on_commit_callbacks(execute=True):
        game = play_game(engine, users[:players], players)
    scanned = _scan(game, seat_of_email, 0)
    eng = get_engine(engine)
    bots, default = get_bots(engine)
    rng = random.Random(f"leaks:{engine}")

    for _ in range(moves):
        game.refresh_from_db()
        pending = eng.pending(game.state)
        if not pending:
            break
        seat = pending[0]["seats"][0]
        action = bots[default](eng.view(game.state, seat), rng)
        start = len(mail.outbox)
        with django_capture_on_commit_callbacks(execute=True):
            game_pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)
        game.refresh_from_db()
        scanned += _scan(game, seat_of_email, start)

    assert scanned > moves // 2
