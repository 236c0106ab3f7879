"""How long a game will take, said before it starts, and how long a finished game took.

``estimate(game, players, length, control)`` answers from the site's own finished games with the same
settings when there are at least ``SITE_MINIMUM`` of them, otherwise from the pace model: the table
``estimate_table.json`` that ``manage.py bench_pace`` writes (seeded bot games in simulated time,
every seat a person who answers after a log-normal delay with median 2 h and p90 12 h, through the
clock's banks and standing orders). It answers in milliseconds: a dictionary look-up, or for a custom
length the nearest named length scaled by the length's size (``baogame.rules.lengths.size``), and for
a custom control the named control nearest to it. The estimate always says which source it is.

A table that meets to play live (agreed weekly sittings, ``apps.sittings``) is estimated from the pace
model's sittings rows (``estimate_table_sittings.json``, ``bench_pace --sittings``: two one-hour
sittings a week, 90 % attendance). A game has such sittings when a check that a higher app registers
(``register_sittings_check``) says so; the new-game form and the API ask for it with ``sittings``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import secrets
import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from django.core.cache import cache as default_cache
from django.db.models import QuerySet
from django.dispatch import receiver
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from baogame.rules import lengths as rule_lengths
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine, get_lengths

from . import lengths as game_lengths
from . import sql
from .clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS, Control, ControlError, control_from
from .errors import ServiceError
from .models import Game, stored_control
from .signals import game_ended

#: A pace model row: (game, players, length, control) -> (median days, p90 days, mean deals, games played).
Table = dict[tuple[str, int, str, str], tuple[float, float, float, int]]


def read_table(path: Path) -> Table:
    """The pace model's table in the JSON file at ``path``, as ``bench_pace --write-table`` writes it
    (``bench.pace.table``): one row a list, in the file's ``columns``."""
    rows = json.loads(path.read_text())["rows"]
    return {
        (game, players, length, control): (median, p90, deals, games)
        for game, players, length, control, median, p90, deals, games in rows
    }


TABLE = read_table(Path(__file__).with_name("estimate_table.json"))
SITTINGS_TABLE = read_table(Path(__file__).with_name("estimate_table_sittings.json"))

#: Finished games with the same settings needed before the site's own record is used.
SITE_MINIMUM = 20
#: The most recent finished games read for an estimate.
SITE_SAMPLE = 500
SITE = "site"
MODEL = "model"
#: How long the site's record for some settings (``site_record``) is kept in the cache. A game's end
#: forgets every kept record at once in the process it ends in (``forget_site_records``); in another
#: process (the default cache is each process's own) a record is at most this old.
SITE_CACHE_SECONDS = 600
#: The cache key of the token that names the current set of kept records (``site_record``).
_SITE_GENERATION_KEY = "games:estimates:site:generation"
#: Checks, registered by higher apps, of whether a game's table meets at agreed weekly sittings.
_SITTINGS_CHECKS: list[Callable[[Game], bool]] = []


def register_sittings_check(check: Callable[[Game], bool]) -> None:
    """Let a higher app say whether a game's table meets at agreed weekly sittings (``for_game``)."""
    if check not in _SITTINGS_CHECKS:
        _SITTINGS_CHECKS.append(check)


def has_sittings(game: Game) -> bool:
    """Whether the game's table has agreed weekly sittings still to come (a registered check says so)."""
    return any(check(game) for check in _SITTINGS_CHECKS)


