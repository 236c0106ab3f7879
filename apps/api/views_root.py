"""``GET /api/v1/``: the API's front door, so that its own address answers (README, "Where things are")."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .rendering import rendered
from .throttling import AnonymousReadThrottle, WriteRateThrottle

#: What the front door points to: (key, path from the site's root).
LINKS = (
    ("docs", "/api/docs/"),
    ("schema", "/api/schema/"),
    ("tokens", "/api/tokens/"),
    ("me", "/api/v1/me/"),
    ("games", "/api/v1/games/"),
    ("watch", "/api/v1/games/watch/"),
    ("leagues", "/api/v1/leagues/"),
)


class ApiRootApi(APIView):
    """Where the API's documentation, schema and token page are, and its main collections. Like the
    watch list it needs no sign-in; anonymous callers are throttled per address."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousReadThrottle, WriteRateThrottle]

    class OutputSerializer(serializers.Serializer):
        version = serializers.CharField(help_text="The API's version: v1.")
        docs = serializers.URLField(help_text="The documentation, for people.")
        schema = serializers.URLField(help_text="The OpenAPI 3 schema (?format=json for JSON).")
        tokens = serializers.URLField(help_text="The page where a signed-in person makes API tokens.")
        me = serializers.URLField()
        games = serializers.URLField()
        watch = serializers.URLField()
        leagues = serializers.URLField()

    @extend_schema(operation_id="api_root", responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        body = {"version": "v1", **{key: request.build_absolute_uri(path) for key, path in LINKS}}
        return Response(rendered(self.OutputSerializer, body))
