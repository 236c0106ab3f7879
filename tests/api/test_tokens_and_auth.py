"""Personal API tokens, token authentication and bot accounts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from apps.api.models import ApiToken, token_digest
from tests.support.catalogue import stand_in_chinese

pytestmark = pytest.mark.django_db


def test_created_token_is_shown_once_and_stored_hashed(client_for: Any, users: list) -> None:
    client = client_for(users[0])

    created = client.post("/api/v1/tokens/", {"name": "laptop"}, format="json")
    listed = client.get("/api/v1/tokens/")

    secret = created.json()["token"]
    assert created.status_code == 201
    row = ApiToken.objects.get(pk=created.json()["id"])
    assert row.digest == token_digest(secret) and secret not in row.digest
    assert all("token" not in t for t in listed.json())
    assert {t["name"] for t in listed.json()} == {"tests", "laptop"}


def test_bearer_token_authenticates_its_user(users: list) -> None:
    client = APIClient()
    from apps.api.services import token_create

    _, raw = token_create(user=users[2], name="x")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")

    response = client.get("/api/v1/me/")

    assert response.status_code == 200
    assert response.json()["username"] == users[2].username


def test_revoked_token_no_longer_authenticates(client_for: Any, users: list) -> None:
    client = client_for(users[0])
    token_id = ApiToken.objects.get(user=users[0]).pk

    revoked = client.delete(f"/api/v1/tokens/{token_id}/")
    after = client.get("/api/v1/me/")

    assert revoked.status_code == 204
    assert after.status_code == 401
    assert after.json()["code"] == "authentication_failed"


def test_anonymous_request_gets_401_with_www_authenticate() -> None:
    response = APIClient().get("/api/v1/me/")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_cannot_revoke_another_users_token(client_for: Any, users: list) -> None:
    client_for(users[1])
    other = ApiToken.objects.get(user=users[1])

    response = client_for(users[0]).delete(f"/api/v1/tokens/{other.pk}/")

    assert response.status_code == 404
    assert ApiToken.objects.filter(pk=other.pk).exists()


def test_bot_account_is_created_without_password_and_played_by_its_token(
    client_for: Any, users: list
) -> None:
    owner = client_for(users[0])

    bot = owner.post("/api/v1/bots/", {"username": "robo1", "display_name": "Robo"}, format="json").json()
    token = owner.post(f"/api/v1/bots/{bot['id']}/tokens/", {"name": "main"}, format="json").json()["token"]
    as_bot = APIClient()
    as_bot.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    me = as_bot.get("/api/v1/me/").json()

    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.get(pk=bot["id"]).has_usable_password()
    assert me["is_bot_account"] is True and me["bot_owner"] == users[0].pk
    assert as_bot.post("/api/v1/bots/", {"username": "robo2"}, format="json").status_code == 403


def test_bot_token_cannot_be_made_by_someone_else(client_for: Any, users: list) -> None:
    bot = client_for(users[0]).post("/api/v1/bots/", {"username": "robo3"}, format="json").json()

    response = client_for(users[1]).post(f"/api/v1/bots/{bot['id']}/tokens/", {"name": "x"}, format="json")

    assert response.status_code == 404


def test_token_page_creates_a_token_and_shows_it_once(client: Any, users: list) -> None:
    client.force_login(users[0])

    created = client.post(reverse("api:tokens"), {"name": "script"})
    again = client.get(reverse("api:tokens"))

    token = ApiToken.objects.get(user=users[0], name="script")
    secret = created.context["new_token"]
    assert token.digest == token_digest(secret)
    assert secret in created.content.decode()
    assert secret not in again.content.decode() and token.prefix in again.content.decode()


def test_token_page_revokes_a_token(client: Any, users: list) -> None:
    from apps.api.services import token_create

    token, _ = token_create(user=users[0], name="old")
    client.force_login(users[0])

    client.post(reverse("api:token-revoke-page", args=[token.pk]))

    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_token_page_creates_a_bot_account_and_its_token(client: Any, users: list) -> None:
    client.force_login(users[0])

    client.post(reverse("api:bot-create-page"), {"username": "pagebot"})
    from django.contrib.auth import get_user_model

    bot = get_user_model().objects.get(username="pagebot")
    page = client.post(reverse("api:bot-token-page", args=[bot.pk]), {"name": "t"})

    assert bot.profile.is_bot_account and bot.profile.bot_owner == users[0]
    assert ApiToken.objects.get(user=bot).digest == token_digest(page.context["new_token"])


def test_docs_page_lists_every_operation_without_external_scripts(client: Any) -> None:
    response = client.get("/api/docs/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "/api/v1/games/{game_id}/actions/" in html
    assert not re.search(r"<(script|link)[^>]+(src|href)=[\"'](https?:)?//", html)


@pytest.mark.parametrize("header", [None, "Bearer bg_abc", "Token x y", "Bearer \u00e9t\u00e9"])
def test_the_authorization_header_is_read_as_drf_reads_it(header: str | None) -> None:
    """``authorization_header`` reads ``META``, DRF's helper ``request.headers``: the same bytes."""
    from django.test import RequestFactory
    from rest_framework.authentication import get_authorization_header

    from apps.api.authentication import authorization_header

    extra = {} if header is None else {"HTTP_AUTHORIZATION": header.encode("utf-8").decode("latin-1")}
    request = RequestFactory().post("/api/v1/games/1/actions/", **extra)

    assert authorization_header(request) == get_authorization_header(request)


