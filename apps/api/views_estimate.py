"""How long a game with given settings is expected to take (before it is created)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.games import estimates
from apps.games.clock.controls import CONTROL_NAMES, DEFAULT_CONTROL
from apps.games.models import Game

from .inputs import QueryInput, length_field, parsed
from .rendering import rendered


class EstimateSerializer(serializers.Serializer):
    days_typical = serializers.FloatField(help_text="The median duration in days.")
    days_p90 = serializers.FloatField(help_text="9 games in 10 finish within this many days.")
    # A declared field named like Field.source: DRF's metaclass takes it out of the class attributes.
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=[estimates.SITE, estimates.MODEL],
        help_text=f"site: from this site's finished games with the same settings (at least "
        f"{estimates.SITE_MINIMUM}); model: from the pace model (bench_pace).",
    )
    n = serializers.IntegerField(help_text="The games the figures come from.")
    sittings = serializers.BooleanField(
        help_text="The figures count on the table meeting at agreed weekly sittings (the pace model's "
        "sittings rows: two one-hour sittings a week)."
    )
    text = serializers.CharField(help_text="The estimate in words, as the pages show it.")


def estimate_body(found: estimates.Estimate) -> dict[str, Any]:
    """The API's ``estimate`` object."""
    return dict(rendered(EstimateSerializer, found.to_json()))


class EstimateApi(APIView):
    """The expected duration of a game: game, players, length and time control, as when creating one."""

    class FilterSerializer(QueryInput):
        game = serializers.ChoiceField(choices=Game.Engine.choices)
        players = serializers.IntegerField(
            required=False, allow_null=True, default=None, help_text="Default: the game's smallest table."
        )
        length = length_field(where="for the game", options="the query (e.g. deal_limit=4, threshold=60)")
        control = serializers.ChoiceField(choices=CONTROL_NAMES, default=DEFAULT_CONTROL)
        target_score = serializers.IntegerField(required=False)
        deal_limit = serializers.IntegerField(required=False)
        threshold = serializers.IntegerField(required=False)
        initial = serializers.IntegerField(required=False, help_text="A custom control's bank, in seconds.")
        increment = serializers.IntegerField(required=False, help_text="A custom control's increment (s).")
        cap = serializers.IntegerField(required=False, help_text="A custom control's cap (s).")
        sittings = serializers.BooleanField(
            required=False, default=False, help_text="The table means to meet at agreed weekly sittings."
        )

    @extend_schema(
        operation_id="estimate_retrieve", parameters=[FilterSerializer], responses=EstimateSerializer
    )
    def get(self, request: Request) -> Response:
        d = parsed(self.FilterSerializer, request.query_params)
        length_values: dict[str, Any] = {
            k: d[k] for k in ("target_score", "deal_limit", "threshold") if k in d
        }
        found = estimates.estimate_for(
            engine=d["game"],
            players=d["players"],
            length=d["length"],
            control=d["control"],
            options=length_values,
            custom={k: d[k] for k in ("initial", "increment", "cap") if k in d},
            sittings=d["sittings"],
        )
        return Response(estimate_body(found))
