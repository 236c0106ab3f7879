"""``apps.api.rendering.rendered``: an answer's body through its output serializer, with the fields made once
per class, is what DRF's ``.data`` gives; a serializer whose fields read more than their value is left to
DRF each time."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework import serializers
from rest_framework.fields import CurrentUserDefault
from rest_framework.utils.serializer_helpers import ReturnDict, ReturnList

from apps.api import rendering
from apps.api.rendering import rendered
from apps.api.serializers import GameSummarySerializer
from apps.api.views_games import GameDetailApi, GameListApi
from apps.games.models import Game


class _Seat(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    since = serializers.DateTimeField(allow_null=True)


class _Table(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.FloatField(allow_null=True)
    seats = _Seat(many=True)
    head = _Seat(allow_null=True)
    tags = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField()
    view = serializers.JSONField(allow_null=True)
    renamed = serializers.CharField(source="title")
    optional = serializers.CharField(required=False)


def _table(number: int) -> dict[str, Any]:
    seat = {"position": number, "name": f"p{number}", "since": datetime(2026, 12, 6, 18, number, tzinfo=UTC)}
    return {
        "id": number,
        "status": "active",
        "score": number / 3,
        "seats": [seat, {"position": 9, "name": None, "since": None}],
        "head": seat if number % 2 else None,
        "tags": ["a", str(number)],
        "options": {"deals": number},
        "view": {"hand": None, "n": [number]},
        "title": f"Table {number}",
    }


def test_a_body_renders_as_drf_renders_it_and_the_serializer_goes_with_it() -> None:
    for number in (1, 2, 3):
        body = _table(number)
        expected = _Table(body).data
        got = rendered(_Table, body)
        assert type(got) is ReturnDict and got == expected and list(got) == list(expected)
        assert type(got.serializer) is _Table and got.serializer.instance is body
    assert rendering._templates[_Table] is not None  # the fields were made once


def test_many_bodies_render_as_a_list_serializer_renders_them() -> None:
    bodies = [_table(1), _table(2)]
    got = rendered(_Table, bodies, many=True)
    assert type(got) is ReturnList and got == _Table(bodies, many=True).data
    assert isinstance(got.serializer, serializers.ListSerializer)


def test_an_answer_rendered_earlier_is_not_changed_by_a_later_one() -> None:
    first = rendered(_Table, _table(1))
    kept = {**first, "seats": [dict(s) for s in first["seats"]]}
    rendered(_Table, _table(2))
    assert first == kept


def test_a_time_is_rendered_in_the_time_zone_of_each_request() -> None:
    body = _table(1)
    with timezone.override(zoneinfo.ZoneInfo("Asia/Shanghai")):
        shanghai = rendered(_Table, body)["seats"][0]["since"]
        assert shanghai == _Table(body).data["seats"][0]["since"]
    with timezone.override(zoneinfo.ZoneInfo("America/New_York")):
        new_york = rendered(_Table, body)["seats"][0]["since"]
    assert shanghai.endswith("+08:00") and new_york.endswith("-05:00")


def test_a_change_of_drfs_settings_is_followed() -> None:
    body = _table(1)
    rendered(_Table, body)
    with override_settings(REST_FRAMEWORK={"DATETIME_FORMAT": "%Y"}):
        assert rendered(_Table, body)["seats"][0]["since"] == "2026"
    assert rendered(_Table, body)["seats"][0]["since"] != "2026"


class _WithMethod(serializers.Serializer):
    id = serializers.IntegerField()
    double = serializers.SerializerMethodField()

    def get_double(self, body: dict[str, Any]) -> int:
        return int(body["id"]) * 2


class _WithContextDefault(serializers.Serializer):
    id = serializers.IntegerField()
    who = serializers.CharField(default=CurrentUserDefault())


class _WithOwnRepresentation(serializers.Serializer):
    id = serializers.IntegerField()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return {"id": -int(instance["id"])}


class _Upper(serializers.CharField):
    def to_representation(self, value: Any) -> str:
        return str(value).upper()


class _WithOwnField(serializers.Serializer):
    name = _Upper()


class _WithImpureNested(serializers.Serializer):
    inner = _WithMethod(many=True)


class _GameModel(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = ["id", "title"]


@pytest.mark.parametrize(
    ("serializer_class", "body"),
    [
        (_WithMethod, {"id": 2}),
        (_WithOwnRepresentation, {"id": 2}),
        (_WithOwnField, {"name": "ann"}),
        (_WithImpureNested, {"inner": [{"id": 1}, {"id": 4}]}),
        (_GameModel, Game(id=3, title="t")),
    ],
)
def test_a_serializer_whose_fields_read_more_than_their_value_is_left_to_drf(
    serializer_class: type[serializers.Serializer], body: Any
) -> None:
    assert rendered(serializer_class, body) == serializer_class(body).data
    assert rendering._templates[serializer_class] is None


def test_a_default_from_the_request_is_left_to_drf() -> None:
    rendered(_WithContextDefault, {"id": 1, "who": "ann"})
    assert rendering._templates[_WithContextDefault] is None


def test_no_body_is_left_to_drf() -> None:
    assert rendered(_Table, None) == _Table(None).data


@pytest.mark.parametrize(
    "serializer_class",
    [GameSummarySerializer, GameListApi.CreatedSerializer, GameDetailApi.OutputSerializer],
)
def test_a_new_tables_answers_and_a_games_detail_take_the_made_fields(
    serializer_class: type[serializers.Serializer],
) -> None:
    """The answers of every new table (creation, join) and the detail a bot reads are the ones this is
    for: each of their fields renders only its value."""
    assert rendering._template(serializer_class) is not None
