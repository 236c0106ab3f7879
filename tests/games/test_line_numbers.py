"""History line numbers are the same for every viewer (``apps.games.numbering``, BB-30.5, BB-30.6).

Numbers count the public moves only; a seat's own hidden answer (a pass in a plucking window, a setup
peek that is not the last, BB-6.6, BB-3.5) is shown to that seat without a number of its own. So every
seat, a spectator and everyone after the end give each shared line the same number, and nobody's
numbers move because somebody else answered in secret.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from apps.games import autoplay, clock, lifecycle, pipeline, records, replay, selectors
from apps.games.models import Decision, Game, Move, Seat
from baogame.rules.core import visible
from baogame.rules.registry import get_engine
from tests.deadlines.helpers import LONG, pending
from tests.support.played import MAX_ROUNDS, a_seeded_game, play_to_the_end

pytestmark = pytest.mark.django_db


def viewers(game: Game) -> list[int | None]:
    """Every seat, and a spectator (None)."""
    return [*range(game.players), None]


def lines(game: Game, viewer: int | None) -> list[tuple[int | None, int | None, dict[str, Any]]]:
    """``viewer``'s history as (number, follows, event)."""
    return [(h["number"], h["follows"], h["event"]) for h in selectors.game_history(game=game, seat=viewer)]


def numbered(game: Game, viewer: int | None) -> list[tuple[int, dict[str, Any]]]:
    """``viewer``'s lines that carry a number, with their events."""
    return [(n, e) for n, _, e in lines(game, viewer) if n is not None]


def public_lines(game: Game, viewer: int | None) -> list[tuple[int, dict[str, Any]]]:
    """``viewer``'s numbered lines whose events everyone may see."""
    return [(n, e) for n, e in numbered(game, viewer) if e.get("visible_to") == "all"]


def assert_numbered_alike(game: Game) -> None:
    """Every viewer: numbers 1, 2, … up to the public moves, in order, without a gap; the public lines
    identical for all; an unnumbered line only for the viewer's own hidden answer, after the line it
    says it follows."""
    game.refresh_from_db()
    spectator = public_lines(game, None)
    for viewer in viewers(game):
        seen = lines(game, viewer)
        numbers = [n for n, _, _ in seen if n is not None]
        assert numbers == sorted(numbers)
        assert sorted(set(numbers)) == list(range(1, game.public_version + 1)), viewer
        assert public_lines(game, viewer) == spectator, viewer
        last = 0
        for number, follows, event in seen:
            if number is None:
                assert viewer is not None and follows == last and event.get("visible_to") == [viewer]
            else:
                assert follows is None
                last = number


def a_twin(users: list[Any], seed: str) -> Game:
    """A 3-seat Bao Bei game dealt from ``seed``: every seat has peeked (seats 0 and 1 answered the
    setup peek hidden, seat 2 closed it, BB-3.5), seat 0 drew and discarded: seats 1 and 2 own a
    plucking window (BB-6.6). Two twins are the same game up to here."""
    game = lifecycle.game_create(creator=users[0], engine="baobei", players=3, timing_overrides=LONG)
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=hashlib.sha256(seed.encode()).hexdigest())
    for user in users[1:3]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    for seat in (0, 1, 2):
        d = pending(game)[0]
        act(game, users[seat], {"type": "choose_peek", "decision_id": d["decision_id"], "slots": [0, 1]})
    active = pending(game)[0]["seats"][0]
    for kind in ("draw", "discard"):
        act(game, users[active], {"type": kind, "decision_id": pending(game)[0]["decision_id"]})
    assert pending(game)[0]["kind"] == "pluck_window"
    return game


def act(game: Game, user: Any, action: dict[str, Any]) -> pipeline.MoveResult:
    result = pipeline.submit_action(game_id=game.pk, user=user, action=action)
    game.refresh_from_db()
    return result


def window_owners(game: Game) -> list[int]:
    return sorted(pending(game)[0]["seats"])


def a_pluck(game: Game, seat: int) -> dict[str, Any]:
    """The first pluck the engine allows ``seat`` in the open window."""
    legal = get_engine(game.engine).legal_actions(game.state, seat)
    return next(a for a in legal if a["type"] == "pluck")


def test_the_setup_peek_lines_are_numbered_alike_and_a_peek_answer_has_no_number_bb_3_5_bb_30_6(
    users: list,
) -> None:
    game = a_twin(users, "numbers-1")

    assert_numbered_alike(game)
    hidden = list(Move.objects.filter(game=game, hidden=True).values_list("seat", flat=True))
    assert sorted(hidden) == [0, 1]  # the first two peeks stayed hidden; seat 2's closed the decision
    for seat in (0, 1):
        own = [(n, f, e["type"]) for n, f, e in lines(game, seat) if n is None]
        assert own == [(None, 0, "setup_peek_chosen")]
    # seat 2's own peek came with the closing move: it shares that move's public number
    assert [(n, e["type"]) for n, _, e in lines(game, 2)][:2] == [
        (1, "setup_peek_chosen"),
        (1, "setup_peek_done"),
    ]


