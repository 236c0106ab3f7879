"""HTML pages of the api app: personal API tokens and bot accounts; the API documentation page."""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from drf_spectacular.generators import SchemaGenerator

from apps.accounts.http import AuthenticatedHttpRequest
from apps.games.errortext import refusal
from baogame.rules.core import RuleError

from . import selectors, services

_schema_cache: dict[str, Any] = {}


def _page(request: AuthenticatedHttpRequest, **extra: Any) -> HttpResponse:
    context = {
        "tokens": selectors.token_list(user=request.user),
        "bots": selectors.bot_account_list(owner=request.user),
        "is_bot": getattr(getattr(request.user, "profile", None), "is_bot_account", False),
        **extra,
    }
    return render(request, "api/tokens.html", context)


@login_required
def tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List my tokens and bot accounts; create a token (its secret is shown on this answer only)."""
    if request.method == "POST":
        try:
            token, raw = services.token_create(user=request.user, name=request.POST.get("name", ""))
        except RuleError as exc:
            messages.error(request, refusal(exc))
            return redirect("api:tokens")
        return _page(request, new_token=raw, new_token_name=token.name)
    return _page(request)


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of my tokens or of my bots' tokens."""
    try:
        services.token_revoke(user=request.user, token_id=token_id)
        messages.success(request, _("Token revoked."))
    except RuleError as exc:
        messages.error(request, refusal(exc))
    return redirect("api:tokens")


@login_required
@require_POST
def bot_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a bot account owned by me."""
    try:
        bot = services.bot_account_create(
            owner=request.user,
            username=request.POST.get("username", "").strip(),
            display_name=request.POST.get("display_name", "").strip(),
        )
        messages.success(
            request,
            _("Bot account %(name)s created. Give it a token to play it.") % {"name": bot.get_username()},
        )
    except RuleError as exc:
        messages.error(request, refusal(exc))
    return redirect("api:tokens")


@login_required
@require_POST
def bot_token_create(request: AuthenticatedHttpRequest, bot_id: int) -> HttpResponse:
    """Create a token for one of my bot accounts; the secret is shown on this answer only."""
    try:
        token, raw = services.bot_token_create(
            owner=request.user, bot_id=bot_id, name=request.POST.get("name", "") or "bot"
        )
    except RuleError as exc:
        messages.error(request, refusal(exc))
        return redirect("api:tokens")
    return _page(request, new_token=raw, new_token_name=f"{token.user.get_username()}: {token.name}")


def docs(request: HttpRequest) -> HttpResponse:
    """The API documentation, rendered on the server from the OpenAPI schema (no CDN scripts)."""
    language = get_language() or ""  # the schema speaks its reader's language: one cached per language
    if language not in _schema_cache:
        _schema_cache[language] = SchemaGenerator().get_schema(request=None, public=True)
    schema = _schema_cache[language]
    operations = []
    for path, item in schema.get("paths", {}).items():
        for method, op in item.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            responses = []
            for code, response in sorted(op.get("responses", {}).items()):
                content = response.get("content", {}).get("application/json", {}).get("schema")
                responses.append(
                    {
                        "code": code,
                        "description": _prose(response.get("description", "")),
                        "schema": _ref(content),
                    }
                )
            operations.append(
                {
                    "id": op.get("operationId", ""),
                    "method": method.upper(),
                    "path": path,
                    "description": _prose(op.get("description", "")),
                    "parameters": [
                        {**parameter, "description": _prose(parameter.get("description", ""))}
                        for parameter in op.get("parameters", [])
                    ],
                    "body": _ref(body),
                    "responses": responses,
                }
            )
    components = {
        name: json.dumps(value, indent=2, default=str)
        for name, value in sorted(schema.get("components", {}).get("schemas", {}).items())
    }
    return render(
        request,
        "api/docs.html",
        {"info": schema.get("info", {}), "operations": operations, "components": components},
    )


_CODE_SPAN = re.compile(r"``([^\n]+?)``|`([^`\n]+)`")


def _prose(text: str) -> SafeString:
    """A description of the schema as HTML: escaped, its code spans (`x`, ``x``) as code and its
    line breaks kept (an enum's list, "* `live` - live" a line, ran together on one line)."""
    html = _CODE_SPAN.sub(lambda m: f"<code>{m[1] or m[2]}</code>", escape(text.strip()))
    return mark_safe(html.replace("\n", "<br>"))  # noqa: S308 - escaped above


def _ref(schema: dict[str, Any] | None) -> str:
    """A schema as its component name (``Foo``, ``Foo[]``), or its JSON when inline."""
    if not schema:
        return ""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if schema.get("type") == "array" and "$ref" in schema.get("items", {}):
        return schema["items"]["$ref"].rsplit("/", 1)[-1] + "[]"
    return json.dumps(schema, default=str)
