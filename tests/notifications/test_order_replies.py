"""Standing orders by mail reply: "autopass on", "pass trick", "play 9 9 if
it beats", "orders", "orders clear"; the answer lists the sender's orders to the sender alone."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import pipeline
from apps.games.models import Move, StandingOrder
from apps.notifications.inbound import inbound_process
from tests.factories import GameFactory, UserFactory
from tests.notifications.conftest import mails_to, reply_to

pytestmark = pytest.mark.django_db

HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


@pytest.fixture
def bh(django_capture_on_commit_callbacks: Any) -> tuple[Any, list[Any]]:
    """A Bao Huang game of five people, declarations made: seat 0 leads; everyone has had mails."""
    people = [UserFactory() for _ in range(5)]
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": HANDS}]})
        pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    return game, people


def _reply(user: Any, text: str, capture: Any) -> Any:
    last = [m for m in mails_to(user) if m.reply_to][-1]
    with capture(execute=True):
        return inbound_process(message=reply_to(last, text))


def test_autopass_on_by_mail_passes_when_the_turn_comes_bh_12_5(
    bh: tuple[Any, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """BH-11, BH-12.5: "autopass on" sets "pass when I cannot beat"; the answer lists it to the sender."""
    game, people = bh
    result = _reply(people[1], "autopass on", django_capture_on_commit_callbacks)

    assert result.status == "applied"
    assert StandingOrder.objects.filter(seat__game=game, seat__position=1, kind="pass_unbeatable").exists()
    answer = [m for m in mails_to(people[1]) if "done: autopass on" in m.subject]
    assert len(answer) == 1 and "Your standing orders: pass when I cannot beat" in answer[0].body
    assert not any("standing orders:" in m.body for u in people if u != people[1] for m in mails_to(u))

    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})
    # Compared in Python: on SQLite a JSON field is matched as text, and the stored JSON is compact.
    assert {"type": "pass"} in [m.action for m in Move.objects.filter(game=game, seat=1)]


def test_play_if_it_beats_pass_trick_orders_and_clear_by_mail(
    bh: tuple[Any, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = bh
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    capture = django_capture_on_commit_callbacks

    assert _reply(people[3], "play 2 2 if it beats", capture).status == "applied"
    assert _reply(people[4], "pass trick", capture).status == "applied"
    listed = _reply(people[3], "orders", capture)
    cleared = _reply(people[4], "orders clear", capture)

    assert "play 2 2 if it beats" in listed.detail
    assert cleared.detail == "You have no standing orders in this game."
    kinds = StandingOrder.objects.filter(seat__game=game).values_list("kind", flat=True)
    assert list(kinds) == ["play_if_beats"]


def test_a_bad_order_by_mail_is_refused_with_its_code(
    bh: tuple[Any, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """BH-20.7: cards not held are refused (``card_not_in_hand``); nothing is stored."""
    game, people = bh
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})

    result = _reply(people[1], "play RJ RJ if it beats", django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "card_not_in_hand")
    assert not StandingOrder.objects.exists()


def test_the_turn_mail_lists_the_order_commands(bh: tuple[Any, list[Any]]) -> None:
    """A Bao Huang turn mail's help lines list the standing-order commands."""
    _, people = bh
    body = [m for m in mails_to(people[1]) if m.reply_to][-1].body

    examples = ("autopass on / autopass off", "pass trick", "play 9 9 if it beats", "orders / orders clear")
    for example in examples:
        assert example in body


def test_no_answer_ahead_by_mail_for_a_next_deal_of_a_one_deal_game_bh_17_6(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BH-17.6: "offer keep" in play of a one-deal game would be for a deal 2 that comes only after a
    shared lead (BH-17.3): refused with ``no_next_deal``, and the answer says why; nothing is stored."""
    capture = django_capture_on_commit_callbacks
    people = [UserFactory() for _ in range(5)]
    options = {"deals": [{"hands": HANDS}], "deal_limit": 1}
    with capture(execute=True):
        game = GameFactory(engine="baohuang", players=5, seated=people, options=options)
        pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})

    result = _reply(people[1], "offer keep", capture)

    assert (result.status, result.code) == ("refused", "no_next_deal")
    [answer] = [m for m in mails_to(people[1]) if "refused (no_next_deal)" in m.subject]
    assert "no next deal to answer ahead for" in answer.body
    assert not StandingOrder.objects.exists()
