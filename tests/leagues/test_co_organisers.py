"""An organiser makes an active member a fellow organiser, and an organiser steps down while another
remains (``apps.leagues.organisers``): on the manage page, in the API and in the organiser log. A
second organiser is who acts on the games of an organiser who plays (toy engine)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from apps.api import services as api_services
from apps.games.errors import ServiceError
from apps.leagues import game_tools, organisers, seasons, services
from apps.leagues.auditlog import audit_sentence
from apps.leagues.models import AuditLog, Fixture, League, Membership
from tests.conftest import requires_postgres
from tests.factories import UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD
from tests.support.race import race

pytestmark = pytest.mark.django_db


def _membership(league: League, user: Any) -> Membership:
    return Membership.objects.get(league=league, user=user)


def _make_organiser(league: League, user: Any, *, by: Any) -> Membership:
    return organisers.organiser_add(league=league, membership_id=_membership(league, user).pk, by=by)


def _organiser_names(league: League) -> set[str]:
    return set(league.organisers.values_list("username", flat=True))


def test_an_organiser_makes_an_active_member_an_organiser_and_the_log_says_so(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    _make_organiser(toy_league, members[0], by=organiser)

    assert _organiser_names(toy_league) == {"organiser", "member0"}
    entry = AuditLog.objects.filter(league=toy_league).latest("pk")
    assert audit_sentence(entry) == "organiser made member0 an organiser."


def test_a_member_who_is_not_an_organiser_cannot_make_organisers(
    toy_league: League, members: list[Any]
) -> None:
    with pytest.raises(ServiceError) as exc:
        organisers.organiser_add(
            league=toy_league, membership_id=_membership(toy_league, members[1]).pk, by=members[0]
        )

    assert exc.value.code == "forbidden" and exc.value.status == 403
    assert _organiser_names(toy_league) == {"organiser"}


def test_only_an_active_member_can_be_made_an_organiser(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    services.membership_withdraw(league=toy_league, user=members[0])
    outsider = UserFactory(username="outsider", password=NO_PASSWORD)
    pending = services.membership_request(league=toy_league, user=outsider)

    for membership_id in (_membership(toy_league, members[0]).pk, pending.pk):
        with pytest.raises(ServiceError) as exc:
            organisers.organiser_add(league=toy_league, membership_id=membership_id, by=organiser)
        assert exc.value.code == "not_a_member"
    assert _organiser_names(toy_league) == {"organiser"}


def test_a_bot_account_cannot_be_made_an_organiser_and_the_page_offers_no_button(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    bot = api_services.bot_account_create(owner=members[0], username="member0bot")
    services.membership_join_by_link(league=toy_league, user=bot, token=toy_league.invite_token)

    with pytest.raises(ServiceError) as exc:
        _make_organiser(toy_league, bot, by=organiser)
    page = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/").content.decode()

    assert exc.value.code == "bot_cannot_organise"
    assert page.count("Make organiser") == len(members)  # each person, not the bot


def test_making_an_organiser_twice_is_refused(toy_league: League, organiser: Any, members: list[Any]) -> None:
    membership = _membership(toy_league, members[0])
    organisers.organiser_add(league=toy_league, membership_id=membership.pk, by=organiser)

    with pytest.raises(ServiceError) as exc:
        organisers.organiser_add(league=toy_league, membership_id=membership.pk, by=organiser)

    assert exc.value.code == "already_organiser"


def test_the_last_organiser_cannot_step_down(toy_league: League, organiser: Any) -> None:
    with pytest.raises(ServiceError) as exc:
        organisers.organiser_step_down(league=toy_league, by=organiser)

    assert exc.value.code == "last_organiser"
    assert _organiser_names(toy_league) == {"organiser"}


def test_an_organiser_steps_down_while_another_remains_and_stays_a_member(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)
    _make_organiser(toy_league, members[0], by=organiser)

    organisers.organiser_step_down(league=toy_league, by=organiser)

    assert _organiser_names(toy_league) == {"member0"}
    assert _membership(toy_league, organiser).status == Membership.Status.ACTIVE
    entry = AuditLog.objects.filter(league=toy_league).latest("pk")
    assert audit_sentence(entry) == "organiser stepped down as organiser."
    with pytest.raises(ServiceError) as exc:
        organisers.organiser_step_down(league=toy_league, by=organiser)
    assert exc.value.code == "not_organiser"


def test_the_new_organiser_acts_on_the_game_of_the_organiser_who_plays(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    """The manage page's advice to a single organiser who plays: a second organiser, not a site admin,
    can now extend a deadline in the first one's game."""
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=2)
    seasons.round_start(season_id=season.pk, by=organiser)
    game = Fixture.objects.get(round__season=season, game__seats__user=organiser).game
    seated = set(game.seats.values_list("user_id", flat=True))
    helper = next(m for m in members if m.pk not in seated)
    _make_organiser(toy_league, helper, by=organiser)

    with pytest.raises(ServiceError) as exc:
        game_tools.game_deadline_extend(league=toy_league, game_id=game.pk, seat=0, hours=5, by=organiser)
    assert exc.value.code == "own_game"

    game_tools.game_deadline_extend(league=toy_league, game_id=game.pk, seat=0, hours=5, by=helper)

    assert AuditLog.objects.filter(league=toy_league, action="deadline_extended", actor=helper).exists()


