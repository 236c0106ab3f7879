"""``manage.py seed_demo``: a demo user and one game of each kind against bots (idempotent)."""

from __future__ import annotations

import secrets
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from apps.games import lifecycle
from apps.games.models import Game


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
        if not Game.objects.filter(seats__user=user, engine="baobei").exists():
            lifecycle.game_create(
                creator=user,
                engine="baobei",
                players=3,
                bots=2,
                control="daily",
                title="Demo: Bao Bei against two bots",
            )
        if not Game.objects.filter(seats__user=user, engine="baohuang").exists():
            lifecycle.game_create(
                creator=user,
                engine="baohuang",
                players=5,
                bots=4,
                control="daily",
                title="Demo: Bao Huang against four bots",
            )
        self.stdout.write(self.style.SUCCESS(f"Demo user: demo  password: {password}"))
