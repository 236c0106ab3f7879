"""The CPU instructions of a fixed number of move POSTs: a count that a busy machine does not change.

``python -m bench.move_instructions [--moves 100] [--warmup 30] [--seed 1] [--callgrind [--out FILE]]
[--profile FILE]``

One process plays scripted moves of two-player Bao Bei games through ``baogame.wsgi.application``
called directly, as ``bench.profile_moves`` does (its settings, its ``WsgiConnection``): the POST of
``bench.loadtest`` (``/actions/?legal=30``, a JSON body, a Bearer token, an ``Idempotency-Key``). The
script is worked out first: the games are created through the API with fixed seeds
(``count:<seed>:<n>``), and their moves chosen by the engine on the games' own states with a seeded
random choice, so two runs post the same moves. Then ``--warmup`` moves are posted (statements
compiled and prepared, caches filled), and the next ``--moves`` each inside ``sys.call_tracing``.

Under valgrind's callgrind with ``--collect-atstart=no --toggle-collect=sys_call_tracing`` only those
requests are counted: the middleware, the plain path, the pipeline, psycopg's client side (not
PostgreSQL, another process). ``--callgrind`` runs this module so (with ``PYTHONHASHSEED=0``) and prints
the instructions per POST; ``callgrind_annotate --inclusive=yes FILE`` then says where they go. The same
code gives the same count to a few parts in ten thousand (the drain's wake-up, published once in an
interval of time, is kept out of the measured moves). ``--profile FILE`` profiles the measured moves
with cProfile instead and prints their Python function calls a POST (the same count in every run).
It needs ``DATABASE_URL`` pointing at PostgreSQL, and deletes what it created.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from itertools import count
from typing import Any

#: A move of the script: the game, the acting seat, the action.
Move = tuple[int, int, dict[str, Any]]


def _fixed_seeds(seed: int) -> None:
    """New games take the seeds ``count:<seed>:0``, ``…:1``, …: the same deals in every run."""
    from apps.games.models import Game

    field = Game._meta.get_field("seed")
    numbers = count()
    field.default = lambda: f"count:{seed}:{next(numbers)}"
    vars(field).pop("_get_default", None)  # Django caches the default's callable


def _script(client: Any, moves: int, rng: random.Random) -> list[Move]:
    """``moves`` moves of new games (through the API), each chosen among the acting seat's legal
    actions on the game's state as the engine plays it on."""
    from apps.games.models import Game
    from baogame.rules.registry import get_engine

    engine = get_engine("baobei")
    script: list[Move] = []
    while len(script) < moves:
        game_id, _ = client.new_game()
        state: dict[str, Any] = Game.objects.get(pk=game_id).state or {}
        while len(script) < moves and (decisions := engine.pending(state)):
            seat = decisions[0]["seats"][0]
            action = rng.choice(engine.legal_actions(state, seat))
            state, _ = engine.apply(state, seat, action)
            script.append((game_id, seat, action))
    return script


def play(moves: int, warmup: int, seed: int, profile: str = "") -> None:
    """Post ``warmup`` moves, then ``moves`` more, each inside ``sys.call_tracing`` (module doc);
    ``profile``: profile those with cProfile, print its count of Python function calls a POST and save
    the profile in that file."""
    from bench.profile_moves import WsgiConnection, _configure

    var_dir = tempfile.TemporaryDirectory(prefix="baogame-count-")
    # The drain's wake-up is published at most once in this interval: under load, once in some fifty
    # moves of a worker; at callgrind's pace, once in every few, as many as the machine's load makes
    # seconds. An hour: none among the measured moves, whatever the pace.
    os.environ.setdefault("NOTIFICATIONS_OUTBOX_WAKE", "3600")
    _configure(var_dir.name)
    os.makedirs(os.path.join(var_dir.name, "staticfiles"), exist_ok=True)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from apps.api.services import token_create
    from apps.games.models import Game
    from baogame.wsgi import application
    from bench.apiclient import Client, Stats

    if connection.vendor != "postgresql":
        sys.exit("move_instructions runs on PostgreSQL: set DATABASE_URL=postgres://…")
    _fixed_seeds(seed)
    run = secrets.token_hex(3)
    users, tokens = [], []
    for seat in range(2):
        user = get_user_model()(username=f"count-{run}-{seat}", email=f"count-{run}-{seat}@example.invalid")
        user.set_unusable_password()
        user.save()
        users.append(user)
        tokens.append(token_create(user=user, name="count")[1])
    measured = [False]
    profiler = cProfile.Profile(time.process_time)

    def on_request(method: str, path: str, call: Any) -> bytes:
        if not measured[0]:
            return call()
        if profile:
            profiler.enable()
        try:
            return sys.call_tracing(call, ())
        finally:
            profiler.disable()

    client = Client(0, tokens, random.Random(f"{seed}:script"), Stats())
    client.conns[0] = WsgiConnection(application, on_request)
    try:
        script = _script(client, warmup + moves, random.Random(f"{seed}:moves"))
        games = len({game_id for game_id, _, _ in script})
        for index, (game_id, seat, action) in enumerate(script):
            if index == warmup:
                gc.collect()
                measured[0] = True
            status, answer = client.call(
                "POST",
                f"/api/v1/games/{game_id}/actions/?legal=30",
                tokens[seat],
                {"action": action},
                key=f"{index:016x}",
            )
            if status != 201:
                raise RuntimeError(f"move {index} of game {game_id} answered {status}: {answer}")
    finally:
        measured[0] = False
        Game.objects.filter(seats__user__in=users).distinct().delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
        var_dir.cleanup()
    print(f"{moves} moves measured after {warmup}, in {games} games")
    if profile:
        profiler.dump_stats(profile)
        # each function's own entry (pstats merges functions of one name and line: namedtuples' ``__new__``)
        made = sum(entry.callcount for entry in profiler.getstats())
        print(f"{made / moves:,.1f} Python function calls a POST (cProfile; the profile in {profile})")


def under_callgrind(argv: list[str], out: str, moves: int) -> None:
    """Run ``play`` under callgrind, counting the measured requests only, and print the count."""
    command = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
        "--collect-atstart=no", "--toggle-collect=sys_call_tracing",
        sys.executable, "-m", "bench.move_instructions", *argv,
    ]  # fmt: skip
    done = subprocess.run(command, env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True)
    print(done.stdout, end="")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or found is None:
        sys.exit(f"callgrind failed ({done.returncode}):\n{done.stderr[-3000:]}")
    total = int(found.group(1))
    print(f"{total:,} instructions in {moves} POSTs: {total / moves:,.0f} a POST ({out})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=100, help="moves measured")
    parser.add_argument("--warmup", type=int, default=30, help="moves posted before them")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--callgrind", action="store_true", help="run under callgrind and print the count")
    parser.add_argument("--out", default="var/callgrind.moves.out", help="callgrind's file (--callgrind)")
    parser.add_argument("--profile", default="", help="profile the measured POSTs into this file instead")
    args = parser.parse_args(argv)
    if args.callgrind:
        plain = ["--moves", str(args.moves), "--warmup", str(args.warmup), "--seed", str(args.seed)]
        under_callgrind(plain, args.out, args.moves)
    else:
        play(args.moves, args.warmup, args.seed, args.profile)


if __name__ == "__main__":
    main()