def test_the_manage_page_makes_an_organiser_and_steps_down(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    services.membership_join_by_link(league=toy_league, user=organiser, token=toy_league.invite_token)
    client = signed_in(organiser)
    page = client.get(f"/leagues/{toy_league.slug}/manage/")
    assert b"Make organiser" in page.content
    assert b"Step down as organiser" not in page.content  # the only organiser

    made = client.post(
        f"/leagues/{toy_league.slug}/manage/organiser/",
        {"membership": _membership(toy_league, members[2]).pk},
        follow=True,
    )
    assert "member2 is now an organiser of this league." in made.content.decode()
    assert _organiser_names(toy_league) == {"organiser", "member2"}
    assert b"single organiser, who also plays" not in made.content

    left = client.post(f"/leagues/{toy_league.slug}/manage/step_down/", follow=True)

    assert left.redirect_chain[-1][0] == f"/leagues/{toy_league.slug}/"
    assert "You no longer organise this league." in left.content.decode()
    assert _organiser_names(toy_league) == {"member2"}
    assert client.get(f"/leagues/{toy_league.slug}/manage/").status_code == 403


def test_the_league_page_lists_the_members_before_the_first_season(
    toy_league: League, members: list[Any]
) -> None:
    page = signed_in(members[0]).get(f"/leagues/{toy_league.slug}/").content.decode()

    text = re.sub(r"<[^>]+>", "", page)  # each name links to the player's page
    assert "6 members: member0, member1, member2, member3, member4, member5" in text


def test_the_api_makes_an_organiser_names_organisers_and_steps_down(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    client = signed_in(organiser)
    membership = _membership(toy_league, members[3])
    base = f"/api/v1/leagues/{toy_league.slug}/"

    made = client.post(f"{base}members/{membership.pk}/organiser/")
    again = client.post(f"{base}members/{membership.pk}/organiser/")
    detail = client.get(base).json()
    left = client.post(f"{base}step-down/")
    last = signed_in(members[3]).post(f"{base}step-down/")

    assert made.status_code == 200
    assert made.json() == {"id": membership.pk, "username": "member3", "organiser": True}
    assert again.status_code == 409 and again.json()["code"] == "already_organiser"
    assert [o["username"] for o in detail["organisers"]] == ["member3", "organiser"]
    assert left.status_code == 200 and left.json()["organiser"] is False
    assert last.status_code == 409 and last.json()["code"] == "last_organiser"
    refused = signed_in(members[4]).post(f"{base}members/{_membership(toy_league, members[5]).pk}/organiser/")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"


@pytest.mark.django_db(transaction=True)
@requires_postgres
def test_organisers_stepping_down_at_once_leave_one(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    """The league row is locked while its organisers change: of three stepping down together, two
    go and the third is refused, rather than each seeing the others still there."""
    for user in members[:2]:
        _make_organiser(toy_league, user, by=organiser)
    people = [organiser, *members[:2]]

    results = race([lambda u=u: organisers.organiser_step_down(league=toy_league, by=u) for u in people])

    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(refused) == 1 and refused[0].code == "last_organiser"
    assert toy_league.organisers.count() == 1
