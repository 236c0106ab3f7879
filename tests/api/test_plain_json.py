"""The plain path's replies are encoded by msgspec (``apps.api.plainmove.rendered_json``) and must be
DRF's ``JSONRenderer`` bytes exactly: for every kind of plain value, and for what both games' engines
put in a move's reply and a ``/legal`` read along whole games (DESIGN.md, "State is plain data";
the reply's keys, BB-30.6 and BH-21's decisions and actions)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.renderers import JSONRenderer

from apps.api.plainmove import rendered_json
from apps.games.models import Game
from baogame.rules.registry import get_engine

DRF = JSONRenderer()


def drf_bytes(value: Any) -> bytes:
    return DRF.render(value, "application/json", {})


class _Compatible(JSONRenderer):
    """A project renderer of its own: the fast path must not assume it writes DRF's bytes."""

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None) -> bytes:
        return b"[" + super().render(data, accepted_media_type, renderer_context) + b"]"


@pytest.mark.parametrize(
    "value",
    [
        {"text": "x\u2028y\u2029z", "dash": "a\u2013b"},  # DRF escapes the two line separators only
        {"controls": '\x00\x01\x1f\x7f"\\/\n\r\t\b\f'},
        {"letters": "é 中 😀 包皇"},
        {1: [True, False, None, (1, 2)], "nested": {"a": [[], {}, ""]}},
        {"big": 2**62, "negative": -(2**62), "zero": 0},
        {"status": Game.Status.ACTIVE},  # a TextChoices member: its value
        [],
        {},
        "",
    ],
)
def test_plain_values_encode_as_drf_renders_them(value: Any) -> None:
    assert rendered_json(DRF, value) == drf_bytes(value)


def test_an_integer_beyond_64_bits_falls_back_to_the_renderer() -> None:
    value = {"huge": 2**80, "text": "\u2028"}
    expected = b'{"huge":1208925819614629174706176,"text":"\\u2028"}'
    assert rendered_json(DRF, value) == drf_bytes(value) == expected


def test_another_renderer_is_asked_itself() -> None:
    renderer = _Compatible()
    assert rendered_json(renderer, {"a": 1}) == b'[{"a":1}]'


def _replies(engine_name: str, players: int, seed: str, count: int) -> list[dict[str, Any]]:
    """What a move's reply and a ``/legal`` read carry from the engine, step by step along games
    played with random legal actions (a new game when one ends), ``count`` steps: events, decisions,
    a seat's legal actions and its view."""
    engine = get_engine(engine_name)
    rng = random.Random(seed)
    games = 0
    state = engine.setup(players, engine.default_options(players), f"{seed}:{games}")
    replies: list[dict[str, Any]] = []
    while len(replies) < count:
        pending = engine.pending(state)
        if not pending:  # the game ended: the next one
            games += 1
            state = engine.setup(players, engine.default_options(players), f"{seed}:{games}")
            continue
        decision = rng.choice(pending)
        seat = rng.choice(decision["seats"])
        actions = engine.legal_actions(state, seat)
        state, events = engine.apply(state, seat, rng.choice(actions))
        replies.append(
            {
                "version": len(replies),
                "status": Game.Status.ACTIVE,
                "events": events,
                "decisions": engine.pending(state),
                "legal": {"total": len(actions), "offset": 0, "actions": actions[:30]},
                "view": engine.view(state, seat),
            }
        )
    return replies


@pytest.mark.parametrize(
    ("engine_name", "players", "seed"),
    [("baobei", 2, "json-1"), ("baobei", 4, "json-2"), ("baohuang", 5, "json-3"), ("baohuang", 5, "json-4")],
)
def test_both_games_replies_encode_as_drf_renders_them(engine_name: str, players: int, seed: str) -> None:
    replies = _replies(engine_name, players, seed, count=300)
    for reply in replies:
        assert rendered_json(DRF, reply) == drf_bytes(reply)
