"""The game page's "Standing orders" panel: only the seat's player sees it and their
orders; toggles and the "play these if they beat" picker set them; bad picks are refused with a code."""

from __future__ import annotations

import re
from typing import Any

import pytest

from apps.games import pipeline
from apps.games.models import Game, Move, StandingOrder
from tests.factories import GameFactory, UserFactory, signed_in
from tests.support.bh_turns import ORDERS_HANDS, five_at_play

pytestmark = pytest.mark.django_db

HANDS = ORDERS_HANDS


@pytest.fixture
def bh() -> tuple[Game, list[Any]]:
    game, people = five_at_play()
    return game, people


def test_the_switch_sets_pass_when_i_cannot_beat_and_only_its_owner_sees_it_bh_12_5(
    bh: tuple[Game, list[Any]],
) -> None:
    game, people = bh
    me, other, stranger = signed_in(people[1]), signed_in(people[2]), signed_in(UserFactory())
    page = game.get_absolute_url()

    assert "You have no standing orders." in me.get(page).content.decode()
    answer = me.post(f"{page}orders/", {"do": "switch", "kind": "pass_unbeatable", "on": "on"})
    mine = me.get(page).content.decode()

    assert answer.status_code == 302
    assert "pass when I cannot beat" in mine and "Others may notice that you pass at once." in mine
    assert "pass when I cannot beat" not in other.get(page).content.decode()
    assert 'id="standing-orders"' not in stranger.get(page).content.decode()
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})
    # Compared in Python: on SQLite a JSON field is matched as text, and the stored JSON is compact.
    assert {"type": "pass"} in [m.action for m in Move.objects.filter(game=game, seat=1)]


def _oob_panel(html: str) -> str:
    """The standing-orders panel a board fragment swaps in out of band ("" when there is none)."""
    found = re.search(
        r'<section[^>]*id="standing-orders"[^>]*hx-swap-oob="outerHTML"[^>]*>.*?</section>', html, re.S
    )
    return found.group(0) if found else ""


def test_the_board_refresh_brings_the_orders_panel_as_it_is_now_bh_11(bh: tuple[Game, list[Any]]) -> None:
    """An order the server has just given leaves the panel, and the picker offers the hand that is left,
    with the board htmx swaps in (no reload); a spectator's board brings no panel."""
    game, people = bh
    me, stranger = signed_in(people[3]), signed_in(UserFactory())
    page = game.get_absolute_url()
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})
    me.post(f"{page}orders/", {"do": "arm", "kind": "play_if_beats", "cards": ["2", "2"]})
    before = _oob_panel(me.get(page, HTTP_HX_REQUEST="true").content.decode())

    for seat in (1, 2):  # seat 3's order answers its turn: it plays 2 2
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "pass"})
    after = _oob_panel(me.get(page, HTTP_HX_REQUEST="true").content.decode())
    played = me.post(f"{page}act/", {"type": "pass", "decision_id": "x"}, HTTP_HX_REQUEST="true")

    assert "orders-held" in before and re.findall(r'name="cards" value="([^"]+)"', before) == ["J", "2", "2"]
    assert "orders-held" not in after and "You have no standing orders." in after
    assert re.findall(r'name="cards" value="([^"]+)"', after) == ["J"]
    assert 'id="standing-orders"' in _oob_panel(played.content.decode())  # a move's board brings it too
    assert 'id="standing-orders"' not in stranger.get(page, HTTP_HX_REQUEST="true").content.decode()


def test_the_picker_sets_play_these_if_they_beat_bh_11(bh: tuple[Game, list[Any]]) -> None:
    game, people = bh
    me = signed_in(people[3])
    page = game.get_absolute_url()
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})

    me.post(f"{page}orders/", {"do": "arm", "kind": "play_if_beats", "cards": ["2", "2"]})
    for seat in (1, 2):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "pass"})

    assert Move.objects.filter(game=game, seat=3).last().action == {"type": "play", "cards": ["2", "2"]}


