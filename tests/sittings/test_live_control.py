"""Inside a sitting the game runs on the live control for the players at the table; afterwards it
returns to its own control with their banks as they were. An absent player's clock keeps its
correspondence bank and deadline: a sitting cannot rush them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games.models import Decision, Game, Seat
from apps.sittings import lifecycle, services
from apps.sittings.models import Sitting
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

LIVE_BANK = 15 * 60


@pytest.fixture
def table(toy_engine: str) -> tuple[Game, list[Any]]:
    """A started 3-seat toy game on the daily control: seat 0 owes the first turn."""
    people = [UserFactory() for _ in range(3)]
    return GameFactory(engine=toy_engine, players=3, seated=people), people


def _owner(game: Game) -> Decision:
    return Decision.objects.get(game=game)


def _start(game: Game, people: list[Any], present: list[int], now: Any) -> Sitting:
    for position in present:
        services.presence_seen(game=game, user=people[position], now=now)
    sitting = Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1))
    lifecycle.advance(now=now, game=game)
    sitting.refresh_from_db()
    return sitting


def test_a_present_player_plays_on_a_live_bank_and_gets_their_own_back_at_the_end(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table
    turn = _owner(game)
    now = timezone.now()
    own_left = (turn.deadline - now).total_seconds()  # type: ignore[operator]

    sitting = _start(game, people, [turn.seat, (turn.seat + 1) % 3], now)
    game.refresh_from_db()
    live_deadline = _owner(game).deadline
    end = now + timedelta(minutes=1)
    for position in (turn.seat, (turn.seat + 1) % 3):
        services.presence_seen(game=game, user=people[position], now=end)
    lifecycle.end_vote(game=game, user=people[turn.seat], now=end)
    lifecycle.end_vote(game=game, user=people[(turn.seat + 1) % 3], now=end)
    game.refresh_from_db()

    assert sitting.status == Sitting.Status.LIVE
    assert live_deadline == now + timedelta(seconds=LIVE_BANK)
    assert game.control == "daily"
    assert abs((_owner(game).deadline - end).total_seconds() - own_left) < 1  # type: ignore[operator]


def test_the_game_is_live_during_the_sitting_and_back_on_its_control_after(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table
    now = timezone.now()

    sitting = _start(game, people, [0, 1, 2], now)
    during = Game.objects.get(pk=game.pk).control
    lifecycle.advance(now=sitting.ends_at, game=game)

    assert (during, Game.objects.get(pk=game.pk).control) == ("live", "daily")


def test_an_absent_players_deadline_keeps_its_correspondence_rate(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    turn = _owner(game)
    before = turn.deadline
    others = [p for p in range(3) if p != turn.seat]

    _start(game, people, others, timezone.now())

    assert _owner(game).deadline == before
    assert Game.objects.get(pk=game.pk).control == "live"
    assert Seat.objects.get(game=game, position=turn.seat).bank_runs_out_at == before


def test_a_player_who_arrives_during_the_sitting_joins_the_live_play(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    turn = _owner(game)
    now = timezone.now()
    others = [p for p in range(3) if p != turn.seat]
    _start(game, people, others, now)
    later = now + timedelta(minutes=5)

    joined = lifecycle.arrive(game=game, position=turn.seat, now=later)

    assert joined
    assert _owner(game).deadline == later + timedelta(seconds=LIVE_BANK)
    assert not lifecycle.arrive(game=game, position=turn.seat, now=later)


def test_moves_inside_the_sitting_run_on_live_banks_and_the_game_goes_back_after(
    table: tuple[Game, list[Any]],
) -> None:
    from apps.games import pipeline
    from baogame.rules.registry import get_engine

    game, people = table
    now = timezone.now()
    sitting = _start(game, people, [0, 1, 2], now)
    game.refresh_from_db()
    turn = _owner(game)
    action = get_engine(game.engine).legal_actions(game.state, turn.seat)[0]

    pipeline.submit_action(
        game_id=game.pk, user=people[turn.seat], action={**action, "decision_id": turn.decision_id}
    )
    following = list(Decision.objects.filter(game=game))
    lifecycle.advance(now=sitting.ends_at, game=game)
    game.refresh_from_db()

    assert following and all(
        d.deadline and d.deadline - timezone.now() <= timedelta(seconds=LIVE_BANK) for d in following
    )
    assert game.control == "daily"


def test_an_ad_hoc_sitting_switches_the_game_to_live_as_soon_as_all_accept(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table
    now = timezone.now()
    for user in people:
        services.presence_seen(game=game, user=user, now=now)

    offer = services.ad_hoc_offer(game=game, user=people[0], now=now)
    for user in people[1:]:
        services.answer(game=game, user=user, proposal_id=offer.pk, accept=True, now=now)

    assert Sitting.objects.get(game=game).status == Sitting.Status.LIVE
    assert Game.objects.get(pk=game.pk).control == "live"


def _polled_key(page: Any) -> str:
    """The ``since`` key the board's htmx poll sends, as the page wrote it."""
    found = re.search(r'\?since=([^"&]+)"', page.content.decode())
    assert found is not None
    return found.group(1)


