"""``manage.py seed_demo_league``: demo Bao Bei leagues with the demo user and bot accounts (idempotent).

``demo-league``: the demo user and eight bot accounts, round-robin pairing. ``demo-divisions``: twelve
bot accounts in three divisions with Swiss pairing, a finished season and the next one from it
(``apps.leagues.demo_divisions``).

Run ``manage.py seed_demo`` first (it creates the user ``demo``). The house bot accounts belong to
nobody (a member never sits at a table with their own bot account). Round 1 seats them at three tables:
the two without ``demo`` are played to the end at once by their accounts (one result confirmed by the
organiser, one provisional for the league's 48-hour confirmation period), and in ``demo``'s table the
server's bot plays the bot accounts' seats, so the season moves without anybody else. The standings
show every member's reliability record.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.accounts.models import Profile
from apps.games import people
from apps.games.scheduling import queue_game_tasks
from apps.games.store import lock_game
from apps.leagues import demo_results, seasons, services
from apps.leagues.demo_divisions import seed_divisions_league
from apps.leagues.models import League, Membership

BOTS = 8
#: Read by every visitor, not only by ``demo``: it names the demo account rather than saying "you".
DESCRIPTION = (
    "A demo league: the demo account and eight house bot accounts, tables of 3, daily timing; "
    "results stay provisional for 48 hours."
)
#: What the description said before it named the demo account: a league seeded then gets the new one.
_OLD_DESCRIPTION = (
    "A demo league: you and eight house bot accounts, tables of 3, daily timing; "
    "results stay provisional for 48 hours."
)


class Command(BaseCommand):
    help = "Create a demo league (demo user + bot accounts) with a running season."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        demo = User.objects.filter(username="demo").first()
        if demo is None:
            raise CommandError("Run `manage.py seed_demo` first: it creates the user demo.")
        league = League.objects.filter(slug="demo-league").first()
        if league is None:
            league = services.league_create(
                creator=demo,
                name="Demo league",
                game="baobei",
                description=DESCRIPTION,
                players_per_table=3,
                timing_preset="daily",
                join=True,
                confirmation_hours=48,
                pairing_format="round_robin",
            )
        League.objects.filter(pk=league.pk, description=_OLD_DESCRIPTION).update(description=DESCRIPTION)
        bots = []
        for i in range(1, BOTS + 1):
            bot, created = User.objects.get_or_create(
                username=f"demo-bot-{i}", defaults={"email": f"demo-bot-{i}@example.com"}
            )
            if created:
                bot.set_unusable_password()
                bot.save()
            Profile.objects.filter(user=bot).update(
                is_bot_account=True, bot_owner=None, display_name=f"Bot {i}"
            )
            services.membership_join_by_link(league=league, user=bot, token=league.invite_token)
            bots.append(bot)
        Membership.objects.filter(league=league, user=demo).update(status=Membership.Status.ACTIVE)
        season = league.seasons.order_by("-number").first() or seasons.season_create(
            league=league, by=demo, rounds=5
        )
        if not season.round_set.exists():
            with transaction.atomic():
                rnd = seasons.round_start(season_id=season.pk, by=demo)
            mine = rnd.fixtures.filter(game__seats__user=demo)
            finished = list(rnd.fixtures.exclude(pk__in=mine.values("pk")).order_by("table"))
            for fixture in finished:
                demo_results.play_as_api_bots(fixture.game_id)
            demo_results.confirm_one_leave_one(league=league, fixtures=finished, by=demo)
            with transaction.atomic():
                # Nobody drives the bot accounts through the API: let the server's bot play their seats.
                people.seats_to_server_bot(
                    game_ids=mine.values_list("game_id", flat=True), user_ids=[b.pk for b in bots]
                )
                for fixture in mine:
                    queue_game_tasks(lock_game(fixture.game_id))
        self.stdout.write(self.style.SUCCESS(f"Demo league: /leagues/{league.slug}/"))
        divided = seed_divisions_league(demo=demo)
        self.stdout.write(self.style.SUCCESS(f"Demo league with three divisions: /leagues/{divided.slug}/"))
