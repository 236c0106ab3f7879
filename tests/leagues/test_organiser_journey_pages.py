"""What an organiser and the members meet on the pages when a league is run as the docs say: joining by
the invite link, the league page before and during a season, the schedule and the organiser log."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games import estimates
from apps.games.errors import ServiceError
from apps.games.models import Game, SeatTenure
from apps.leagues import confirmation, game_tools, season_length, seasons, selectors, services
from apps.leagues.auditlog import audit_sentence
from apps.leagues.models import AuditLog, League, Membership, Season
from tests.factories import GameFactory, UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


def _unreliable(user: Any) -> None:
    """A record of 1 answer in 4 decisions (25% on time)."""
    game = Game.objects.create(engine="toy", players=2, status=Game.Status.FINISHED)
    now = timezone.now()
    SeatTenure.objects.create(
        game=game, position=0, user=user, started_at=now, ended_at=now, answered=1, timeouts=3
    )


def test_the_invite_link_refuses_a_player_below_the_minimum_on_the_page_not_with_a_server_error(
    toy_league: League,
) -> None:
    League.objects.filter(pk=toy_league.pk).update(min_reliability=80)
    shaky = UserFactory(username="shaky", password=NO_PASSWORD)
    _unreliable(shaky)

    response = signed_in(shaky).post(f"/leagues/{toy_league.slug}/join/{toy_league.invite_token}/")

    assert response.status_code == 403
    assert "reliability_too_low" in response.content.decode()
    assert not Membership.objects.filter(league=toy_league, user=shaky).exists()


def test_the_invite_link_tells_a_member_they_already_belong(toy_league: League, members: list[Any]) -> None:
    page = signed_in(members[0]).get(f"/leagues/{toy_league.slug}/join/{toy_league.invite_token}/")

    text = page.content.decode()
    assert "You are already a member of this league" in text
    assert "Join the league" not in text


def test_the_league_page_names_the_members_until_a_round_gives_them_standings(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    season = seasons.season_create(league=toy_league, by=organiser, rounds=2)

    before = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()
    assert "6 members:" in before and 'class="standings"' not in before

    seasons.round_start(season_id=season.pk, by=organiser)
    during = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()
    assert 'class="standings"' in during and "6 members:" not in during


def test_the_league_page_and_the_organiser_tools_say_when_the_next_round_is_due(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    start = timezone.now() + timedelta(days=2)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=2, starts_at=start)

    assert (
        "Round 1 is scheduled for"
        in signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()
    )
    seasons.round_start(season_id=season.pk, by=organiser)
    assert (
        "Round 2 is scheduled for"
        in signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    )
    seasons.round_start(season_id=season.pk, by=organiser)
    assert "is scheduled for" not in signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()


def test_the_next_round_is_due_in_the_readers_own_time_zone_which_the_page_names(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    """As every deadline on the site: "Thu 10 Dec, 20:00 UTC+1", never a bare time without its zone."""
    start = timezone.now().replace(year=timezone.now().year + 1, month=1, day=15, hour=19, minute=0)
    seasons.season_create(league=toy_league, by=organiser, rounds=2, starts_at=start)
    members[0].profile.time_zone = "Europe/Berlin"
    members[0].profile.save()

    page = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()

    assert "Round 1 is scheduled for" in page
    assert re.search(r"Round 1 is scheduled for \w+ 15 Jan, 20:00 UTC\+1\.", page)


def test_the_organiser_log_is_timed_in_the_readers_own_time_zone_which_it_names(
    toy_league: League, members: list[Any]
) -> None:
    """The log's times read as the deadlines do: "Mon 7 Dec, 09:52 UTC+1", never a bare "2026-12-07 08:52"."""
    entry = AuditLog.objects.create(league=toy_league, actor=None, action="season_created", detail={})
    AuditLog.objects.filter(pk=entry.pk).update(
        created_at=timezone.now().replace(year=timezone.now().year + 1, month=1, day=15, hour=8, minute=52)
    )
    members[0].profile.time_zone = "Europe/Berlin"
    members[0].profile.save()

    page = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()

    assert re.search(
        r'<li data-action="season_created"><time datetime="[^"]+">\w+ 15 Jan, 09:52 UTC\+1</time>', page
    )


