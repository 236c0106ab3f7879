"""The reliability record, per seat tenure over the last 12 months — answered on time,
timeouts, handed to a bot, abandoned, vacation days — on the profile, the standings and the organiser's
member list, and a league's minimum (checked at request, join and each new season)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from apps.accounts.models import VacationSpell
from apps.games import autoplay as game_autoplay
from apps.games import clock as game_clock
from apps.games import pipeline as game_pipeline
from apps.games import reliability
from apps.games.errors import ServiceError
from apps.games.models import Game, Seat, SeatTenure
from apps.leagues import game_tools, seasons, services
from apps.leagues.models import Fixture, League, Membership
from tests.deadlines.helpers import a_game, overdue, pending, toy_play
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[..., datetime]:
    """A clock the test moves: ``clock(days=…)`` moves ``timezone.now`` forward and returns it."""
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])

    def move(**delta: float) -> datetime:
        now[0] += timedelta(**delta)
        return now[0]

    return move


def _time_out_turn(game: Game) -> None:
    overdue(game, kind="turn")
    game_clock.settle_game(game.pk)


def _until_turn_of(game: Game, seat: int, players: dict[int, Any]) -> None:
    """Windows time out (a pass, not an absence) and other seats play until it is ``seat``'s turn."""
    while (d := pending(game)[0]) and not (d["kind"] == "turn" and d["seats"] == [seat]):
        if d["kind"] == "turn":
            toy_play(game, players[d["seats"][0]])
        else:
            overdue(game, kind=d["kind"])
            game_clock.settle_game(game.pk)


def _finish(game: Game, *, human: Any) -> None:
    """The bot plays seat 0, ``human`` answers for seat 1 (plays, passes windows) until the game ends."""
    for _ in range(200):
        game_autoplay.play_bots(game.pk)
        decisions = pending(game)
        if not decisions:
            return
        d = decisions[0]
        if 1 not in d["seats"]:
            continue
        if d["kind"] == "turn":
            toy_play(game, human)
        else:
            game_pipeline.submit_action(
                game_id=game.pk, user=human, action={"type": "pass", "decision_id": d["decision_id"]}
            )
    raise AssertionError("the game did not end")


