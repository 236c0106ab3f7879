"""The depth bound on JSON from outside (``baogame/jsonlimits.py``)."""

from __future__ import annotations

import json

import pytest

from baogame.jsonlimits import MAX_DEPTH, JsonTooDeep, check_depth


def nested(levels: int, inside: str = "1") -> str:
    return "[" * levels + inside + "]" * levels


@pytest.mark.parametrize("levels", [0, 1, MAX_DEPTH - 1, MAX_DEPTH])
def test_json_up_to_the_bound_is_taken_with_or_without_its_text(levels: int) -> None:
    text = nested(levels)

    assert check_depth(json.loads(text)) == check_depth(json.loads(text), text) == json.loads(text)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 2 * MAX_DEPTH])
def test_json_past_the_bound_is_refused_with_or_without_its_text(levels: int) -> None:
    text = nested(levels)

    with pytest.raises(JsonTooDeep):
        check_depth(json.loads(text))
    with pytest.raises(JsonTooDeep):
        check_depth(json.loads(text), text)


def test_brackets_inside_strings_do_not_let_deep_json_through() -> None:
    """The text's brackets bound the depth from above: those inside strings only make the walk run."""
    shallow = json.dumps({"a": "[" * (2 * MAX_DEPTH)})
    deep = json.dumps({"a": json.loads(nested(MAX_DEPTH)), "b": "{}"})

    assert check_depth(json.loads(shallow), shallow) == json.loads(shallow)
    with pytest.raises(JsonTooDeep):
        check_depth(json.loads(deep), deep)
