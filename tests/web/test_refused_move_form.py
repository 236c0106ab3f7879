"""A move form the engine refuses comes back with the player's own choices, not its defaults.

The page (without htmx, after its redirect) and the htmx board fragment both show the refusal with
the refused form's options selected (Bao Huang: its cards ticked) as sent; only options the form
offers anyway are marked.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from apps.games import pipeline
from tests.factories import GameFactory, UserFactory
from tests.web.test_commit_end_turn import HANDS, MACAW, a_game, act, button, finish_windows, pending

pytestmark = pytest.mark.django_db

SAME_PLAYER = {
    "type": "use_ability",
    "ability": "macaw",
    "target_a": "1.0",
    "target_b": "1.1",
    "commit_end_turn": "1",
}


def _at_the_macaw(client_for: Any) -> tuple[Any, Any]:
    """Seat 0 has drawn and discarded a Macaw (BB-9.10) and may use it now."""
    game, users = a_game(hands=HANDS, draw=[MACAW])
    client = client_for(users[0])
    for fields in (button(type="draw"), button(type="discard")):
        act(client, game, fields)
    finish_windows(game, users, client_for)
    return game, client


def _selected(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    assert select is not None
    return re.findall(r'<option value="([^"]*)" selected>', select.group(0))


def test_a_refused_macaw_look_shows_its_own_choices_again_in_the_htmx_board(client_for) -> None:
    game, client = _at_the_macaw(client_for)
    did = pending(game)["decision_id"]

    html = client.post(
        f"/games/{game.public_id}/act/", {"decision_id": did, **SAME_PLAYER}, HTTP_HX_REQUEST="true"
    ).content.decode()

    assert 'data-error-code="same_player"' in html
    assert _selected(html, "target_a") == ["1.0"] and _selected(html, "target_b") == ["1.1"]
    assert re.search(r'name="commit_end_turn" value="1" checked>', html)


def test_a_refused_macaw_look_shows_its_own_choices_again_on_the_page_after_the_redirect(client_for) -> None:
    game, client = _at_the_macaw(client_for)
    did = pending(game)["decision_id"]

    answer = client.post(f"/games/{game.public_id}/act/", {"decision_id": did, **SAME_PLAYER})
    page = client.get(answer["Location"]).content.decode()
    again = client.get(answer["Location"]).content.decode()

    assert "same_player" in page
    assert _selected(page, "target_a") == ["1.0"] and _selected(page, "target_b") == ["1.1"]
    assert _selected(again, "target_a") == [] and _selected(again, "target_b") != ["1.1"]  # once only


def test_a_refused_form_marks_only_options_the_page_offers_and_prints_nothing_posted(client_for) -> None:
    """Hidden information: a posted value is never echoed, only an offered option marked chosen."""
    game, client = _at_the_macaw(client_for)
    did = pending(game)["decision_id"]

    html = client.post(
        f"/games/{game.public_id}/act/",
        {"decision_id": did, **SAME_PLAYER, "target_b": "2.7", "note": "planted-text"},
        HTTP_HX_REQUEST="true",
    ).content.decode()

    assert "data-error-code" in html
    assert _selected(html, "target_a") == ["1.0"] and _selected(html, "target_b") == []
    assert "2.7" not in html and "planted-text" not in html


def test_a_refused_bao_huang_play_ticks_the_same_cards_again(client_for) -> None:
    """BH-10: an ace and a six are not one rank; the hand comes back with that ace and that six ticked."""
    people = [UserFactory() for _ in range(5)]
    hands = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]
    game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": hands}]})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})

    html = (
        client_for(people[0])
        .post(
            f"/games/{game.public_id}/act/",
            {"type": "play", "cards": ["A", "6"], "no_beat_request": "1"},
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )

    assert "data-error-code" in html
    ticked = re.findall(r'<input type="checkbox" name="cards" value="([^"]+)" checked>', html)
    assert sorted(ticked) == ["6", "A"]
    assert 'name="no_beat_request" value="1" checked>' in html
