"""The last round's reveal on the Bao Bei page (BB-25.7) and players' names in the history."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from apps.games import pipeline, selectors
from apps.games.presenters.common import name_seats
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory

from .boards import DUCK, EX_13, HUM, MAGPIE, SPARROW, ann_bob_and_cy
from .leaks import check_baobei_page, drawn_cards

pytestmark = pytest.mark.django_db


def _act(game: Any, users: list[Any], seat: int, kind: str) -> None:
    """``users[seat]`` answers the open decision with a bare action of type ``kind``."""
    game.refresh_from_db()
    decision = get_engine("baobei").pending(game.state)[0]
    action = {"type": kind, "decision_id": decision["decision_id"]}
    pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)


@pytest.fixture
def ended_round() -> tuple[Any, list[Any]]:
    """A 3-seat Bao Bei game of ann, bob and cy whose round 4 has just ended (EX-13)."""
    game, users = ann_bob_and_cy(EX_13)
    for seat, kind in ((2, "draw"), (2, "discard"), (0, "pass"), (1, "pass")):
        _act(game, users, seat, kind)
    game.refresh_from_db()
    return game, users


def _section(html: str, section_id: str) -> str:
    start = html.index(f'id="{section_id}"')
    return html[start : html.index("</section>", start)]


def _text(html: str) -> str:
    """The words a reader sees, without tags and attributes."""
    return re.sub(r"<[^>]+>", "", html)


def test_last_round_panel_draws_every_revealed_display_bb_25_7(ended_round, client_for):
    game, users = ended_round

    for viewer in (users[1], None):  # a player and a spectator see the same public reveal
        html = client_for(viewer).get(f"/games/{game.public_id}/").content.decode()

        panel = _section(html, "last-round")
        revealed = {c.pos: c.code for c in drawn_cards(panel) if c.zone == "reveal"}
        assert revealed == {
            "0.0": HUM,
            "0.1": MAGPIE,
            "0.2": HUM,
            "1.0": SPARROW,
            "1.1": MAGPIE,
            "2.0": DUCK,
            "2.1": DUCK,
        }
        assert "round 4" in panel
        assert re.search(r"called by <strong>ann</strong>: <strong class=\"bao-failure\">failed", panel)
        scores = dict(re.findall(r'data-seat="(\d)".*?data-score="(\d+)"', panel, re.S))
        totals = dict(re.findall(r'data-seat="(\d)".*?data-round-total="(\d+)"', panel, re.S))
        assert scores == {"0": "12", "1": "6", "2": "10"}  # BB-14.3 c: the failed caller doubles
        assert totals == {"0": "6", "1": "6", "2": "10"}


def test_the_new_round_stays_face_down_beside_the_reveal_bb_30(ended_round, client_for):
    game, users = ended_round
    engine = get_engine("baobei")

    for seat, viewer in [(0, users[0]), (None, None)]:
        html = client_for(viewer).get(f"/games/{game.public_id}/").content.decode()

        assert engine.view(game.state, seat)["round"] == 5
        check_baobei_page(
            html,
            engine.view(game.state, seat),
            [h["event"] for h in selectors.game_history(game=game, seat=seat)],
        )


def test_no_last_round_panel_before_a_round_has_ended(baobei_game, client_for):
    game, players = baobei_game

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    assert 'id="last-round"' not in html and 'data-zone="reveal"' not in html


def test_the_leak_check_catches_a_reveal_without_its_round_ended_event(ended_round, client_for):
    """A reveal the seat's events do not back (e.g. drawn from the state) fails the page check."""
    game, users = ended_round
    engine = get_engine("baobei")
    html = client_for(users[0]).get(f"/games/{game.public_id}/").content.decode()
    events = [h["event"] for h in selectors.game_history(game=game, seat=0)]
    tampered = [
        {**e, "displays": [[DUCK, DUCK], [SPARROW, MAGPIE], [HUM, MAGPIE, HUM]]}
        if e["type"] == "round_ended"
        else e
        for e in events
    ]

    with pytest.raises(AssertionError, match="the reveal differs"):
        check_baobei_page(html, engine.view(game.state, 0), [e for e in events if e["type"] != "round_ended"])
    with pytest.raises(AssertionError, match="the reveal differs"):
        check_baobei_page(html, engine.view(game.state, 0), tampered)


