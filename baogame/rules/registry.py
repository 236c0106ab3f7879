"""Look up a game engine (and its bots) by name."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from .core import Engine
from .gametype import GameType
from .lengths import GameLengths
from .mail import MailLanguage

#: Game name -> package holding ``engine.ENGINE`` and ``bots.BOTS`` / ``bots.DEFAULT_BOT`` (and, optionally,
#: ``mail.MAIL``: the game's mail commands and view lines; ``lengths.LENGTHS``: its match lengths).
ENGINES: dict[str, str] = {
    "baobei": "baogame.rules.baobei",
    "baohuang": "baogame.rules.baohuang",
}

Bot = Callable[[dict[str, Any], Any], dict[str, Any]]

_engines: dict[str, Engine] = {}


def get_engine(name: str) -> Engine:
    """Return the engine for ``"baobei"`` or ``"baohuang"``; ``KeyError`` for anything else."""
    engine = _engines.get(name)
    if engine is None:
        if name not in ENGINES:
            raise KeyError(f"unknown game {name!r}")
        engine = _engines[name] = import_module(f"{ENGINES[name]}.engine").ENGINE
    return engine


def get_bots(name: str) -> tuple[dict[str, Bot], str]:
    """The game's bots (``{name: (view, rng) -> action}``) and its default bot's name."""
    if name not in ENGINES:
        raise KeyError(f"unknown game {name!r}")
    module = import_module(f"{ENGINES[name]}.bots")
    return module.BOTS, module.DEFAULT_BOT


def get_game_type(name: str) -> GameType:
    """The facts of game ``name`` that the service reads (``engine.game_type``); ``KeyError`` if unknown."""
    return get_engine(name).game_type


def game_types() -> list[GameType]:
    """The game type of every registered engine, in registration order."""
    return [get_game_type(name) for name in ENGINES]


def _optional_module(name: str, module: str) -> Any:
    """The game's ``<package>.<module>``, None when the game or that module does not exist."""
    if name not in ENGINES:
        return None
    try:
        return import_module(f"{ENGINES[name]}.{module}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{ENGINES[name]}.{module}":
            raise
        return None


def _optional_attribute(name: str, module: str, attribute: str) -> Any:
    """``<package>.<module>.<attribute>`` of the game, None when the game or the module does not exist."""
    found = _optional_module(name, module)
    return None if found is None else getattr(found, attribute)


def get_mail_language(name: str) -> MailLanguage | None:
    """The game's mail commands and view lines (``<package>.mail.MAIL``), None if it has none."""
    found: MailLanguage | None = _optional_attribute(name, "mail", "MAIL")
    return found


def get_lengths(name: str) -> GameLengths | None:
    """The game's match lengths (``<package>.lengths.LENGTHS``), None if it has none."""
    found: GameLengths | None = _optional_attribute(name, "lengths", "LENGTHS")
    return found
