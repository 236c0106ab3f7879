"""The game page: seated players, spectators, permissions and refused actions."""

from __future__ import annotations

import json

import pytest

from apps.games.models import Game, Move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_seated_player_sees_own_decision_form_and_spectator_sees_none(baobei_game, client_for):
    game, players = baobei_game

    mine = client_for(players[0]).get(f"/games/{game.public_id}/")
    watching = client_for(UserFactory()).get(f"/games/{game.public_id}/")

    assert mine.status_code == 200 and watching.status_code == 200
    assert 'name="type" value="choose_peek"' in mine.content.decode()
    assert "choose_peek" not in watching.content.decode()
    assert "you are watching" in watching.content.decode()


def test_page_shows_seed_hash_but_not_seed_while_game_runs_bb_25_10(baobei_game, client_for):
    game, players = baobei_game

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    assert game.seed_hash in html
    assert game.seed not in html


def test_seed_is_revealed_once_the_game_has_ended_bb_25_10(baobei_game, client_for):
    game, players = baobei_game
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    html = client_for(None).get(f"/games/{game.public_id}/").content.decode()

    assert game.seed in html and game.seed_hash in html


def test_htmx_poll_answers_204_while_nothing_changed_and_the_board_after_a_move(baobei_game, client_for):
    game, players = baobei_game
    c = client_for(players[0])
    url = f"/games/{game.public_id}/?since={game.version}-{game.status}"

    unchanged = c.get(url, HTTP_HX_REQUEST="true")
    c.post(f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]})
    changed = c.get(url, HTTP_HX_REQUEST="true")

    assert unchanged.status_code == 204
    assert changed.status_code == 200 and 'id="board"' in changed.content.decode()
    assert "<html" not in changed.content.decode()


def test_form_fields_become_the_wire_action_bb_22(baobei_game, client_for):
    game, players = baobei_game

    client_for(players[1]).post(
        f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["2", "3"]}
    )

    move = Move.objects.get(game=game)
    assert move.seat == 1 and move.action == {"type": "choose_peek", "decision_id": "d0", "slots": [2, 3]}


def test_refused_action_shows_its_error_code_and_writes_nothing(baobei_game, client_for):
    game, players = baobei_game
    c = client_for(players[0])

    response = c.post(
        f"/games/{game.public_id}/act/",
        {"type": "choose_peek", "decision_id": "d0", "slots": ["1", "1"]},
        follow=True,
    )

    assert "duplicate_target" in response.content.decode()
    assert Move.objects.filter(game=game).count() == 0
    game.refresh_from_db()
    assert game.version == 0


def test_refused_action_by_htmx_renders_the_error_in_the_board(baobei_game, client_for):
    game, players = baobei_game

    response = client_for(players[0]).post(
        f"/games/{game.public_id}/act/",
        {"action": json.dumps({"type": "draw", "decision_id": "d0"})},
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert response.status_code == 200 and 'data-error-code="action_not_allowed"' in html
    assert Move.objects.filter(game=game).count() == 0


def test_user_without_a_seat_cannot_act(baobei_game, client_for):
    game, _ = baobei_game

    response = client_for(UserFactory()).post(
        f"/games/{game.public_id}/act/",
        {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]},
        follow=True,
    )

    assert "not_seated" in response.content.decode()
    assert not Move.objects.filter(game=game).exists()


def test_anonymous_user_is_sent_to_log_in_when_acting(baobei_game, client_for):
    game, _ = baobei_game

    response = client_for(None).post(f"/games/{game.public_id}/act/", {"action": "{}"})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Move.objects.filter(game=game).exists()


def test_one_seat_cannot_act_for_another_bb_22_0(baobei_game, client_for):
    game, players = baobei_game
    for user in players:  # finish the setup peek; seat 0 or another seat then owns the turn
        client_for(user).post(
            f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]}
        )
    game.refresh_from_db()
    from baogame.rules.registry import get_engine

    decision = get_engine("baobei").pending(game.state)[0]
    owner = decision["seats"][0]
    other = players[(owner + 1) % 3]
    before = game.version

    response = client_for(other).post(
        f"/games/{game.public_id}/act/",
        {"action": json.dumps({"type": "draw", "decision_id": decision["decision_id"]})},
        follow=True,
    )

    assert "not_your_turn" in response.content.decode()
    game.refresh_from_db()
    assert game.version == before


def test_double_click_with_one_idempotency_key_applies_once(baobei_game, client_for):
    game, players = baobei_game
    c = client_for(players[0])
    data = {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"], "idempotency_key": "form-123"}

    c.post(f"/games/{game.public_id}/act/", data)
    c.post(f"/games/{game.public_id}/act/", data)

    assert Move.objects.filter(game=game).count() == 1


def test_spectator_page_never_shows_a_private_view(baobei_game, client_for):
    game, players = baobei_game
    client_for(players[0]).post(
        f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]}
    )

    spectator = client_for(UserFactory()).get(f"/games/{game.public_id}/").content.decode()
    player = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    assert spectator.count('data-card="') == 1  # only the face-up discard
    assert player.count('data-zone="display" data-pos="0.') >= 4
    assert player.count('data-card="') == 3  # the discard and my two peeked cards


def test_history_page_lists_visible_events_only(baobei_game, client_for):
    game, players = baobei_game
    client_for(players[0]).post(
        f"/games/{game.public_id}/act/", {"type": "choose_peek", "decision_id": "d0", "slots": ["0", "1"]}
    )

    own = client_for(players[0]).get(f"/games/{game.public_id}/history/").content.decode()
    other = client_for(players[1]).get(f"/games/{game.public_id}/history/").content.decode()

    assert own.count("<li>") > other.count("<li>")
