"""Per-viewer answers are not cached (Cache-Control: private, no-store; Vary: Authorization, Cookie), and
pages carry a Content-Security-Policy without inline allowances."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.api import services as api_services
from apps.games import lifecycle as game_lifecycle

pytestmark = pytest.mark.django_db


def _vary(response: Any) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}


@pytest.mark.parametrize(
    "path", ["/", "/leagues/", "/accounts/profile/", "/games/{public_id}/", "/api/v1/games/{game}/"]
)
def test_per_viewer_answers_are_private_no_store_and_vary_on_authorization_and_cookie(
    users: list, path: str
) -> None:
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2, bots=1)
    client = Client()
    client.force_login(users[0])

    response = client.get(path.format(game=game.pk, public_id=game.public_id))

    assert response.status_code == 200
    assert {"private", "no-store"} <= {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"authorization", "cookie"} <= _vary(response)


def test_an_api_answer_to_a_token_is_private_no_store(users: list) -> None:
    _, raw = api_services.token_create(user=users[0], name="t")

    response = Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {raw}")

    assert "no-store" in response["Cache-Control"] and "authorization" in _vary(response)


def test_pages_send_a_content_security_policy_without_inline_allowances(client: Any) -> None:
    policy = client.get("/accounts/login/")["Content-Security-Policy"]

    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_no_template_holds_an_inline_script_handler_or_style() -> None:
    """Every page template passes the policy: scripts from static files only, no on…= handlers, no
    style attributes (the development mailbox's mail frame is exempted in its view)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    templates = [p for p in (root / "templates").rglob("*.html") if "email" not in p.parts]
    templates += list((root / "apps").glob("*/templates/**/*.html"))
    bad = re.compile(r"<script(?![^>]*\bsrc=)|\son[a-z]+\s*=|\sstyle\s*=|javascript:|hx-on", re.I)

    offenders = [
        f"{p.relative_to(root)}: {m.group(0)}" for p in templates for m in bad.finditer(p.read_text())
    ]

    assert offenders == []
