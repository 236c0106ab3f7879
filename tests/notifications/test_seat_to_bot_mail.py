"""A seat handed to the bot after repeated timeouts is told: its player is mailed (one click takes the
seat back), and a league game's organisers too (they may offer the seat to a substitute), each once.
DESIGN: "Repeated timeouts hand the seat to a bot and tell the organiser"."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.db import transaction

from apps.games import clock, lifecycle
from apps.games.models import Game, Seat
from apps.leagues import seasons
from apps.leagues import services as leagues
from apps.notifications import send
from apps.notifications.models import Notification
from apps.notifications.send import notification_send
from tests.deadlines.helpers import a_game, overdue
from tests.factories import UserFactory

from .conftest import mails_to

pytestmark = pytest.mark.django_db


def _time_out(game: Game, **filters: Any) -> None:
    overdue(game, **filters)
    clock.settle_game(game.pk)


def test_the_player_whose_seat_went_to_the_bot_is_mailed_once(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    game = a_game(toy_engine, users, players=2, absent_limit=1, options={"hand": 5})
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        _time_out(game, kind="turn")
    clock.settle_game(game.pk)  # a second look hands nothing over again

    [sent] = [m for m in mails_to(users[0]) if "a bot plays your seat" in m.subject]
    assert "so a bot plays your seat from now on" in sent.body and "one click on the game page" in sent.body
    assert "/mail/go/" in sent.body  # the signed link to the game
    assert not [m for m in mails_to(users[1]) if "bot plays" in m.subject]  # a casual game: nobody else
    assert Notification.objects.filter(kind=Notification.Kind.SEAT_TO_BOT).count() == 1


@pytest.fixture
def handed_over(
    toy_engine: str, users: list, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> tuple[Game, Notification]:
    """Seat 0 went to the bot (one timeout of one allowed); its mail waits (its task is not queued)."""
    monkeypatch.setattr(send, "queue_send", lambda note, *, now: None)
    game = a_game(toy_engine, users, players=2, absent_limit=1, options={"hand": 5})
    with django_capture_on_commit_callbacks(execute=True):
        _time_out(game, kind="turn")
    return game, Notification.objects.get(kind=Notification.Kind.SEAT_TO_BOT)


def test_no_mail_once_the_player_took_the_seat_back(
    users: list, handed_over: tuple[Game, Notification]
) -> None:
    game, note = handed_over
    lifecycle.seat_take_back(game_id=game.pk, user=users[0])
    mail.outbox.clear()

    notification_send(notification_id=note.pk)

    assert not mails_to(users[0])
    note.refresh_from_db()
    assert note.status == Notification.Status.SKIPPED


def test_a_league_games_organisers_are_told_and_the_player_gets_the_players_mail(
    django_capture_on_commit_callbacks,
) -> None:
    players = [UserFactory() for _ in range(3)]
    organiser = players[0]
    league = leagues.league_create(
        creator=organiser, name="Jinan", game="baobei", players_per_table=3, pairing_format="round_robin"
    )
    for user in players[1:]:
        leagues.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=organiser, rounds=2)
    seasons.round_start(season_id=season.pk, by=organiser)
    game = Game.objects.get(seats__user=players[1], status=Game.Status.ACTIVE)
    Game.objects.filter(pk=game.pk).update(absent_limit=1)
    position = Seat.objects.get(game=game, user=players[1]).position
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        _time_out(game, seat=position)

    to_player = [m for m in mails_to(players[1]) if "bot plays" in m.subject]
    to_organiser = [m for m in mails_to(organiser) if f"a bot plays seat {position}" in m.subject]
    assert [m.subject.endswith("a bot plays your seat") for m in to_player] == [True]
    assert len(to_organiser) == 1
    assert f"so a bot plays seat {position}" in to_organiser[0].body
    assert "offer the seat to a substitute" in to_organiser[0].body


def test_the_players_mail_is_in_their_language(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    profile = users[0].profile
    profile.language = "zh-hans"
    profile.save(update_fields=["language"])
    game = a_game(toy_engine, users, players=2, absent_limit=1, options={"hand": 5})
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        _time_out(game, kind="turn")

    [sent] = [m for m in mails_to(users[0]) if "机器人替你打这个座位" in m.subject]
    assert "连续1次让截止时间过去" in sent.body and "a bot plays" not in sent.body


def test_the_players_mail_is_dropped_once_somebody_else_holds_the_seat(
    users: list, handed_over: tuple[Game, Notification]
) -> None:
    game, note = handed_over
    Seat.objects.filter(game=game, position=0).update(user=users[2])  # a substitute, still bot-played
    mail.outbox.clear()

    notification_send(notification_id=note.pk)

    assert not mails_to(users[0]) and not mails_to(users[2])
    note.refresh_from_db()
    assert note.status == Notification.Status.SKIPPED


def test_the_mail_is_recorded_with_the_hand_over_and_rolls_back_with_it(toy_engine: str, users: list) -> None:
    """The player's mail row is written in the transaction that hands the seat over: no commit of one
    without the other (a crash after the commit loses no mail; a rollback leaves none behind)."""
    game = a_game(toy_engine, users, players=2, absent_limit=1, options={"hand": 5})

    with pytest.raises(RuntimeError), transaction.atomic():
        _time_out(game, kind="turn")
        assert Notification.objects.filter(kind=Notification.Kind.SEAT_TO_BOT, user=users[0]).exists()
        raise RuntimeError("the transaction rolls back")

    assert not Notification.objects.filter(kind=Notification.Kind.SEAT_TO_BOT).exists()
    assert not Seat.objects.get(game=game, position=0).bot_takeover


def test_a_league_games_organisers_are_told_when_a_player_closes_their_account(
    django_capture_on_commit_callbacks,
) -> None:
    """The closed account's seat goes to the bot until the game ends; its organisers may offer it."""
    from apps.accounts.closing import account_close

    players = [UserFactory() for _ in range(3)]
    organiser = players[0]
    league = leagues.league_create(creator=organiser, name="Jinan", game="baobei", players_per_table=3)
    for user in players[1:]:
        leagues.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=organiser, rounds=2)
    seasons.round_start(season_id=season.pk, by=organiser)
    game = Game.objects.get(seats__user=players[1], status=Game.Status.ACTIVE)
    position = Seat.objects.get(game=game, user=players[1]).position
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=players[1], password="pw-for-tests-123")

    [told] = [m for m in mails_to(organiser) if f"a bot plays seat {position}" in m.subject]
    assert f"closed-{players[1].pk} closed their account, so a bot plays seat {position}" in told.body
    assert "until the game ends" in told.body and "offer the seat to a substitute" in told.body
    assert not [m for m in mail.outbox if "bot plays" in m.subject and m.to != [organiser.email]]
