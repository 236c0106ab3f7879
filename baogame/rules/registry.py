"""Look up a game engine by name."""

from __future__ import annotations

from importlib import import_module

from .core import Engine

ENGINES: dict[str, str] = {
    "baobei": "baogame.rules.baobei.engine",
    "baohuang": "baogame.rules.baohuang.engine",
}

_cache: dict[str, Engine] = {}


def get_engine(name: str) -> Engine:
    """Return the engine for ``"baobei"`` or ``"baohuang"``; ``KeyError`` for anything else."""
    if name not in ENGINES:
        raise KeyError(f"unknown game {name!r}")
    if name not in _cache:
        _cache[name] = import_module(ENGINES[name]).ENGINE
    return _cache[name]


def get_bots(name: str) -> tuple[dict, str]:
    """The game's bots (``{name: (view, rng) -> action}``) and its default bot's name."""
    if name not in ENGINES:
        raise KeyError(f"unknown game {name!r}")
    module = import_module(f"baogame.rules.{name}.bots")
    return module.BOTS, module.DEFAULT_BOT
