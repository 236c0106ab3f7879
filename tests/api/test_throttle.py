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


def test_after_a_burst_one_write_is_allowed_per_share_of_the_period(
    client_for: Any, users: list, settings: Any
) -> None:
    """``3/min``: three writes at once, then one every 20 s (the period over the count), with a
    Retry-After that says so; not a wait for the whole minute."""
    from unittest import mock

    from apps.api.throttling import WriteRateThrottle

    settings.API_WRITE_RATE = "3/min"
    client = client_for(users[0])
    clock = [1000.0]

    def post(name: str) -> Any:
        return client.post("/api/v1/tokens/", {"name": name}, format="json")

    with mock.patch.object(WriteRateThrottle, "timer", lambda self: clock[0]):
        burst = [post(f"t{i}").status_code for i in range(3)]
        refused = post("t3")
        clock[0] += 20.5
        later = [post("t4").status_code, post("t5").status_code]

    assert burst == [201, 201, 201]
    assert refused.status_code == 429 and int(refused["Retry-After"]) == 20
    assert later == [201, 429]