def test_another_seats_hidden_pass_changes_no_number_anyone_sees_bb_6_6_bb_30_6(users: list) -> None:
    """Two twins; in one, seat 1 passes the window (hidden while it is open). Nobody else's history
    differs, and once seat 2's pluck closes the window in both, every number of both games agrees."""
    passed, waiting = a_twin(users, "numbers-2"), a_twin(users, "numbers-2")
    assert window_owners(passed) == window_owners(waiting)
    passer, plucker = window_owners(passed)
    window = pending(passed)[0]["decision_id"]

    answer = act(passed, users[passer], {"type": "pass", "decision_id": window})

    assert answer.move is not None and answer.move.hidden
    assert selectors.move_number(answer.move) is None
    for viewer in viewers(passed):
        if viewer != passer:
            assert lines(passed, viewer) == lines(waiting, viewer), viewer
    assert numbered(passed, passer) == numbered(waiting, passer)  # its own pass adds no number either

    pluck = a_pluck(passed, plucker)
    closed = [
        act(g, users[plucker], {**pluck, "decision_id": pending(g)[0]["decision_id"]})
        for g in (passed, waiting)
    ]

    assert [selectors.move_number(c.move) for c in closed] == [passed.public_version] * 2
    assert passed.public_version == waiting.public_version
    for viewer in viewers(passed):
        assert [n for n, _ in numbered(passed, viewer)] == [n for n, _ in numbered(waiting, viewer)], viewer
    assert_numbered_alike(passed)
    assert_numbered_alike(waiting)


def test_a_window_closed_by_passes_is_one_public_line_with_the_next_number_bb_6_6_f(users: list) -> None:
    game = a_twin(users, "numbers-3")
    before = {viewer: numbered(game, viewer) for viewer in viewers(game)}
    window = pending(game)[0]["decision_id"]
    owners = window_owners(game)

    for seat in owners:
        act(game, users[seat], {"type": "pass", "decision_id": window})

    assert_numbered_alike(game)
    closing = [(n, e) for n, e in public_lines(game, None) if e["type"] == "window_closed"]
    assert [n for n, _ in closing] == [before[None][-1][0] + 1]
    assert closing[0][1]["passed"] == owners  # who passed is public now, on the closing line (BB-30.6)
    for viewer, earlier in before.items():  # no earlier line was renumbered
        assert numbered(game, viewer)[: len(earlier)] == earlier


def play_with_snapshots(game: Game) -> list[dict[int | None, list[tuple[int, dict[str, Any]]]]]:
    """``play_to_the_end``, keeping every viewer's numbered lines before each round of play and at the end."""
    snapshots: list[dict[int | None, list[tuple[int, dict[str, Any]]]]] = []
    play_to_the_end(
        game, lambda now: snapshots.append({viewer: numbered(now, viewer) for viewer in viewers(now)})
    )
    return snapshots


def test_a_whole_bao_bei_game_numbers_every_line_alike_during_play_and_after_the_end_bb_30_5(
    users: list,
) -> None:
    """Windows answered by bots and by automatic passes, plucks, a round's end (BB-6.6, BB-25.7): at
    every step, each seat and a spectator number the shared lines alike, and a number once given
    never changes, during play or after the end (BB-30.8)."""
    game = a_seeded_game(
        engine="baobei", players=3, user=users[0], seed="numbers-game", options={"threshold": 1}
    )
    Seat.objects.filter(game=game, position=0).update(skip_pluck_windows=True)

    snapshots = play_with_snapshots(game)

    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game, hidden=True).exists()  # hidden answers were made
    types = {e["type"] for m in Move.objects.filter(game=game) for e in m.events}
    assert {"window_closed", "pluck_resolved", "round_ended"} <= types
    assert_numbered_alike(game)
    final = {viewer: numbered(game, viewer) for viewer in viewers(game)}
    for snapshot in snapshots:
        for viewer, seen in snapshot.items():
            assert final[viewer][: len(seen)] == seen, viewer
    # the face-up replay and the record number the public moves as the history did; hidden ones not
    numbers = [h["number"] for h in selectors.game_history(game=game, seat=None)]
    face_up = [m.number for m in replay.replay_step(game=game, step=0, seat=None).moves]
    recorded = [m["number"] for m in records.game_record(game)["moves"]]
    assert face_up == recorded
    assert [n for n in face_up if n is not None] == list(range(1, game.public_version + 1))
    assert sorted(set(numbers)) == [n for n in face_up if n is not None]
    assert face_up.count(None) == Move.objects.filter(game=game, hidden=True).count()


def test_a_bao_huang_deal_is_one_line_for_everyone_each_seeing_its_own_hand_under_it_bh_25(
    users: list,
) -> None:
    """Play until a second deal starts: the deal's public line and each seat's own hand carry the
    same number for every seat and a spectator."""
    game = a_seeded_game(engine="baohuang", players=5, user=users[0], seed="numbers-deal")
    for _ in range(MAX_ROUNDS):
        if any(e["type"] == "deal_started" for m in Move.objects.filter(game=game) for e in m.events):
            break
        if not autoplay.play_bots(game.pk):
            Decision.objects.filter(game=game).update(deadline=game.started_at)
            clock.settle_game(game.pk)
        game.refresh_from_db()
    deal = [n for n, e in public_lines(game, None) if e["type"] == "deal_started"]
    assert len(deal) == 1

    assert_numbered_alike(game)
    for seat in range(5):
        hands = [n for n, e in numbered(game, seat) if e["type"] == "hand_dealt"]
        assert hands == deal, seat
    assert not [n for n, e in numbered(game, None) if e["type"] == "hand_dealt"]


def test_each_seat_sees_only_its_own_unnumbered_answers(users: list) -> None:
    """A seat's private lines without a number are its own hidden moves' events, nobody else's."""
    game = a_twin(users, "numbers-4")
    act(game, users[window_owners(game)[0]], {"type": "pass", "decision_id": pending(game)[0]["decision_id"]})

    for viewer in viewers(game):
        own = [e for n, _, e in lines(game, viewer) if n is None]
        expected = [
            e
            for m in Move.objects.filter(game=game, hidden=True, seat=viewer).order_by("seq")
            for e in m.events
            if visible(e, viewer)
        ]
        assert own == expected
