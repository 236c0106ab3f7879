"""The "and end my turn without BAO" box on the Bao Bei page (BB-20.7).

Every form of the active player's own turn carries it, button rows included; a ticked box sends
``commit_end_turn`` with the action, and the turn then ends at step 4 without an ``end_turn``
decision (BB-5.2). Other seats' forms (windows, an ability earned by a plucker), the setup peek and
the ``end_turn`` decision itself never offer it (BB-20.3, BB-22.0 step 6).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from apps.games.models import Move
from baogame.rules.registry import get_engine
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

HUM, SPARROW, KINGF, MAGPIE, DUCK = "hummingbird", "sparrow", "kingfisher", "magpie", "mandarin_duck"
IBIS, CRANE, PEACOCK = "crested_ibis", "crowned_crane", "peacock"
WPEL, BPEL, MACAW, SHOEBILL = "white_pelican", "brown_pelican", "macaw", "shoebill"

BOX = 'name="commit_end_turn"'


def a_game(
    *, hands: list[list[str]], draw: list[str], start: dict[str, Any] | None = None
) -> tuple[Any, list]:
    """A 3-seat Bao Bei game begun at seat 0's turn (BB-25.3) with a stacked deal (BB-25.2)."""
    users = [UserFactory() for _ in range(3)]
    options = {
        "deal": {"hands": hands, "discard": [PEACOCK], "draw": draw},
        "start": {"active": 0, **(start or {})},
    }
    return GameFactory(engine="baobei", players=3, seated=users, options=options), users


#: Seat 0 holds Hum and Sparrow; seat 1 a Brown Pelican first; nobody else holds a pelican.
HANDS = [[HUM, SPARROW], [BPEL, DUCK], [KINGF, IBIS]]


def pending(game: Any) -> dict[str, Any]:
    game.refresh_from_db()
    return get_engine("baobei").pending(game.state)[0]


def act(client: Any, game: Any, fields: dict[str, str]) -> str:
    """Post a decision form the way htmx does; the answer is the board fragment (no error in it)."""
    did = pending(game)["decision_id"]
    data = {"decision_id": did, **fields}
    if "action" in data:  # a button: the complete action as JSON
        data["action"] = json.dumps({"decision_id": did, **json.loads(data["action"])})
        del data["decision_id"]
    response = client.post(f"/games/{game.public_id}/act/", data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    return html


def button(**action: Any) -> dict[str, str]:
    return {"action": json.dumps(action)}


def decision_forms(html: str) -> list[str]:
    """The forms of the "Your move" panel."""
    start = html.index('id="decision"')
    panel = html[start : html.index("</section>", start)]
    return re.findall(r"<form\b.*?</form>", panel, re.S)


def page(client: Any, game: Any) -> str:
    return client.get(f"/games/{game.public_id}/").content.decode()


def finish_windows(game: Any, users: list, client_for: Any) -> None:
    """Every eligible seat passes in each window until the turn goes on (BB-6.6 f)."""
    while (d := pending(game))["kind"] == "pluck_window":
        for seat in d["seats"]:
            act(client_for(users[seat]), game, button(type="pass"))


def committed_moves(game: Any) -> list[dict[str, Any]]:
    return [m.action for m in Move.objects.filter(game=game) if m.action.get("commit_end_turn")]


# --- offered on every form of the active player's turn ------------------------------------------------


def test_turn_action_forms_draw_and_take_both_offer_the_box_bb_20_7(client_for):
    game, users = a_game(hands=HANDS, draw=[CRANE])

    forms = decision_forms(page(client_for(users[0]), game))

    assert len(forms) == 2  # the Draw button row and the take-the-discard form
    assert all(BOX in form for form in forms)


def test_after_draw_forms_keep_discard_and_pluck_all_offer_the_box_bb_20_7(client_for):
    game, users = a_game(hands=HANDS, draw=[CRANE])
    act(client_for(users[0]), game, button(type="draw"))

    forms = decision_forms(page(client_for(users[0]), game))

    assert {re.search(r'class="act (\w+)"', f).group(1) for f in forms} == {"keep", "buttons", "pluck"}
    assert all(BOX in form for form in forms)


@pytest.mark.parametrize("ticked", [True, False])
def test_draw_with_the_box_ticked_skips_the_end_turn_decision_bb_20_7(client_for, ticked):
    """BB-20.7: a committed turn ends at step 4 without BAO; unticked, ``end_turn`` opens (BB-5.2)."""
    game, users = a_game(hands=HANDS, draw=[CRANE])
    c = client_for(users[0])

    act(c, game, {**button(type="draw"), **({"commit_end_turn": "1"} if ticked else {})})
    act(c, game, button(type="discard"))
    finish_windows(game, users, client_for)

    after = pending(game)
    if ticked:
        assert after["kind"] == "turn_action" and after["seats"] == [1]
        assert committed_moves(game)[0]["type"] == "draw"
    else:
        assert after["kind"] == "end_turn" and after["seats"] == [0]
        assert committed_moves(game) == []


def test_take_the_discard_with_the_box_ticked_skips_the_end_turn_decision_bb_20_7(client_for):
    game, users = a_game(hands=HANDS, draw=[CRANE])

    act(client_for(users[0]), game, {"type": "take_discard", "slot": "1", "commit_end_turn": "1"})
    finish_windows(game, users, client_for)

    assert pending(game)["seats"] == [1] and pending(game)["kind"] == "turn_action"
    assert [a["type"] for a in committed_moves(game)] == ["take_discard"]


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "keep", "slot": "1"},
        {"action": json.dumps({"type": "discard"})},
        {"type": "pluck", "kind": "single", "target1": "0.0", "gift1": ""},  # own-draw pluck (BB-6.2 a)
    ],
    ids=["keep", "discard", "own_draw_pluck"],
)
def test_each_after_draw_choice_with_the_box_ticked_skips_the_end_turn_decision_bb_20_7(client_for, fields):
    game, users = a_game(hands=HANDS, draw=[HUM])
    c = client_for(users[0])
    act(c, game, button(type="draw"))

    act(c, game, {**fields, "commit_end_turn": "1"})
    finish_windows(game, users, client_for)

    assert pending(game)["kind"] == "turn_action" and pending(game)["seats"] == [1]
    assert len(committed_moves(game)) == 1


