"""``manage.py verify_games [--game ID]``: its report, JSON line and exit status."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from apps.games.models import Game
from tests.factories import UserFactory
from tests.support.played import a_seeded_game

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[int, list[str]]:
    """Run the command; its exit status and output lines."""
    out = io.StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


@pytest.fixture
def games() -> list[Game]:
    user = UserFactory()
    return [
        a_seeded_game(engine="baobei", players=3, user=user, seed=f"verify-{i}", title=f"g{i}")
        for i in range(2)
    ]


def test_every_game_matching_exits_0_with_a_summary_and_a_json_line(games):
    status, lines = run()

    assert status == 0
    assert lines[-2] == "verified 2 games: 2 match, 0 differ"
    assert json.loads(lines[-1]) == {"games": 2, "matching": 2, "differing": 0, "discrepancies": []}


def test_a_tampered_game_exits_1_and_is_named_in_the_report_and_the_json(games):
    tampered = games[1]
    Game.objects.filter(pk=tampered.pk).update(state={**tampered.state, "round": 7})

    status, lines = run()

    assert status == 1
    assert lines[0] == f"game {tampered.pk}: state_differs: stored state differs from the replay in: round"
    report = json.loads(lines[-1])
    assert (report["games"], report["matching"], report["differing"]) == (2, 1, 1)
    assert report["discrepancies"] == [
        {
            "game": tampered.pk,
            "problems": [
                {
                    "code": "state_differs",
                    "detail": "stored state differs from the replay in: round",
                    "seq": None,
                }
            ],
        }
    ]


def test_game_option_checks_only_that_game(games):
    Game.objects.filter(pk=games[1].pk).update(state={**games[1].state, "round": 7})

    status, lines = run("--game", str(games[0].pk))

    assert status == 0
    assert json.loads(lines[-1])["games"] == 1


def test_unknown_game_id_is_an_error_with_status_2(games):
    with pytest.raises(CommandError) as raised:
        run("--game", "999999")

    assert raised.value.returncode == 2
    assert "no such game: 999999" in str(raised.value)
