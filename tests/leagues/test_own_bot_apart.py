"""League pairing: the planner never seats a member with their own bot account;
when no seating keeps them apart, the round is refused with a clear error for the organiser."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from apps.accounts.models import Profile
from apps.games.errors import ServiceError
from apps.leagues import pairing, seasons, separation, services
from apps.leagues.models import Fixture, League, Round
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


def _owner_and_bot(league: League, name: str = "owner") -> tuple[Any, Any]:
    owner, bot = (UserFactory(username=n, password=NO_PASSWORD) for n in (name, f"{name}-bot"))
    Profile.objects.filter(user=bot).update(is_bot_account=True, bot_owner=owner)
    for user in (owner, bot):
        services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    return owner, bot


def test_a_member_never_meets_their_own_bot_account_over_a_season(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    owner, bot = _owner_and_bot(toy_league)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=5)

    for _ in range(5):
        seasons.round_start(season_id=season.pk, by=organiser)

    tables = [f.players for f in Fixture.objects.filter(round__season=season)]
    assert len(tables) == 5 * 3  # 8 members at tables of 3: 3 + 3 + 2, every round
    assert all(not {owner.pk, bot.pk} <= set(t) for t in tables)
    assert not any(g.bot_test for g in (f.game for f in Fixture.objects.filter(round__season=season)))
    assert not toy_league.audit_log.filter(action="table_shares_a_person").exists()


def test_a_round_that_cannot_keep_them_apart_is_refused_with_the_names(
    toy_league: League, organiser: Any
) -> None:
    _owner_and_bot(toy_league)  # two members, one table of two: only together
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)

    with pytest.raises(ServiceError) as exc:
        seasons.round_start(season_id=season.pk, by=organiser)

    assert exc.value.code == "owner_at_own_table"
    assert exc.value.status == 409
    assert "owner" in str(exc.value) and "owner-bot" in str(exc.value)
    assert not Round.objects.filter(season=season).exists()


def test_two_bots_of_one_owner_are_kept_apart_too(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    owner, bot = _owner_and_bot(toy_league)
    second = UserFactory(username="owner-bot2", password=NO_PASSWORD)
    Profile.objects.filter(user=second).update(is_bot_account=True, bot_owner=owner)
    services.membership_join_by_link(league=toy_league, user=second, token=toy_league.invite_token)

    assert separation.forbidden_pairs([owner.pk, bot.pk, second.pk, members[0].pk]) == {
        pairing.pair(owner.pk, bot.pk),
        pairing.pair(owner.pk, second.pk),
        pairing.pair(bot.pk, second.pk),
    }


@pytest.mark.parametrize("seed", [f"s{i}" for i in range(12)])
def test_the_weighted_planner_keeps_forbidden_pairs_apart_whenever_possible(seed: str) -> None:
    """Pure planner: 10 members at tables of 4 (4+3+3) over 6 rounds with three forbidden pairs:
    every round seats all three pairs apart, and the ordinary spread stays sane (no pair meets in
    more than half the rounds)."""
    members = list(range(1, 11))
    forbidden = {(1, 2), (3, 4), (1, 5)}
    plans = pairing.plan_rounds(
        members=members,
        size=4,
        min_size=2,
        history=separation.weigh(Counter(), forbidden),
        rounds=6,
        seed=seed,
    )
    for plan in plans:
        for table in plan.tables:
            assert not any(pairing.pair(a, b) in forbidden for a, b in combinations(table, 2))
    met = pairing.meetings([p.tables for p in plans])
    assert max(met.values()) <= 3
