"""A league's confirmation period. Results count provisionally, are confirmed when the
period ends without objection (beat) or at once by an organiser; an organiser may reopen one within the
period to adjudicate it; an organiser who plays in the game has no power over its result."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import dateformat, timezone

from apps.games import autoplay as game_autoplay
from apps.games.errors import ServiceError
from apps.games.models import Game, Seat
from apps.leagues import confirmation, seasons, selectors, services
from apps.leagues.models import Fixture, League, Standing
from tests.factories import UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[..., datetime]:
    """A clock the test moves: ``clock(hours=…)`` moves ``timezone.now`` forward and returns it."""
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])

    def move(**delta: float) -> datetime:
        now[0] += timedelta(**delta)
        return now[0]

    return move


@pytest.fixture
def period_league(toy_league: League, organiser: Any, members: list[Any]) -> League:
    services.league_update(league=toy_league, by=organiser, name=toy_league.name)
    League.objects.filter(pk=toy_league.pk).update(confirmation_hours=48)
    toy_league.refresh_from_db()
    return toy_league


def _play_round(league: League, organiser: Any, capture: Any) -> list[Fixture]:
    season = seasons.season_create(league=league, by=organiser, rounds=2)
    seasons.round_start(season_id=season.pk, by=organiser)
    fixtures = list(Fixture.objects.filter(round__season=season).select_related("game"))
    for fixture in fixtures:
        Seat.objects.filter(game=fixture.game).update(bot_takeover=True)
        with capture(execute=True):
            game_autoplay.play_bots(fixture.game_id)
    for fixture in fixtures:
        fixture.refresh_from_db()
    return fixtures


def test_a_result_counts_provisionally_and_the_beat_confirms_it_when_the_period_ends(
    period_league: League,
    organiser: Any,
    clock: Callable[..., datetime],
    django_capture_on_commit_callbacks: Any,
) -> None:
    fixtures = _play_round(period_league, organiser, django_capture_on_commit_callbacks)
    fixture = fixtures[0]
    assert fixture.counted_at is not None and fixture.confirmed_at is None
    assert confirmation.result_state(fixture) == confirmation.PROVISIONAL
    assert Standing.objects.filter(season=fixture.round.season, games_played=1).count() == 6

    clock(hours=47)
    assert confirmation.confirm_due() == 0
    clock(hours=2)
    assert confirmation.confirm_due() == 2

    fixture.refresh_from_db()
    assert confirmation.result_state(fixture) == confirmation.CONFIRMED
    assert period_league.audit_log.filter(action="result_confirmed", game=fixture.game).exists()


def test_standings_mark_provisional_results_on_the_page(
    period_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    fixtures = _play_round(period_league, organiser, django_capture_on_commit_callbacks)
    confirmation.result_confirm(league=period_league, game_id=fixtures[0].game_id, by=organiser)

    page = Client().get(f"/leagues/{period_league.slug}/")

    text = page.content.decode()
    assert page.status_code == 200
    assert text.count('class="provisional"') >= 3  # the three players of the unconfirmed table
    confirmed_players = {s.user_id for s in fixtures[0].game.seats.all()}
    counts = confirmation.provisional_players(fixtures[0].round.season)
    assert not confirmed_players & set(counts)
    assert set(counts) == {s.user_id for s in fixtures[1].game.seats.all()}


def test_the_organiser_tools_say_each_results_state_in_the_readers_language(
    period_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    _play_round(period_league, organiser, django_capture_on_commit_callbacks)
    client = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    client.force_login(organiser)

    page = client.get(f"/leagues/{period_league.slug}/manage/").content.decode()
    heads = [part.split("</h3>")[0] for part in page.split('class="fixture result-to-confirm"><h3>')[1:]]

    assert len(heads) == 2  # the round's two tables, both finished and provisional
    assert all("暂定结果" in head and "provisional" not in head for head in heads), heads


def test_the_organiser_tools_give_a_provisional_results_deadline_as_the_league_page_does(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """It reads "until Tue 8 Dec, 14:17 UTC", with its zone, as on the league page: not "2026-12-08 14:17"."""
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]
    assert fixture.confirm_by is not None

    page = signed_in(organiser).get(f"/leagues/{period_league.slug}/manage/").content.decode()

    until = dateformat.format(timezone.localtime(fixture.confirm_by), "D j M, H:i T")
    heads = [part.split("</h3>")[0] for part in page.split('class="fixture result-to-confirm"><h3>')[1:]]
    assert any(f"until {until}" in head for head in heads), heads


def _offered_actions(page: str, game_id: int) -> list[str]:
    """The actions the manage page offers for the finished game ``game_id`` under "Results to confirm"."""
    results = page.split('class="fixture result-to-confirm"')[1:]
    form = next(part for part in results if f'name="game" value="{game_id}"' in part).split("</form>")[0]
    return re.findall(r'<option value="([a-z_]+)"', form)


def test_a_provisional_result_offers_only_confirm_and_reopen(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A finished game cannot be paused, extended or substituted: only its result can be acted on."""
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]

    page = signed_in(organiser).get(f"/leagues/{period_league.slug}/manage/").content.decode()

    assert _offered_actions(page, fixture.game_id) == ["confirm", "reopen"]


