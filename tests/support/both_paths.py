"""Running a module's tests on both of the store's paths: the hand SQL (``GAMES_HAND_SQL``) and the ORM.

``from tests.support.both_paths import both_paths`` in a test module makes every test there run twice;
``model_values`` is what compares a model read one way with the same row read the other."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(name="hand_sql", autouse=True, params=[True, False], ids=["hand_sql", "orm"])
def both_paths(request: pytest.FixtureRequest, settings: Any) -> bool:
    """Every test runs on both paths (a test asks for ``hand_sql`` to know which one it is on)."""
    settings.GAMES_HAND_SQL = request.param
    return bool(request.param)


def model_values(obj: Any) -> dict[str, Any]:
    """Every stored field's value of a model instance, by attribute name."""
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
