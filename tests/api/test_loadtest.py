"""The load benchmark (``manage.py loadtest``) runs end to end: gunicorn, real clients, its JSON line.

Only behaviour is checked here (moves were played, nothing failed, the run cleaned up after itself);
the figures are the benchmark's business, not a test's.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.conftest import requires_postgres

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]

REQUIRED_KEYS = {
    "clients", "moves", "seconds", "moves_per_s", "p50_ms", "p95_ms", "p99_ms", "cpu_ms_per_post",
    "cpu_ms_per_legal",
}  # fmt: skip


@pytest.mark.parametrize("rate", [0.0, 40.0], ids=["closed-loop", "paced"])
def test_loadtest_plays_api_games_under_gunicorn_and_prints_its_json_line(rate: float) -> None:
    out = StringIO()

    call_command("loadtest", clients=2, seconds=2.0, warmup=0.5, rate=rate, workers=2, stdout=out)

    lines = out.getvalue().splitlines()
    result = json.loads(lines[-1])
    assert result.keys() >= REQUIRED_KEYS
    assert result["clients"] == 2
    assert result["moves"] > 0 and result["games"] > 0
    assert result["errors"] == 0
    assert result["worker_class"] == "sync"
    assert any(line.startswith("cleaned up:") for line in lines)
    assert not get_user_model().objects.filter(username__startswith="loadtest-").exists()


def test_loadtest_reads_measures_the_legal_read_a_move_needs_and_its_ceiling() -> None:
    """``--reads``: after a warm-up of moves (which counts the reads a move takes), the clients only
    ask ``/legal``; the ceiling is the reads per second over one POST plus that many reads."""
    out = StringIO()

    call_command("loadtest", clients=2, seconds=1.5, warmup=0.5, rate=0.0, workers=2, reads=True, stdout=out)

    lines = out.getvalue().splitlines()
    result = json.loads(lines[-1])
    assert result["mode"] == "reads"
    assert result["reads"] > 0 and result["errors"] == 0
    assert result["warmup_moves"] > 0 and result["legal_per_move"] > 0
    assert result["move_ceiling_per_s"] == pytest.approx(
        result["reads_per_s"] / (1 + result["legal_per_move"]), rel=0.01
    )
    assert result["move_ceiling_per_s"] < result["reads_per_s"]
    assert not get_user_model().objects.filter(username__startswith="loadtest-").exists()


def test_loadtest_gives_the_cpu_per_post_and_per_read_and_their_ratio_to_the_floor() -> None:
    """gunicorn's CPU per move POST and per /legal read, each with its share of the CPU outside
    requests, and with the floor's JSON line the ratios to its CPU per request and requests/s."""
    out = StringIO()
    floor = '{"floor_requests_per_s": 1000.0, "floor_cpu_ms_per_request": 0.5, "non_2xx": 0}'

    call_command("loadtest", clients=2, seconds=2.0, warmup=0.5, rate=0.0, workers=2, floor=floor, stdout=out)

    result = json.loads(out.getvalue().splitlines()[-1])
    assert result["cpu_ms_per_post"] > result["cpu_ms_outside_per_request"] >= 0
    assert result["cpu_ms_per_legal"] > result["cpu_ms_outside_per_request"]
    assert result["post_to_floor"] == pytest.approx(result["cpu_ms_per_post"] / 0.5, abs=0.01)
    assert result["legal_to_floor"] == pytest.approx(result["cpu_ms_per_legal"] / 0.5, abs=0.01)
    assert result["moves_to_floor_requests"] == pytest.approx(result["moves_per_s"] / 1000.0, abs=0.001)
