"""A table of one person and bots has nobody to meet: no sittings panel, no "play now", no proposal, and
no "if I miss a sitting" order (refused with ``table_of_one`` like a proposal; one stored before is not
shown); two people among bots, or a seat still waiting for a person, have them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.api import services as api_services
from apps.games import orders
from apps.games.errors import ServiceError
from apps.games.models import Game, Seat
from apps.games.order_panel import SITTING_BOT, orders_panel
from apps.sittings import selectors, services
from apps.sittings.models import SittingProposal
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alone() -> tuple[Game, Any]:
    """A started Bao Bei game: one person and two bots."""
    person = UserFactory()
    return GameFactory(engine="baobei", players=3, bots=2, seated=[person]), person


def test_one_person_among_bots_sees_no_sittings_panel(alone: tuple[Game, Any]) -> None:
    game, person = alone
    client = Client()
    client.force_login(person)

    page = client.get(game.get_absolute_url()).content.decode()
    polled = client.get(f"/games/{game.public_id}/sittings/", HTTP_HX_REQUEST="true").content.decode()

    assert 'id="sittings"' not in page
    assert "play-now" not in polled and "Propose" not in polled


def test_the_api_answers_a_table_of_one_and_refuses_its_proposal(alone: tuple[Game, Any]) -> None:
    game, person = alone
    _, token = api_services.token_create(user=person, name="tests")
    api = Client(headers={"authorization": f"Bearer {token}"})

    listed = api.get(f"/api/v1/games/{game.pk}/sittings/")
    proposed = api.post(
        f"/api/v1/games/{game.pk}/sittings/",
        {"times": ["2031-01-31T20:00:00+00:00"]},
        content_type="application/json",
    )

    assert listed.status_code == 200 and listed.json()["proposals"] == []
    assert proposed.status_code == 409 and proposed.json()["code"] == "table_of_one"


def test_one_person_among_bots_cannot_propose_a_sitting(alone: tuple[Game, Any]) -> None:
    game, person = alone
    soon = game.created_at.replace(year=game.created_at.year + 1)

    with pytest.raises(ServiceError) as refused:
        services.proposal_create(game=game, user=person, times=[soon])

    assert refused.value.code == "table_of_one"
    assert not SittingProposal.objects.filter(game=game).exists()


def test_one_person_among_bots_is_not_offered_the_sitting_bot_order(alone: tuple[Game, Any]) -> None:
    game, person = alone
    seat = game.seats.get(user=person)

    switches = [kind for kind, _label, _on in orders_panel(game, seat)["orders_panel"]["switches"]]

    assert SITTING_BOT[0] not in switches
    assert switches  # the game's own switch is still there


def test_two_people_among_bots_have_the_panel_and_the_sitting_bot_order() -> None:
    people = [UserFactory(), UserFactory()]
    game = GameFactory(engine="baobei", players=3, bots=1, seated=people)
    seat = game.seats.get(user=people[0])

    switches = [kind for kind, _label, _on in orders_panel(game, seat)["orders_panel"]["switches"]]

    assert selectors.panel(game=game, user=people[0]) is not None
    assert SITTING_BOT[0] in switches


def test_a_seat_waiting_for_a_person_keeps_the_panel() -> None:
    creator = UserFactory()
    game = GameFactory(engine="baobei", players=3, bots=1, seated=[creator])  # open: one seat free

    assert game.status == Game.Status.OPEN
    assert selectors.panel(game=game, user=creator) is not None


def test_play_now_is_refused_to_one_person_among_bots(alone: tuple[Game, Any]) -> None:
    game, person = alone
    services.presence_seen(game=game, user=person)

    with pytest.raises(ServiceError) as refused:
        services.ad_hoc_offer(game=game, user=person)

    assert refused.value.code == "no_one_to_meet"
    assert not SittingProposal.objects.filter(game=game).exists()


def test_two_people_among_bots_are_offered_play_now() -> None:
    people = [UserFactory(), UserFactory()]
    game = GameFactory(engine="baobei", players=3, bots=1, seated=people)
    for user in people:
        services.presence_seen(game=game, user=user)

    panel = selectors.panel(game=game, user=people[0])

    assert panel is not None and panel.offer_play_now


def _api(user: Any) -> Client:
    _, token = api_services.token_create(user=user, name="tests")
    return Client(headers={"authorization": f"Bearer {token}"})


def test_the_api_refuses_the_sitting_bot_order_to_one_person_among_bots_as_it_refuses_a_sitting(
    alone: tuple[Game, Any],
) -> None:
    """The same code and words as a proposed sitting there (``table_of_one``, 409); nothing is stored."""
    game, person = alone
    api = _api(person)

    ordered = api.put(
        f"/api/v1/games/{game.pk}/orders/",
        {"orders": [{"kind": "sitting_bot", "params": {}}]},
        content_type="application/json",
    )
    proposed = api.post(
        f"/api/v1/games/{game.pk}/sittings/",
        {"times": ["2031-01-31T20:00:00+00:00"]},
        content_type="application/json",
    )

    assert ordered.status_code == 409 and ordered.json() == proposed.json()
    assert ordered.json()["code"] == "table_of_one"
    assert not game.seats.get(user=person).sitting_bot


def test_the_page_switch_cannot_give_the_sitting_bot_order_against_bots(alone: tuple[Game, Any]) -> None:
    game, person = alone
    client = Client()
    client.force_login(person)

    client.post(f"/games/{game.public_id}/orders/", {"do": "switch", "kind": "sitting_bot", "on": "on"})
    page = client.get(game.get_absolute_url()).content.decode()

    assert not game.seats.get(user=person).sitting_bot
    assert "a sitting needs two people at the table: the other seats are bots (table_of_one)" in page
    assert "the bot plays my seat until I arrive" not in page


def test_the_other_orders_still_go_through_against_bots(alone: tuple[Game, Any]) -> None:
    game, person = alone

    held = orders.arm(game_id=game.pk, user=person, kind="end_turn_when_done")

    assert [o["kind"] for o in held] == ["end_turn_when_done"]


def test_a_sitting_bot_order_stored_against_bots_before_is_not_listed_nor_shown_and_clears(
    alone: tuple[Game, Any],
) -> None:
    """An order stored before it was refused at such a table is dormant: no sitting can be agreed there,
    so it never acts; the API, the page and the mail's ``orders`` leave it out, and clearing clears it."""
    game, person = alone
    Seat.objects.filter(game=game, user=person).update(sitting_bot=True)
    seat = game.seats.get(user=person)
    client = Client()
    client.force_login(person)

    listed = _api(person).get(f"/api/v1/games/{game.pk}/orders/").json()["orders"]
    panel = orders_panel(game, seat)["orders_panel"]
    page = client.get(game.get_absolute_url()).content.decode()
    left = orders.revoke(game_id=game.pk, user=person)

    assert listed == [] and panel["held"] == []
    assert SITTING_BOT[0] not in [kind for kind, _label, _on in panel["switches"]]
    assert "the bot plays my seat until I arrive" not in page
    assert left == [] and not Seat.objects.get(game=game, user=person).sitting_bot


def test_two_people_among_bots_may_give_the_sitting_bot_order() -> None:
    people = [UserFactory(), UserFactory()]
    game = GameFactory(engine="baobei", players=3, bots=1, seated=people)

    held = orders.arm(game_id=game.pk, user=people[0], kind="sitting_bot")

    assert [o["kind"] for o in held] == ["sitting_bot"]
    assert game.seats.get(user=people[0]).sitting_bot
