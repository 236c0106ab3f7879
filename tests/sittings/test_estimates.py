"""The estimate of a game's duration counts on its table's agreed weekly sittings (issue "Targets": the
estimate shown at creation takes the group's accepted sittings into account)."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.utils import timezone

from apps.games import estimates
from apps.sittings import services
from apps.sittings.acceptance import Recurrence
from tests.factories import GameFactory, UserFactory, signed_in

pytestmark = pytest.mark.django_db


def _weekly(first_day: object) -> Recurrence:
    return Recurrence(weekdays=(1, 4), at=time(20, 0), weeks=6, first_day=first_day, time_zone="UTC")  # type: ignore[arg-type]


def test_a_game_with_agreed_weekly_sittings_is_estimated_shorter() -> None:
    """An open Bao Huang game (short, daily): once its table agrees Tuesdays and Fridays 20:00, its
    estimate is the pace model's sittings figure, well under the correspondence one, and says so."""
    creator = UserFactory()
    game = GameFactory(engine="baohuang", players=5, seated=[creator], length="short")
    before = estimates.for_game(game)

    services.proposal_create(
        game=game, user=creator, recurrence=_weekly(timezone.localdate() + timedelta(days=1))
    )
    after = estimates.for_game(game)

    assert game.sittings.count() == 12
    assert not before.sittings and after.sittings
    assert after.days_typical < before.days_typical / 3
    assert "agreed sittings" in after.text()


def test_one_off_sittings_do_not_change_the_estimate() -> None:
    creator = UserFactory()
    game = GameFactory(engine="baohuang", players=5, seated=[creator], length="short")
    before = estimates.for_game(game)

    services.proposal_create(game=game, user=creator, times=[timezone.now() + timedelta(days=2)])

    assert game.sittings.count() == 1
    assert estimates.for_game(game) == before


def test_the_creation_estimate_can_count_on_weekly_sittings() -> None:
    """The new-game form's estimate (and the API's ``sittings``) for a table that means to meet."""
    client = signed_in(UserFactory())
    url = "/games/estimate/?game=baobei&players=4&length=normal&control=daily"

    plain = client.get(url).json()
    sitting = client.get(url + "&sittings=1").json()

    assert plain["sittings"] is False and sitting["sittings"] is True
    assert sitting["days_typical"] < plain["days_typical"] / 3


def test_the_open_game_page_shows_the_sittings_estimate() -> None:
    creator = UserFactory()
    game = GameFactory(engine="baohuang", players=5, seated=[creator], length="short")
    services.proposal_create(
        game=game, user=creator, recurrence=_weekly(timezone.localdate() + timedelta(days=1))
    )
    client = signed_in(creator)

    page = client.get(game.get_absolute_url()).content.decode()

    assert "agreed sittings" in page


def test_the_new_game_form_asks_whether_the_table_means_to_meet() -> None:
    """The form's estimate follows the box (``static/js/estimate.js`` adds ``sittings=1``)."""
    client = signed_in(UserFactory())

    page = client.get("/games/new/").content.decode()

    assert 'name="estimate_sittings"' in page


def test_a_game_against_bots_alone_is_not_estimated_with_sittings() -> None:
    """One person against bots has nobody to meet (``table_of_one``): the box's ``sittings=1`` is not read."""
    client = signed_in(UserFactory())
    url = "/games/estimate/?game=baobei&players=4&length=normal&control=daily&solo=1"

    plain = client.get(url).json()
    ticked = client.get(url + "&sittings=1").json()

    assert ticked["sittings"] is False and ticked == plain


def test_the_new_game_form_hides_the_sittings_box_while_bots_take_every_other_seat() -> None:
    """The form opens on bots in every other seat: the box is hidden (``static/js/estimate.js`` shows it
    again once someone else may sit at the table); a form shown again with people keeps it shown."""
    client = signed_in(UserFactory())

    against_bots = client.get("/games/new/").content.decode()
    with_people = client.post(
        "/games/new/", {"engine": "baobei", "players": "99", "opponents": "people", "control": "daily"}
    ).content.decode()

    assert '<label class="estimate-sittings muted" hidden>' in against_bots
    assert '<label class="estimate-sittings muted">' in with_people