def test_token_page_notices_are_in_the_readers_language(client: Any, users: list, monkeypatch: Any) -> None:
    """A Chinese reader's notices on the token page are Chinese: a refusal is the table's sentence with
    its code, and "Token revoked." and "Bot account … created." are marked strings (stand-ins until the
    catalogue has them), not English built in code."""
    from django.utils import translation

    from apps.api.services import token_create
    from apps.games.errortext import MESSAGES

    stand_ins = {
        "Token revoked.": "令牌已作废。",
        "Bot account %(name)s created. Give it a token to play it.": "机器人账户%(name)s已创建。",
    }
    stand_in_chinese(monkeypatch, stand_ins)
    users[0].profile.language = "zh-hans"
    users[0].profile.save()
    token, _ = token_create(user=users[0], name="old")
    client.force_login(users[0])

    revoked = client.post(reverse("api:token-revoke-page", args=[token.pk]), follow=True).content.decode()
    refused = client.post(reverse("api:bot-create-page"), {"username": "x"}, follow=True).content.decode()
    made = client.post(reverse("api:bot-create-page"), {"username": "pagebot"}, follow=True).content.decode()

    with translation.override("zh-hans"):
        assert str(MESSAGES["invalid_username"]) in refused and "invalid_username" in refused
    assert "3-40 letters" not in refused
    assert "Token revoked" not in revoked
    assert "pagebot" in made and "Give it a token" not in made


def test_docs_page_shows_the_schemas_markdown_as_code_and_lines(client: Any) -> None:
    """The schema's descriptions are Markdown: their code spans are code (not backticks) and an enum's
    list keeps a line for each value (it ran together on one line); a response reads "401 Error —
    Not signed in…", not "…a session cookie.: Error"."""
    html = client.get("/api/docs/").content.decode()

    assert "`" not in html.split("<h2>", 1)[1].split('<h3 id="schema-', 1)[0]
    assert "<code>live</code> - live<br>* <code>daily</code> - daily" in html
    assert "<strong>401</strong> <code>Error</code> — Not signed in" in html
    assert ".: <code>" not in html


def test_docs_page_is_in_each_readers_language_whoever_read_it_first(client: Any) -> None:
    """The page kept the schema of its first reader: after a reader of Chinese, an English reader saw
    the games' names in Chinese ("`baobei` - 宝贝") in the parameters' descriptions."""
    from apps.api import web

    web._schema_cache.clear()
    chinese = client.get("/api/docs/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    english = client.get("/api/docs/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "<code>baobei</code> - 宝贝" in chinese
    assert "<code>baobei</code> - Bao Bei" in english and "宝贝" not in english
