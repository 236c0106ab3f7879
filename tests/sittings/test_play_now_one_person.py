""" "Everyone is here: play now" needs people to meet: a table of one person and bots is never offered it
(issue point 4: the offer is for when every human seat is present, and alone there is nobody to meet)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.sittings import selectors, services
from apps.sittings.models import SittingProposal
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alone() -> tuple[Game, Any]:
    """A started Bao Bei game: one person and two bots."""
    person = UserFactory()
    return GameFactory(engine="baobei", players=3, bots=2, seated=[person]), person


def test_the_panel_does_not_offer_play_now_to_one_person_among_bots(alone: tuple[Game, Any]) -> None:
    game, person = alone
    client = Client()
    client.force_login(person)
    client.get(game.get_absolute_url())

    polled = client.get(f"/games/{game.public_id}/sittings/", HTTP_HX_REQUEST="true").content.decode()
    panel = selectors.panel(game=game, user=person)

    assert panel is not None and panel.everyone_here
    assert not panel.offer_play_now
    assert "play-now" not in polled


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
