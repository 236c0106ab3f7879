"""Who the sittings wait for: the people at the table (``human_seats``). A bot account's seat is a bot's,
whether the server's bot plays it (the demo league's house bots) or its program does by API token: it
is never waited for, never answers, and a person among bot accounts is a table of one. A person whose
seat the bot plays for now (handed over, timeouts) is still waited for: they may take it back."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from apps.accounts.closing import account_close
from apps.accounts.models import Profile
from apps.api import services as api_services
from apps.games import closing, orders, people
from apps.games import lifecycle as game_lifecycle
from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.leagues.models import Fixture
from apps.sittings import selectors, services
from apps.sittings.models import ProposedTime, Sitting, SittingProposal
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
PASSWORD = "pw-for-tests-123"  # tests.factories.UserFactory's


def bot_account(name: str) -> Any:
    """A house bot account (``Profile.is_bot_account``, nobody's), read back with its profile."""
    user = UserFactory(username=name)
    Profile.objects.filter(user=user).update(is_bot_account=True, bot_owner=None)
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


@pytest.fixture
def among_house_bots() -> tuple[Game, Any]:
    """The demo league's table: a person and two house bot accounts whose seats the server's bot plays."""
    person = UserFactory()
    bots = [bot_account("house-bot-1"), bot_account("house-bot-2")]
    game = GameFactory(engine="baobei", players=3, seated=[person, *bots])
    people.seats_to_server_bot(game_ids=[game.pk], user_ids=[b.pk for b in bots])
    return game, person


def _propose(game: Game, user: Any) -> SittingProposal:
    return services.proposal_create(game=game, user=user, times=[NOW + timedelta(hours=30)], now=NOW)


def test_a_person_among_bot_accounts_the_server_plays_is_a_table_of_one(
    among_house_bots: tuple[Game, Any],
) -> None:
    game, person = among_house_bots
    client = Client()
    client.force_login(person)

    page = client.get(game.get_absolute_url()).content.decode()
    with pytest.raises(ServiceError) as proposal:
        _propose(game, person)
    with pytest.raises(ServiceError) as order:
        orders.arm(game_id=game.pk, user=person, kind="sitting_bot")

    assert selectors.table_of_one(game) and selectors.human_seats(game) == {0: person.pk}
    assert 'id="sittings"' not in page
    assert proposal.value.code == order.value.code == "table_of_one"


def test_a_proposal_left_open_among_house_bots_is_neither_listed_nor_agreed(
    among_house_bots: tuple[Game, Any],
) -> None:
    """One made before bot accounts counted as bots (demo: yes, the bots: ?) is not agreed by the one
    person answering again: the table has no sittings."""
    game, person = among_house_bots
    proposal = SittingProposal.objects.create(
        game=game, proposer=person, length=timedelta(hours=1), created_at=NOW
    )
    ProposedTime.objects.create(proposal=proposal, index=1, starts_at=NOW + timedelta(hours=30))

    with pytest.raises(ServiceError) as refused:
        services.answer(game=game, user=person, proposal_id=proposal.pk, accept=True, now=NOW)
    panel = selectors.panel(game=game, user=person, now=NOW)

    assert refused.value.code == "table_of_one"
    assert panel is not None and panel.proposals == []
    assert not Sitting.objects.filter(game=game).exists()


def test_a_person_among_bot_accounts_their_program_plays_is_a_table_of_one() -> None:
    """A bot program playing by API token answers at machine speed: there is nobody to meet either."""
    person = UserFactory()
    game = GameFactory(
        engine="baobei", players=3, seated=[person, bot_account("prog-1"), bot_account("prog-2")]
    )

    assert game.status == Game.Status.ACTIVE
    assert selectors.table_of_one(game)


def test_a_bot_accounts_seat_is_not_waited_for_and_may_not_answer() -> None:
    """Two people and a bot account: the two people's yes agrees the time; the bot account's token is not
    at the table (``not_at_table``)."""
    pair = [UserFactory(), UserFactory()]
    program = bot_account("prog")
    game = GameFactory(engine="baobei", players=3, seated=[*pair, program])
    proposal = _propose(game, pair[0])
    _, token = api_services.token_create(user=program, name="tests")
    api = Client(headers={"authorization": f"Bearer {token}"})

    answered = api.post(
        f"/api/v1/games/{game.pk}/sittings/{proposal.pk}/answer/",
        {"accept": True},
        content_type="application/json",
    )
    agreed = services.answer(game=game, user=pair[1], proposal_id=proposal.pk, accept=True, now=NOW)

    assert answered.status_code == 403 and answered.json()["code"] == "not_at_table"
    assert not selectors.table_of_one(game) and set(selectors.human_seats(game)) == {0, 1}
    assert [s.starts_at for s in agreed] == [NOW + timedelta(hours=30)]


def test_a_person_who_handed_their_seat_to_the_bot_is_still_waited_for() -> None:
    """They may take it back at any moment, so a time waits for their answer, which they may give."""
    trio = [UserFactory() for _ in range(3)]
    game = GameFactory(engine="baobei", players=3, seated=trio)
    game_lifecycle.seat_hand_to_bot(game_id=game.pk, user=trio[2])
    proposal = _propose(game, trio[0])

    after_two = services.answer(game=game, user=trio[1], proposal_id=proposal.pk, accept=True, now=NOW)
    after_three = services.answer(game=game, user=trio[2], proposal_id=proposal.pk, accept=True, now=NOW)

    assert game.seats.get(user=trio[2]).bot_takeover
    assert after_two == [] and len(after_three) == 1


def test_a_closed_accounts_seat_is_not_waited_for_by_the_others_times() -> None:
    """The bot plays it to the end and nobody can answer for it: the two people left agree a time alone,
    and may still be offered "play now"."""
    trio = [UserFactory() for _ in range(3)]
    game = GameFactory(engine="baobei", players=3, seated=trio)
    proposal = _propose(game, trio[0])
    account_close(user=trio[2], password=PASSWORD)
    closing.closed_account_let_go(user_id=trio[2].pk)

    agreed = services.answer(game=game, user=trio[1], proposal_id=proposal.pk, accept=True, now=NOW)

    assert game.seats.get(position=2).bot_takeover
    assert selectors.human_seats(game) == {0: trio[0].pk, 1: trio[1].pk}
    assert [s.starts_at for s in agreed] == [NOW + timedelta(hours=30)]


def test_the_demo_leagues_table_of_demo_and_house_bots_has_no_sittings() -> None:
    """``make run``'s demo: demo's league table (demo and two house bots the server plays) is a table of
    one: no Sittings panel, and a proposal is refused rather than left open forever."""
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo_league", stdout=io.StringIO())
    demo = get_user_model().objects.get(username="demo")
    game = next(
        f.game
        for f in Fixture.objects.filter(round__season__league__slug="demo-league").select_related("game")
        if f.game.seats.filter(user=demo).exists()
    )
    client = Client()
    client.force_login(demo)

    page = client.get(game.get_absolute_url()).content.decode()
    with pytest.raises(ServiceError) as refused:
        services.proposal_create(game=game, user=demo, times=[datetime.now(UTC) + timedelta(days=1)])

    assert 'id="sittings"' not in page
    assert refused.value.code == "table_of_one"
    assert not Sitting.objects.filter(game=game).exists()