@dataclass(frozen=True)
class Estimate:
    """An expected duration: typical (median) and p90 days, where they come from and from how many games."""

    days_typical: float
    days_p90: float
    source: str
    n: int
    sittings: bool = False
    #: One person against bots: the game goes as fast as that person answers (the figures are for a
    #: table of people, said as the comparison).
    solo: bool = False

    def to_json(self) -> dict[str, Any]:
        """The API's ``estimate`` object."""
        return {
            "days_typical": round(self.days_typical, 1),
            "days_p90": round(self.days_p90, 1),
            "source": self.source,
            "n": self.n,
            "sittings": self.sittings,
            "text": self.text(),
        }

    def text(self) -> str:
        """The estimate in words, saying where it comes from."""
        if self.solo:
            return _("As fast as you answer: the bots answer at once. For comparison: %(people)s") % {
                "people": self._people_text()
            }
        return self._people_text()

    def _people_text(self) -> str:
        words = {"typical": span(self.days_typical), "p90": span(self.days_p90), "n": self.n}
        if self.source == SITE:
            return (
                _(
                    "About %(typical)s (9 games in 10 within %(p90)s): %(n)s games of people with these "
                    "settings have finished on this site."
                )
                % words
            )
        if self.sittings:
            return (
                _(
                    "About %(typical)s (9 games in 10 within %(p90)s): the pace model's figure for a table "
                    "meeting at its agreed sittings (two one-hour sittings a week), every seat a person "
                    "answering a few times a day in between."
                )
                % words
            )
        return _(
            "About %(typical)s (9 games in 10 within %(p90)s) with every seat a person answering a few "
            "times a day: the pace model's figure, as fewer than %(minimum)s such games have finished on "
            "this site."
        ) % {**words, "minimum": SITE_MINIMUM}


def span(days: float) -> str:
    """A duration in the unit people think in: ``5 hours``, ``9 days``, ``11 weeks``, ``2.5 years``."""
    if days < 2:
        n = max(1, round(days * 24))
        return ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n}
    if days < 21:
        return ngettext("%(n)s day", "%(n)s days", round(days)) % {"n": round(days)}
    if days < 120:
        return ngettext("%(n)s week", "%(n)s weeks", round(days / 7)) % {"n": round(days / 7)}
    if days < 548:
        n = round(days / 30.44)
        return ngettext("%(n)s month", "%(n)s months", n) % {"n": n}
    years = round(days / 365.25, 1)
    return _("%(n)s years") % {"n": f"{years:g}"}


def estimate(
    game: str,
    players: int,
    length: str,
    control: str | Control,
    *,
    options: Mapping[str, Any] | None = None,
    sittings: bool = False,
) -> Estimate:
    """The expected duration of a game of ``game`` at ``players`` seats with the length named ``length``
    (``custom``: its values in ``options``) and the time control ``control`` (a name or a ``Control``);
    ``sittings``: the table meets at agreed weekly sittings (the pace model's sittings rows; the site's
    own finished games are not told apart by sittings, so they are not used then).

    ``ValueError`` for a game, table size or length the game does not have.
    """
    engine = get_engine(game)
    if not engine.min_players <= players <= engine.max_players:
        raise ValueError(f"{game} takes {engine.min_players}-{engine.max_players} players")
    name = control if isinstance(control, str) else control.name
    if length != rule_lengths.CUSTOM and name in NAMED_CONTROLS and not sittings:
        record = site_record(game, players, length, name)
        if record is not None:
            median, p90, n = record
            return Estimate(median, p90, SITE, n)
    if sittings:
        try:
            return SITTINGS.estimate(game, players, length, control, options)
        except ValueError:  # no sittings row for these settings: the correspondence figure
            pass
    return CORRESPONDENCE.estimate(game, players, length, control, options)


