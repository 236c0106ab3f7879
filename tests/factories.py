"""factory_boy factories for database tests."""

from __future__ import annotations

from typing import Any

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from apps.games.models import Game, Seat, SeatTenure


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pw-for-tests-123")

    @factory.post_generation
    def verified(self, create: bool, extracted: object, **kwargs: object) -> None:
        if create:
            EmailAddress.objects.get_or_create(
                user=self, email=self.email, defaults={"verified": True, "primary": True}
            )


class GameFactory(factory.django.DjangoModelFactory):
    """A game made the way players make one: ``game_create`` by ``seated[0]`` (seat 0, the creator),
    then ``game_join`` for each other user of ``seated``; the last ``bots`` seats are bots. Once every
    seat is taken the game has started (dealt, decisions open). Spell out only what the test is about::

        GameFactory(engine=toy_engine, players=3, seated=users[:3])  # started
        GameFactory(players=3, seated=users[:1])                     # open, two seats free

    ``seated`` defaults to fresh users for every seat that is not a bot. Create only (no ``build``):
    a game is its service-made rows.
    """

    class Meta:
        model = Game

    engine = "baobei"
    players = 3
    bots = 0
    options = factory.LazyFunction(dict)
    seated = factory.LazyAttribute(lambda g: [UserFactory() for _ in range(g.players - g.bots)])

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, seated: list[Any], **kwargs: Any) -> Game:
        from apps.games import lifecycle

        game = lifecycle.game_create(creator=seated[0], **kwargs)
        for user in seated[1:]:
            lifecycle.game_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        return game

    @classmethod
    def _build(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        raise NotImplementedError("GameFactory only creates (a game is its service-made rows)")


class SeatFactory(factory.django.DjangoModelFactory):
    """``user`` takes an open seat of ``game`` through ``game_join`` (the lowest, or ``position``); the
    game starts when that was the last one. By default a fresh user joins a fresh 3-seat game that
    only its creator has joined."""

    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory, seated=factory.LazyFunction(lambda: [UserFactory()]))
    user = factory.SubFactory(UserFactory)
    position = None

    @classmethod
    def _create(
        cls, model_class: type[Seat], *args: Any, game: Game, user: Any, position: int | None
    ) -> Seat:
        from apps.games import lifecycle

        lifecycle.game_join(game_id=game.pk, user=user, position=position)
        game.refresh_from_db()
        return Seat.objects.select_related("game").get(game=game, user=user)

    @classmethod
    def _build(cls, model_class: type[Seat], *args: Any, **kwargs: Any) -> Seat:
        raise NotImplementedError("SeatFactory only creates (a seat is taken through game_join)")


def signed_in(user: Any | None) -> Client:
    """A test client signed in as ``user`` (an anonymous visitor's for None)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def with_record(user: Any, *, answered: int, timeouts: int = 0) -> Any:
    """Give ``user`` a reliability record: a finished game's seat tenure with ``answered`` decisions
    answered and ``timeouts`` left to the deadline (an open table's minimum asks for some)."""
    game = Game.objects.create(engine="toy", players=2, status=Game.Status.FINISHED)
    now = timezone.now()
    SeatTenure.objects.create(
        game=game, position=0, user=user, started_at=now, ended_at=now, answered=answered, timeouts=timeouts
    )
    return user
