"""The pages number history lines alike for every viewer, and table talk's ``#N`` points at that line
(``apps.games.numbering``, BB-30.5, BB-30.6)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from apps.games import table_talk
from apps.games.models import Game, Move
from tests.deadlines.helpers import pending
from tests.factories import UserFactory
from tests.games.test_line_numbers import a_twin, act, window_owners
from tests.support.played import a_finished_baobei_game

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r'<span class="seq">#(\d+)</span>')
OWN = re.compile(r'<span class="seq own-answer"')


def page_lines(html: str) -> list[str]:
    """The history list's lines, each as ``#N`` or ``own``, in page order."""
    block = html.split('<ol class="history', 1)[1].split("</ol>", 1)[0]
    out = []
    for item in block.split("<li")[1:]:
        found = NUMBER.search(item)
        out.append(f"#{found.group(1)}" if found else "own" if OWN.search(item) else "?")
    return out


def history_page(client: Any, game: Game) -> str:
    response = client.get(f"/games/{game.public_id}/history/")
    assert response.status_code == 200
    return response.content.decode()


def test_every_viewer_of_the_history_page_sees_the_same_numbers_and_its_own_answers_unnumbered_bb_30_6(
    users: list, client_for: Any
) -> None:
    game = a_twin(users, "pages-1")
    passer = window_owners(game)[0]
    act(game, users[passer], {"type": "pass", "decision_id": pending(game)[0]["decision_id"]})
    spectator = UserFactory()

    seen = {
        who: page_lines(history_page(client_for(user), game))
        for who, user in [
            (0, users[0]),
            (1, users[1]),
            (2, users[2]),
            ("spectator", spectator),
            ("anon", None),
        ]
    }

    expected = {f"#{n}" for n in range(1, game.public_version + 1)}
    for who, rows in seen.items():
        assert {r for r in rows if r != "own"} == expected, who
        numbers = [int(r[1:]) for r in rows if r != "own"]
        assert numbers == sorted(numbers), who
    hidden_events = {
        seat: Move.objects.filter(game=game, seat=seat, hidden=True).count() for seat in (0, 1, 2)
    }
    for seat in (0, 1, 2):  # the setup peeks of seats 0 and 1 have a line each; a pass has no event
        assert seen[seat].count("own") == (1 if seat in (0, 1) else 0), (seat, hidden_events)
    assert "own" not in seen["spectator"] and "own" not in seen["anon"]
    assert seen[0][0] == "own" and seen[0][1] == "#1"  # seat 0's peek, before the line it follows


def test_the_game_page_shows_the_same_numbers_as_the_history_page_bb_30_5(
    users: list, client_for: Any
) -> None:
    game = a_twin(users, "pages-2")

    for user in (users[0], users[2], UserFactory()):
        client = client_for(user)
        board = page_lines(client.get(f"/games/{game.public_id}/").content.decode())
        full = page_lines(history_page(client, game))
        assert sorted(board) == sorted(full[-len(board) :])  # the board: newest first, the latest lines


def test_the_history_page_anchors_each_number_once(users: list, client_for: Any) -> None:
    game = a_twin(users, "pages-3")

    html = history_page(client_for(users[2]), game)

    anchors = re.findall(r'<li id="line-(\d+)"', html)
    assert anchors == [str(n) for n in range(1, game.public_version + 1)]


def test_table_talk_links_a_line_number_to_the_same_line_for_every_reader(
    users: list, client_for: Any
) -> None:
    """``#2`` in a message links to line 2 of the full history for each seat and a spectator; a number
    beyond the public moves so far names no line and stays text."""
    game = a_twin(users, "pages-4")
    act(game, users[window_owners(game)[0]], {"type": "pass", "decision_id": pending(game)[0]["decision_id"]})
    table_talk.message_post(game=game, user=users[1], text="see #2 & #999 <b>")
    link = f'<a href="/games/{game.public_id}/history/#line-2" class="line-ref">#2</a>'

    for user in (users[0], users[1], users[2], UserFactory(), None):
        html = client_for(user).get(f"/games/{game.public_id}/talk/").content.decode()
        assert f"see {link} &amp; #999 &lt;b&gt;" in html
    history = history_page(client_for(users[0]), game)
    assert '<li id="line-2">' in history


def test_the_api_lists_a_messages_references(users: list, client_for: Any) -> None:
    game = a_twin(users, "pages-5")
    table_talk.message_post(game=game, user=users[1], text="#3 was bold; not a#4 nor &#5")

    answer = client_for(users[0]).get(f"/api/v1/games/{game.pk}/messages/").json()

    assert answer[0]["references"] == [3]


def test_the_replay_lists_the_history_number_beside_each_public_move_and_none_for_a_hidden_answer(
    client_for: Any,
) -> None:
    """The replay steps through every move of the log (``step``); beside each it shows the number the
    history gave the move during play, so table talk's ``#N`` can be found there too (BB-30.8)."""
    user = UserFactory()
    game = a_finished_baobei_game(user, seed="pages-replay")

    html = client_for(user).get(f"/games/{game.public_id}/replay/?seat=all").content.decode()

    block = html.split('class="history replay-list"', 1)[1].split("</ol>", 1)[0]
    rows = block.split("<li")[2:]  # after the deal
    shown = [re.search(r'<span class="seq"[^>]*>#(\d+)</span>', row) for row in rows]
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert len(rows) == len(moves)
    assert [int(m.group(1)) if m else None for m in shown] == [
        None if move.hidden else move.public_seq for move in moves
    ]
    assert any(move.hidden for move in moves)