def estimate_for(
    *,
    engine: str,
    players: int | None,
    length: str | None,
    control: str,
    options: Mapping[str, Any] | None = None,
    custom: Mapping[str, int] | None = None,
    sittings: bool = False,
    solo: bool = False,
) -> Estimate:
    """The estimate for settings as a form or the API gives them, refused as game creation refuses them
    (``sittings``: the table means to meet at agreed weekly sittings; ``solo``: bots take every other
    seat, so the game goes at the one person's pace and the figures are a table of people's; such a
    table has no sittings, ``people.table_of_one``, so ``sittings`` is not read then).

    ``length`` None: ``options`` decide (the rules' default when they set nothing); ``custom``: the
    values in ``options``. ``control``: a named control, or ``custom`` with ``custom``'s values
    (seconds). ``players`` None: the game's one table size, or its smallest.
    Codes: ``invalid_options`` (game, players, option values), ``invalid_length``, ``length_conflict``,
    ``invalid_control``.
    """
    if engine not in Game.Engine.values:
        raise ServiceError("invalid_options", f"unknown game {engine!r}")
    eng = get_engine(engine)
    if players is None:
        players = eng.game_type.fixed_players or eng.min_players
    if not eng.min_players <= players <= eng.max_players:
        raise ServiceError("invalid_options", f"{engine} takes {eng.min_players}-{eng.max_players} players")
    merged, name = game_lengths.options_with_length(
        engine=engine, players=players, length=length, options=dict(options or {})
    )
    try:
        eng.setup(players, merged, "options-check")
        chosen: str | Control = control if control in NAMED_CONTROLS else control_from(control, custom)
    except ControlError as exc:
        raise ServiceError(exc.code, str(exc)) from None
    except RuleError as exc:
        raise ServiceError(exc.code, exc.message) from None
    sittings = sittings and not solo  # one person against bots has nobody to meet
    found = estimate(engine, players, name or rule_lengths.CUSTOM, chosen, options=merged, sittings=sittings)
    return dataclasses.replace(found, solo=True) if solo else found


def for_game(game: Game, *, sittings: bool | None = None) -> Estimate:
    """The estimate for a game's own settings (its length, options and control) and its table's agreed
    weekly sittings, if it has any (``has_sittings``; ``sittings``: the caller knows the answer, as for a
    game created in the same request, which no sitting can belong to yet, so the query is spared)."""
    control = _own_control(game)
    if sittings is None:
        sittings = has_sittings(game)
    try:
        return estimate(
            game.engine,
            game.players,
            game.length or rule_lengths.CUSTOM,
            control,
            options=game.options,
            sittings=sittings,
        )
    except ValueError:  # a custom length no model row is near: the game's default length instead
        default = game_lengths.default_name(game.engine, game.players)
        return estimate(game.engine, game.players, default, control, sittings=sittings)


def _own_control(game: Game) -> Control:
    """The game's own control (during a sitting, the one it goes back to)."""
    saved = game.live_clock
    if saved is None:
        return game.time_control
    return stored_control(saved["control"], saved["control_values"], saved["weekends_off"])


def site_record(game: str, players: int, length: str, control: str) -> tuple[float, float, int] | None:
    """The site's own figures for these settings, ``(median days, p90 days, games)`` of ``site_days``,
    or None while fewer than ``SITE_MINIMUM`` such games have finished.

    Kept in the default cache for ``SITE_CACHE_SECONDS``: every new game, every new-game form and every
    estimate request asks, and reading up to ``SITE_SAMPLE`` games each time cost a fifth of a game's
    creation. The record changes only when a game ends, and ``forget_site_records`` then drops them all.
    """
    generation = default_cache.get_or_set(_SITE_GENERATION_KEY, _new_generation, timeout=None)
    key = f"games:estimates:site:{generation}:{game}:{players}:{length}:{control}"
    kept = default_cache.get(key)
    if kept is not None:
        found: tuple[float, float, int] | None = kept[0]
        return found
    days = site_days(game, players, length, control)
    record = (statistics.median(days), _p90(days), len(days)) if len(days) >= SITE_MINIMUM else None
    default_cache.set(key, (record,), SITE_CACHE_SECONDS)  # wrapped: a kept None differs from a miss
    return record


def _new_generation() -> str:
    """A token that no earlier set of kept records used (a forgotten or evicted one is never reused)."""
    return secrets.token_hex(8)


def forget_site_records() -> None:
    """Forget every kept site record (``site_record``): the next estimate reads the games again."""
    default_cache.delete(_SITE_GENERATION_KEY)


@receiver(game_ended, dispatch_uid="games.estimates.forget_site_records")
def _game_ended(sender: Any, **kwargs: Any) -> None:
    """A game ended, so the record of its settings may change: forget every record. The signal gives
    only the game's id, and reading its settings would add a query to every game's last move; games end
    far less often than estimates are asked, so reading the other records again costs less."""
    forget_site_records()


