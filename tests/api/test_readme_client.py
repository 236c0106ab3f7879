"""The API docs page's plain-Python client really plays: run it against a live server until the game ends."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from apps.api.services import token_create
from apps.games import lifecycle as game_lifecycle
from apps.games.models import Game

README = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _client_source() -> str:
    """The one Python block of the API docs page that talks to the API."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    (client,) = [b for b in blocks if "BAOGAME_TOKEN" in b]
    return client


@pytest.mark.django_db(transaction=True)
def test_the_readme_client_plays_a_game_to_its_end(
    live_server: Any, toy_engine: str, users: list[Any], tmp_path: Path
) -> None:
    """Against a server bot (Celery runs eagerly in tests, so the bot answers within each request)."""
    game = game_lifecycle.game_create(creator=users[0], engine=toy_engine, players=2, bots=1)
    _, token = token_create(user=users[0], name="readme")
    script = tmp_path / "play.py"
    script.write_text(_client_source())

    done = subprocess.run(
        [sys.executable, str(script), str(game.pk)],
        env={**os.environ, "BAOGAME_URL": live_server.url, "BAOGAME_TOKEN": token},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    assert "game over:" in done.stdout
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert re.search(r"^201 \{", done.stdout, flags=re.M)  # it printed its accepted moves
