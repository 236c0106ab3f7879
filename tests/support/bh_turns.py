"""A Bao Huang game brought to its first lead, with many legal plays for the leader (tests only)."""

from __future__ import annotations

from typing import Any

from apps.games import pipeline
from apps.games.models import Game
from baogame.rules.registry import get_engine

#: Seat 0 keeps the emperor card and leads from twelve cards of five ranks and two jokers: 87 plays.
MANY_PLAYS_DEAL = {
    "hands": [
        ["6", "6", "7", "7", "8", "8", "9", "9", "10", "10", "BJ", "RJ", "RJ*"],
        ["J", "Q", "6"],
        ["K", "A", "7"],
        ["2", "K", "8"],
        ["A", "Q", "9", "BJ*"],
    ]
}

#: Seat 0 keeps the emperor card and leads 6 6; seat 1 then has 25 plays that beat it (each of seven
#: pairs, each of those ranks with either joker, the two jokers), more than the quick-play buttons.
MANY_BEATS_DEAL = {
    "hands": [
        ["6", "6", "2", "RJ*"],
        ["7", "7", "8", "8", "9", "9", "10", "10", "J", "J", "Q", "Q", "K", "K", "A", "A", "BJ", "RJ"],
        ["2"],
        ["2"],
        ["2", "BJ*"],
    ]
}


def to_the_first_lead(game: Game, users: list[Any]) -> Game:
    """Answer the emperor offer and the declarations as each seat's default would (BH-5, BH-6)."""
    engine = get_engine("baohuang")
    for _ in range(10):
        game.refresh_from_db()
        pending = engine.pending(game.state)
        if not pending or pending[0]["kind"] == "turn":
            return game
        for seat in pending[0]["seats"]:
            action = engine.timeout_action(game.state, seat)
            action.pop("timeout", None)
            pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)
            game.refresh_from_db()
    raise AssertionError("the game never reached a turn")


#: Small hands for the standing orders' tests: seat 0 keeps the emperor card and leads.
ORDERS_HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def five_at_play(hands: list[list[str]] = ORDERS_HANDS) -> tuple[Game, list[Any]]:
    """A Bao Huang game of five people at the start of play (the emperor kept, nobody declaring):
    seat 0 leads."""
    from tests.factories import GameFactory, UserFactory

    people = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": hands}]})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    return game, people