def test_a_reopened_result_offers_only_its_adjudication(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]
    confirmation.result_reopen(league=period_league, game_id=fixture.game_id, by=organiser, reason="a bug")

    page = signed_in(organiser).get(f"/leagues/{period_league.slug}/manage/").content.decode()

    assert _offered_actions(page, fixture.game_id) == ["adjudicate_result"]


def test_an_organiser_confirms_at_once(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]

    confirmation.result_confirm(league=period_league, game_id=fixture.game_id, by=organiser)

    fixture.refresh_from_db()
    assert fixture.confirmed_by == organiser
    with pytest.raises(ServiceError) as exc:
        confirmation.result_confirm(league=period_league, game_id=fixture.game_id, by=organiser)
    assert exc.value.code == "already_confirmed"


def test_reopen_within_the_period_withdraws_the_result_and_adjudication_counts_the_new_places(
    period_league: League,
    organiser: Any,
    clock: Callable[..., datetime],
    django_capture_on_commit_callbacks: Any,
) -> None:
    fixtures = _play_round(period_league, organiser, django_capture_on_commit_callbacks)
    fixture = fixtures[0]
    season = fixture.round.season
    seats = {s.position: s.user_id for s in fixture.game.seats.all()}
    clock(hours=10)

    confirmation.result_reopen(league=period_league, game_id=fixture.game_id, by=organiser, reason="a bug")

    fixture.refresh_from_db()
    assert confirmation.result_state(fixture) == confirmation.REOPENED
    for user_id in seats.values():
        assert Standing.objects.get(season=season, user_id=user_id).games_played == 0
    clock(hours=100)
    assert confirmation.confirm_due() == 1  # only the other table: a reopened result waits

    places = {0: 3, 1: 2, 2: 1}
    confirmation.result_adjudicate(
        league=period_league, game_id=fixture.game_id, places=places, by=organiser, reason="seat 2 won"
    )

    fixture.refresh_from_db()
    assert confirmation.result_state(fixture) == confirmation.CONFIRMED
    winner = Standing.objects.get(season=season, user_id=seats[2])
    assert (winner.games_played, winner.wins, winner.points) == (1, 1, 2)
    assert Standing.objects.get(season=season, user_id=seats[0]).points == 0
    game = Game.objects.get(pk=fixture.game_id)
    assert game.result["adjudicated"] and game.result["winners"] == [2]
    table = selectors.season_standings(season=season)
    assert sum(r.games_played for r in table) == 6


def test_reopening_after_the_period_is_refused(
    period_league: League,
    organiser: Any,
    clock: Callable[..., datetime],
    django_capture_on_commit_callbacks: Any,
) -> None:
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]
    clock(hours=49)

    with pytest.raises(ServiceError) as exc:
        confirmation.result_reopen(league=period_league, game_id=fixture.game_id, by=organiser, reason="late")

    assert exc.value.code == "period_over"


def test_reopening_a_result_an_organiser_confirmed_within_the_period_says_it_is_confirmed(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Confirmed at once, the result stands: the refusal says so, not that a period still running is over."""
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]
    confirmation.result_confirm(league=period_league, game_id=fixture.game_id, by=organiser)

    with pytest.raises(ServiceError) as exc:
        confirmation.result_reopen(league=period_league, game_id=fixture.game_id, by=organiser, reason="x")

    assert exc.value.code == "already_confirmed"


def test_an_organiser_who_plays_has_no_power_over_their_own_result(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    services.membership_join_by_link(league=period_league, user=organiser, token=period_league.invite_token)
    fixtures = _play_round(period_league, organiser, django_capture_on_commit_callbacks)
    own = next(f for f in fixtures if f.game.seats.filter(user=organiser).exists())

    for act in (
        lambda: confirmation.result_confirm(league=period_league, game_id=own.game_id, by=organiser),
        lambda: confirmation.result_reopen(
            league=period_league, game_id=own.game_id, by=organiser, reason="x"
        ),
    ):
        with pytest.raises(ServiceError) as exc:
            act()
        assert exc.value.code == "own_game"


def test_without_a_period_results_are_confirmed_as_they_count(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    fixture = _play_round(toy_league, organiser, django_capture_on_commit_callbacks)[0]

    assert confirmation.result_state(fixture) == confirmation.CONFIRMED
    assert fixture.confirmed_at == fixture.counted_at


def test_a_non_organiser_cannot_confirm(
    period_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = _play_round(period_league, organiser, django_capture_on_commit_callbacks)[0]
    stranger = UserFactory(username="stranger", password=NO_PASSWORD)

    with pytest.raises(ServiceError) as exc:
        confirmation.result_confirm(league=period_league, game_id=fixture.game_id, by=stranger)

    assert exc.value.code == "forbidden"
