"""``manage.py verify_games [--game ID …] [--file RECORD.json …]``: replay games, report differences.

Every game (or the ones named) is rebuilt through its engine from its seed and its move log and
compared with what is stored (``apps.games.replay.verify_game``): the move numbering, each move's
events, the state, the version counters, the status and the open decisions. Prints one line per game
that differs, a summary, then one JSON line; exits with status 1 when any game differs (2 for a game id
that does not exist). The lines name fields and moves, never card values.

``--file`` checks downloaded game records instead (``apps.games.records``: a finished game's JSON record
from its page or the API), with no database: each is replayed from its seed and actions and compared
with its recorded events and result. Status 2 for a file that cannot be read or is not a record.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.games.models import Game
from apps.games.records import RecordCheck, verify_record
from apps.games.replay import Discrepancy, verify_games


class Command(BaseCommand):
    help = "Replay stored games from their seed and move log and report any whose stored state differs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            type=int,
            action="append",
            dest="games",
            metavar="ID",
            help="only this game (repeatable)",
        )
        parser.add_argument(
            "--file",
            action="append",
            dest="files",
            metavar="RECORD",
            help="check a downloaded game record (JSON) instead of stored games (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("files"):
            self._check_files(options["files"])
            return
        game_ids: list[int] | None = options["games"]
        if game_ids:
            unknown = sorted(
                set(game_ids) - set(Game.objects.filter(pk__in=game_ids).values_list("pk", flat=True))
            )
            if unknown:
                raise CommandError(f"no such game: {', '.join(map(str, unknown))}", returncode=2)
        checked = 0
        differ: list[Discrepancy] = []
        for game_id, discrepancy in verify_games(game_ids=game_ids):
            checked += 1
            if discrepancy is not None:
                differ.append(discrepancy)
                self._write_problems(f"game {game_id}", discrepancy.problems)
        self._finish("game", checked, differ)

    def _check_files(self, paths: list[str]) -> None:
        checks: list[RecordCheck] = []
        for path in paths:
            try:
                with open(path, encoding="utf-8") as handle:
                    checks.append(verify_record(json.load(handle)))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CommandError(f"{path}: not a readable game record ({exc})", returncode=2) from None
        differ = [c for c in checks if c.problems]
        for check in differ:
            self._write_problems(f"record {check.public_id}", check.problems)
        self._finish("record", len(checks), differ)

    def _write_problems(self, label: str, problems: Sequence[Any]) -> None:
        """One line a problem of one game or record: where (the move, if any), code and detail."""
        for problem in problems:
            where = f" move {problem.seq}" if problem.seq is not None else ""
            self.stdout.write(f"{label}{where}: {problem.code}: {problem.detail}")

    def _finish(self, noun: str, checked: int, differ: Sequence[Discrepancy | RecordCheck]) -> None:
        """The summary line and the JSON line of ``checked`` games or records; status 1 if any differ."""
        counted = f"{checked} {noun}{'s' if checked != 1 else ''}"
        summary = f"verified {counted}: {checked - len(differ)} match, {len(differ)} differ"
        self.stdout.write(self.style.ERROR(summary) if differ else self.style.SUCCESS(summary))
        report = {
            f"{noun}s": checked,
            "matching": checked - len(differ),
            "differing": len(differ),
            "discrepancies": [d.to_json() for d in differ],
        }
        self.stdout.write(json.dumps(report, separators=(",", ":")))
        if differ:
            sys.exit(1)
