"""The curl session of the README and of the API docs page really works: run each page's commands
against a live server."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from apps.api.services import token_create
from apps.games import lifecycle as game_lifecycle
from apps.games.models import Game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"
README = DOCS.parents[1] / "README.md"


def _curl_session(page: Path) -> str:
    """The one shell block with curl of ``page``, with the game id of the example replaced by $GAME
    (given by the test) and its ``export`` line (the reader's URL and token) left out."""
    blocks = re.findall(r"```sh\n(.*?)```", page.read_text(), flags=re.S)
    (session,) = [b for b in blocks if "curl" in b]
    lines = [line for line in session.splitlines() if not line.startswith("export ")]
    return "\n".join(re.sub(r"^GAME=\S+", "GAME=$THE_GAME", line) for line in lines) + "\n"


def _answers(output: str) -> list[Any]:
    """The JSON answers printed, one a line (``curl -w '\\n'``), in order."""
    return [json.loads(line) for line in output.splitlines() if line.strip()]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("page", [README, DOCS], ids=["README", "docs-api"])
def test_the_curl_session_lists_my_games_their_legal_actions_and_moves(
    live_server: Any, toy_engine: str, users: list[Any], tmp_path: Path, page: Path
) -> None:
    game = game_lifecycle.game_create(creator=users[0], engine=toy_engine, players=2, bots=1)
    version = Game.objects.get(pk=game.pk).version
    _, token = token_create(user=users[0], name="curl")
    script = tmp_path / "session.sh"
    script.write_text(_curl_session(page))

    done = subprocess.run(
        ["bash", "-eu", str(script)],
        env={**os.environ, "BAOGAME_URL": live_server.url, "BAOGAME_TOKEN": token, "THE_GAME": str(game.pk)},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    listed, legal, moved = _answers(done.stdout)
    assert [g["id"] for g in listed] == [game.pk]  # waiting for me: the one game, my turn
    assert legal["actions"]
    assert moved["version"] > version and moved["replayed"] is False
    assert Game.objects.get(pk=game.pk).moves.filter(seat=0).exists()


def test_the_readme_and_the_api_page_show_the_same_session() -> None:
    assert _curl_session(README) == _curl_session(DOCS)
