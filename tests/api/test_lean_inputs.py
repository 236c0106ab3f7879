"""The move and ``/legal`` read a plain query or body without making their serializers
(``QueryInput.quick``, ``plain_action``); what they read must be exactly what the serializers give,
and anything else must go to the serializers (which parse it or refuse it with their own words)."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import QueryDict

from apps.api.plainmove import plain_action
from apps.api.views_games import GameLegalApi, MoveSubmitApi


def _validated(serializer: Any, data: Any) -> dict[str, Any] | None:
    parsed = serializer(data=data)
    return dict(parsed.validated_data) if parsed.is_valid() else None


QUERIES = [
    "", "offset=0", "limit=1", "limit=2000", "offset=10000000&limit=7", "limit=0", "limit=2001",
    "offset=-1", "offset=10000001", "limit=1.0", "limit=", "limit=+3", "limit=٣", "limit=%203",
    "limit=3&limit=4", "other=1", "legal=30", "legal=2001", "legal=30&fields=events", "fields=",
    "legal=0", "legal=007", "legal=99999999999999999999", "fields=decisions,legal",
    "fields=%20events%20,,legal", "legal=30&fields=decisions,legal", "fields=bogus", "fields=events,bogus",
    "fields=%20", "fields=events%00", "fields=events&fields=legal", "offset=1&fields=events",
]  # fmt: skip


@pytest.mark.parametrize("serializer", [GameLegalApi.FilterSerializer, MoveSubmitApi.QuerySerializer])
@pytest.mark.parametrize("query", QUERIES)
def test_a_quick_query_is_what_the_serializer_validates_or_left_to_it(serializer: Any, query: str) -> None:
    data = QueryDict(query)
    quick = serializer.quick(data)

    if quick is not None:
        validated = _validated(serializer, data)
        assert validated is not None and quick == validated
        assert [type(v) for v in quick.values()] == [type(v) for v in validated.values()]


@pytest.mark.parametrize(
    ("serializer", "query"),
    [
        (GameLegalApi.FilterSerializer, ""),
        (GameLegalApi.FilterSerializer, "offset=5&limit=30"),
        (MoveSubmitApi.QuerySerializer, "legal=30"),
        (MoveSubmitApi.QuerySerializer, ""),
        (MoveSubmitApi.QuerySerializer, "legal=30&fields=decisions,legal"),
        (MoveSubmitApi.QuerySerializer, "fields=%20events%20,,legal"),
    ],
)
def test_what_clients_send_takes_the_quick_way(serializer: Any, query: str) -> None:
    quick = serializer.quick(QueryDict(query))

    assert quick is not None and quick == _validated(serializer, QueryDict(query))


@pytest.mark.parametrize("query", ["fields=", "fields=bogus", "fields=events%00", "fields=%20"])
def test_a_reply_field_the_move_does_not_know_is_left_to_the_serializer(query: str) -> None:
    assert MoveSubmitApi.QuerySerializer.quick(QueryDict(query)) is None
    assert _validated(MoveSubmitApi.QuerySerializer, QueryDict(query)) is None


BODIES: list[Any] = [
    {"action": {"type": "pluck", "card": 12}},
    {"action": {}},
    {"action": {"type": "play", "cards": [1, 2], "nested": {"a": None}}, "extra": 1},
    {"action": None},
    {"action": []},
    {"action": "pass"},
    {},
]


@pytest.mark.parametrize("body", BODIES)
def test_a_plain_action_is_what_the_move_serializer_validates_or_left_to_it(body: dict[str, Any]) -> None:
    quick = plain_action(body)
    validated = _validated(MoveSubmitApi.InputSerializer, body)

    if isinstance(body.get("action"), dict):
        assert validated is not None and quick == validated["action"]
        assert quick is not body["action"]  # a copy, as the serializer's
    else:
        assert quick is None
