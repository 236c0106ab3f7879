"""Account endpoints: me, API tokens, bot accounts, notification preferences."""

from __future__ import annotations

from datetime import time
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.closing import account_close
from apps.accounts.forms import ProfileForm
from apps.accounts.http import AuthenticatedRequest
from apps.accounts.models import Profile
from apps.games.errors import ServiceError
from apps.notifications import preferences as notification_preferences
from apps.notifications import selectors as notification_selectors

from . import selectors, services
from .inputs import JsonInput, parsed
from .rendering import rendered


class MeCloseApi(APIView):
    """Close my account for good (``accounts.closing``): I leave my leagues, my addresses, name, tokens,
    webhooks and browsers are deleted; 204 once that is done, and the account (this token too) is
    unusable. My games are let go of right after, one at a time, within a few minutes: my seats in games
    in play go to the bot, those of games not started are free again."""

    class InputSerializer(JsonInput):
        password = serializers.CharField(
            max_length=4096, allow_blank=True, trim_whitespace=False, help_text="My password, to confirm."
        )

    @extend_schema(operation_id="me_close", request=InputSerializer, responses={204: None})
    def post(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        account_close(user=request.user, password=values["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    """Who I am (GET) and my display name and time zone (PATCH)."""

    class InputSerializer(JsonInput):
        display_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
        time_zone = serializers.CharField(max_length=64, required=False)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        username = serializers.CharField()
        display_name = serializers.CharField(allow_blank=True)
        time_zone = serializers.CharField()
        is_bot_account = serializers.BooleanField()
        bot_owner = serializers.IntegerField(allow_null=True, help_text="For a bot account: its owner's id.")

    def _body(self, profile: Profile) -> dict[str, Any]:
        return {
            "id": profile.user_id,
            "username": profile.user.get_username(),
            "display_name": profile.display_name,
            "time_zone": profile.time_zone,
            "is_bot_account": profile.is_bot_account,
            "bot_owner": profile.bot_owner_id,
        }

    @extend_schema(operation_id="me_retrieve", responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest) -> Response:
        profile, _ = Profile.objects.get_or_create(user=request.user)
        return Response(rendered(self.OutputSerializer, self._body(profile)))

    @extend_schema(operation_id="me_update", request=InputSerializer, responses=OutputSerializer)
    def patch(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        profile, _ = Profile.objects.get_or_create(user=request.user)
        form = ProfileForm(
            {"display_name": profile.display_name, "time_zone": profile.time_zone, **values},
            instance=profile,
        )
        if not form.is_valid():
            errors = form.errors.get_json_data()
            raise serializers.ValidationError({k: [e["message"] for e in v] for k, v in errors.items()})
        form.save()
        return Response(rendered(self.OutputSerializer, self._body(profile)))


class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The token's first characters.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class NewTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The secret: shown only in this answer, stored hashed.")


class TokenNameSerializer(JsonInput):
    name = serializers.CharField(max_length=60)


def _token_body(token: Any, raw: str | None = None) -> dict[str, Any]:
    body = {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": token.created_at,
        "last_used_at": token.last_used_at,
    }
    if raw is not None:
        body["token"] = raw
    return body


class TokenListApi(APIView):
    """My personal API tokens (GET) and a new one (POST; the secret is shown once)."""

    @extend_schema(operation_id="tokens_list", responses=TokenSerializer(many=True))
    def get(self, request: AuthenticatedRequest) -> Response:
        tokens = [_token_body(t) for t in selectors.token_list(user=request.user)]
        return Response(rendered(TokenSerializer, tokens, many=True))

    @extend_schema(
        operation_id="tokens_create", request=TokenNameSerializer, responses={201: NewTokenSerializer}
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        values = parsed(TokenNameSerializer, request.data)
        token, raw = services.token_create(user=request.user, name=values["name"])
        return Response(rendered(NewTokenSerializer, _token_body(token, raw)), status=status.HTTP_201_CREATED)


class TokenRevokeApi(APIView):
    """Revoke one of my tokens (or a token of a bot account I own)."""

    @extend_schema(operation_id="tokens_revoke", request=None, responses={204: None})
    def delete(self, request: AuthenticatedRequest, token_id: int) -> Response:
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotAccountListApi(APIView):
    """My bot accounts (GET) and a new one (POST): a user without password login, played by token."""

    class InputSerializer(JsonInput):
        username = serializers.CharField(max_length=40)
        display_name = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        username = serializers.CharField()
        display_name = serializers.CharField(allow_blank=True)
        tokens = TokenSerializer(many=True)

    def _body(self, bot: Any) -> dict[str, Any]:
        return {
            "id": bot.pk,
            "username": bot.get_username(),
            "display_name": bot.profile.display_name,
            "tokens": [_token_body(t) for t in bot.api_tokens.all()],
        }

    @extend_schema(operation_id="bots_list", responses=OutputSerializer(many=True))
    def get(self, request: AuthenticatedRequest) -> Response:
        bots = [self._body(b) for b in selectors.bot_account_list(owner=request.user)]
        return Response(rendered(self.OutputSerializer, bots, many=True))

    @extend_schema(operation_id="bots_create", request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        bot = services.bot_account_create(owner=request.user, **values)
        bot = selectors.bot_account_list(owner=request.user).get(pk=bot.pk)
        return Response(rendered(self.OutputSerializer, self._body(bot)), status=status.HTTP_201_CREATED)


class BotTokenCreateApi(APIView):
    """A new token for one of my bot accounts (the secret is shown once)."""

    @extend_schema(
        operation_id="bots_token_create", request=TokenNameSerializer, responses={201: NewTokenSerializer}
    )
    def post(self, request: AuthenticatedRequest, bot_id: int) -> Response:
        values = parsed(TokenNameSerializer, request.data)
        token, raw = services.bot_token_create(owner=request.user, bot_id=bot_id, name=values["name"])
        return Response(rendered(NewTokenSerializer, _token_body(token, raw)), status=status.HTTP_201_CREATED)


class NotificationCellSerializer(serializers.Serializer):
    mode = serializers.CharField(help_text="immediately, digest or off.")
    modes = serializers.ListField(child=serializers.CharField(), help_text="What this cell offers.")


class NotificationRowSerializer(serializers.Serializer):
    category = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key is "label"
    cells = serializers.DictField(
        child=NotificationCellSerializer(),
        help_text="Channel -> cell (absent: does not apply).",
    )


class NotificationPreferencesApi(APIView):
    """My notification preferences (GET): the mail mode per category (``categories``, as before), the
    Notifications table (``table``: rows by channel, cells immediately / digest / off), the digest
    hour, live games and quiet hours. PATCH changes one of them: ``category`` + ``mode`` (a mail
    category and a mode of ``modes``), or ``category`` + ``channel`` + ``mode`` (a table cell), the
    digest hour, live games, or ``quiet_hours`` (``{"start": "22:00", "end": "07:00"}``; null: none).
    """

    class QuietHoursSerializer(serializers.Serializer):
        start = serializers.TimeField(help_text="Local time, HH:MM.")
        end = serializers.TimeField(help_text="Local time, HH:MM; may be earlier than start (overnight).")

    class InputSerializer(JsonInput):
        category = serializers.CharField(
            max_length=40, required=False, help_text="A mail category, or a table row with ``channel``."
        )
        channel = serializers.ChoiceField(
            choices=list(notification_preferences.CHANNELS), required=False, help_text="A table column."
        )
        mode = serializers.CharField(
            max_length=20, required=False, help_text="One of ``modes`` (or a cell's)."
        )
        digest_hour = serializers.IntegerField(min_value=0, max_value=23, required=False)
        live_games = serializers.BooleanField(required=False, help_text="Also mail about live-timed games.")
        quiet_hours = serializers.JSONField(
            required=False, allow_null=True, help_text='{"start": "HH:MM", "end": "HH:MM"} or null.'
        )

    class OutputSerializer(serializers.Serializer):
        categories = serializers.DictField(child=serializers.CharField(), help_text="Category -> mode.")
        digest_hour = serializers.IntegerField(allow_null=True, help_text="Local hour of the daily digest.")
        live_games = serializers.BooleanField()
        modes = serializers.ListField(child=serializers.CharField())
        channels = serializers.ListField(child=serializers.CharField())
        table = NotificationRowSerializer(many=True, help_text="The Notifications table.")
        quiet_hours = serializers.DictField(allow_null=True, help_text="Local start and end, or null.")

    @extend_schema(operation_id="notification_preferences_retrieve", responses=OutputSerializer)
    def get(self, request: AuthenticatedRequest) -> Response:
        prefs = notification_selectors.preferences_get(user=request.user)
        return Response(rendered(self.OutputSerializer, prefs))

    @extend_schema(
        operation_id="notification_preferences_update", request=InputSerializer, responses=OutputSerializer
    )
    def patch(self, request: AuthenticatedRequest) -> Response:
        values = parsed(self.InputSerializer, request.data)
        if ("category" in values) != ("mode" in values):
            raise ServiceError("invalid", "category and mode go together")
        if "channel" in values and "category" not in values:
            raise ServiceError("invalid", "channel goes with category and mode")
        try:
            if "quiet_hours" in values:
                start, end = self._quiet_hours(values.pop("quiet_hours"))
                notification_preferences.quiet_hours_set(user=request.user, start=start, end=end)
            if "channel" in values:
                notification_preferences.cell_set(
                    user=request.user,
                    category=values.pop("category"),
                    channel=values.pop("channel"),
                    mode=values.pop("mode"),
                )
            notification_preferences.preferences_set(user=request.user, **values)
        except ValueError as exc:
            raise ServiceError("invalid", str(exc)) from None
        prefs = notification_selectors.preferences_get(user=request.user)
        return Response(rendered(self.OutputSerializer, prefs))

    def _quiet_hours(self, value: object) -> tuple[time | None, time | None]:
        if value is None:
            return None, None
        hours = self.QuietHoursSerializer(data=value)
        if not isinstance(value, dict) or not hours.is_valid():
            raise ServiceError("invalid", 'quiet_hours is {"start": "HH:MM", "end": "HH:MM"} or null')
        return hours.validated_data["start"], hours.validated_data["end"]