def site_days(game: str, players: int, length: str, control: str) -> list[float]:
    """The durations in days of the site's most recent finished games with these settings, people only
    (a game with a bot seat from the start, or a bot test, plays at another pace).

    On PostgreSQL's hand path the query is compiled once (``sql.compile_select``): a record is read
    again after every game's end, and the ORM spent longer building the query than running it. (Its
    rows come without the ORM's converters, which SQLite's datetimes need: there the ORM runs it.)"""
    if sql.hand_sql() and sql.vendor() == "postgresql":
        select = _site_select(sql.vendor())
        values: dict[str, Any] = {"game": game, "players": players, "length": length, "control": control}
        rows: Iterable[tuple[datetime | None, datetime | None]] = sql.fetch(
            select.sql, select.statement(**values).params
        )
    else:
        rows = _site_games(game, players, length, control)
    return [(end - start) / timedelta(days=1) for start, end in rows if start is not None and end is not None]


def _site_games(
    game: str, players: int, length: str, control: str
) -> QuerySet[Game, tuple[datetime | None, datetime | None]]:
    return (
        Game.objects.filter(
            engine=game,
            players=players,
            length=length,
            control=control,
            status=Game.Status.FINISHED,
            started_at__isnull=False,
            finished_at__isnull=False,
            bot_test=False,
        )
        .exclude(seats__bot__gt="")
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")[:SITE_SAMPLE]
    )


#: Stand-ins for the settings in ``_site_select``, replaced when it runs (a table size in the column's
#: range: a negative one would make the ORM refuse the query as empty).
_SITE_MARKERS: dict[str, Any] = {
    "game": "\x1fsite-game",
    "players": 32_103,
    "length": "\x1fsite-length",
    "control": "\x1fsite-control",
}


@cache
def _site_select(vendor: str) -> sql.Select:
    """``site_days``'s query, compiled once."""
    return sql.compile_select(_site_games(**_SITE_MARKERS), **_SITE_MARKERS)


@dataclass(frozen=True)
class PaceModel:
    """The pace model's figures from one of its tables: the correspondence rows (every seat a person
    answering a few times a day) or the sittings rows (a table meeting at agreed weekly sittings)."""

    table: Table
    sittings: bool = False

    def estimate(
        self, game: str, players: int, length: str, control: str | Control, options: Mapping[str, Any] | None
    ) -> Estimate:
        """The expected duration for these settings (``estimate``'s), from the row of the nearest
        named control; ``ValueError`` where the table has no row for them."""
        name = _nearest_control(control)
        if length == rule_lengths.CUSTOM:
            return self._custom_length(game, players, name, dict(options or {}))
        found = self.table.get((game, players, length, name))
        if found is None:
            raise ValueError(f"no pace model row for {game}, {players} players, {length!r}, {name!r}")
        median, p90, _deals, n = found
        return Estimate(median, p90, MODEL, n, self.sittings)

    def _custom_length(self, game: str, players: int, control: str, options: dict[str, Any]) -> Estimate:
        """A custom length: the named length nearest in size, scaled by the sizes' ratio."""
        lengths = get_lengths(game)
        if lengths is None:
            raise ValueError(f"{game} has no lengths")
        wanted = rule_lengths.size(lengths, players=players, options=options)
        rows = []
        for named in lengths.named:
            found = self.table.get((game, players, named.name, control))
            size = rule_lengths.size(lengths, players=players, options=named.options(players))
            if found is not None and size:
                rows.append((size, found))
        if not rows or not wanted:
            raise ValueError(f"no pace model row for a custom length of {game} at {players} players")
        size, (median, p90, _deals, n) = min(rows, key=lambda row: abs(math.log(wanted / row[0])))
        scale = wanted / size
        return Estimate(median * scale, p90 * scale, MODEL, n, self.sittings)


CORRESPONDENCE = PaceModel(TABLE)
SITTINGS = PaceModel(SITTINGS_TABLE, sittings=True)


def model_days(game: str, players: int, length: str, control: str, *, sittings: bool = False) -> float | None:
    """The model's typical days for named settings (the bench's ``estimate_days``), None without a row."""
    found = (SITTINGS if sittings else CORRESPONDENCE).table.get((game, players, length, control))
    return None if found is None else found[0]


