"""An organiser who holds a seat in a game has no organiser power over it; a
substitute is an active member not seated in the game, who must accept the seat (toy engine)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from apps.accounts.models import Profile, display_name
from apps.games import clock
from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.leagues import game_tools, seasons, services
from apps.leagues.models import Fixture, League, Membership, SubstituteOffer
from tests.factories import UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing_organiser(toy_league: League, organiser: Any, members: list[Any]) -> Game:
    """The organiser joins their own league; round 1 started; returns the organiser's game."""
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=2)
    seasons.round_start(season_id=season.pk, by=organiser)
    return Fixture.objects.get(round__season=season, game__seats__user=organiser).game


def test_the_clock_refuses_to_pause_a_game_for_someone_who_plays_in_it(playing_organiser: Game) -> None:
    player = playing_organiser.seats.exclude(user=None).first().user

    with pytest.raises(ServiceError) as exc:
        clock.game_pause(game_id=playing_organiser.pk, by=player, reason="I am losing")

    assert exc.value.code == "own_game"
    assert Game.objects.get(pk=playing_organiser.pk).status == Game.Status.ACTIVE


def test_the_clock_refuses_an_extension_asked_by_someone_who_plays_in_the_game(
    playing_organiser: Game,
) -> None:
    player = playing_organiser.seats.exclude(user=None).first().user

    with pytest.raises(ServiceError) as exc:
        clock.decision_extend(game_id=playing_organiser.pk, seat=0, by=timedelta(hours=1), actor=player)

    assert exc.value.code == "own_game"


def test_the_manage_page_says_when_the_single_organiser_plays(toy_league: League, organiser: Any) -> None:
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)

    page = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/")

    assert b"single organiser, who also plays" in page.content


def test_the_single_organiser_is_told_to_make_a_member_organiser_when_one_can_be(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)

    page = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/").content.decode()

    assert "Make another member an organiser below" in page
    assert "<button>Make organiser</button>" in page


def test_the_single_organiser_among_bot_accounts_is_told_to_invite_a_person(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    """Bot accounts have no "Make organiser" button, so the page does not point at one."""
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)
    Profile.objects.filter(user__in=members).update(is_bot_account=True, bot_owner=organiser)

    page = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/").content.decode()

    assert "<button>Make organiser</button>" not in page
    assert "Make another member an organiser below" not in page
    assert "bot accounts cannot organise. Invite a person" in page


def test_the_manage_page_offers_no_tools_for_the_organisers_own_game(
    toy_league: League, organiser: Any, playing_organiser: Game
) -> None:
    page = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/")

    assert f'name="game" value="{playing_organiser.pk}"'.encode() not in page.content
    assert b"You hold a seat in this game" in page.content


def test_a_tool_posted_from_the_page_on_the_organisers_own_game_is_refused(
    toy_league: League, organiser: Any, playing_organiser: Game
) -> None:
    page = signed_in(organiser).post(
        f"/leagues/{toy_league.slug}/manage/game/",
        {"game": playing_organiser.pk, "action": "pause", "reason": "mine"},
        follow=True,
    )

    assert b"own_game" in page.content
    assert Game.objects.get(pk=playing_organiser.pk).status == Game.Status.ACTIVE


def test_the_newcomer_accepts_a_seat_on_the_offer_page(
    toy_league: League, organiser: Any, playing_organiser: Game, members: list[Any]
) -> None:
    other = (
        Fixture.objects.filter(round__season__league=toy_league).exclude(game=playing_organiser).first().game
    )
    newcomer = UserFactory(username="reserve", password=NO_PASSWORD)
    services.membership_join_by_link(league=toy_league, user=newcomer, token=toy_league.invite_token)
    offer = game_tools.seat_substitute(
        league=toy_league, game_id=other.pk, position=0, user=newcomer, by=organiser
    )
    client = signed_in(newcomer)

    shown = client.get(f"/leagues/{toy_league.slug}/offers/{offer.pk}/")
    client.post(f"/leagues/{toy_league.slug}/offers/{offer.pk}/accept/")

    assert b"Accept the seat" in shown.content
    assert other.seats.get(position=0).user == newcomer
    league_page = signed_in(members[0]).get(f"/leagues/{toy_league.slug}/")
    # the organiser log's sentence says who took which seat from whom
    taken = f"seated {display_name(newcomer)} in seat 0 in place of {display_name(offer.previous)}."
    assert taken.encode() in league_page.content