def test_active_players_ability_offers_the_box_and_a_plucker_ability_does_not_bb_9_4_d(client_for):
    """BB-9.4 d: the plucker's ability first (not the active player's turn to commit), then the direct
    discard's peek, which the active player may answer with the box ticked."""
    game, users = a_game(hands=HANDS, draw=[WPEL])
    active, plucker = client_for(users[0]), client_for(users[1])
    act(active, game, button(type="draw"))
    act(active, game, button(type="discard"))
    act(plucker, game, {"type": "pluck", "kind": "single", "target1": "1.0", "gift1": ""})

    plucker_forms = decision_forms(page(plucker, game))
    act(plucker, game, button(type="decline_ability"))
    active_forms = decision_forms(page(active, game))
    act(active, game, {"type": "use_ability", "ability": "peek", "target": "2.0", "commit_end_turn": "1"})

    assert plucker_forms and not any(BOX in form for form in plucker_forms)
    assert len(active_forms) == 2 and all(BOX in form for form in active_forms)  # Use it; Decline
    assert pending(game)["kind"] == "turn_action" and pending(game)["seats"] == [1]


def test_macaw_decision_of_the_active_player_offers_the_box_bb_9_10(client_for):
    game, users = a_game(hands=HANDS, draw=[MACAW])
    c = client_for(users[0])
    for fields in (button(type="draw"), button(type="discard")):
        act(c, game, fields)
    finish_windows(game, users, client_for)
    act(c, game, {"type": "use_ability", "ability": "macaw", "target_a": "0.0", "target_b": "2.0"})

    forms = decision_forms(page(c, game))
    act(c, game, {**button(type="macaw_decide", swap=False), "commit_end_turn": "1"})

    assert len(forms) == 1 and BOX in forms[0]
    assert pending(game)["kind"] == "turn_action" and pending(game)["seats"] == [1]


