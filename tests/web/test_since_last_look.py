"""The game page marks what happened since the viewer's last look (README "Playing";
``apps.games.game_looks``), counted in the viewer's own numbering of the moves (BB-30.6)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from apps.games import game_looks, pipeline, selectors
from apps.games.models import Game, GameLook
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _new_seqs(html: str) -> list[int]:
    """The move numbers of the history rows marked new."""
    return [int(n) for n in re.findall(r'<li class="new"><span class="seq">#(\d+)</span>', html)]


def _since_line(html: str) -> str:
    found = re.search(r'<p class="history-since">(.*?)</p>', html, re.S)
    return found.group(1).strip() if found else ""


def _play(game: Game, users: list[Any], moves: int, *, seed: int = 5) -> None:
    """``moves`` moves of the engine's default bot, each by a seat that owes one."""
    engine, rng = get_engine(game.engine), random.Random(seed)
    bots, default = get_bots(game.engine)
    for _ in range(moves):
        game.refresh_from_db()
        seat = min(engine.pending(game.state)[0]["seats"])
        action = bots[default](engine.view(game.state, seat), rng)
        pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)


def test_a_first_look_marks_nothing_and_the_next_marks_the_moves_since(client_for):
    players = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=players)
    watcher = client_for(UserFactory())  # signed in, not seated: the public moves
    url = f"/games/{game.public_id}/"

    first = watcher.get(url).content.decode()
    _play(game, players, 6)
    game.refresh_from_db()
    second = watcher.get(url).content.decode()
    third = watcher.get(url).content.decode()

    assert _new_seqs(first) == [] and _since_line(first) == ""
    assert _new_seqs(second) and max(_new_seqs(second)) == game.public_version
    assert min(_new_seqs(second)) == 1  # every move after the first look, and none before it
    assert f"{game.public_version} moves since your last look" in _since_line(second)
    assert _new_seqs(third) == [] and _since_line(third) == ""  # looked at since: nothing new


def test_another_seats_hidden_answer_is_not_new_to_a_seat_bb_30_6(client_for):
    players = [UserFactory() for _ in range(3)]
    game = GameFactory(engine="baobei", players=3, seated=players)
    page = client_for(players[0])
    url = f"/games/{game.public_id}/"
    page.get(url)

    # the setup peek is answered by every seat at once: seat 1's answer stays unknown to the others
    client_for(players[1]).post(
        f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]}
    )
    again = page.get(url).content.decode()

    assert _new_seqs(again) == [] and _since_line(again) == ""
    assert GameLook.objects.get(game=game, user=players[0]).seen == 0


def _rows_after(game: Game, seen: int) -> int:
    """How many history rows a spectator sees of the moves after its ``seen``-th (a move may have
    several rows, and another seat's hidden answer none)."""
    return sum(1 for h in selectors.game_history(game=game, seat=None) if h["seq"] > seen)


def test_every_new_move_is_shown_when_more_than_the_recent_rows_happened(client_for, monkeypatch):
    players = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=players)
    monkeypatch.setattr("apps.games.views.RECENT_HISTORY", 3)
    watcher = client_for(UserFactory())
    url = f"/games/{game.public_id}/"
    watcher.get(url)
    seen = selectors.viewer_version(game, None)
    _play(game, players, 4)
    while _rows_after(game, seen) <= 3:  # more new rows than the recent three
        _play(game, players, 1, seed=_rows_after(game, seen))
    new_rows = _rows_after(game, seen)
    monkeypatch.setattr(game_looks, "NEW_HISTORY_MAX", new_rows)  # just room for every new row

    shown = watcher.get(url).content.decode()
    game.refresh_from_db()
    seen = selectors.viewer_version(game, None)
    while _rows_after(game, seen) <= new_rows:  # now more new rows than there is room for
        _play(game, players, 1, seed=7 + _rows_after(game, seen))
    beyond = watcher.get(url).content.decode()

    assert len(_new_seqs(shown)) == new_rows
    assert "only in the full history" not in _since_line(shown)
    assert len(_new_seqs(beyond)) == new_rows and "only in the full history" in _since_line(beyond)


def test_a_look_from_another_seat_marks_nothing():
    players = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=players)
    someone = UserFactory()

    first = game_looks.looked(game=game, user=someone, seat=None, version=3)
    as_spectator = game_looks.looked(game=game, user=someone, seat=None, version=5)
    from_a_seat = game_looks.looked(game=game, user=someone, seat=1, version=6)

    assert first is None
    assert as_spectator is not None and as_spectator.seen == 3
    assert from_a_seat is None  # the numbering of a seat is not a spectator's
    assert GameLook.objects.get(game=game, user=someone).seen == 6


def test_anonymous_visitors_leave_no_look(client_for):
    players = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=players)

    client_for(None).get(f"/games/{game.public_id}/")

    assert not GameLook.objects.exists()


def test_the_players_own_move_is_a_look_not_a_new_move(client_for):
    """The docs: "your look is … your own moves". A player who moves (here by the API's service, as
    from a mail) and opens the page is not told of their own move, nor of those before it, as new."""
    players = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=players)
    _play(game, players, 4)
    game.refresh_from_db()
    mover = min(get_engine(game.engine).pending(game.state)[0]["seats"])
    page = client_for(players[mover])
    url = f"/games/{game.public_id}/"
    page.get(url)
    other = 1 - mover
    for _ in range(10):  # the other seat moves until it is the mover's turn again, then the mover moves
        game.refresh_from_db()
        if mover in get_engine(game.engine).pending(game.state)[0]["seats"]:
            break
        _play_seat(game, players, other)
    _play_seat(game, players, mover)

    after = page.get(url).content.decode()

    assert _new_seqs(after) == [] and _since_line(after) == ""


def _play_seat(game: Game, users: list[Any], seat: int) -> None:
    """One move of the engine's default bot for ``seat``, which owes one."""
    engine, rng = get_engine(game.engine), random.Random(7)
    bots, default = get_bots(game.engine)
    game.refresh_from_db()
    action = bots[default](engine.view(game.state, seat), rng)
    pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)
