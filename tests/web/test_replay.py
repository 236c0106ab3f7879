"""The replay of a game that is over: ``/games/<id>/replay/?step=N&seat=S``.

Every move in order, the board as a chosen seat saw it (``engine.view`` of the replayed state) or every
card face up, since the seed is public once the game is over (BB-25.10, BH-25.9). Nothing of it while
the game is in play.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from apps.games import lifecycle
from apps.games.models import Game, Move
from apps.games.replay import game_moves, state_after
from baogame.rules.baobei.cards import CARDS as BIRDS
from baogame.rules.core import visible
from baogame.rules.registry import get_engine
from tests.factories import UserFactory
from tests.support.played import a_finished_baobei_game, a_seeded_game, play_to_the_end

from .leaks import check_baobei_page, check_baohuang_page, drawn_cards

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished() -> tuple[Game, Any]:
    user = UserFactory()
    return a_finished_baobei_game(user), user


def replay_url(game: Game, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/games/{game.public_id}/replay/" + (f"?{query}" if query else "")


def step_panel(html: str) -> str:
    """The panel that tells what happened at the step shown."""
    return html.split('id="step"')[1].split("</section>")[0]


def _pending(response: Any, game: Game) -> bool:
    """A page that says the replay opens at the game's end, links the game, and replays nothing."""
    html = response.content.decode()
    return (
        response.status_code == 200
        and "The replay opens when the game ends" in html
        and f'href="{game.get_absolute_url()}">Back to the game' in html
        and 'id="replay"' not in html
        and "data-zone" not in html
    )


def test_replay_of_a_game_in_play_says_it_opens_at_the_end_for_players_and_spectators(
    baobei_game, client_for
):
    """BB-25.10: the seed and the cards come out only when the game is over; until then a page says
    so (not a 404) and links back to the game, whatever step or seat is asked for."""
    game, users = baobei_game

    answers = [
        _pending(client_for(user).get(replay_url(game, **params)), game)
        for user in (users[0], None)
        for params in ({}, {"step": 3, "seat": 0}, {"seat": "all"})
    ]

    assert answers == [True] * 6


def test_replay_of_a_game_waiting_for_players_or_paused_says_it_opens_at_the_end(client_for):
    user = UserFactory()
    waiting = lifecycle.game_create(creator=user, engine="baobei", players=3)
    paused = a_seeded_game(engine="baobei", players=3, user=user, seed="paused")
    Game.objects.filter(pk=paused.pk).update(status=Game.Status.PAUSED)

    assert _pending(client_for(user).get(replay_url(waiting)), waiting)
    assert _pending(client_for(user).get(replay_url(paused)), paused)


def test_game_page_links_the_replay_only_once_the_game_is_over(baobei_game, finished, client_for):
    running, users = baobei_game
    over, user = finished

    assert "/replay/" not in client_for(users[0]).get(f"/games/{running.public_id}/").content.decode()
    page = client_for(user).get(f"/games/{over.public_id}/").content.decode()
    assert f'href="/games/{over.public_id}/replay/"' in page


def test_seat_replay_shows_exactly_that_seats_view_at_every_step_bb_25_6(finished, client_for):
    """BB-25.6: at each step the board is ``engine.view(state, seat)`` of the replayed state, and the page
    above the list of moves names no card that seat had not been shown by then."""
    game, user = finished
    engine = get_engine(game.engine)
    moves = game_moves(game)
    client = client_for(user)

    for seat in range(3):
        for step in range(0, len(moves) + 1, 4):
            html = client.get(replay_url(game, step=step, seat=seat)).content.decode()

            view = engine.view(state_after(game=game, moves=moves, step=step), seat)
            seen = [e for m in moves[:step] for e in m.events if visible(e, seat)]
            check_baobei_page(
                html.split('<section class="panel replay-moves"')[0], {**view, "decision": None}, seen
            )