def test_shoebill_placement_of_the_active_player_offers_the_box_bb_9_12(client_for):
    game, users = a_game(hands=HANDS, draw=[SHOEBILL, CRANE, IBIS])
    c = client_for(users[0])
    for fields in (button(type="draw"), button(type="discard")):
        act(c, game, fields)
    finish_windows(game, users, client_for)
    act(c, game, button(type="use_ability", ability="shoebill"))

    forms = decision_forms(page(c, game))
    act(
        c,
        game,
        {
            "type": "shoebill_place",
            "mine_card": "0",
            "mine_slot": "0",
            "theirs_card": "1",
            "theirs_target": "2.0",
            "commit_end_turn": "1",
        },
    )

    assert len(forms) == 1 and BOX in forms[0]
    assert pending(game)["kind"] == "turn_action" and pending(game)["seats"] == [1]


# --- not offered where it is not allowed or changes nothing -------------------------------------------


def test_window_forms_of_the_other_seats_do_not_offer_the_box_bb_6_6_g(client_for):
    game, users = a_game(hands=HANDS, draw=[CRANE])
    c = client_for(users[0])
    act(c, game, button(type="draw"))
    act(c, game, button(type="discard"))

    forms = decision_forms(page(client_for(users[1]), game))

    assert pending(game)["kind"] == "pluck_window"
    assert len(forms) == 2 and not any(BOX in form for form in forms)  # Pass; Pluck


def test_a_window_pass_posted_with_the_box_is_refused_commit_not_allowed_bb_22_0(client_for):
    """BB-22.0 step 6: the box's field reaches the engine, which refuses it from a non-active seat."""
    game, users = a_game(hands=HANDS, draw=[CRANE])
    c = client_for(users[0])
    act(c, game, button(type="draw"))
    act(c, game, button(type="discard"))
    before = Move.objects.filter(game=game).count()

    html = act(client_for(users[1]), game, {**button(type="pass"), "commit_end_turn": "1"})

    assert 'data-error-code="commit_not_allowed"' in html
    assert Move.objects.filter(game=game).count() == before


def test_end_turn_decision_does_not_offer_the_box_bb_20_3(client_for):
    game, users = a_game(hands=HANDS, draw=[CRANE])
    c = client_for(users[0])
    act(c, game, button(type="draw"))
    act(c, game, button(type="discard"))
    finish_windows(game, users, client_for)

    html = page(c, game)

    assert pending(game)["kind"] == "end_turn"
    assert "Call BAO!" in html and BOX not in html


def test_setup_peek_does_not_offer_the_box_bb_22_0(baobei_game, client_for):
    """During setup nobody is the active player (BB-22.0 step 6)."""
    game, players = baobei_game

    html = page(client_for(players[0]), game)

    assert 'value="choose_peek"' in html and BOX not in html


def test_box_is_not_offered_once_bao_has_been_called_bb_10_1(client_for):
    """After a BAO no ``end_turn`` decision opens (BB-10.2 a): the box would change nothing."""
    game, users = a_game(hands=HANDS, draw=[CRANE], start={"bao_caller": 2})

    html = page(client_for(users[0]), game)

    assert pending(game)["kind"] == "turn_action" and "Draw a card" in html
    assert BOX not in html


def test_after_committing_the_page_says_so_instead_of_offering_the_box_again_d_36(client_for):
    """D-36: a commitment cannot be withdrawn, so later forms of the turn show it as made."""
    game, users = a_game(hands=HANDS, draw=[CRANE])
    c = client_for(users[0])

    act(c, game, {**button(type="draw"), "commit_end_turn": "1"})
    html = page(c, game)

    assert pending(game)["kind"] == "after_draw"
    assert BOX not in html and "You chose to end this turn without BAO" in html


def test_a_commitment_holds_for_its_own_turn_only_bb_20_7(client_for):
    """The next turn of the same player offers the box again (the commitment was for one turn)."""
    game, users = a_game(hands=HANDS, draw=[CRANE, CRANE, CRANE])
    act(client_for(users[0]), game, {**button(type="draw"), "commit_end_turn": "1"})
    act(client_for(users[0]), game, button(type="discard"))
    finish_windows(game, users, client_for)
    for seat in (1, 2):
        c = client_for(users[seat])
        act(c, game, button(type="draw"))
        act(c, game, button(type="discard"))
        finish_windows(game, users, client_for)
        act(c, game, button(type="end_turn", bao=False))

    html = page(client_for(users[0]), game)

    assert pending(game)["kind"] == "turn_action" and pending(game)["seats"] == [0]
    assert BOX in html and "You chose to end this turn without BAO" not in html
