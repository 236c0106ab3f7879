"""``bench_deadlines`` checks that every overdue decision got exactly one timeout move."""

from __future__ import annotations

import io
import json
from contextlib import nullcontext
from typing import Any

import pytest
from django.core.management import call_command

import bench.deadlines
from apps.games.models import Move

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _test_broker(monkeypatch) -> None:
    """Keep the tests' Celery set-up: the benchmark's own switch to the memory broker closes the app's
    producer pool, which the next tests would find closed (its games publish nothing anyway)."""
    monkeypatch.setattr(bench.deadlines, "_memory_broker", nullcontext)


def test_the_benchmark_reports_every_timeout_applied_exactly_once() -> None:
    out = io.StringIO()

    call_command("bench_deadlines", games=3, processes=1, stdout=out)

    figures = json.loads(out.getvalue().splitlines()[-1])
    assert figures["exactly_once"] is True
    assert figures["games"] == 3 and figures["decisions"] == figures["timeouts"] == 6  # two setup peeks each


def test_the_benchmark_fails_when_a_decision_timed_out_twice(monkeypatch) -> None:
    real_sweep = bench.deadlines.clock.sweep

    def sweep_that_doubles_one_timeout(**kwargs: Any) -> int:
        settled = real_sweep(**kwargs)
        move = Move.objects.filter(by_timeout=True).order_by("pk").first()
        move.pk, move.seq, move.public_seq = None, move.seq + 100, move.public_seq + 100
        move.save()
        return settled + 1

    monkeypatch.setattr(bench.deadlines.clock, "sweep", sweep_that_doubles_one_timeout)

    with pytest.raises(RuntimeError, match="not timed out exactly once: 1"):
        call_command("bench_deadlines", games=2, processes=1, stdout=io.StringIO())
