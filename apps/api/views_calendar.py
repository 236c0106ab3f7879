"""My calendar of deadlines: its secret iCalendar address (GET) and a new one that voids the old (POST)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.notifications import calendar

from .rendering import rendered


class CalendarApi(APIView):
    """The secret address of my calendar feed (deadlines of my open decisions, my leagues' next rounds)."""

    class OutputSerializer(serializers.Serializer):
        url = serializers.URLField(
            allow_null=True, help_text="The iCalendar address to subscribe to; null until one is made."
        )

    @extend_schema(operation_id="me_calendar_retrieve", responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest) -> Response:
        feed = calendar.feed_get(user=request.user)
        return Response(rendered(self.OutputSerializer, {"url": calendar.feed_url(feed) if feed else None}))

    @extend_schema(operation_id="me_calendar_regenerate", request=None, responses={201: OutputSerializer})
    def post(self, request: AuthenticatedRequest) -> Response:
        feed = calendar.feed_regenerate(user=request.user)
        return Response(
            rendered(self.OutputSerializer, {"url": calendar.feed_url(feed)}), status=status.HTTP_201_CREATED
        )
