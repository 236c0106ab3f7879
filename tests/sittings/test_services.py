"""Proposing and answering sittings: who may, what an answer decides, what the table sees."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest

from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.sittings import organisers, selectors, services
from apps.sittings.acceptance import Recurrence
from apps.sittings.models import ProposedTime, Sitting
from tests.factories import UserFactory
from tests.sittings.setup_helpers import three_at_a_table

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def _propose(game: Game, user: Any, *hours: int) -> Any:
    times = [NOW + timedelta(hours=h) for h in hours]
    return services.proposal_create(game=game, user=user, times=times, now=NOW)


def test_a_time_every_player_accepts_becomes_a_sitting(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    proposal = _propose(game, people[0], 30)

    services.answer(game=game, user=people[1], proposal_id=proposal.pk, accept=True, now=NOW)
    agreed = services.answer(game=game, user=people[2], proposal_id=proposal.pk, accept=True, now=NOW)

    assert [(s.starts_at, s.ends_at, s.kind) for s in agreed] == [
        (NOW + timedelta(hours=30), NOW + timedelta(hours=31), Sitting.Kind.AGREED)
    ]
    assert list(Sitting.objects.filter(game=game)) == agreed


def test_one_no_declines_the_time_and_no_sitting_is_made(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    proposal = _propose(game, people[0], 30)

    services.answer(game=game, user=people[1], proposal_id=proposal.pk, accept=False, now=NOW)
    with pytest.raises(ServiceError) as late:
        services.answer(game=game, user=people[2], proposal_id=proposal.pk, accept=True, now=NOW)

    assert late.value.code == "proposal_closed"
    assert ProposedTime.objects.get(proposal=proposal).status == ProposedTime.Status.DECLINED
    assert not Sitting.objects.filter(game=game).exists()


def test_each_time_of_a_proposal_is_answered_on_its_own(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    proposal = _propose(game, people[0], 30, 54)

    services.answer(game=game, user=people[1], proposal_id=proposal.pk, index=1, accept=False, now=NOW)
    for user in people[1:]:
        services.answer(game=game, user=user, proposal_id=proposal.pk, index=2, accept=True, now=NOW)

    assert [s.starts_at for s in Sitting.objects.filter(game=game)] == [NOW + timedelta(hours=54)]
    with pytest.raises(ServiceError) as refused:
        services.answer(game=game, user=people[1], proposal_id=proposal.pk, accept=True, now=NOW)
    assert refused.value.code == "proposal_closed"


def test_an_accepted_weekly_series_makes_every_sitting_at_local_wall_time(
    table: tuple[Game, list[Any]],
) -> None:
    """Tuesdays and Fridays 20:00 in Berlin for 2 weeks, across the change to summer time."""
    game, people = table
    series = Recurrence(
        weekdays=(1, 4), at=time(20), weeks=2, first_day=date(2026, 3, 23), time_zone="Europe/Berlin"
    )
    proposal = services.proposal_create(game=game, user=people[0], recurrence=series, now=NOW)

    for user in people[1:]:
        services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True, now=NOW)

    starts = [s.starts_at for s in Sitting.objects.filter(game=game).order_by("starts_at")]
    assert [s.hour for s in starts] == [19, 19, 18, 18]
    assert proposal.time_zone == "Europe/Berlin"


@pytest.mark.parametrize("who", ["watcher", "stranger"])
def test_someone_outside_the_table_cannot_propose_answer_or_see(
    table: tuple[Game, list[Any]], who: str
) -> None:
    game, people = table
    proposal = _propose(game, people[0], 30)
    outsider = UserFactory() if who == "watcher" else UserFactory(username="stranger")

    with pytest.raises(ServiceError) as proposing:
        _propose(game, outsider, 40)
    with pytest.raises(ServiceError) as answering:
        services.answer(game=game, user=outsider, proposal_id=proposal.pk, accept=False, now=NOW)

    assert (proposing.value.code, proposing.value.status) == ("not_at_table", 403)
    assert answering.value.code == "not_at_table"
    assert selectors.panel(game=game, user=outsider, now=NOW) is None
    assert ProposedTime.objects.get(proposal=proposal).status == ProposedTime.Status.OPEN


def test_the_league_organiser_may_propose_but_has_no_seat_to_answer_with(
    table: tuple[Game, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, people = table
    organiser = UserFactory()
    monkeypatch.setattr(organisers, "_is_organiser", [lambda g, u: u == organiser])

    proposal = _propose(game, organiser, 30)

    assert ProposedTime.objects.get(proposal=proposal).answers.count() == 0
    assert selectors.panel(game=game, user=organiser, now=NOW) is not None
    with pytest.raises(ServiceError):
        services.answer(game=game, user=organiser, proposal_id=proposal.pk, accept=True, now=NOW)


def test_the_proposer_says_yes_to_their_own_times(table: tuple[Game, list[Any]]) -> None:
    game, people = table

    proposal = _propose(game, people[0], 30)

    panel = selectors.panel(game=game, user=people[0], now=NOW)
    assert panel is not None
    assert panel.proposals[0].id == proposal.pk
    assert panel.proposals[0].times[0].answers == {0: True}
    assert panel.proposals[0].times[0].mine is True


@pytest.mark.parametrize(
    ("hours", "code"),
    [((), "no_times"), ((-1,), "bad_times"), ((24 * 400,), "bad_times"), (tuple(range(1, 11)), "bad_times")],
)
def test_bad_times_are_refused_with_a_stable_code(
    table: tuple[Game, list[Any]], hours: tuple[int, ...], code: str
) -> None:
    game, people = table

    with pytest.raises(ServiceError) as refused:
        _propose(game, people[0], *hours)

    assert refused.value.code == code
    assert not game.sitting_proposals.exists()


def test_a_time_overlapping_an_agreed_sitting_or_proposed_twice_is_refused(
    table: tuple[Game, list[Any]],
) -> None:
    """docs/playing.md "Sittings": a time that overlaps a sitting already agreed would be left out when
    everyone accepted it, so it is refused at once (``bad_times``), as is the same time twice; a time
    that only touches the agreed sitting's end is fine."""
    game, people = table
    proposal = _propose(game, people[0], 30)
    for user in people[1:]:
        services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True, now=NOW)

    with pytest.raises(ServiceError) as overlapping:
        services.proposal_create(
            game=game, user=people[1], times=[NOW + timedelta(hours=30, minutes=30)], now=NOW
        )
    with pytest.raises(ServiceError) as twice:
        _propose(game, people[1], 40, 40)
    after = _propose(game, people[1], 31)

    assert overlapping.value.code == twice.value.code == "bad_times"
    assert [t.starts_at for t in after.times.all()] == [NOW + timedelta(hours=31)]
    assert game.sitting_proposals.count() == 2