def test_history_names_the_players_instead_of_seat_numbers(ended_round, client_for):
    game, users = ended_round

    page = _section(client_for(users[0]).get(f"/games/{game.public_id}/").content.decode(), "history")
    full = client_for(None).get(f"/games/{game.public_id}/history/").content.decode()

    for html in (page, full):
        assert '<span class="seat-name" data-seat="2" title="seat 2">cy</span> drew a card.' in html
        assert not re.search(r"\b[Ss]eats? \[?\d", _text(html))
    assert "Round 5 started with ann, bob and cy; ann begins" in _text(full)


def test_bao_huang_history_names_the_players(client_for):
    users = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=users)
    engine = get_engine("baohuang")
    bots, default = get_bots("baohuang")
    for k in range(4):  # the bots choose four moves for whoever must act
        game.refresh_from_db()
        seat = engine.pending(game.state)[0]["seats"][0]
        action = bots[default](engine.view(game.state, seat), random.Random(k))
        pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)

    html = client_for(users[3]).get(f"/games/{game.public_id}/history/").content.decode()

    named = re.findall(r'data-seat="(\d)" title="seat \1">([^<]+)</span>', html)
    assert len(named) >= 4 and not re.search(r"\b[Ss]eats? \d", _text(html))
    assert all(name == users[int(position)].username for position, name in named)


def test_name_seats_escapes_names_and_keeps_unknown_seats() -> None:
    text = name_seats("Seat 1 plucked seat 0 slot 2; seat 7 is no seat; <b>", ["<i>ann</i>", "bob"])

    assert text == (
        '<span class="seat-name" data-seat="1" title="seat 1">bob</span> plucked '
        '<span class="seat-name" data-seat="0" title="seat 0">&lt;i&gt;ann&lt;/i&gt;</span>\'s slot 2; '
        "seat 7 is no seat; &lt;b&gt;"
    )


def test_name_seats_tells_apart_seats_of_the_same_name_and_lists_seats() -> None:
    names = ["ann", "Sam", "Sam"]  # two people who chose the same display name

    assert name_seats("Seats [1, 2] may pluck.", names) == (
        '<span class="seat-name" data-seat="1" title="seat 1">Sam (seat 1)</span> and '
        '<span class="seat-name" data-seat="2" title="seat 2">Sam (seat 2)</span> may pluck.'
    )
    assert name_seats("The window closed; seats [] passed.", names) == "The window closed; nobody passed."


def _full_deal(hands: list[list[str]], draw: list[str], top: str) -> dict[str, Any]:
    """A stacked deal naming all 66 cards (BB-25.2 5), so the draw pile is exactly ``draw`` and the
    rest lies face up on the discard pile, ``top`` on top: a recycling is one draw away."""
    copies = {"golden_toucan": 1, "toco_toucan": 3, "shoebill": 2}
    for bird in ("hummingbird", "sparrow", "kingfisher", "magpie", "mandarin_duck", "crested_ibis"):
        copies[bird] = 5
    for bird in ("white_pelican", "brown_pelican", "cuckoo", "macaw", "crowned_crane", "peacock"):
        copies[bird] = 5
    for card in [*(c for hand in hands for c in hand), *draw, top]:
        copies[card] -= 1
    rest = [card for card, n in sorted(copies.items()) for _ in range(n)]
    return {"hands": hands, "discard": [*rest, top], "draw": draw, "under": []}