def test_a_bad_pick_is_refused_with_its_code(bh: tuple[Game, list[Any]]) -> None:
    game, people = bh
    me = signed_in(people[1])
    page = game.get_absolute_url()

    me.post(f"{page}orders/", {"do": "arm", "kind": "play_if_beats", "cards": ["8", "K"]})

    assert "(not_a_combination)" in me.get(page).content.decode()
    assert not StandingOrder.objects.exists()


def _panel(html: str) -> str:
    found = re.search(r'<section[^>]*id="standing-orders"[^>]*>.*?</section>', html, re.S)
    assert found is not None
    return found.group(0)


def test_a_refused_order_is_told_in_the_panel_the_page_scrolls_to_bh_10_bh_20_7(
    bh: tuple[Game, list[Any]],
) -> None:
    """The form redirects to ``#standing-orders``: a refusal shown only at the top of the page is out of
    sight there, and the player cannot tell why nothing changed. An empty pick says what to do."""
    game, people = bh
    me = signed_in(people[1])
    page = game.get_absolute_url()

    pick = {"do": "arm", "kind": "play_if_beats", "cards": ["8", "K"]}
    mixed = me.post(f"{page}orders/", pick, follow=True)
    empty = me.post(f"{page}orders/", {"do": "arm", "kind": "play_if_beats"}, follow=True)
    mixed_html, empty_html = mixed.content.decode(), empty.content.decode()

    assert mixed.redirect_chain[-1][0].endswith("#standing-orders")
    assert "(not_a_combination)" in _panel(mixed_html)
    assert mixed_html.count("(not_a_combination)") == 1  # not also in the list at the top
    assert "Tick the cards the order is to play first." in _panel(empty_html)
    assert "(invalid_order)" in _panel(empty_html)


def test_an_order_given_when_its_turn_has_come_says_it_was_used_at_once_or_dropped_bh_20_7(
    bh: tuple[Game, list[Any]],
) -> None:
    """ "When my turn comes in this trick, play these if they beat": given while the turn is already the
    seat's, it is consulted at once. The page said "saved" and listed no order; it now says what became
    of it. Seat 0 leads (nothing to beat: dropped); then seat 1's K beats the 6 (played at once)."""
    game, people = bh
    page = game.get_absolute_url()
    lead = {"do": "arm", "kind": "play_if_beats", "cards": ["A", "A"]}

    dropped = signed_in(people[0]).post(f"{page}orders/", lead, follow=True).content.decode()
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["6"]})
    beat = {"do": "arm", "kind": "play_if_beats", "cards": ["K"]}
    played = signed_in(people[1]).post(f"{page}orders/", beat, follow=True).content.decode()

    assert "it was dropped." in _panel(dropped) and "Your standing orders are saved." not in dropped
    assert "the order answered it at once" in _panel(played)
    assert {"type": "play", "cards": ["K"]} in [m.action for m in Move.objects.filter(game=game, seat=1)]


def test_no_answer_ahead_for_a_next_deal_of_a_one_deal_game_bh_17_6() -> None:
    """BH-17.6: a one-deal game's next deal comes only if the lead is shared at its end (BH-17.3). In
    play, the panel offers no answer ahead for it, and a form sent from an older page is refused in the
    panel with ``no_next_deal``; nothing is stored."""
    people = [UserFactory() for _ in range(5)]
    options = {"deals": [{"hands": HANDS}], "deal_limit": 1}
    game = GameFactory(engine="baohuang", players=5, seated=people, options=options)
    me = signed_in(people[1])
    page = game.get_absolute_url()
    offered = _panel(me.get(page).content.decode())
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})

    playing = _panel(me.get(page).content.decode())
    refused = me.post(f"{page}orders/", {"do": "arm", "kind": "offer", "answer": "keep"}, follow=True)

    assert 'value="offer"' in offered and 'value="declare"' in offered
    assert 'value="offer"' not in playing and 'value="declare"' not in playing
    panel = _panel(refused.content.decode())
    assert "(no_next_deal)" in panel and "no next deal to answer ahead for" in panel
    assert not StandingOrder.objects.exists()
