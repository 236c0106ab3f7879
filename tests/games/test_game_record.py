"""A finished game's full record (seed, moves, result) as one JSON file, downloadable
from its page and the API, which ``manage.py verify_games --file`` replays and checks."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from apps.games import records
from apps.games.models import Game
from tests.factories import UserFactory
from tests.support.played import a_seeded_game, play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished() -> tuple[Game, Any]:
    user = UserFactory()
    game = play_to_the_end(a_seeded_game(engine="baobei", players=3, user=user, seed="record-1"))
    assert game.status == Game.Status.FINISHED
    return game, user


def run(*args: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


def test_the_page_download_is_a_record_that_verify_games_file_accepts(
    finished: tuple[Game, Any], tmp_path: Path
) -> None:
    game, user = finished
    client = Client()
    client.force_login(user)

    response = client.get(f"/games/{game.public_id}/record.json")

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.public_id}.json"'
    record = json.loads(response.content)
    assert record["format"] == records.FORMAT
    assert record["game"]["seed"] == "record-1" and record["game"]["result"] == game.result
    assert len(record["moves"]) == game.version
    path = tmp_path / "record.json"
    path.write_bytes(response.content)
    status, lines = run("--file", str(path))
    assert status == 0
    assert lines[-2] == "verified 1 record: 1 match, 0 differ"
    assert json.loads(lines[-1])["matching"] == 1


def test_the_api_serves_the_same_record(finished: tuple[Game, Any]) -> None:
    game, user = finished
    api = APIClient()
    api.force_authenticate(user)

    response = api.get(f"/api/v1/games/{game.pk}/record/")

    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(records.game_record(game)))


@pytest.mark.parametrize(
    ("tamper", "code"),
    [
        (lambda r: r["moves"][3].update(action={**r["moves"][3]["action"], "slots": [0, 2]}), None),
        (lambda r: r["game"].update(seed="another"), "seed_hash_differs"),
        (lambda r: r["game"]["result"].update(winners=[9]), "result_differs"),
        (lambda r: r["moves"].pop(), "status_differs"),
        (lambda r: r["moves"][5]["events"].append({"type": "forged", "visible_to": "all"}), "events_differ"),
    ],
)
def test_a_tampered_record_is_refused_by_replay(
    finished: tuple[Game, Any], tmp_path: Path, tamper: Any, code: str | None
) -> None:
    game, _ = finished
    record = records.game_record(game)
    record = json.loads(json.dumps(record))
    tamper(record)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record))

    status, lines = run("--file", str(path))

    assert status == 1
    problems = json.loads(lines[-1])["discrepancies"][0]["problems"]
    if code is not None:
        assert code in {p["code"] for p in problems}


def test_no_record_while_the_game_is_in_play_nor_for_strangers_of_a_private_game() -> None:
    user = UserFactory()
    game = a_seeded_game(engine="baobei", players=3, user=user, seed="record-2")
    client = Client()
    client.force_login(user)

    assert client.get(f"/games/{game.public_id}/record.json").status_code == 404
    with pytest.raises(ValueError):
        records.game_record(game)

    play_to_the_end(game)
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PRIVATE)
    assert Client().get(f"/games/{game.public_id}/record.json").status_code == 404
    assert client.get(f"/games/{game.public_id}/record.json").status_code == 200


def test_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "nonsense.json"
    path.write_text('{"format": "something else"}')

    with pytest.raises(CommandError) as exc:
        call_command("verify_games", "--file", str(path), stdout=io.StringIO())

    assert exc.value.returncode == 2
