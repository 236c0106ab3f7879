"""Engine benchmark: ``python -m bench.engines baobei|baohuang --games N``.

Plays N complete games with each game's bots (``bots.BOTS``), every seat driven only by its own
``view()``, and prints games/s and applied actions/s, then one JSON line. The time counted is the
whole loop: views, bot choices and ``apply`` with its validation; ``engine_s`` is ``apply`` alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib import import_module
from typing import Any

from baogame.rules.registry import get_engine

DEFAULT_PLAYERS = {"baobei": 4, "baohuang": 5}


def play_game(
    game: str, seed: int, players: int, bot_names: list[str], max_actions: int = 100_000
) -> tuple[dict[str, Any], int, float]:
    """Play one game to its end; return (final state, applied actions, seconds inside apply)."""
    engine = get_engine(game)
    bots = import_module(f"baogame.rules.{game}.bots").BOTS
    rng = random.Random(f"bench:{game}:{seed}")
    state = engine.setup(players, {}, seed)
    actions = 0
    in_apply = 0.0
    while True:
        decisions = engine.pending(state)
        if not decisions:
            return state, actions, in_apply
        decision = decisions[0]
        seat = decision["seats"][0] if len(decision["seats"]) == 1 else rng.choice(decision["seats"])
        action = bots[bot_names[seat % len(bot_names)]](engine.view(state, seat), rng)
        t = time.perf_counter()
        state, _events = engine.apply(state, seat, action)
        in_apply += time.perf_counter() - t
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"{game} seed {seed}: no end after {max_actions} actions")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.engines")
    parser.add_argument("game", choices=sorted(DEFAULT_PLAYERS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--bots", default=None, help="comma-separated bot names, by seat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    players = args.players or DEFAULT_PLAYERS[args.game]
    bots_mod = import_module(f"baogame.rules.{args.game}.bots")
    bot_names = args.bots.split(",") if args.bots else [bots_mod.DEFAULT_BOT]
    total_actions = 0
    engine_s = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        _state, n, t = play_game(args.game, args.seed + i, players, bot_names)
        total_actions += n
        engine_s += t
    seconds = time.perf_counter() - start
    result = {
        "game": args.game,
        "games": args.games,
        "players": players,
        "actions": total_actions,
        "seconds": round(seconds, 4),
        "games_per_s": round(args.games / seconds, 2),
        "actions_per_s": round(total_actions / seconds, 1),
        "engine_s": round(engine_s, 4),
        "engine_actions_per_s": round(total_actions / engine_s, 1) if engine_s else None,
    }
    print(f"{args.game}: {args.games} games, {total_actions} actions in {seconds:.2f} s")
    print(
        f"  {result['games_per_s']} games/s, {result['actions_per_s']} applied actions/s "
        f"(apply alone: {result['engine_actions_per_s']} actions/s)"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