def test_timeouts_a_bot_handover_and_an_abandoned_seat_count_for_the_absent_player_only(
    toy_engine: str, users: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = a_game(toy_engine, users, players=2, absent_limit=2, options={"hand": 5})
        _time_out_turn(game)
        _until_turn_of(game, 0, {0: users[0], 1: users[1]})
        _time_out_turn(game)  # the second in a row: the bot takes the seat
    with django_capture_on_commit_callbacks(execute=True):
        _finish(game, human=users[1])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    absent, present = reliability.record_for(users[0]), reliability.record_for(users[1])
    assert (absent.timeouts, absent.handed_to_bot, absent.abandoned, absent.answered) == (2, 1, 1, 0)
    assert absent.on_time_percent == 0
    assert present.answered >= 1 and present.timeouts == 0 and present.abandoned == 0
    assert present.on_time_percent == 100
    assert absent.games == present.games == 1


def test_a_seat_the_bot_plays_by_arrangement_from_the_start_is_not_abandoned(
    toy_engine: str, users: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """A house account whose seat the server's bot plays from the first move (the demo's tables) was
    never handed over: the game's end does not count it as abandoned."""
    with django_capture_on_commit_callbacks(execute=True):
        game = a_game(toy_engine, users, players=2, options={"hand": 5})
        Seat.objects.filter(game=game, position=0).update(bot_takeover=True)
        _finish(game, human=users[1])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    arranged = reliability.record_for(users[0])
    assert (arranged.handed_to_bot, arranged.abandoned, arranged.games) == (0, 0, 1)


def test_a_substitute_does_not_inherit_the_predecessors_record(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    reserve = UserFactory(username="reserve", password=NO_PASSWORD)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    services.membership_join_by_link(league=toy_league, user=reserve, token=toy_league.invite_token)
    game = Fixture.objects.filter(round__season=season).first().game
    seats = {s.position: s.user for s in game.seats.select_related("user")}
    leaver = seats[0]
    with django_capture_on_commit_callbacks(execute=True):
        _time_out_turn(game)
        game_tools.seat_bot_takeover(league=toy_league, game_id=game.pk, position=0, on=True, by=organiser)
        offer = game_tools.seat_substitute(
            league=toy_league, game_id=game.pk, position=0, user=reserve, by=organiser
        )
        game_tools.substitute_answer(offer_id=offer.pk, user=reserve, accept=True)

    before = reliability.record_for(leaver)
    assert (before.timeouts, before.handed_to_bot, before.abandoned) == (1, 1, 1)
    assert reliability.record_for(reserve) == reliability.Record(games=1)  # the seat, none of its past

    seats[0] = reserve
    with django_capture_on_commit_callbacks(execute=True):
        _until_turn_of(game, 0, seats)
        toy_play(game, reserve)
        _until_turn_of(game, 0, seats)
        _time_out_turn(game)

    newcomer = reliability.record_for(reserve)
    assert (newcomer.answered, newcomer.timeouts, newcomer.handed_to_bot, newcomer.abandoned) == (1, 1, 0, 0)
    assert reliability.record_for(leaver) == before
    tenures = SeatTenure.objects.filter(game=game, position=0).order_by("started_at", "pk")
    assert [(t.user_id, t.ended_at is not None) for t in tenures] == [(leaver.pk, True), (reserve.pk, False)]


def test_vacation_days_used_count_the_part_of_each_spell_inside_the_last_12_months(
    users: list[Any], clock: Callable[..., datetime]
) -> None:
    player = users[0]
    now = clock()
    VacationSpell.objects.create(
        user=player, started_at=now - timedelta(days=400), ended_at=now - timedelta(days=390)
    )
    VacationSpell.objects.create(
        user=player, started_at=now - timedelta(days=370), ended_at=now - timedelta(days=360)
    )
    game_clock.vacation_start(user=player)
    clock(days=3)
    game_clock.vacation_end(user=player)

    assert VacationSpell.objects.filter(user=player, ended_at__isnull=False).count() == 3
    # now = t0 + 3 days, so the window starts at t0 - 362 days: the spell of t0 - 370 to t0 - 360 days
    # counts its last 2 days, the one of t0 - 400 to t0 - 390 nothing, the vacation just ended 3 days.
    assert reliability.record_for(player).vacation_days == 3.0 + 2.0


def test_tenures_older_than_12_months_drop_out(
    toy_engine: str, users: list[Any], clock: Callable[..., datetime], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = a_game(toy_engine, users, players=2, options={"hand": 5})
        _time_out_turn(game)
        services_abort(game)
    assert reliability.record_for(users[0]).timeouts == 1

    clock(days=366)

    assert reliability.record_for(users[0]).timeouts == 0


def services_abort(game: Game) -> None:
    """End a game without a result (its tenures close)."""
    from django.db import transaction

    from apps.games.lifecycle import game_abort
    from apps.games.store import lock_game

    with transaction.atomic():
        game_abort(lock_game(game.pk), reason="test")


def _unreliable(user: Any) -> None:
    """A record of 1 answer in 4 decisions (25% on time)."""
    game = Game.objects.create(engine="toy", players=2, status=Game.Status.FINISHED)
    SeatTenure.objects.create(
        game=game,
        position=0,
        user=user,
        started_at=timezone.now(),
        ended_at=timezone.now(),
        answered=1,
        timeouts=3,
    )


def test_a_league_minimum_refuses_requests_and_joins_below_it(toy_league: League, organiser: Any) -> None:
    League.objects.filter(pk=toy_league.pk).update(min_reliability=80)
    toy_league.refresh_from_db()
    shaky, newcomer = UserFactory(username="shaky"), UserFactory(username="fresh")
    _unreliable(shaky)

    for join in (
        lambda: services.membership_request(league=toy_league, user=shaky),
        lambda: services.membership_join_by_link(
            league=toy_league, user=shaky, token=toy_league.invite_token
        ),
    ):
        with pytest.raises(ServiceError) as exc:
            join()
        assert exc.value.code == "reliability_too_low"
    assert not Membership.objects.filter(league=toy_league, user=shaky).exists()
    services.membership_request(league=toy_league, user=newcomer)  # no decisions yet: may ask


def test_each_new_season_withdraws_members_below_the_minimum_and_says_so(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    services.league_update(league=toy_league, by=organiser, min_reliability=60)
    toy_league.refresh_from_db()
    _unreliable(members[0])

    seasons.season_create(league=toy_league, by=organiser, rounds=1)

    assert Membership.objects.get(league=toy_league, user=members[0]).status == Membership.Status.WITHDRAWN
    assert Membership.objects.filter(league=toy_league, status=Membership.Status.ACTIVE).count() == 5
    entry = toy_league.audit_log.get(action="member_below_reliability")
    assert entry.detail["user"] == members[0].username and entry.detail["on_time"] == 25


def test_the_standings_the_member_list_and_the_profile_show_the_record(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    game = Fixture.objects.filter(round__season=season).first().game
    with django_capture_on_commit_callbacks(execute=True):
        _time_out_turn(game)
    late = game.seats.get(position=0).user

    page = Client().get(f"/leagues/{toy_league.slug}/").content.decode()
    standings = page.split('class="standings"')[1].split("</table>")[0]
    assert "<th>Reliability</th>" in standings and "1 timeout" in standings

    manager = Client()
    manager.force_login(organiser)
    manage = manager.get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    assert f'{late.username} · Member · <span class="reliability">0% on time · 1 timeout' in manage

    own = Client()
    own.force_login(late)
    profile = own.get("/accounts/profile/").content.decode()
    assert "Your reliability record" in profile and "<th>Timeouts</th><td>1</td>" in profile


def test_an_organisers_bot_handover_counts_once_per_tenure(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    game = Fixture.objects.filter(round__season=season).first().game
    player = game.seats.get(position=1).user

    for on in (True, False, True):
        game_tools.seat_bot_takeover(league=toy_league, game_id=game.pk, position=1, on=on, by=organiser)

    assert reliability.record_for(player).handed_to_bot == 1
    assert Seat.objects.get(game=game, position=1).bot_takeover


@pytest.mark.parametrize("hand_sql", [True, False], ids=["hand_sql", "orm"])
@pytest.mark.parametrize("tenure", [True, False], ids=["tenure_open", "no_tenure"])
def test_a_move_made_in_person_is_counted_in_the_moves_own_transaction(
    toy_engine: str, users: list[Any], settings: Any, hand_sql: bool, tenure: bool
) -> None:
    """``answered`` counts a move made in person with the move's own writes, nothing after commit: a
    move that rolls back is not counted, and a player without an open tenure of the seat gets one (the
    fallback ``reliability.answered``), on the hand path and on the ORM's."""
    settings.GAMES_HAND_SQL = hand_sql
    game = a_game(toy_engine, users, players=2, options={"hand": 5})
    SeatTenure.objects.filter(game=game).delete()
    if tenure:
        reliability.game_started(game_id=game.pk)
    mover = pending(game)[0]["seats"][0]
    player = users[mover]

    with pytest.raises(RuntimeError), transaction.atomic():  # nothing after commit: no commit, no count
        toy_play(game, player)
        assert SeatTenure.objects.get(game=game, position=mover, ended_at=None).answered == 1
        raise RuntimeError("roll the move back")
    assert not SeatTenure.objects.filter(game=game, position=mover, answered__gt=0).exists()

    toy_play(game, player)  # no on-commit callbacks run in this test: the count is already there
    counted = SeatTenure.objects.get(game=game, position=mover, ended_at=None)
    assert (counted.user_id, counted.answered) == (player.pk, 1)


def _open_tenures(game: Game) -> dict[int, int]:
    return dict(SeatTenure.objects.filter(game=game, ended_at=None).values_list("position", "user_id"))


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_start_opens_every_players_tenure_in_three_queries_whatever_the_seats(
    toy_engine: str, users: list[Any], players: int, django_assert_max_num_queries: Any
) -> None:
    """League rounds start many games at once: the record's part of a start is at most three queries
    (the seats, the open tenures, one INSERT; on PostgreSQL's hand path the two reads go together in
    one round trip), not two or three per seat."""
    game = a_game(toy_engine, users, players=players, options={"hand": 5})
    SeatTenure.objects.filter(game=game).delete()

    with django_assert_max_num_queries(3):
        reliability.game_started(game_id=game.pk)

    assert _open_tenures(game) == {p: users[p].pk for p in range(players)}


def test_a_game_start_keeps_a_players_open_tenure_and_ends_someone_elses(
    toy_engine: str, users: list[Any]
) -> None:
    """As ``tenure_open`` seat by seat: the same player's open tenure goes on (with its count), and a
    tenure another player still holds on a seat is ended before the seat's player gets a new one."""
    game = a_game(toy_engine, users, players=3, options={"hand": 5})
    SeatTenure.objects.filter(game=game).delete()
    now = timezone.now()
    kept = SeatTenure.objects.create(game=game, position=0, user=users[0], started_at=now, answered=4)
    stale = SeatTenure.objects.create(game=game, position=1, user=users[5], started_at=now)

    reliability.game_started(game_id=game.pk)

    assert _open_tenures(game) == {0: users[0].pk, 1: users[1].pk, 2: users[2].pk}
    kept.refresh_from_db()
    stale.refresh_from_db()
    assert kept.ended_at is None and kept.answered == 4
    assert stale.ended_at is not None and not stale.abandoned
    assert SeatTenure.objects.filter(game=game).count() == 4


def test_a_game_end_closes_its_tenures_in_one_query_and_abandons_only_seats_left_to_the_bot(
    toy_engine: str, users: list[Any], django_assert_num_queries: Any
) -> None:
    """A seat handed to the bot and still in its hands is abandoned; one handed and taken back, or
    played by the bot by arrangement, is not (BB/BH absent players; the record's definitions)."""
    game = a_game(toy_engine, users, players=4, options={"hand": 5})
    SeatTenure.objects.filter(game=game).delete()
    now = timezone.now()
    for p in range(4):
        SeatTenure.objects.create(
            game=game, position=p, user=users[p], started_at=now, handed_to_bot=p in (0, 1)
        )
    Seat.objects.filter(game=game, position__in=[0, 2]).update(bot_takeover=True)

    with django_assert_num_queries(1):
        reliability.game_ended(game_id=game.pk)

    rows = {t.position: t for t in SeatTenure.objects.filter(game=game)}
    assert all(t.ended_at is not None for t in rows.values())
    assert {p for p, t in rows.items() if t.abandoned} == {0}
