"""Replaying stored games from seed and move log: ``apps.games.replay``.

DESIGN.md, "Determinism": a game can always be rebuilt from its seed and move log. Games here are
played through the real pipeline: bots, deadlines (timeout defaults, then the bot taking over the
absent seat) and the automatic passes of a seat that does not wait for plucking windows.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import autoplay
from apps.games.models import Decision, Game, Move, Seat
from apps.games.replay import replay_game, state_after, verify_game
from tests.factories import UserFactory
from tests.support import played
from tests.support.played import a_seeded_game, play_to_the_end

pytestmark = pytest.mark.django_db


def a_finished_baobei_game() -> Game:
    return played.a_finished_baobei_game(UserFactory())


def event_types(game: Game) -> set[str]:
    return {e["type"] for m in game.moves.all() for e in m.events}


def problem_codes(game: Game) -> list[str]:
    discrepancy = verify_game(game_id=game.pk)
    assert discrepancy is not None
    return [p.code for p in discrepancy.problems]


def test_bao_bei_game_with_bots_timeouts_plucks_and_automatic_passes_replays_exactly_bb_25_9():
    """BB-25.9: the deal and every shuffle come from the seed; the log rebuilds the game exactly."""
    game = a_finished_baobei_game()
    moves = list(game.moves.all())

    discrepancy = verify_game(game_id=game.pk)

    assert game.status == Game.Status.FINISHED
    assert any(m.by_timeout for m in moves), "the person's decisions timed out"
    assert any(m.seat == 0 and m.action["type"] == "pass" and not m.by_timeout for m in moves)
    assert "pluck_resolved" in event_types(game)
    assert Seat.objects.get(game=game, position=0).bot_takeover, "the bot took the absent seat over"
    assert discrepancy is None


def test_bao_huang_game_of_bots_replays_exactly_bh_25_8():
    """BH-25.8: deals and tribute piles come from the seed; the log rebuilds the game exactly."""
    game = a_seeded_game(
        engine="baohuang", players=5, user=UserFactory(), seed="replay-bh", options={"target_score": 1}
    )
    game = play_to_the_end(game)

    discrepancy = verify_game(game_id=game.pk)

    assert game.status == Game.Status.FINISHED
    assert discrepancy is None


def test_game_in_play_with_its_open_decisions_replays_exactly():
    game = a_seeded_game(engine="baobei", players=3, user=UserFactory(), seed="replay-open")
    autoplay.play_bots(game.pk)

    assert Decision.objects.filter(game=game).exists()
    assert verify_game(game_id=game.pk) is None


def test_tampered_stored_state_is_reported_by_its_keys_without_card_values():
    game = a_finished_baobei_game()
    state: dict[str, Any] = dict(game.state)
    state["draw"] = list(reversed(state["draw"]))
    Game.objects.filter(pk=game.pk).update(state=state)

    discrepancy = verify_game(game_id=game.pk)

    assert discrepancy is not None and discrepancy.game_id == game.pk
    [problem] = discrepancy.problems
    assert problem.code == "state_differs"
    assert problem.detail.endswith("in: draw")


def test_missing_move_is_reported_as_a_gap_with_the_version_and_the_replay_that_no_longer_matches():
    game = a_finished_baobei_game()
    Move.objects.filter(game=game, seq=5).delete()

    codes = problem_codes(game)

    assert codes == ["seq_gap", "version_differs", "events_differ"]  # move 6 no longer does what it did


def test_stored_events_that_the_engine_did_not_produce_are_reported_with_their_move():
    game = a_finished_baobei_game()
    move = game.moves.get(seq=3)
    move.events = [*move.events, {"type": "drew", "seat": 1, "visible_to": "all"}]
    move.save(update_fields=["events"])

    discrepancy = verify_game(game_id=game.pk)

    assert discrepancy is not None
    assert [(p.code, p.seq) for p in discrepancy.problems] == [("events_differ", 3)]


def test_stored_action_the_engine_refuses_is_reported_with_its_move_and_code():
    game = a_finished_baobei_game()
    Move.objects.filter(game=game, seq=4).update(action={"type": "fly_away"})

    discrepancy = verify_game(game_id=game.pk)

    assert discrepancy is not None
    [refused] = [p for p in discrepancy.problems if p.code == "move_refused"]
    assert (refused.seq, refused.detail) == (4, "the engine refuses the stored action (malformed_action)")


def test_a_damaged_action_that_breaks_the_engine_is_reported_not_raised():
    game = a_finished_baobei_game()
    Move.objects.filter(game=game, seq=4).update(action=[1, 2])

    discrepancy = verify_game(game_id=game.pk)

    assert discrepancy is not None
    refused = [(p.code, p.seq) for p in discrepancy.problems if p.code == "move_refused"]
    assert refused == [("move_refused", 4)]


def test_a_timeout_mark_without_a_timeout_action_is_reported():
    """DESIGN.md: a deadline's default carries ``"timeout": true``; ``by_timeout`` must say so too."""
    game = a_finished_baobei_game()
    move = game.moves.filter(by_timeout=False).first()
    Move.objects.filter(pk=move.pk).update(by_timeout=True)

    discrepancy = verify_game(game_id=game.pk)

    assert discrepancy is not None
    assert [(p.code, p.seq) for p in discrepancy.problems] == [("by_timeout_differs", move.seq)]


def test_missing_open_decision_row_is_reported():
    game = a_seeded_game(engine="baobei", players=3, user=UserFactory(), seed="replay-open")
    Decision.objects.filter(game=game, seat=0).delete()

    assert problem_codes(game) == ["decisions_differ"]


def test_game_marked_finished_while_its_replay_goes_on_is_reported():
    game = a_seeded_game(engine="baobei", players=3, user=UserFactory(), seed="replay-open")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    assert problem_codes(game) == ["status_differs"]


def test_state_after_a_step_is_the_stored_state_of_that_version():
    """The replay page's states: after all the moves, the stored one; after none, the deal."""
    game = a_finished_baobei_game()
    moves = list(game.moves.all())

    assert state_after(game=game, moves=moves, step=len(moves)) == replay_game(game=game).state
    assert replay_game(game=game).state == game.state
    assert state_after(game=game, moves=moves, step=0)["round"] == 1
