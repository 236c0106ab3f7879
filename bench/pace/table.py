"""The pace model's table of durations, written as a JSON file for the site's estimates.

``manage.py bench_pace --all-players --write-table apps/games/estimate_table.json`` writes it: one row
per game × players × length × control with the median and p90 days and the mean deals of the bench's
games (with standing orders as the model uses them), and the command that made it. The site reads it
with ``apps.games.estimates.read_table``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .rows import Row

#: What the file says of itself, and what each row holds, in order.
ABOUT = "The pace model's durations, written by manage.py bench_pace: do not edit, run it again."
COLUMNS = ("game", "players", "length", "control", "median_days", "p90_days", "mean_deals", "games")


def render(rows: Iterable[Row], command: str) -> str:
    """The file's text for ``rows``: one row a line, so that a new run reads as a diff."""
    lines = [
        "{",
        f'  "about": {json.dumps(ABOUT)},',
        f'  "made_with": {json.dumps(command)},',
        f'  "columns": {json.dumps(list(COLUMNS))},',
        '  "rows": [',
    ]
    ordered = sorted(rows, key=lambda r: (r.game, r.players, r.length, r.control))
    for i, row in enumerate(ordered):
        values = [row.game, row.players, row.length, row.control]
        values += [round(row.median_days, 2), round(row.p90_days, 2), round(row.deals, 2), row.games]
        lines.append(f"    {json.dumps(values)}{',' if i < len(ordered) - 1 else ''}")
    lines += ["  ]", "}", ""]
    return "\n".join(lines)