def test_an_offer_lapses_when_the_seat_changed_hands_meanwhile(
    toy_league: League, organiser: Any, playing_organiser: Game
) -> None:
    other = (
        Fixture.objects.filter(round__season__league=toy_league).exclude(game=playing_organiser).first().game
    )
    first, second = (UserFactory(username=f"reserve{i}", password=NO_PASSWORD) for i in range(2))
    for user in (first, second):
        services.membership_join_by_link(league=toy_league, user=user, token=toy_league.invite_token)
    stale = game_tools.seat_substitute(
        league=toy_league, game_id=other.pk, position=0, user=first, by=organiser
    )
    fresh = game_tools.seat_substitute(
        league=toy_league, game_id=other.pk, position=0, user=second, by=organiser
    )

    with pytest.raises(ServiceError) as exc:
        game_tools.substitute_answer(offer_id=stale.pk, user=first, accept=True)
    game_tools.substitute_answer(offer_id=fresh.pk, user=second, accept=True)

    assert exc.value.code == "offer_closed"
    assert SubstituteOffer.objects.get(pk=stale.pk).status == SubstituteOffer.Status.WITHDRAWN
    assert other.seats.get(position=0).user == second


def test_a_member_who_withdrew_cannot_accept_an_offer(
    toy_league: League, organiser: Any, playing_organiser: Game
) -> None:
    other = (
        Fixture.objects.filter(round__season__league=toy_league).exclude(game=playing_organiser).first().game
    )
    newcomer = UserFactory(username="reserve", password=NO_PASSWORD)
    services.membership_join_by_link(league=toy_league, user=newcomer, token=toy_league.invite_token)
    offer = game_tools.seat_substitute(
        league=toy_league, game_id=other.pk, position=0, user=newcomer, by=organiser
    )
    Membership.objects.filter(user=newcomer).update(status=Membership.Status.WITHDRAWN)

    with pytest.raises(ServiceError) as exc:
        game_tools.substitute_answer(offer_id=offer.pk, user=newcomer, accept=True)

    assert exc.value.code == "not_a_member"
    assert other.seats.get(position=0).user != newcomer


def test_an_offer_for_a_game_that_ended_meanwhile_lapses_for_good(
    toy_league: League, organiser: Any, playing_organiser: Game
) -> None:
    other = (
        Fixture.objects.filter(round__season__league=toy_league).exclude(game=playing_organiser).first().game
    )
    newcomer = UserFactory(username="reserve", password=NO_PASSWORD)
    services.membership_join_by_link(league=toy_league, user=newcomer, token=toy_league.invite_token)
    offer = game_tools.seat_substitute(
        league=toy_league, game_id=other.pk, position=0, user=newcomer, by=organiser
    )
    game_tools.game_abort(league=toy_league, game_id=other.pk, by=organiser, reason="server trouble")

    with pytest.raises(ServiceError) as exc:
        game_tools.substitute_answer(offer_id=offer.pk, user=newcomer, accept=True)

    assert exc.value.code == "offer_lapsed"
    assert SubstituteOffer.objects.get(pk=offer.pk).status == SubstituteOffer.Status.WITHDRAWN


def test_the_newcomer_is_mailed_the_link_to_answer_the_offer(
    toy_league: League, organiser: Any, playing_organiser: Game, django_capture_on_commit_callbacks: Any
) -> None:
    from django.core import mail

    other = (
        Fixture.objects.filter(round__season__league=toy_league).exclude(game=playing_organiser).first().game
    )
    newcomer = UserFactory(username="reserve", password=NO_PASSWORD)
    services.membership_join_by_link(league=toy_league, user=newcomer, token=toy_league.invite_token)

    with django_capture_on_commit_callbacks(execute=True):
        offer = game_tools.seat_substitute(
            league=toy_league, game_id=other.pk, position=0, user=newcomer, by=organiser
        )

    sent = [m for m in mail.outbox if m.to == [newcomer.email]]
    assert len(sent) == 1 and offer.get_absolute_url() in sent[0].body
