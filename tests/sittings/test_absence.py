"""Absence in a sitting (issue point 5): a player who does not turn up does not stop the others for long.

After the grace period (``lifecycle.ABSENCE_GRACE``, 2 minutes) an absent seat goes on as in
correspondence: its standing orders answer what they can, then its own bank runs at the correspondence
rate. A player who gave the standing order "if I miss a sitting, the bot plays my seat until I arrive"
has the seat played by the bot (shown like a take-over) and handed back the moment they arrive or the
sitting ends. Nobody is punished for missing a sitting except through their own bank.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from apps.games import autoplay, orders, pipeline
from apps.games.models import Decision, Game, Move, Seat
from apps.sittings import lifecycle, services
from apps.sittings.models import Sitting
from baogame.rules import orders as rules
from baogame.rules.registry import get_engine
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

#: Seat 0 (RJ*) is the emperor and leads; after its A A only seat 3 (2 2) can beat (BH-11.1).
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]
LIVE_BANK = timedelta(minutes=15)


def bh_game() -> tuple[Game, list[Any]]:
    """A Bao Huang game of five people on the daily control at the start of play: seat 0 leads."""
    people = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": HANDS}]})
    send(game, people[0], {"type": "keep_emperor"})
    for seat in range(5):
        send(game, people[seat], {"type": "no_declaration"})
    return game, people


def send(game: Game, user: Any, action: dict[str, Any]) -> None:
    pipeline.submit_action(game_id=game.pk, user=user, action=action)


def turn(game: Game) -> int:
    game.refresh_from_db()
    return int(get_engine(game.engine).pending(game.state)[0]["seats"][0])


def start(game: Game, people: list[Any], present: list[int], now: Any) -> Sitting:
    for position in present:
        services.presence_seen(game=game, user=people[position], now=now)
    sitting = Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1))
    lifecycle.advance(now=now, game=game)
    sitting.refresh_from_db()
    return sitting


def after_grace(game: Game, people: list[Any], present: list[int], now: Any) -> Sitting:
    """The grace period is over; the present players' pages kept asking."""
    later = now + lifecycle.ABSENCE_GRACE + timedelta(seconds=1)
    for position in present:
        services.presence_seen(game=game, user=people[position], now=later)
    lifecycle.advance(now=later, game=game)
    return Sitting.objects.get(game=game)


