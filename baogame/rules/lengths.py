"""Match lengths: named presets of the rule options that decide how long a game lasts.

People choose how long a game should be ("short: 3 deals", "normal: ends at 80 points with 4
players"), not option values. Each game's package lists its lengths in ``lengths.LENGTHS``
(``registry.get_lengths``): which rule options a length sets (Bao Huang's ``target_score`` and
``deal_limit``, BH-3.2; Bao Bei's ``threshold``, BB §2.3), its named lengths with their values for a
number of players, and how any values read in words. Everything else here works for every game.

A game's length name (``classify``) is a stable key, stored with the game and read by pages, the API
and duration estimates: one of the game's named lengths when its options are exactly that length's,
otherwise ``"custom"``. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .core import RuleError
from .text import Text, gettext_noop, render, text

#: The name of any length that is not one of a game's named ones.
CUSTOM = "custom"

Options = dict[str, Any]


@dataclass(frozen=True)
class Length:
    """One named length of a game."""

    #: The stable key (``"short"``), stored with a game.
    name: str
    #: What people read before the meaning (``"Short"``).
    label: str
    #: The length's rule options for a number of players (only the keys of ``GameLengths.keys``).
    options: Callable[[int], Options]


@dataclass(frozen=True)
class GameLengths:
    """A game's lengths: the rule options they set, the named ones and their meaning in words."""

    #: The rule options that make up a length; a custom length sets some of them.
    keys: tuple[str, ...]
    #: The named lengths, shortest first.
    named: tuple[Length, ...]
    #: The rules' defaults for a number of players (the engine's ``default_options``).
    defaults: Callable[[int], Options]
    #: The values of ``keys`` in words for a number of players (``"3 deals"``, ``"ends at 80 points"``).
    describe: Callable[[Options, int], Text | str]
    #: One sentence on what any length means (who wins, what happens on a tie), for help texts.
    rule: str
    #: The player counts whose named lengths differ, as ``(players, words)``, smallest first: a form
    #: that does not know the number of players yet describes a length for each (``describe_groups``).
    player_groups: tuple[tuple[int, Text | str], ...]
    #: The values of one length for each player group in words; None when there is only one group.
    describe_groups: Callable[[list[tuple[Options, Any]]], Text | str] | None = None
    #: How long a length's values make a game, in a unit of the game's own (deals, points), for
    #: comparing a custom length with the named ones (duration estimates scale by it); None: unknown.
    size: Callable[[Options, int], float] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every length name the game accepts, ``custom`` last."""
        return (*(length.name for length in self.named), CUSTOM)

    def get(self, name: str) -> Length:
        """The named length ``name``; ``RuleError("invalid_length")`` for any other (``custom`` too)."""
        for length in self.named:
            if length.name == name:
                return length
        raise RuleError("invalid_length", f"the lengths are {', '.join(self.names)}")


def length_options(lengths: GameLengths, name: str, players: int) -> Options:
    """The rule options of the named length ``name`` at a table of ``players``."""
    return dict(lengths.get(name).options(players))


def apply_length(lengths: GameLengths, *, name: str | None, players: int, options: Options) -> Options:
    """The game's options with the length ``name`` applied to ``options`` (the caller's, without defaults).

    ``None``: the options as given. A named length adds its values; ``RuleError("length_conflict")`` when
    ``options`` set one of them to something else (two answers to one question). ``custom`` keeps the
    options and needs at least one of the length's keys in them (``invalid_length`` otherwise: a
    custom length that sets nothing is the default, and should be chosen by its name).
    """
    if name is None:
        return dict(options)
    if name == CUSTOM:
        if not any(options.get(key) is not None for key in lengths.keys):
            raise RuleError("invalid_length", f"a custom length sets {' and/or '.join(lengths.keys)}")
        return dict(options)
    chosen = length_options(lengths, name, players)
    clashing = sorted(k for k in lengths.keys if k in options and options[k] != chosen.get(k))
    if clashing:
        raise RuleError(
            "length_conflict",
            f"the length {name!r} sets {', '.join(clashing)}: give the length or the options, not both",
        )
    return {**options, **chosen}


def _values(lengths: GameLengths, options: Options, players: int) -> Options:
    """The length keys of ``options``, each missing one taking the rules' default."""
    defaults = lengths.defaults(players)
    return {key: options.get(key, defaults.get(key)) for key in lengths.keys}


def classify(lengths: GameLengths, *, players: int, options: Options) -> str:
    """The name of the length that ``options`` amount to at a table of ``players``, else ``custom``."""
    values = _values(lengths, options, players)
    for length in lengths.named:
        if _values(lengths, length.options(players), players) == values:
            return length.name
    return CUSTOM


def custom_values(lengths: GameLengths, options: Options) -> Options:
    """The length keys that ``options`` set (a custom length's values, as a form or a season keeps them)."""
    return {key: options[key] for key in lengths.keys if options.get(key) is not None}


def size(lengths: GameLengths, *, players: int, options: Options) -> float | None:
    """How long ``options`` make a game, in the game's own unit (``GameLengths.size``); None if unknown."""
    if lengths.size is None:
        return None
    return lengths.size(_values(lengths, options, players), players)


def meaning(lengths: GameLengths, *, players: int, options: Options) -> str:
    """The options' length in words at a table of ``players`` (``"3 deals, or first to 30"``)."""
    return render(meaning_text(lengths, players=players, options=options))


def meaning_text(lengths: GameLengths, *, players: int, options: Options) -> Text | str:
    """The words of ``meaning``, to be rendered in any language (``baogame.rules.text``)."""
    return lengths.describe(_values(lengths, options, players), players)


def _label(label: str, words: Text | str) -> Text:
    """``Short: 3 deals``; only ``One deal`` when the words say no more than the label."""
    if render(words).lower() == label.lower():
        return text(label)
    return text(gettext_noop("%(label)s: %(words)s"), label=text(label), words=words)


def length_label(lengths: GameLengths, *, players: int, options: Options) -> str:
    """``Short: 3 deals``: the length's label (``Custom`` when none) and its meaning, with the number of
    players when the game's lengths depend on it (``Normal: ends at 80 points with 4 players``)."""
    return render(length_label_text(lengths, players=players, options=options))


def length_label_text(lengths: GameLengths, *, players: int, options: Options) -> Text:
    """The words of ``length_label``, to be rendered in any language."""
    name = classify(lengths, players=players, options=options)
    label = gettext_noop("Custom") if name == CUSTOM else lengths.get(name).label
    return _label(label, _with(lengths, players, meaning_text(lengths, players=players, options=options)))


def _with(lengths: GameLengths, players: int, words: Text | str) -> Text | str:
    if len(lengths.player_groups) > 1:
        return text(gettext_noop("%(words)s with %(players)s players"), words=words, players=players)
    return words


def choice_label(lengths: GameLengths, name: str, players: int | None) -> str:
    """``choice_label_text`` in English."""
    return render(choice_label_text(lengths, name, players))


def choice_label_text(lengths: GameLengths, name: str, players: int | None) -> Text:
    """A named length as a form offers it: ``Short: 3 deals, or first to 30``. When the number of players
    is not known yet (``None``), the values for each player group (``Normal: ends at 100 points with 2
    players, 80 with 3-4, 60 with 5-6``)."""
    length = lengths.get(name)
    groups = lengths.player_groups
    if players is None and len(groups) > 1 and lengths.describe_groups is not None:
        values = [(_values(lengths, length.options(n), n), words) for n, words in groups]
        return _label(length.label, lengths.describe_groups(values))
    if players is None:
        players = groups[0][0]
    return length_label_text(lengths, players=players, options=length.options(players))