def _nearest_control(control: str | Control) -> str:
    """The named control whose banks and windows are nearest to ``control`` (itself when named)."""
    if isinstance(control, str):
        return control if control in NAMED_CONTROLS else DEFAULT_CONTROL
    if control.name in NAMED_CONTROLS and control == NAMED_CONTROLS[control.name]:
        return control.name

    def distance(named: Control) -> float:
        return sum(
            abs(
                math.log(
                    max(getattr(control, key).total_seconds(), 1)
                    / max(getattr(named, key).total_seconds(), 1)
                )
            )
            for key in ("initial", "increment", "reaction")
        )

    return min(NAMED_CONTROLS, key=lambda name: distance(NAMED_CONTROLS[name]))


def _p90(days: list[float]) -> float:
    if len(days) < 2:
        return days[0]
    return statistics.quantiles(days, n=10, method="inclusive")[8]


def took_days(game: Game) -> float | None:
    """How long a finished game took, in days (start to end); None for a game not finished."""
    if game.status != Game.Status.FINISHED or game.started_at is None or game.finished_at is None:
        return None
    return (game.finished_at - game.started_at) / timedelta(days=1)


def took_span(days: float) -> str:
    """How long a game took, in words: ``span`` from an hour on, minutes below (a live game of three
    minutes did not take an hour), ``less than a minute`` below one."""
    minutes = round(days * 24 * 60)
    if days * 24 * 60 < 1:
        return _("less than a minute")
    if minutes < 60:
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    return span(days)


def took_text(game: Game) -> str:
    """``Took 9 weeks (4 January 2027 to 8 March 2027).``, ``Took 3 minutes (6 December 2026).`` for a
    game that began and ended on one day (the viewer's); "" for a game not finished."""
    days = took_days(game)
    if days is None or game.started_at is None or game.finished_at is None:
        return ""
    day = pgettext("a whole date", "j F Y")
    start = dateformat.format(timezone.localtime(game.started_at), day)
    end = dateformat.format(timezone.localtime(game.finished_at), day)
    if start == end:
        return _("Took %(span)s (%(day)s).") % {"span": took_span(days), "day": start}
    return _("Took %(span)s (%(start)s to %(end)s).") % {"span": took_span(days), "start": start, "end": end}


def form_context(
    form: Any, *, engine_field: str = "engine", players_field: str = "players", control_field: str = "control"
) -> dict[str, Any]:
    """What a form's estimate include needs (the new-game form; the new-league form names its fields
    ``game``, ``players_per_table`` and ``timing_preset``): the estimate of the form's initial settings,
    the JSON endpoint and each game's length value fields (``static/js/estimate.js``)."""
    initial = {
        name: form[field].value()
        for name, field in (("engine", engine_field), ("players", players_field), ("control", control_field))
    }
    engine = str(initial["engine"] or Game.Engine.values[0])
    # The new-game form's first choice: bots in every seat nobody is invited to (``static/js/estimate.js``
    # asks the same whenever the choice changes).
    solo = "opponents" in form.fields and form["opponents"].value() == "bots" and not form["invite"].value()
    try:
        players = int(initial["players"]) if initial["players"] not in (None, "") else None
        found: Estimate | None = estimate_for(
            engine=engine,
            players=players,
            length=None,
            control=str(initial["control"] or DEFAULT_CONTROL),
            solo=solo,
        )
    except (ServiceError, ValueError):
        found = None
    return {
        "estimate": found,
        "url": reverse("games:estimate"),
        "length_keys": json.dumps(
            {name: list(game_lengths.length_keys(name)) for name in Game.Engine.values}
        ),
    }


def page_context(game: Game) -> dict[str, Any]:
    """A game page's duration line: before the start the estimate (``estimate``), once finished how
    long it took (``took_text``); nothing while it is played."""
    if game.status == Game.Status.OPEN:
        return {"estimate": for_game(game)}
    return {"took_text": took_text(game)}