def test_the_organiser_logs_game_and_its_brackets_are_one_sentence_the_translator_writes(
    toy_league: League, members: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chinese brackets a game's name with full-width marks ("（…）" or "「…」"): the brackets belong
    to the translated sentence, not to the page around it."""
    from django.utils import translation

    game = GameFactory(engine="toy", players=2)
    AuditLog.objects.create(league=toy_league, actor=None, action="season_created", detail={}, game=game)
    context = "organiser log: an entry and its game"
    english = '%(sentence)s (<a href="%(url)s">%(game)s</a>)'
    chinese = '%(sentence)s（<a href="%(url)s">%(game)s</a>）'
    pgettext = translation.pgettext
    monkeypatch.setattr(
        translation, "pgettext", lambda c, m: chinese if (c, m) == (context, english) else pgettext(c, m)
    )

    page = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()

    entry = page.split('<li data-action="season_created">', 1)[1].split("</li>", 1)[0]
    assert f'（<a href="{game.get_absolute_url()}">{game}</a>）' in entry, entry
    assert " (<a" not in entry


def test_a_round_of_one_table_and_a_season_of_one_round_are_logged_in_the_singular(
    toy_league: League,
) -> None:
    def sentence(action: str, **detail: Any) -> str:
        return audit_sentence(
            AuditLog.objects.create(league=toy_league, actor=None, action=action, detail=detail)
        )

    assert sentence("round_started", season=1, round=1, tables=1) == (
        "The schedule started round 1 of season 1 (1 table)."
    )
    assert sentence("season_created", season=2, rounds=1) == "The schedule scheduled season 2 (1 round)."
    assert sentence("season_created", season=2, rounds=3) == "The schedule scheduled season 2 (3 rounds)."


def test_the_rounds_name_who_has_a_bye(toy_league: League, organiser: Any, members: list[Any]) -> None:
    services.league_update(league=toy_league, by=organiser, allow_smaller_tables=False)
    for member in members[4:]:
        services.membership_withdraw(league=toy_league, user=member)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    rnd = seasons.round_start(season_id=season.pk, by=organiser)

    (bye,) = rnd.byes
    name = next(m.username for m in members if m.pk == bye)
    page = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()
    assert f"1 bye: {name}" in page


def test_a_tool_that_cannot_act_is_said_as_an_error_not_as_done(toy_league: League, organiser: Any) -> None:
    """Starting the next round before any season is said in red, not in the green of a tool done."""
    tools = signed_in(organiser)

    page = tools.post(f"/leagues/{toy_league.slug}/manage/round/", follow=True).content.decode()

    assert re.search(r'class="[^"]*error[^"]*"[^>]*>\s*Create a season first\.', page), page


def test_a_member_opening_the_organiser_tools_gets_the_sites_refusal_page(
    toy_league: League, members: list[Any]
) -> None:
    answer = signed_in(members[0]).get(f"/leagues/{toy_league.slug}/manage/")

    assert answer.status_code == 403
    text = answer.content.decode()
    assert "<h1>Not allowed</h1>" in text and 'class="site"' in text  # the site's page, with its menu


def test_a_finished_season_names_its_winner_and_gives_no_estimate(
    toy_league: League,
    organiser: Any,
    members: list[Any],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the toy game has no pace model: give its seasons a Bao Bei table's estimate
    estimate = estimates.estimate_for(engine="baobei", players=3, length=None, control="daily")
    monkeypatch.setattr(season_length, "season_estimate", lambda season: estimate)
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    running = signed_in(members[0]).get(f"/leagues/{toy_league.slug}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        rnd = seasons.round_start(season_id=season.pk, by=organiser)
    for fixture in rnd.fixtures.select_related("game"):  # the lower seat wins each table
        places = {s.position: s.position + 1 for s in fixture.game.seats.all()}
        with django_capture_on_commit_callbacks(execute=True):
            game_tools.game_adjudicate(
                league=toy_league, game_id=fixture.game_id, places=places, by=organiser, reason="test"
            )
    season.refresh_from_db()
    (view,) = selectors.season_divisions(season=season)
    winners = [row.name for row in view.table if row.rank == 1]

    page = signed_in(members[0]).get(f"/leagues/{toy_league.slug}/").content.decode()

    assert season.status == Season.Status.FINISHED
    line = re.search(r'<p class="champions">(.*?)</p>', page, re.S)
    assert line is not None and line.group(1).startswith("The season was won by ")
    assert winners and all(name in line.group(1) for name in winners)
    assert not any(row.name in line.group(1) for row in view.table if row.rank > 1)
    assert '<p class="estimate' in running and '<p class="estimate' not in page


def test_the_tools_offer_to_start_a_round_only_while_the_season_has_one_left(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """Once every round of the season has started (or it finished), the button would only be refused."""
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    tools = signed_in(organiser)
    button = "Start the next round now"
    scheduled = tools.get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)

    all_started = tools.get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    finished = tools.get(f"/leagues/{toy_league.slug}/manage/").content.decode()

    assert button in scheduled
    assert button not in all_started and "1 of 1 rounds started" in all_started
    assert button not in finished


def test_one_season_at_a_time_even_without_divisions(toy_league: League, organiser: Any) -> None:
    """A second season while the first is scheduled or running would start rounds of both; the tools
    say when the next one may be scheduled instead of offering the form, and the service refuses."""
    seasons.season_create(league=toy_league, by=organiser, rounds=2)
    tools = signed_in(organiser)

    page = tools.get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    posted = tools.post(
        f"/leagues/{toy_league.slug}/manage/season/",
        {"rounds": 3, "round_interval_days": 7},
        follow=True,
    ).content.decode()

    assert "The next season can be scheduled once season 1 has finished." in page
    assert 'id="new-season"' not in page
    assert '<li class="error">the previous season has not finished yet (previous_season_running)' in posted
    assert list(toy_league.seasons.values_list("number", flat=True)) == [1]


def test_the_next_season_is_scheduled_once_the_previous_one_has_finished(
    toy_league: League, organiser: Any
) -> None:
    first = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    Season.objects.filter(pk=first.pk).update(status=Season.Status.FINISHED)

    page = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    second = seasons.season_create(league=toy_league, by=organiser, rounds=1)

    assert 'id="new-season"' in page and "can be scheduled once" not in page
    assert second.number == 2


def test_the_next_season_waits_for_the_last_seasons_results_to_be_confirmed(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """A finished season's provisional results may still change its standings (and a league with
    divisions builds the next season from them): the pages say so, and the next season waits."""
    League.objects.filter(pk=toy_league.pk).update(confirmation_hours=48)
    toy_league.refresh_from_db()
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = seasons.round_start(season_id=season.pk, by=organiser)
    games = [f.game_id for f in rnd.fixtures.all()]
    for game_id in games:
        game = Game.objects.get(pk=game_id)
        places = {seat.position: seat.position + 1 for seat in game.seats.all()}
        with django_capture_on_commit_callbacks(execute=True):
            game_tools.game_adjudicate(
                league=toy_league, game_id=game_id, places=places, by=organiser, reason="t"
            )
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED

    league_page = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()
    tools = signed_in(organiser).get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    with pytest.raises(ServiceError) as refused:
        seasons.season_create(league=toy_league, by=organiser, rounds=1)

    assert f"{len(games)} results of this season are not confirmed yet" in league_page
    placings = (
        r'<p class="placings">1\. member\d, score \d+; 2\. member\d, score \d+; 3\. member\d, score \d+</p>'
    )
    assert len(re.findall(placings, tools)) == len(games)  # each result to confirm says who placed where
    assert f"once the {len(games)} open results of season 1 are confirmed" in tools
    assert 'id="new-season"' not in tools
    assert refused.value.code == "previous_results_open"

    for game_id in games:
        confirmation.result_confirm(league=toy_league, game_id=game_id, by=organiser)
    after = signed_in(members[0]).get(toy_league.get_absolute_url()).content.decode()
    assert "not confirmed yet" not in after
    assert seasons.season_create(league=toy_league, by=organiser, rounds=1).number == 2


def test_withdrawing_asks_first_and_says_what_it_means(toy_league: League, members: list[Any]) -> None:
    member = signed_in(members[0])
    league_page = member.get(toy_league.get_absolute_url()).content.decode()

    asked = member.get(f"/leagues/{toy_league.slug}/withdraw/")
    still = Membership.objects.get(league=toy_league, user=members[0]).status
    member.post(f"/leagues/{toy_league.slug}/withdraw/")
    after = member.get(f"/leagues/{toy_league.slug}/withdraw/")

    assert f'href="/leagues/{toy_league.slug}/withdraw/"' in league_page  # a link, not the act itself
    text = asked.content.decode()
    assert asked.status_code == 200 and "Your games in play go on" in text
    assert f'<form method="post" action="/leagues/{toy_league.slug}/withdraw/"' in text
    assert still == Membership.Status.ACTIVE
    assert Membership.objects.get(league=toy_league, user=members[0]).status == Membership.Status.WITHDRAWN
    assert after.status_code == 302  # nothing left to withdraw from: back to the league page


def test_answering_a_request_to_join_says_who_was_approved_or_declined(
    toy_league: League, organiser: Any
) -> None:
    ann, bob = (UserFactory(username=n, password=NO_PASSWORD) for n in ("ann", "bob"))
    asked = {u.username: services.membership_request(league=toy_league, user=u) for u in (ann, bob)}
    tools = signed_in(organiser)

    approved = tools.post(
        f"/leagues/{toy_league.slug}/manage/approve/", {"membership": asked["ann"].pk}, follow=True
    ).content.decode()
    declined = tools.post(
        f"/leagues/{toy_league.slug}/manage/decline/", {"membership": asked["bob"].pk}, follow=True
    ).content.decode()

    assert "ann is a member now: the next round seats them." in approved
    assert "bob&#x27;s request to join was declined." in declined


def test_a_member_who_withdraws_is_in_the_organiser_log(toy_league: League, members: list[Any]) -> None:
    leaver = signed_in(members[1])

    leaver.post(f"/leagues/{toy_league.slug}/withdraw/")

    entry = AuditLog.objects.get(league=toy_league, action="member_withdrew")
    assert entry.actor == members[1]
    assert (
        audit_sentence(entry) == f"{members[1].profile.name or members[1].username} withdrew from the league."
    )