def test_seat_replays_list_of_moves_names_only_cards_that_seat_saw_during_the_game_bb_25_6(
    finished, client_for
):
    """The list of every move, as seat 1 saw the game: no bird that seat 1 was never shown."""
    game, user = finished
    seen = json.dumps([e for m in game_moves(game) for e in m.events if visible(e, 1)])
    never_shown = [meta["name"] for code, meta in BIRDS.items() if f'"{code}"' not in seen]

    html = client_for(user).get(replay_url(game, step=0, seat=1)).content.decode()

    listed = html.split('<section class="panel replay-moves"')[1]
    assert never_shown, "some bird stayed unknown to seat 1 (else this test proves nothing)"
    assert [name for name in never_shown if name in listed] == []


def test_seat_replay_hides_what_another_seat_saw_that_the_face_up_replay_shows(finished, client_for):
    """At the deal each seat has seen nothing of the others' displays (BB-2.3); face up, every card shows."""
    game, user = finished
    client = client_for(user)
    dealt = get_engine(game.engine).referee_view(state_after(game=game, moves=game_moves(game), step=0))

    as_seat = drawn_cards(client.get(replay_url(game, step=0, seat=1)).content.decode())
    face_up = drawn_cards(client.get(replay_url(game, step=0, seat="all")).content.decode())

    displays = {f"{s}.{k}": code for s, d in enumerate(dealt["displays"]) for k, code in enumerate(d)}
    assert {c.pos: c.code for c in as_seat if c.zone == "display"} == dict.fromkeys(displays)
    assert {c.pos: c.code for c in face_up if c.zone == "display"} == displays
    assert [c.code for c in face_up if c.zone == "draw-face-up"] == dealt["draw"]
    assert not [c for c in as_seat if c.zone == "draw-face-up"]


def test_face_up_replay_of_the_last_step_shows_the_stored_final_displays(finished, client_for):
    game, user = finished
    final = get_engine(game.engine).referee_view(game.state)

    html = client_for(user).get(replay_url(game, step=game.version, seat="all")).content.decode()

    shown = {c.pos: c.code for c in drawn_cards(html) if c.zone == "display"}
    assert shown == {f"{s}.{k}": code for s, d in enumerate(final["displays"]) for k, code in enumerate(d)}
    assert "The game is over." in html


def test_another_seats_hidden_answer_is_not_told_in_a_seat_replay_bb_30_6(finished, client_for):
    """BB-30.6: an answer to a simultaneous decision that left it open (a setup peek, a pass) was told only
    to its own seat; so is its step."""
    game, user = finished
    hidden = Move.objects.filter(game=game, hidden=True).first()
    assert hidden is not None, "the game has a hidden pass"
    other = next(s for s in range(3) if s != hidden.seat)
    client = client_for(user)

    as_other = step_panel(client.get(replay_url(game, step=hidden.seq, seat=other)).content.decode())
    as_mover = step_panel(client.get(replay_url(game, step=hidden.seq, seat=hidden.seat)).content.decode())

    assert "A move this seat was not told of." in as_other
    assert "A move this seat was not told of." not in as_mover


def test_private_events_are_marked_with_who_saw_them_face_up_and_absent_for_other_seats(finished, client_for):
    """BB-2.3: the setup peek is private; face up it is shown with who saw it, in the third person (the
    reader is not that seat), its own seat reads it as it was told, other seats never see it."""
    game, user = finished
    peek = next(m for m in game_moves(game) if any(e["type"] == "setup_peek_chosen" for e in m.events))
    other = next(s for s in range(3) if s != peek.seat)
    client = client_for(user)
    name = game.seats.get(position=peek.seat).label

    face_up = step_panel(client.get(replay_url(game, step=peek.seq, seat="all")).content.decode())
    as_mover = step_panel(client.get(replay_url(game, step=peek.seq, seat=peek.seat)).content.decode())
    as_other = step_panel(client.get(replay_url(game, step=peek.seq, seat=other)).content.decode())

    named = rf"saw:</span> <[^>]+>{re.escape(name)}</[^>]+> looked at their slots \d and \d: "
    assert re.search(named, face_up)
    assert "You looked" not in face_up and "your slots" not in face_up
    assert "You looked at your slots" in as_mover
    assert "looked at" not in as_other and "A move this seat was not told of." in as_other


