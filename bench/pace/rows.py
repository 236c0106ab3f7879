"""The bench's rows: per game × length × control, N seeded games with orders and N without."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from baogame.rules.lengths import length_options
from baogame.rules.registry import get_lengths

from . import simulate
from .clockwork import PaceControl, worst_case_days

#: The table size each game is simulated at.
PLAYERS = {"baobei": 4, "baohuang": 5}
#: Lengths played with fewer games than asked (a standard Bao Huang game is about 30 deals): their
#: share of ``--games``, at least ``MIN_GAMES``.
LONG_LENGTHS = {("baohuang", "standard"): 4}
MIN_GAMES = 3


@dataclass(frozen=True)
class Row:
    """One row of the bench: what N games of one setting took."""

    game: str
    players: int
    length: str
    control: str
    games: int
    asked: float
    asked_with_orders: float
    timeout_share: float
    timeout_share_without_orders: float
    median_days: float
    p90_days: float
    median_days_without_orders: float
    worst_case_days: float
    deals: float
    windows_lapsed_share: float
    estimate_days: float | None
    #: Played under the sittings model (``bench.pace.sittings``).
    sittings: bool = False

    def json(self) -> dict[str, Any]:
        """The row's JSON line."""
        return {
            "game": self.game,
            "players": self.players,
            "length": self.length,
            "control": self.control,
            "sittings": self.sittings,
            "games": self.games,
            "asked_per_seat_per_deal": round(self.asked, 1),
            "asked_per_seat_per_deal_with_orders": round(self.asked_with_orders, 1),
            "orders_cut": round(1 - self.asked_with_orders / self.asked, 3) if self.asked else 0.0,
            "timeout_share": round(self.timeout_share, 4),
            "timeout_share_without_orders": round(self.timeout_share_without_orders, 4),
            "median_days": round(self.median_days, 1),
            "p90_days": round(self.p90_days, 1),
            "median_days_without_orders": round(self.median_days_without_orders, 1),
            "worst_case_days": round(self.worst_case_days, 1),
            "deals": round(self.deals, 1),
            "windows_lapsed_share": round(self.windows_lapsed_share, 4),
            "estimate_days": None if self.estimate_days is None else round(self.estimate_days, 1),
        }


def games_for(game: str, length: str, games: int) -> int:
    """How many games a row plays when ``--games`` is ``games``."""
    share = LONG_LENGTHS.get((game, length))
    return games if share is None else max(MIN_GAMES, games // share)


def p90(values: list[float]) -> float:
    """The 90th percentile (inclusive method; the value itself for one game)."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=10, method="inclusive")[8]


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def run_row(
    game: str,
    length: str,
    control: PaceControl,
    *,
    games: int,
    seed: int,
    players: int | None = None,
    estimate: Callable[[str, int, str, str], float | None] | None = None,
    sittings: bool = False,
) -> Row:
    """Play the row's games with and without orders and sum them up (``sittings``: under the sittings
    model)."""
    players = players or PLAYERS[game]
    lengths = get_lengths(game)
    options = length_options(lengths, length, players) if lengths is not None else {}
    n = games_for(game, length, games)
    seeds = range(seed, seed + n)
    plain = [
        simulate.play(game, players, options, control, seed=s, orders=False, sittings=sittings) for s in seeds
    ]
    ordered = [
        simulate.play(game, players, options, control, seed=s, orders=True, sittings=sittings) for s in seeds
    ]
    days = sorted(r.days for r in ordered)
    most = max(max(r.asked) for r in plain)
    return Row(
        game=game,
        players=players,
        length=length,
        control=control.name,
        games=n,
        asked=_asked(plain),
        asked_with_orders=_asked(ordered),
        timeout_share=_share(sum(r.timeouts for r in ordered), sum(sum(r.asked) for r in ordered)),
        timeout_share_without_orders=_share(sum(r.timeouts for r in plain), sum(sum(r.asked) for r in plain)),
        median_days=statistics.median(days),
        p90_days=p90(days),
        median_days_without_orders=statistics.median(r.days for r in plain),
        worst_case_days=worst_case_days(control, most, players),
        deals=statistics.mean(r.deals for r in ordered),
        windows_lapsed_share=_share(
            sum(r.windows_lapsed for r in ordered), sum(r.windows_asked for r in ordered)
        ),
        estimate_days=estimate(game, players, length, control.name) if estimate else None,
        sittings=sittings,
    )


def _asked(runs: Iterable[simulate.GameRun]) -> float:
    """Decisions asked per seat per deal over the runs (all decisions of all runs over all deals)."""
    runs = list(runs)
    return sum(sum(r.asked) for r in runs) / sum(r.players * r.deals for r in runs)


def lengths_of(game: str) -> list[str]:
    """The game's named lengths, shortest first."""
    lengths = get_lengths(game)
    return [length.name for length in lengths.named] if lengths is not None else [""]