def _started_mid_round(*, active: int, draw: list[str], **start: int) -> tuple[Any, list[Any]]:
    """A Bao Bei game of ann and bob begun within round 1 at seat ``active``'s turn, the draw pile once
    recycled already and now ``draw`` (``start`` may add, e.g., ``bao_caller``), their hands stacked, a
    duck on the discard pile: the game and them."""
    users = [UserFactory(username=name) for name in ("ann", "bob")]
    deal = _full_deal([[MAGPIE, SPARROW, "kingfisher"], [MAGPIE, "peacock", HUM]], draw, DUCK)
    options = {"deal": deal, "start": {"active": active, **start, "recycles": 1}, "threshold": 500}
    return GameFactory(engine="baobei", players=2, options=options, seated=users), users


def _play_bobs_final_turn(game: Any, users: list[Any]) -> None:
    """Round 1 played to its end: bob's final turn, whose draw recycles a second time (BB-12.5)."""
    while game.state["round"] == 1:
        decision = get_engine("baobei").pending(game.state)[0]
        seat, allowed = decision["seats"][0], decision["allowed"]
        kind = next(k for k in ("decline_ability", "pass", "discard", "draw") if k in allowed)
        _act(game, users, seat, kind)
        game.refresh_from_db()


def _last_round_outcome(client_for: Any, game: Any) -> str:
    """The words of the game page's last-round panel, as a spectator reads them."""
    html = client_for(None).get(f"/games/{game.public_id}/").content.decode()
    return _text(_section(html, "last-round"))


def test_a_bao_annulled_by_the_automatic_final_phase_is_said_so_not_as_no_bao_bb_12_6(
    client_for: Any,
) -> None:
    """BB-12.6: a second recycling after BAO ends the call's effect on the scores; the round's end then
    gives no BAO outcome, and the page said "No BAO this round." of a round where BAO was called."""
    game, users = _started_mid_round(active=0, draw=[HUM])
    _act(game, users, 0, "draw")
    _act(game, users, 0, "discard")
    _act(game, users, 1, "pass")
    game.refresh_from_db()
    decision = get_engine("baobei").pending(game.state)[0]
    bao = {"type": "end_turn", "decision_id": decision["decision_id"], "bao": True}
    pipeline.submit_action(game_id=game.pk, user=users[0], action=bao)
    game.refresh_from_db()
    _play_bobs_final_turn(game, users)

    outcome = _last_round_outcome(client_for, game)
    assert "then annulled by the automatic final phase" in outcome, outcome
    assert "No BAO this round." not in outcome


def test_the_drawer_reads_their_own_draw_once_and_the_others_read_that_a_card_was_drawn(
    ended_round, client_for
):
    """BB-31: a draw is public (who drew) and private (the card, to the drawer). The drawer's history
    says "You drew …" on that line and not also "cy drew a card."; the others read the public line."""
    game, users = ended_round

    drawer = client_for(users[2]).get(f"/games/{game.public_id}/history/").content.decode()
    other = client_for(users[0]).get(f"/games/{game.public_id}/history/").content.decode()

    assert "You drew" in _text(drawer)
    assert "drew a card." not in _text(drawer)
    assert "cy drew a card." in _text(other) and "You drew" not in _text(other)


def test_a_bao_called_before_a_mid_round_start_and_annulled_is_said_so_bb_12_6_bb_25_3(
    client_for: Any,
) -> None:
    """BB-25.3, BB-12.6: a game begun within a round where ann has already called BAO (no ``bao_called``
    event in its log) whose automatic final phase then annuls the call says so, as a round where the
    call was made in play does, and not "No BAO this round."."""
    game, users = _started_mid_round(active=1, draw=[], bao_caller=0)
    _play_bobs_final_turn(game, users)

    outcome = _last_round_outcome(client_for, game)
    assert "called by ann, then annulled by the automatic final phase" in outcome, outcome
    assert "No BAO this round." not in outcome
