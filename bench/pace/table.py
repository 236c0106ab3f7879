"""The pace model's table of durations, written as a Python module for the site's estimates.

``manage.py bench_pace --all-players --write-table apps/games/estimate_table.py`` writes it: one entry
per game × players × length × control with the median and p90 days and the mean deals of the bench's
games (with standing orders as the model uses them), and the command that made it.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable

from .rows import Row

HEAD = '''"""The pace model's durations, written by ``manage.py bench_pace`` (``bench.pace.table``): do not
edit, run it again.

Made with::

{command}

Each entry: (game, players, length, control) -> (median days, p90 days, mean deals, games played).
"""

from __future__ import annotations

TABLE: dict[tuple[str, int, str, str], tuple[float, float, float, int]] = {{
'''


def render(rows: Iterable[Row], command: str) -> str:
    """The module's text for ``rows``."""
    wrapped = textwrap.fill(command, width=96, initial_indent="    ", subsequent_indent="        ")
    lines = [HEAD.format(command=wrapped)]
    for row in sorted(rows, key=lambda r: (r.game, r.players, r.length, r.control)):
        key = (row.game, row.players, row.length, row.control)
        value = (round(row.median_days, 2), round(row.p90_days, 2), round(row.deals, 2), row.games)
        lines.append(f"    {json.dumps(key)[1:-1].join('()')}: {value!r},\n")
    lines.append("}\n")
    return "".join(lines)
