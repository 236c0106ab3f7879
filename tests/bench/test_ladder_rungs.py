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
