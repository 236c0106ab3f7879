"""Plucking windows: timed reactions, early closing, "don't wait for me" (BB-6.6, BB-30.6)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.games import clock, lifecycle, pipeline
from apps.games.clock import deadlines
from apps.games.models import Decision, Move
from baogame.rules.core import RuleError

from .helpers import a_game, baobei_window, pending, toy_play

pytestmark = pytest.mark.django_db


def _pass(game, user) -> None:
    d = pending(game)[0]
    pipeline.submit_action(
        game_id=game.pk, user=user, action={"type": "pass", "decision_id": d["decision_id"]}
    )


def test_window_stays_open_until_every_eligible_seat_has_passed_bb_6_6_f(users: list) -> None:
    game = baobei_window(users, players=4)
    window = pending(game)[0]
    owners = window["seats"]

    for seat in owners[:-1]:
        _pass(game, users[seat])
    still_open = pending(game)[0]["decision_id"] == window["decision_id"]
    _pass(game, users[owners[-1]])

    assert still_open
    assert pending(game)[0]["kind"] != "pluck_window"
    assert not Decision.objects.filter(game=game, decision_id=window["decision_id"]).exists()


def test_illegal_pluck_is_refused_and_leaves_the_window_open_bb_6_6_d(users: list) -> None:
    game = baobei_window(users, players=3)
    window = pending(game)[0]
    seat = window["seats"][0]
    version = game.version

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(
            game_id=game.pk,
            user=users[seat],
            action={
                "type": "pluck",
                "decision_id": window["decision_id"],
                "kind": "single",
                "targets": [{"seat": seat, "slot": 9}],
                "gifts": [None],
            },
        )

    game.refresh_from_db()
    assert exc.value.code == "invalid_position"
    assert game.version == version
    assert pending(game)[0]["decision_id"] == window["decision_id"]
    assert seat in pending(game)[0]["seats"]


def test_first_valid_pluck_closes_the_window_and_later_ones_are_refused_bb_6_6_c(users: list) -> None:
    game = baobei_window(users, players=3)
    window = pending(game)[0]
    first, second = window["seats"][:2]

    def pluck(seat: int) -> None:
        pipeline.submit_action(
            game_id=game.pk,
            user=users[seat],
            action={
                "type": "pluck",
                "decision_id": window["decision_id"],
                "kind": "single",
                "targets": [{"seat": seat, "slot": 0}],
                "gifts": [None],
            },
        )

    pluck(first)
    with pytest.raises(RuleError) as exc:
        pluck(second)

    assert exc.value.code in {"window_closed", "stale_decision"}
    assert not Decision.objects.filter(game=game, decision_id=window["decision_id"]).exists()


def test_switched_off_waiting_passes_at_once_so_the_window_closes_with_the_discard(users: list) -> None:
    game = a_game("baobei", users, players=3)
    for seat in (0, 1, 2):
        lifecycle.seat_set_skip_pluck_windows(game_id=game.pk, user=users[seat], value=True)

    game = _to_window(game, users)

    kinds = [d["kind"] for d in pending(game)]
    passes = Move.objects.filter(game=game, action__type="pass")
    assert "pluck_window" not in kinds
    assert passes.count() == 2 and not passes.filter(by_timeout=True).exists()


def _to_window(game, users):
    """Peek, draw and discard in ``game`` (the same steps as helpers.baobei_window)."""
    for user in users[: game.players]:
        d = pending(game)[0]
        pipeline.submit_action(
            game_id=game.pk,
            user=user,
            action={"type": "choose_peek", "decision_id": d["decision_id"], "slots": [0, 1]},
        )
    d = pending(game)[0]
    active = users[d["seats"][0]]
    for kind in ("draw", "discard"):
        d = pending(game)[0]
        pipeline.submit_action(
            game_id=game.pk, user=active, action={"type": kind, "decision_id": d["decision_id"]}
        )
    game.refresh_from_db()
    return game


def test_one_seat_switched_off_leaves_the_window_to_the_others(users: list) -> None:
    game = a_game("baobei", users, players=3)
    lifecycle.seat_set_skip_pluck_windows(game_id=game.pk, user=users[1], value=True)

    game = _to_window(game, users)

    window = pending(game)[0]
    assert window["kind"] == "pluck_window"
    assert 1 not in window["seats"]


def test_switching_on_during_an_open_window_passes_it(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=2)
    toy_play(game, users[0])
    assert pending(game)[0]["kind"] == "window"

    lifecycle.seat_set_skip_pluck_windows(game_id=game.pk, user=users[1], value=True)

    assert pending(game)[0]["kind"] == "turn"
    assert Move.objects.filter(game=game, seat=1, action__type="pass").count() == 1


def test_window_timeouts_are_passes_that_do_not_count_as_absence(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=2)
    toy_play(game, users[0])
    Decision.objects.filter(game=game).update(deadline="2000-01-01T00:00:00Z")

    clock.settle_game(game.pk)

    move = Move.objects.get(game=game, by_timeout=True)
    assert move.action["type"] == "pass"
    assert game.seats.get(position=1).consecutive_timeouts == 0


def test_clocks_shown_do_not_tell_who_has_passed_bb_30_6(users: list) -> None:
    game = baobei_window(users, players=4)
    window = pending(game)[0]
    a, b, c = window["seats"]
    now = timezone.now()
    before = {s: deadlines.decision_clocks(game=game, seat=s, now=now) for s in (None, a, b, c)}

    _pass(game, users[a])

    after = {s: deadlines.decision_clocks(game=game, seat=s, now=now) for s in (None, a, b, c)}
    assert after[None] == before[None]
    assert after[b] == before[b] and after[c] == before[c]
    assert before[a][0].mine and not after[a][0].mine
    assert len(after[None]) == 1 and after[None][0].kind == "pluck_window" and after[None][0].seconds_left > 0
