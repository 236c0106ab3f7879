"""``/api/v1/me/webhooks/``: a person's or a bot account's webhooks (list, register, remove, switch on)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.http import AuthenticatedRequest
from apps.api.inputs import JsonInput, parsed
from apps.games.errors import ServiceError

from . import services, urlguard
from .models import WebhookEndpoint


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    active = serializers.BooleanField()
    failures = serializers.IntegerField(help_text="Failed attempts in a row.")
    disabled_at = serializers.DateTimeField(allow_null=True)
    disabled_reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class NewWebhookSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="The signing secret: shown only in this answer.")


def _row(endpoint: WebhookEndpoint) -> dict[str, Any]:
    fields = ("id", "url", "active", "failures", "disabled_at", "disabled_reason", "created_at")
    return {f: getattr(endpoint, f) for f in fields}


class WebhookListApi(APIView):
    """My webhooks (GET) and registering one (POST: ``url`` and, optionally, ``secret``)."""

    class InputSerializer(JsonInput):
        url = serializers.CharField(max_length=500)
        secret = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")

    @extend_schema(operation_id="webhooks_list", responses=WebhookSerializer(many=True))
    def get(self, request: AuthenticatedRequest) -> Response:
        rows = WebhookEndpoint.objects.filter(user=request.user)
        return Response(WebhookSerializer([_row(e) for e in rows], many=True).data)

    @extend_schema(
        operation_id="webhooks_create", request=InputSerializer, responses={201: NewWebhookSerializer}
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        try:
            endpoint = services.endpoint_create(user=request.user, **values)
        except urlguard.UrlRefused as exc:
            raise ServiceError(exc.code, exc.message) from None
        except ValueError as exc:
            raise ServiceError("invalid", str(exc)) from None
        body = {**_row(endpoint), "secret": endpoint.secret}
        return Response(NewWebhookSerializer(body).data, status=status.HTTP_201_CREATED)


class WebhookDetailApi(APIView):
    """Remove one of my webhooks (DELETE) or switch a disabled one on again (POST)."""

    @extend_schema(operation_id="webhooks_delete", responses={204: None})
    def delete(self, request: AuthenticatedRequest, endpoint_id: int) -> Response:
        try:
            services.endpoint_delete(user=request.user, endpoint_id=endpoint_id)
        except WebhookEndpoint.DoesNotExist:
            raise ServiceError("not_found", "no such webhook", status=404) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="webhooks_enable", request=None, responses=WebhookSerializer)
    def post(self, request: AuthenticatedRequest, endpoint_id: int) -> Response:
        try:
            endpoint = services.endpoint_enable(user=request.user, endpoint_id=endpoint_id)
        except WebhookEndpoint.DoesNotExist:
            raise ServiceError("not_found", "no such webhook", status=404) from None
        return Response(WebhookSerializer(_row(endpoint)).data)
