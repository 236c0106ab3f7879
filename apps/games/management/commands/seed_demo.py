"""``manage.py seed_demo``: a demo user and one game of each kind against bots (idempotent)."""

from __future__ import annotations

import secrets
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from apps.games import lifecycle
from apps.games.models import Game

#: (engine, players, title) of each demo game: the demo user and bots in every other seat.
DEMO_GAMES = [
    ("baobei", 3, "Demo: Bao Bei against two bots"),
    ("baohuang", 5, "Demo: Bao Huang against four bots"),
]


class Command(BaseCommand):
    help = "Create the demo user (a new password is printed each time) and demo games against bots."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        user, _ = User.objects.get_or_create(username="demo", defaults={"email": "demo@example.com"})
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.save()
        EmailAddress.objects.update_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )
        for engine, players, title in DEMO_GAMES:
            if not Game.objects.filter(seats__user=user, engine=engine).exists():
                lifecycle.game_create(
                    creator=user,
                    engine=engine,
                    players=players,
                    bots=players - 1,
                    control="daily",
                    title=title,
                )
        self.stdout.write(self.style.SUCCESS(f"Demo user: demo  password: {password}"))
