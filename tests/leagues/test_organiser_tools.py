"""Organiser tools, permissions and the audit log (toy engine)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from apps.games.errors import ServiceError
from apps.games.models import Decision, Game
from apps.leagues import game_tools, results, seasons, selectors, services
from apps.leagues.models import AuditLog, Fixture, League, Membership, Standing
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(
    toy_league: League, members: list[Any], organiser: Any, django_capture_on_commit_callbacks: Any
) -> Game:
    """Round 1 of a season started; returns the game of table 1."""
    season = seasons.season_create(league=toy_league, by=organiser, rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    return Fixture.objects.get(round__season=season, table=1).game


def _reserve(league: League) -> Any:
    """A member of the league without a table this round: a possible substitute."""
    user = UserFactory(username="reserve", password=NO_PASSWORD)
    services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    return user


def _actions(league: League) -> list[str]:
    return list(AuditLog.objects.filter(league=league).order_by("pk").values_list("action", flat=True))


def test_round_seats_each_member_once_in_seeded_order(running: Game, members: list[Any]) -> None:
    fixtures = Fixture.objects.filter(round__season__league=running.league_fixture.round.season.league)

    seated = [s.user_id for f in fixtures for s in f.game.seats.order_by("position")]

    assert sorted(seated) == sorted(m.pk for m in members)
    assert all(f.game.status == Game.Status.ACTIVE for f in fixtures)


def test_each_organiser_action_is_audited(
    toy_league: League, running: Game, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    newcomer = _reserve(toy_league)
    before = Decision.objects.get(game=running, seat=running.state["active"])

    game_tools.game_deadline_extend(
        league=toy_league, game_id=running.pk, seat=before.seat, hours=5, by=organiser, reason="ill"
    )
    game_tools.game_pause(league=toy_league, game_id=running.pk, by=organiser, reason="dispute")
    game_tools.game_resume(league=toy_league, game_id=running.pk, by=organiser)
    offer = game_tools.seat_substitute(
        league=toy_league, game_id=running.pk, position=1, user=newcomer, by=organiser
    )
    game_tools.substitute_answer(offer_id=offer.pk, user=newcomer, accept=True)
    game_tools.seat_bot_takeover(league=toy_league, game_id=running.pk, position=2, on=True, by=organiser)
    game_tools.seat_bot_takeover(league=toy_league, game_id=running.pk, position=2, on=False, by=organiser)
    services.league_email_members(league=toy_league, subject="Hello", body="Round 1 is on.", by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        game_tools.game_abort(league=toy_league, game_id=running.pk, by=organiser, reason="server trouble")

    assert _actions(toy_league)[-9:] == [
        "deadline_extended",
        "game_paused",
        "game_resumed",
        "substitute_offered",
        "player_substituted",
        "seat_to_bot",
        "seat_from_bot",
        "members_emailed",
        "game_aborted",
    ]
    assert AuditLog.objects.get(action="deadline_extended").reason == "ill"


def test_extend_gives_the_decision_more_time(toy_league: League, running: Game, organiser: Any) -> None:
    decision = Decision.objects.get(game=running, seat=running.state["active"])

    game_tools.game_deadline_extend(
        league=toy_league, game_id=running.pk, seat=decision.seat, hours=5, by=organiser
    )

    decision.refresh_from_db()
    assert decision.deadline - decision.opened_at == timedelta(days=3, hours=5)  # the daily bank: 3 days


def test_pause_stops_and_resume_restarts_the_game(toy_league: League, running: Game, organiser: Any) -> None:
    game_tools.game_pause(league=toy_league, game_id=running.pk, by=organiser, reason="dispute")
    running.refresh_from_db()
    assert running.status == Game.Status.PAUSED

    game_tools.game_resume(league=toy_league, game_id=running.pk, by=organiser)
    running.refresh_from_db()
    assert running.status == Game.Status.ACTIVE


def test_substitute_takes_over_the_seat_and_its_view(
    toy_league: League, running: Game, organiser: Any
) -> None:
    from apps.games.selectors import game_view

    newcomer = _reserve(toy_league)
    old_view = game_view(game=running, seat=1)

    offer = game_tools.seat_substitute(
        league=toy_league, game_id=running.pk, position=1, user=newcomer, by=organiser
    )
    game_tools.substitute_answer(offer_id=offer.pk, user=newcomer, accept=True)

    seat = running.seats.get(position=1)
    assert seat.user == newcomer
    assert game_view(game=running, seat=seat.position) == old_view


def test_bot_takeover_plays_the_seat(
    toy_league: League, running: Game, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    active = running.state["active"]

    with django_capture_on_commit_callbacks(execute=True):
        game_tools.seat_bot_takeover(
            league=toy_league, game_id=running.pk, position=active, on=True, by=organiser
        )

    running.refresh_from_db()
    assert running.seats.get(position=active).bot_takeover
    assert running.version > 0


def test_aborted_game_does_not_count(
    toy_league: League, running: Game, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game_tools.game_abort(league=toy_league, game_id=running.pk, by=organiser, reason="server trouble")

    running.refresh_from_db()
    assert (running.status, running.status_reason) == (Game.Status.ABORTED, "server trouble")
    assert not Decision.objects.filter(game=running).exists()
    assert not Standing.objects.filter(season__league=toy_league, games_played__gt=0).exists()
    assert Fixture.objects.get(game=running).counted_at is not None


def test_adjudicated_result_counts_once(
    toy_league: League, running: Game, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game_tools.game_adjudicate(
            league=toy_league, game_id=running.pk, places={0: 1, 1: 2, 2: 3}, by=organiser, reason="agreed"
        )
    results.fixture_record_result(game_id=running.pk)  # a second signal changes nothing

    first = Standing.objects.get(season__league=toy_league, user=running.seats.get(position=0).user)
    assert (first.games_played, first.wins, first.points) == (1, 1, 2)


def test_email_goes_to_every_active_member(toy_league: League, members: list[Any], organiser: Any) -> None:
    Membership.objects.filter(user=members[0]).update(status=Membership.Status.WITHDRAWN)

    sent = services.league_email_members(league=toy_league, subject="News", body="Hi", by=organiser)

    assert sent == 5 and len(mail.outbox) == 5
    assert mail.outbox[0].subject == "[Toy League] News"


def test_organiser_sees_the_tools_page(toy_league: League, running: Game, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)

    page = client.get(f"/leagues/{toy_league.slug}/manage/")

    assert page.status_code == 200
    assert toy_league.invite_token.encode() in page.content
    assert f'name="game" value="{running.pk}"'.encode() in page.content


def test_only_organisers_manage(toy_league: League, running: Game, members: list[Any]) -> None:
    with pytest.raises(ServiceError) as exc:
        game_tools.game_abort(league=toy_league, game_id=running.pk, by=members[0], reason="mine")

    client = Client()
    client.force_login(members[0])
    assert exc.value.code == "forbidden"
    assert client.get(f"/leagues/{toy_league.slug}/manage/").status_code == 403
    assert client.post(f"/leagues/{toy_league.slug}/manage/round/").status_code == 403
    assert not AuditLog.objects.filter(action="game_aborted").exists()


def test_private_league_is_invisible_to_non_members(toy_league: League, members: list[Any]) -> None:
    League.objects.filter(pk=toy_league.pk).update(is_public=False)
    stranger, member = Client(), Client()
    stranger.force_login(UserFactory(username="stranger", password=NO_PASSWORD))
    member.force_login(members[0])

    assert stranger.get(f"/leagues/{toy_league.slug}/").status_code == 404
    assert toy_league.name.encode() not in stranger.get("/leagues/").content
    assert member.get(f"/leagues/{toy_league.slug}/").status_code == 200


def test_request_then_approval_makes_a_member(toy_league: League, organiser: Any) -> None:
    applicant = UserFactory(username="applicant", password=NO_PASSWORD)

    membership = services.membership_request(league=toy_league, user=applicant)
    assert membership.status == Membership.Status.PENDING
    services.membership_approve(league=toy_league, membership_id=membership.pk, by=organiser)

    membership.refresh_from_db()
    assert membership.status == Membership.Status.ACTIVE
    assert "member_approved" in _actions(toy_league)


def test_withdrawn_member_gets_no_table_next_round(
    toy_league: League, running: Game, members: list[Any], organiser: Any
) -> None:
    season = running.league_fixture.round.season
    services.membership_withdraw(league=toy_league, user=members[0])

    rnd = seasons.round_start(season_id=season.pk, by=organiser)

    seated = [s.user_id for f in rnd.fixtures.all() for s in f.game.seats.all()]
    assert members[0].pk not in seated and len(seated) == 5
    assert sorted(len(f.players) for f in rnd.fixtures.all()) == [2, 3]


def test_scheduled_rounds_start_when_due(toy_league: League, members: list[Any], organiser: Any) -> None:
    from django.utils import timezone

    season = seasons.season_create(
        league=toy_league, by=organiser, rounds=2, starts_at=timezone.now() - timedelta(days=1)
    )

    assert seasons.rounds_start_due() == 1
    assert seasons.rounds_start_due() == 0  # round 2 is due in six days
    assert season.round_set.count() == 1
    assert AuditLog.objects.filter(action="round_started", actor=None).exists()


def test_standings_selector_ranks_with_shared_places(toy_league: League, running: Game) -> None:
    season = running.league_fixture.round.season
    Standing.objects.filter(season=season).update(points=1)

    table = selectors.season_standings(season=season)

    assert {row.rank for row in table} == {1}
    assert len(table) == 6


def test_league_mail_skips_members_who_switched_league_news_off(
    toy_league: League, members: list[Any], organiser: Any
) -> None:
    from apps.notifications import preferences

    preferences.cell_set(user=members[1], category="league_news", channel="mail", mode="off")

    sent = services.league_email_members(league=toy_league, subject="News", body="Hi", by=organiser)

    assert sent == 5 and members[1].email not in [m.to[0] for m in mail.outbox]


@pytest.mark.parametrize("action", ["extend", "substitute", "bot_on", "bot_off"])
def test_a_seat_tool_posted_without_a_seat_is_refused_not_applied_to_seat_0(
    toy_league: League, running: Game, organiser: Any, action: str
) -> None:
    """The manage page's one form serves every tool: an empty Seat field is an error, not seat 0."""
    client = Client()
    client.force_login(organiser)
    before = _actions(toy_league)

    page = client.post(
        f"/leagues/{toy_league.slug}/manage/game/",
        {"game": running.pk, "action": action, "username": "reserve", "hours": 5, "reason": "r"},
        follow=True,
    ).content.decode()

    assert "This field is required." in page
    assert _actions(toy_league) == before
    assert not running.seats.get(position=0).bot_takeover


def test_the_seats_of_a_game_in_play_are_listed_with_the_readers_separator(
    toy_league: League, running: Game, organiser: Any
) -> None:
    """In Chinese the tools list "0号座位：…；1号座位：…", with the full-width semicolon, not "; "."""
    client = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    client.force_login(organiser)

    page = client.get(f"/leagues/{toy_league.slug}/manage/").content.decode()

    seats = page.split(f'name="game" value="{running.pk}"')[0].rsplit("<p>", 1)[1].split("</p>")[0]
    assert "号座位" in seats and "；" in seats and "; " not in seats, seats


def test_giving_back_a_seat_the_bot_does_not_play_is_refused_and_not_logged(
    toy_league: League, running: Game, organiser: Any
) -> None:
    """The organiser log said "gave seat 1 back to its player" of a seat never handed to the bot."""
    before = _actions(toy_league)

    with pytest.raises(ServiceError) as exc:
        game_tools.seat_bot_takeover(
            league=toy_league, game_id=running.pk, position=1, on=False, by=organiser
        )

    assert (exc.value.code, exc.value.status) == ("seat_not_with_bot", 409)
    assert _actions(toy_league) == before