def seat(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def seat_one_stood_in_by_the_bot() -> tuple[Game, list[Any], list[int], datetime]:
    """A Bao Huang sitting under way whose seat 1 missed it with the order "the bot plays my seat until
    I arrive": past the grace period, the bot stands in for it. Returns the game, its people, the seats
    present and when the sitting started."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="sitting_bot")
    present = [0, 2, 3, 4]
    now = timezone.now()
    start(game, people, present, now)
    after_grace(game, people, present, now)
    return game, people, present, now


def test_a_no_show_seat_is_played_by_its_orders_then_its_own_bank() -> None:
    """Point 5: absent seat 1 passes by its standing order ("pass when I cannot beat", BH-12.5) without
    holding the table; when its orders cannot answer, it owes on its own correspondence bank (days, not
    the live 15 minutes)."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="pass_unbeatable")
    present = [0, 2, 3, 4]
    now = timezone.now()
    start(game, people, present, now)
    sitting = after_grace(game, people, present, now)
    before = Move.objects.filter(game=game, seat=1).count()

    send(game, people[0], {"type": "play", "cards": ["A", "A"]})
    by_order = list(Move.objects.filter(game=game, seat=1).order_by("seq"))[before:]
    for position in (2, 3, 4):
        send(game, people[position], {"type": "pass"})
    leader = turn(game)
    send(game, people[0], {"type": "play", "cards": ["6"]})  # seat 1 can beat a 6: its orders ask it
    owed = Decision.objects.get(game=game, seat=1)

    assert sitting.status == Sitting.Status.LIVE and sitting.stand_ins == []
    assert [(m.action, m.by_bot, m.by_timeout) for m in by_order] == [({"type": "pass"}, False, False)]
    assert leader == 0
    assert owed.deadline is not None and owed.deadline - timezone.now() > timedelta(days=1)
    assert not seat(game, 1).bot_takeover


def test_the_bot_takes_an_absent_seat_that_asked_for_it_after_the_grace_period() -> None:
    """Point 5: the standing order "if I miss a sitting, the bot plays my seat until I arrive": nothing
    happens during the grace period; after it the seat is bot-played (a take-over the table sees) and
    the bot answers its decision."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="sitting_bot")
    present = [0, 2, 3, 4]
    now = timezone.now()
    start(game, people, present, now)
    lifecycle.advance(now=now + timedelta(minutes=1), game=game)
    during_grace = seat(game, 1).bot_takeover

    sitting = after_grace(game, people, present, now)
    send(game, people[0], {"type": "play", "cards": ["6"]})
    autoplay.play_bots(game.pk)

    assert during_grace is False
    assert sitting.stand_ins == [1]
    assert seat(game, 1).played_by_bot and seat(game, 1).consecutive_timeouts == 0
    assert Move.objects.filter(game=game, seat=1, by_bot=True).exists()


def test_the_seat_is_handed_back_the_moment_its_player_arrives() -> None:
    """Point 5: the player's page asks the server (presence): the bot stops and the seat joins the live
    play on a live bank."""
    game, people, present, now = seat_one_stood_in_by_the_bot()
    arrival = now + timedelta(minutes=10)

    services.presence_seen(game=game, user=people[1], now=arrival)
    joined = lifecycle.arrive(game=game, position=1, now=arrival)
    sitting = Sitting.objects.get(game=game)
    game.refresh_from_db()

    assert joined
    assert not seat(game, 1).bot_takeover
    assert sitting.stand_ins == []
    assert "1" in sitting.saved_clock["banks"]  # type: ignore[index]
    assert game.seat_control(1).name == "live"


def test_the_seat_is_handed_back_when_the_sitting_ends() -> None:
    """Point 5: the order is about sittings: once the sitting is over, the player plays their seat again
    by correspondence."""
    game, people, present, now = seat_one_stood_in_by_the_bot()

    for position in present:
        lifecycle.end_vote(game=game, user=people[position], now=now + lifecycle.ABSENCE_GRACE)

    assert Sitting.objects.get(game=game).status == Sitting.Status.ENDED
    assert not seat(game, 1).bot_takeover


def test_nobody_is_punished_for_missing_a_sitting() -> None:
    """Point 5: without the order an absent seat is not taken over and no timeout is counted; a seat
    taken over for the sitting leaves the other players' banks as they were."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[2], kind="sitting_bot")
    present = [0, 3, 4]
    now = timezone.now()
    start(game, people, present, now)
    before = {p: (seat(game, p).bank_seconds, seat(game, p).bank_runs_out_at) for p in present}

    after_grace(game, people, present, now)

    assert not seat(game, 1).bot_takeover and seat(game, 1).consecutive_timeouts == 0
    assert seat(game, 2).bot_takeover
    assert {p: (seat(game, p).bank_seconds, seat(game, p).bank_runs_out_at) for p in present} == before


def test_the_bot_order_is_given_by_api_and_mail_like_the_other_orders() -> None:
    """Point 5: one more standing order, in both games; listed for its owner with its words."""
    game, people = bh_game()
    url = f"/api/v1/games/{game.pk}/orders/"
    api = APIClient()
    api.force_authenticate(people[3])

    put = api.put(url, {"orders": [{"kind": "sitting_bot"}]}, format="json")
    listed = api.get(url).json()["orders"]
    armed = seat(game, 3).sitting_bot
    api.put(url, {"orders": []}, format="json")

    assert put.status_code == 200
    assert listed == [
        {
            "kind": "sitting_bot",
            "params": {},
            "bound": None,
            "text": "if I miss a sitting, the bot plays my seat until I arrive",
        }
    ]
    assert armed and not seat(game, 3).sitting_bot
    assert rules.parse_mail_command("baohuang", "sitting bot on") == ("arm", "sitting_bot", {})
    assert rules.parse_mail_command("baobei", "Sitting bot off") == ("revoke", "sitting_bot")


def test_the_page_switch_sets_and_clears_the_bot_order(client: Any) -> None:
    """Point 5: the "Standing orders" panel's switch."""
    game, people = bh_game()
    client.force_login(people[4])
    url = f"/games/{game.public_id}/orders/"

    client.post(url, {"do": "switch", "kind": "sitting_bot", "on": "on"})
    on = seat(game, 4).sitting_bot
    page = client.get(game.get_absolute_url()).content.decode()
    client.post(url, {"do": "switch", "kind": "sitting_bot"})

    assert on and not seat(game, 4).sitting_bot
    assert "the bot plays my seat until I arrive" in page


def test_the_absent_players_page_says_why_the_bot_plays_and_opening_it_hands_the_seat_back(
    client: Any,
) -> None:
    """Point 5: the table sees a bot-played seat; its player, opening the game page, is told why, gets
    the seat back at once (presence), and the board's next poll shows their decisions again."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="sitting_bot")
    present = [0, 2, 3, 4]
    now = timezone.now()
    start(game, people, present, now - lifecycle.ABSENCE_GRACE - timedelta(seconds=5))
    after_grace(game, people, present, now - timedelta(seconds=4))
    taken = seat(game, 1).bot_takeover
    client.force_login(people[1])
    game.refresh_from_db()

    page = client.get(game.get_absolute_url()).content.decode()
    poll = client.get(
        f"{game.get_absolute_url()}?since={game.version}-{game.status}-bot", HTTP_HX_REQUEST="true"
    )

    assert taken
    assert "it plays your seat until you are here" in page
    assert not seat(game, 1).bot_takeover
    assert poll.status_code == 200


def test_a_seat_whose_player_closed_their_account_stays_with_the_bot_when_the_sitting_ends() -> None:
    """The bot stood in for an absent seat, then its player closed their account: the sitting's end
    does not hand the seat back to an account that can never play it (the closing lets the bot play it
    to the game's end)."""
    game, people, present, now = seat_one_stood_in_by_the_bot()
    people[1].is_active = False
    people[1].save(update_fields=["is_active"])

    for position in present:
        lifecycle.end_vote(game=game, user=people[position], now=now + lifecycle.ABSENCE_GRACE)

    assert Sitting.objects.get(game=game).status == Sitting.Status.ENDED
    assert seat(game, 1).bot_takeover
