"""Shared by each game's mail tests: every legal action met in a seeded bot game prints as a mail
command that parses back to the very same action."""

from __future__ import annotations

import random
from typing import Any

from baogame.rules.registry import get_bots, get_engine


def action_types_round_tripped(game: str, players: int, mail: Any, *, turns: int = 150) -> set[str]:
    """Play ``turns`` decisions of a seeded bot game of ``game``; assert that each legal action met (up
    to 400 a decision) round-trips through ``mail.format_command`` and ``mail.parse_command``; return
    the action types met."""
    eng = get_engine(game)
    bots, default = get_bots(game)
    rng = random.Random(7)
    state = eng.setup(players, eng.default_options(players), "commands-seed")
    seen_types: set[str] = set()
    for _ in range(turns):
        pending = eng.pending(state)
        if not pending:
            break
        seat = pending[0]["seats"][0]
        for action in eng.legal_actions(state, seat)[:400]:
            bare = {k: v for k, v in action.items() if k != "decision_id"}
            line = mail.format_command(bare)

            assert mail.parse_command(line) == bare, line
            seen_types.add(action["type"])
        state, _ = eng.apply(state, seat, bots[default](eng.view(state, seat), rng))
    return seen_types