def test_no_sitting_is_proposed_for_a_finished_game(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()

    with pytest.raises(ServiceError) as refused:
        _propose(game, people[0], 30)

    assert refused.value.code == "game_over"


def test_an_accepted_time_overlapping_an_agreed_sitting_adds_none(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    first, second = _propose(game, people[0], 30), _propose(game, people[0], 30)

    for proposal in (first, second):
        for user in people[1:]:
            services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True, now=NOW)

    assert Sitting.objects.filter(game=game).count() == 1


def _all_here(game: Game, people: list[Any], now: datetime) -> None:
    for user in people:
        services.presence_seen(game=game, user=user, now=now)


def test_everyone_here_is_offered_play_now_and_all_accepting_starts_an_hour(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table
    _all_here(game, people, NOW)
    assert selectors.panel(game=game, user=people[0], now=NOW).offer_play_now  # type: ignore[union-attr]

    offer = services.ad_hoc_offer(game=game, user=people[0], now=NOW)
    later = NOW + timedelta(minutes=2)
    services.answer(game=game, user=people[1], proposal_id=offer.pk, accept=True, now=later)
    [sitting] = services.answer(game=game, user=people[2], proposal_id=offer.pk, accept=True, now=later)

    assert (sitting.kind, sitting.starts_at, sitting.ends_at) == (
        Sitting.Kind.AD_HOC,
        later,
        later + timedelta(hours=1),
    )
    assert selectors.current_sitting(game=game, now=later) == sitting
    assert not selectors.panel(game=game, user=people[0], now=later).offer_play_now  # type: ignore[union-attr]


def test_play_now_is_refused_while_someone_is_away(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    _all_here(game, people[:2], NOW)

    with pytest.raises(ServiceError) as refused:
        services.ad_hoc_offer(game=game, user=people[0], now=NOW)

    assert refused.value.code == "not_everyone_here"
    assert not selectors.panel(game=game, user=people[0], now=NOW).offer_play_now  # type: ignore[union-attr]


def test_presence_lapses_so_an_old_visit_does_not_count_as_here(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    _all_here(game, people, NOW - timedelta(seconds=31))

    assert not selectors.everyone_here(game=game, now=NOW)


def test_a_second_play_now_accepts_the_open_offer(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    _all_here(game, people, NOW)

    first = services.ad_hoc_offer(game=game, user=people[0], now=NOW)
    second = services.ad_hoc_offer(game=game, user=people[1], now=NOW)

    assert first == second
    assert dict(ProposedTime.objects.get(proposal=first).answers.values_list("position", "accept")) == {
        0: True,
        1: True,
    }


def test_an_unanswered_offer_lapses_after_five_minutes(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    _all_here(game, people, NOW)
    offer = services.ad_hoc_offer(game=game, user=people[0], now=NOW)

    with pytest.raises(ServiceError) as late:
        services.answer(
            game=game, user=people[1], proposal_id=offer.pk, accept=True, now=NOW + timedelta(minutes=6)
        )

    assert late.value.code == "proposal_closed"
    assert not Sitting.objects.filter(game=game).exists()


def test_an_ad_hoc_sitting_gives_way_to_the_next_agreed_one(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    agreed_start = NOW + timedelta(minutes=40)
    Sitting.objects.create(game=game, starts_at=agreed_start, ends_at=agreed_start + timedelta(hours=1))
    _all_here(game, people, NOW)

    offer = services.ad_hoc_offer(game=game, user=people[0], now=NOW)
    for user in people[1:]:
        services.answer(game=game, user=user, proposal_id=offer.pk, accept=True, now=NOW)

    ad_hoc = Sitting.objects.get(game=game, kind=Sitting.Kind.AD_HOC)
    assert ad_hoc.ends_at == agreed_start
