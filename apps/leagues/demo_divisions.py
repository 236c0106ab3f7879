"""The three-division demo league of ``seed_demo_league``: Swiss pairing, one up and one down a season.

Twelve house bot accounts (owned by nobody) in three divisions of four; the user ``demo`` organises,
and results stay provisional for 48 hours. Season 1 (one round) is played out at once by the accounts
themselves, as API clients would (``demo_results``), in this process: one table's result is confirmed
by the organiser, the others stay provisional. Season 2 is proposed from it (the top of divisions 2 and
3 up, the bottom of divisions 1 and 2 down), two members swap divisions by hand (audited), the
divisions are confirmed and its first round starts: the running workers play it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from apps.accounts.models import Profile
from apps.games import people
from apps.games.scheduling import queue_game_tasks
from apps.games.store import lock_game
from apps.leagues import demo_results, divisions, seasons, services
from apps.leagues.models import League, Round, Season

SLUG = "demo-divisions"
MEMBERS = 12


def seed_divisions_league(*, demo: Any) -> League:
    """Create (once) the demo league of three divisions; returns it."""
    league = League.objects.filter(slug=SLUG).first()
    if league is not None:
        return league
    league = services.league_create(
        creator=demo,
        name="Demo divisions",
        game="baobei",
        description=(
            "Three divisions of four bot players, Swiss pairing, one player up and one down each season. "
            "Season 1 is over; season 2 started from it."
        ),
        players_per_table=4,
        engine_options={"threshold": 12},
        timing_preset="daily",
        divisions=3,
        promotion=1,
        pairing_format="swiss",
        confirmation_hours=48,
    )
    assert league.slug == SLUG, league.slug
    bots = [_bot(i) for i in range(1, MEMBERS + 1)]
    for bot in bots:
        services.membership_join_by_link(league=league, user=bot, token=league.invite_token)
    first = divisions.season_propose(league=league, by=demo, rounds=1)
    divisions.divisions_confirm(season=first, by=demo)
    _play_out(seasons.round_start(season_id=first.pk, by=demo), organiser=demo)
    second = divisions.season_propose(league=league, by=demo, rounds=3)
    for low, high in ((3, 2), (2, 3)):  # swap two who stay, by hand (audited): the tables stay full
        stays = second.placements.filter(division=low, movement="stayed", moved_by_hand=False)
        first_stays = stays.order_by("user__username").first()
        if first_stays is not None:
            divisions.placement_move(
                season=second,
                user_id=first_stays.user_id,
                division=high,
                by=demo,
                reason="demo: a swap by hand",
            )
    divisions.divisions_confirm(season=second, by=demo)
    with transaction.atomic():
        rnd = seasons.round_start(season_id=second.pk, by=demo)
        people.seats_to_server_bot(game_ids=rnd.fixtures.values_list("game_id", flat=True))
        for fixture in rnd.fixtures.select_related("game"):
            queue_game_tasks(lock_game(fixture.game_id))
    return league


def _bot(i: int) -> Any:
    User = get_user_model()
    # No address: the server's bot plays these seats, and the results mailed to the seat's holder
    # (``selectors.seated_people``) would only fill the development mailbox.
    bot, created = User.objects.get_or_create(username=f"demo-div-bot-{i}", defaults={"email": ""})
    if created:
        bot.set_unusable_password()
        bot.save()
    # A bot account of nobody's, as the first demo league's house bots: each its own person to the
    # pairing (``people.person_of``; bot accounts of one owner would be one person, kept apart), and a
    # bot to the sittings (``people.held_by_person``), so an all-bot table offers no sitting to agree.
    Profile.objects.filter(user=bot).update(display_name=f"Div bot {i}", is_bot_account=True, bot_owner=None)
    return bot


def _play_out(rnd: Round, *, organiser: Any) -> None:
    """The accounts play every game of the round to its end, here and now, and the organiser confirms
    every result: the next season is built from final standings (``previous_results_open``)."""
    fixtures = list(rnd.fixtures.order_by("table"))
    for fixture in fixtures:
        demo_results.play_as_api_bots(fixture.game_id)
    demo_results.confirm_all(league=rnd.season.league, fixtures=fixtures, by=organiser)
    season = Season.objects.get(pk=rnd.season_id)
    if season.status != Season.Status.FINISHED:
        states = list(rnd.fixtures.values_list("game_id", "game__status"))
        raise RuntimeError(f"the demo's first season did not finish: {states}")
