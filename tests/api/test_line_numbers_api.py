"""The API's history and move replies carry ``number``: the history line number, the same for every
seat and a spectator; a seat's own hidden answer has none (``apps.games.numbering``, BB-30.6). ``seq``
and ``version`` keep their meaning: the viewer's own count, the paging cursor."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.games import selectors
from apps.games.models import Move
from apps.webhooks.payloads import webhook_body
from tests.deadlines.helpers import pending
from tests.factories import UserFactory
from tests.games.test_line_numbers import a_twin, window_owners

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _history(user: Any, game_id: int, after: int = 0) -> dict[str, Any]:
    return _client(user).get(f"/api/v1/games/{game_id}/history/?after={after}").json()


def test_history_numbers_are_the_same_for_every_reader_and_seq_stays_each_readers_count_bb_30_6(
    users: list,
) -> None:
    game = a_twin(users, "api-1")
    spectator = UserFactory()

    answers = {u.pk: _history(u, game.pk) for u in (*users[:3], spectator)}

    public = {
        u: [(e["number"], e["event"]) for e in a["events"] if e["event"]["visible_to"] == "all"]
        for u, a in answers.items()
    }
    assert len({str(p) for p in public.values()}) == 1
    assert [e["number"] for e in answers[spectator.pk]["events"]][-1] == game.public_version
    for user in users[:2]:  # seats 0 and 1 peeked hidden: their own line, unnumbered, follows line 0
        mine = [e for e in answers[user.pk]["events"] if e["number"] is None]
        assert [(e["follows"], e["event"]["type"]) for e in mine] == [(0, "setup_peek_chosen")]
        assert answers[user.pk]["version"] == game.public_version + 1  # the viewer's own count, as before
        assert answers[user.pk]["events"][-1]["seq"] == game.public_version + 1
    assert all(e["follows"] is None for e in answers[spectator.pk]["events"])


def test_a_hidden_pass_is_answered_without_a_number_and_the_closing_move_with_the_next_bb_6_6(
    users: list,
) -> None:
    game = a_twin(users, "api-2")
    first, second = window_owners(game)
    window = pending(game)[0]["decision_id"]
    before = game.public_version

    hidden = _client(users[first]).post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": {"type": "pass", "decision_id": window}},
        format="json",
    )
    closing = _client(users[second]).post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": {"type": "pass", "decision_id": window}},
        format="json",
    )

    assert hidden.status_code == closing.status_code == 201
    assert hidden.json()["number"] is None and hidden.json()["seq"] == hidden.json()["version"]
    assert closing.json()["number"] == before + 1


def test_a_webhook_body_carries_the_moves_number(users: list) -> None:
    game = a_twin(users, "api-3")
    hidden = Move.objects.filter(game=game, hidden=True).order_by("seq").first()
    public = Move.objects.filter(game=game, hidden=False).order_by("seq").last()
    assert hidden is not None and public is not None

    own = webhook_body(game=game, seat=hidden.seat, move=hidden)
    shared = [webhook_body(game=game, seat=s, move=public) for s in range(3)]

    assert own is not None and own["number"] is None
    assert (
        {b["number"] for b in shared if b is not None}
        == {selectors.move_number(public)}
        == {game.public_version}
    )