def _page_open(table: tuple[Game, list[Any]], client: Any) -> tuple[Game, list[Any], str, str, datetime]:
    """The game page open for seat 0's player: the game, its people, the page, its poll key, now."""
    game, people = table
    client.force_login(people[0])
    url = game.get_absolute_url()
    return game, people, url, _polled_key(client.get(url)), timezone.now()


def test_an_open_page_is_drawn_again_when_a_sitting_switches_the_clocks_to_live_and_back(
    table: tuple[Game, list[Any]], client: Any
) -> None:
    """docs/playing.md "Sittings": at its start the game reads Live and the present seats play on live
    banks; no move is made, so the board's poll key must change by itself, or a page left open shows the
    correspondence clocks (days) for the whole sitting while its player's live bank runs out."""
    game, people, url, before, now = _page_open(table, client)

    sitting = _start(game, people, [0, 1], now)
    during_poll = client.get(f"{url}?since={before}", HTTP_HX_REQUEST="true")
    during = _polled_key(client.get(url))
    lifecycle.arrive(game=game, position=2, now=now + timedelta(seconds=5))
    joined_poll = client.get(f"{url}?since={during}", HTTP_HX_REQUEST="true")
    joined = _polled_key(client.get(url))
    lifecycle.advance(now=sitting.ends_at, game=game)
    after_poll = client.get(f"{url}?since={joined}", HTTP_HX_REQUEST="true")

    assert during_poll.status_code == 200 and "Live" in during_poll.content.decode()
    assert joined_poll.status_code == 200
    assert after_poll.status_code == 200 and "Daily" in after_poll.content.decode()


def test_an_open_pages_head_says_live_during_the_sitting_and_daily_after(
    table: tuple[Game, list[Any]], client: Any
) -> None:
    """The head's "3 seats · Daily time control" line is above the board: the poll that draws the board
    again at a sitting's start and end brings it out of band, so a page left open does not say Daily
    above a board that says Live."""
    game, people, url, before, now = _page_open(table, client)

    sitting = _start(game, people, [0, 1], now)
    during_poll = client.get(f"{url}?since={before}", HTTP_HX_REQUEST="true").content.decode()
    during = _polled_key(client.get(url))
    lifecycle.advance(now=sitting.ends_at, game=game)
    after_poll = client.get(f"{url}?since={during}", HTTP_HX_REQUEST="true").content.decode()

    head = re.compile(r'<p class="muted game-summary" id="game-summary" hx-swap-oob="outerHTML">([^<]*)')
    during_head, after_head = head.search(during_poll), head.search(after_poll)
    assert during_head is not None and "Live time control" in during_head.group(1)
    assert after_head is not None and "Daily time control" in after_head.group(1)