def test_step_links_lead_to_the_neighbouring_steps_and_keep_the_view(finished, client_for):
    game, user = finished

    html = client_for(user).get(replay_url(game, step=5, seat=2)).content.decode()

    assert 'href="?step=4&amp;seat=2" rel="prev"' in html
    assert 'href="?step=6&amp;seat=2" rel="next"' in html
    assert 'href="?step=0&amp;seat=2" rel="first"' in html
    assert f'href="?step={game.version}&amp;seat=2" rel="last"' in html
    assert 'name="step" class="replay-number" min="0" max="' in html


def test_a_step_past_the_end_shows_the_end_and_the_deal_has_no_previous_link(finished, client_for):
    game, user = finished
    client = client_for(user)

    past = client.get(replay_url(game, step=10_000)).content.decode()
    deal = client.get(replay_url(game, step=0)).content.decode()

    assert f"Step {game.version} of {game.version}" in past and 'rel="next"' not in past
    assert "Step 0 of" in deal and 'rel="prev"' not in deal


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"step": "x"}, "invalid_step"),
        ({"step": "-1"}, "invalid_step"),
        ({"step": "²"}, "invalid_step"),
        ({"step": "9" * 5000}, "invalid_step"),
        ({"seat": "3"}, "invalid_seat"),
        ({"seat": "x"}, "invalid_seat"),
    ],
)
def test_bad_step_or_seat_is_refused_with_its_code(finished, client_for, params, code):
    game, user = finished

    response = client_for(user).get(replay_url(game, **params))

    assert response.status_code == 400
    assert response.content.decode().startswith(f"{code}:")


def test_replay_offers_no_forms_to_act(finished, client_for):
    game, user = finished

    html = client_for(user).get(replay_url(game, step=1, seat=0)).content.decode()

    main = html.split("<main>")[1].split("</main>")[0]
    assert "/act/" not in html
    assert 'method="post"' not in main


def test_replay_loads_its_script_from_a_file_with_no_inline_script_or_handler(finished, client_for):
    """A Content-Security-Policy without 'unsafe-inline' must not break the replay."""
    game, user = finished

    html = client_for(user).get(replay_url(game, step=1)).content.decode()

    assert '<script src="/static/js/replay.js" defer></script>' in html
    assert "<script>" not in html and " onclick=" not in html and " onchange=" not in html


def test_bao_huang_seat_replay_shows_only_that_seats_hand_and_face_up_every_hand_bh_23(client_for):
    """BH-23: a seat sees its own hand only; face up, after the game, every hand is shown."""
    user = UserFactory()
    game = play_to_the_end(
        a_seeded_game(engine="baohuang", players=5, user=user, seed="replay-bh", options={"target_score": 1})
    )
    engine = get_engine(game.engine)
    moves = game_moves(game)
    step = 20
    state = state_after(game=game, moves=moves, step=step)
    client = client_for(user)

    as_seat = client.get(replay_url(game, step=step, seat=3)).content.decode()
    face_up = drawn_cards(client.get(replay_url(game, step=step, seat="all")).content.decode())

    check_baohuang_page(as_seat, engine.view(state, 3), 3)
    assert "Your hand" not in as_seat, "the viewer plays seat 0, not seat 3"
    hands = engine.referee_view(state)["hands"]
    for seat in range(5):
        shown = [c.code for c in face_up if c.zone == "hand-face-up" and c.seat == str(seat)]
        assert Counter(shown) == Counter(hands[seat])
