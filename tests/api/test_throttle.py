"""Per-user rate limits on writes: the N+1-th write in a window gets 429 with Retry-After."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_write_over_the_limit_gets_429_with_retry_after(client_for: Any, users: list, settings: Any) -> None:
    settings.API_WRITE_RATE = "3/min"
    client = client_for(users[0])

    answers = [client.post("/api/v1/tokens/", {"name": f"t{i}"}, format="json") for i in range(4)]

    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[3].json()["code"] == "throttled"
    assert 0 < int(answers[3]["Retry-After"]) <= 60


def test_reads_are_not_limited_and_users_count_apart(client_for: Any, users: list, settings: Any) -> None:
    settings.API_WRITE_RATE = "1/min"
    first, second = client_for(users[0]), client_for(users[1])
    first.post("/api/v1/tokens/", {"name": "a"}, format="json")

    reads = [first.get("/api/v1/me/").status_code for _ in range(3)]
    other = second.post("/api/v1/tokens/", {"name": "b"}, format="json")

    assert reads == [200, 200, 200]
    assert other.status_code == 201
