"""The cost ladder's ``store`` rung mutes a move's signals and tasks by replacing the pipeline's
``signals`` and ``scheduling`` with stand-ins: every name the pipeline uses of them must be there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from apps.games import pipeline
from bench.ladder.rungs import mute_move_signals


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
