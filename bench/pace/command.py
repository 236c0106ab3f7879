"""``manage.py bench_pace``: how long correspondence games take (the pace model, in simulated time).

    python manage.py bench_pace [--games 20] [--game baohuang] [--length short] [--control daily]
        [--seed 1] [--sittings]

Plays N seeded games per game × length × control with the bots choosing every move and the timing
model (``bench.pace.model``) deciding when each person answers, through the clock's banks and the
rules' standing orders, each game once with orders and once without. Prints a table, then one JSON
line per row. A standard Bao Huang game is about 30 deals: its rows play a quarter of ``--games``
(at least 3), and the table says so. ``--sittings`` plays every row under the sittings model instead
(``bench.pace.sittings``: two agreed one-hour sittings a week, 20 s per decision at the table, 90 %
attendance, the bot for a seat whose player misses one); its rows say ``"sittings": true``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from baogame.rules.registry import get_engine

from .clockwork import named_controls
from .rows import LONG_LENGTHS, PLAYERS, Row, games_for, lengths_of, run_row
from .table import render

HEADER = (
    f"{'game':9} {'pl':>2} {'length':9} {'control':8} {'games':>5} {'asked':>6} {'w/ord':>6} {'cut':>5} "
    f"{'timeout':>7} {'median d':>8} {'p90 d':>7} {'worst d':>8} {'estim d':>8}"
)


def _estimate(sittings: bool) -> Any:
    try:
        from apps.games.estimates import model_days
    except ImportError:
        return None
    return lambda *key: model_days(*key, sittings=sittings)


def line(row: Row) -> str:
    """The row as the table prints it."""
    data = row.json()
    estimate = "-" if data["estimate_days"] is None else f"{data['estimate_days']:.1f}"
    return (
        f"{row.game:9} {row.players:2d} {row.length:9} {row.control:8} {row.games:5d} "
        f"{data['asked_per_seat_per_deal']:6.1f} "
        f"{data['asked_per_seat_per_deal_with_orders']:6.1f} {data['orders_cut']:5.0%} "
        f"{data['timeout_share']:7.1%} {data['median_days']:8.1f} {data['p90_days']:7.1f} "
        f"{data['worst_case_days']:8.1f} {estimate:>8}"
    )


class Command(BaseCommand):
    help = "Simulate correspondence games under the pace model; print days, asked decisions and timeouts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20, help="games per row (with orders and without)")
        parser.add_argument("--game", choices=sorted(PLAYERS), default=None)
        parser.add_argument("--length", default=None, help="one of the game's named lengths")
        parser.add_argument("--control", default=None, help="one of the named controls")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, default=None, help="table size (Bao Bei; Bao Huang is 5)")
        parser.add_argument(
            "--all-players", action="store_true", help="Bao Bei at every table size it allows (2-6)"
        )
        parser.add_argument(
            "--write-table", default=None, metavar="PATH", help="also write the rows as the estimates' table"
        )
        parser.add_argument(
            "--sittings",
            action="store_true",
            help="the sittings model: two agreed one-hour sittings a week, 90%% attendance, 20 s a decision",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        controls = named_controls()
        if options["control"] is not None and options["control"] not in controls:
            raise CommandError(f"--control is one of {', '.join(controls)}")
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        chosen = [c for name, c in controls.items() if options["control"] in (None, name)]
        sittings = bool(options["sittings"])
        estimate = _estimate(sittings)
        rows: list[Row] = []
        self.stdout.write(
            "Every seat a person answering after a log-normal delay (median 2 h, p90 12 h), timing out when "
            "the bank runs out; days are with standing orders used as the model uses them.\n"
            "asked: decisions asked per seat per deal without orders (Bao Bei: per game); w/ord: with orders."
        )
        if sittings:
            self.stdout.write(
                "Sittings: two agreed one-hour sittings a week (two week hours drawn per game), 20 s per "
                "decision for those there, 90% attendance, the bot plays a missing seat after 2 minutes."
            )
        for game, length in LONG_LENGTHS:
            n = games_for(game, length, games)
            self.stdout.write(f"{game} {length}: {n} games per row (a quarter of --games, at least 3).")
        self.stdout.write(HEADER)
        for game in [g for g in PLAYERS if options["game"] in (None, g)]:
            lengths = lengths_of(game)
            if options["length"] is not None:
                if options["length"] not in lengths:
                    if options["game"] is not None:
                        raise CommandError(f"--length for {game} is one of {', '.join(lengths)}")
                    continue
                lengths = [options["length"]]
            for players in _table_sizes(game, options):
                for length in lengths:
                    for control in chosen:
                        row = run_row(
                            game,
                            length,
                            control,
                            games=games,
                            seed=options["seed"],
                            players=players,
                            estimate=estimate,
                            sittings=sittings,
                        )
                        rows.append(row)
                        self.stdout.write(line(row))
                        self.stdout.flush()
        for row in rows:
            self.stdout.write(json.dumps(row.json()))
        if options["write_table"]:
            Path(options["write_table"]).write_text(
                render(rows, "python manage.py bench_pace " + _args(options))
            )
            self.stdout.write(f"wrote {options['write_table']}")


def _args(options: dict[str, Any]) -> str:
    """The command's options as given (for the table's header)."""
    words = [f"--games {options['games']}", f"--seed {options['seed']}"]
    words += [f"--{key} {options[key]}" for key in ("game", "length", "control", "players") if options[key]]
    if options["all_players"]:
        words.append("--all-players")
    if options["sittings"]:
        words.append("--sittings")
    return " ".join([*words, "--write-table", options["write_table"]])


def _table_sizes(game: str, options: dict[str, Any]) -> list[int]:
    """The table sizes a game's rows are played at."""
    engine = get_engine(game)
    if options["all_players"]:
        return list(range(engine.min_players, engine.max_players + 1))
    players = options["players"]
    if players is None or not engine.min_players <= players <= engine.max_players:
        if players is not None and options["game"] == game:
            raise CommandError(f"{game} takes {engine.min_players}-{engine.max_players} players")
        return [PLAYERS[game]]
    return [players]
