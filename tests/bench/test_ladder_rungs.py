"""The cost ladder's ``store`` rung mutes a move's signals and tasks by replacing the pipeline's
``signals`` and ``scheduling`` with stand-ins: every name the pipeline uses of them must be there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import RequestFactory

from apps.api.services import token_create
from apps.games import pipeline
from bench.ladder.command import summarized
from bench.ladder.rungs import _authenticated, mute_move_signals


def test_the_store_rungs_stand_ins_have_every_name_the_pipeline_uses(monkeypatch: Any) -> None:
    monkeypatch.setattr(pipeline, "signals", pipeline.signals)
    monkeypatch.setattr(pipeline, "scheduling", pipeline.scheduling)
    source = Path(pipeline.__file__).read_text()

    mute_move_signals()

    for module in ("signals", "scheduling"):
        used = set(re.findall(rf"\b{module}\.(\w+)", source))
        assert used, module
        missing = {name for name in used if not hasattr(getattr(pipeline, module), name)}
        assert not missing, f"{module}: {sorted(missing)}"


@pytest.mark.django_db
def test_the_auth_rung_finds_the_tokens_user_as_the_api_does(users: list[Any]) -> None:
    _, secret = token_create(user=users[0], name="ladder")
    factory = RequestFactory()

    assert _authenticated(factory.post("/", HTTP_AUTHORIZATION=f"Bearer {secret}")) == users[0]
    assert _authenticated(factory.post("/", HTTP_AUTHORIZATION="Bearer bg_not-a-token")) is None


def _run(rung: str, cpu: float, per_s: float = 100.0) -> dict[str, Any]:
    return {"rung": rung, "adds": "", "requests_per_s": per_s, "cpu_ms_per_request": cpu, "non_2xx": 0}


def test_rounds_give_each_rung_its_ratio_to_its_own_rounds_floor() -> None:
    """A machine that is half as fast in the second round doubles both of its figures: the ratios stay."""
    rounds = [
        [_run("floor", 1.0, 900), _run("site", 2.2, 400)],
        [_run("floor", 2.0, 450), _run("site", 4.6, 200)],
        [_run("floor", 1.1, 800), _run("site", 2.2, 390)],
    ]

    floor, site = summarized(rounds)

    assert site["ratios"] == [2.2, 2.3, 2.0]
    assert site["ratio"] == 2.2  # the median of the rounds' ratios, not the ratio of the medians
    assert (site["cpu_ms_per_request"], site["requests_per_s"]) == (2.2, 390)
    assert floor["ratios"] == [1.0, 1.0, 1.0] and floor["cpu_ms_per_request"] == 1.1
