"""``GET /api/v1/``: the API's own address answers, with the addresses of its docs and collections."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_api_address_answers_anyone_with_where_its_docs_and_collections_are(client_for: Any) -> None:
    response = client_for(None).get("/api/v1/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    body = response.json()
    assert body["version"] == "v1"
    assert {"docs", "schema", "tokens", "me", "games", "watch", "leagues"} <= body.keys()
    assert all(link.startswith("http://testserver/api/") for key, link in body.items() if key != "version")


def test_every_address_the_api_root_gives_answers_a_signed_in_person(client_for: Any) -> None:
    user = UserFactory()
    client = client_for(user)
    client.force_login(user)  # the token page is a web page: signed in by session
    body = client.get("/api/v1/", HTTP_ACCEPT="application/json").json()

    answers = {
        key: client.get(urlsplit(link).path).status_code for key, link in body.items() if key != "version"
    }

    assert answers == dict.fromkeys(answers, 200)
