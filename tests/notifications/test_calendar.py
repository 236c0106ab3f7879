"""The calendar of deadlines: a secret iCalendar address per person."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from icalendar import Calendar

from apps.games import pipeline
from apps.games.models import Decision, Game
from apps.leagues import calendar as league_calendar
from apps.leagues import seasons
from apps.leagues import services as leagues
from apps.notifications import calendar
from baogame.rules.baobei.cards import CARDS
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _feed(client: Any, user: Any) -> Calendar:
    feed = calendar.feed_regenerate(user=user)
    response = client.get(reverse("calendar_feed", args=[feed.token]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def _events(cal: Calendar) -> list[Any]:
    return list(cal.walk("VEVENT"))


def _baobei_game(user: Any, *, players: int = 3) -> Game:
    return GameFactory(engine="baobei", players=players, bots=players - 1, seated=[user])


def test_feed_lists_the_deadline_of_each_of_my_open_decisions(client: Any) -> None:
    """A started Bao Bei game opens my setup peek (BB-4): its deadline is an entry ending at it."""
    me = UserFactory()
    game = _baobei_game(me)
    mine = Decision.objects.get(game=game, seat=0)

    events = _events(_feed(client, me))

    assert len(events) == 1
    (event,) = events
    assert mine.deadline is not None
    assert event.decoded("dtend") == mine.deadline.replace(microsecond=0)  # iCalendar counts whole seconds
    assert event.decoded("dtstart") < event.decoded("dtend")
    assert str(game) in str(event["summary"])
    assert str(event["url"]).endswith(game.get_absolute_url())


def test_feed_names_no_card_not_even_my_own() -> None:
    """The feed carries game names, decision kinds and times only: no card code or bird name."""
    me = UserFactory()
    game = _baobei_game(me, players=4)
    assert Decision.objects.filter(game=game, seat=0).exists()

    text = calendar.feed_ics(user=me).decode().lower()

    for card in CARDS:
        assert card.replace("_", " ") not in text
        assert card not in text


def test_feed_leaves_out_other_peoples_decisions_and_stopped_clocks() -> None:
    """Only my seat's rows with a running clock: another player's decision and a paused clock are not mine
    to see in a calendar."""
    me, other = UserFactory(), UserFactory()
    game = GameFactory(engine="baobei", players=2, seated=[other, me])
    Decision.objects.filter(game=game, seat=1).update(deadline=None, remaining=timedelta(hours=1))

    assert calendar.decision_entries(user=me) == []
    assert len(calendar.decision_entries(user=other)) == 1


def test_feed_follows_the_game_as_it_moves(client: Any) -> None:
    """Built on each request: once my decision is answered its entry is gone."""
    me = UserFactory()
    game = _baobei_game(me)
    feed = calendar.feed_regenerate(user=me)
    url = reverse("calendar_feed", args=[feed.token])
    before = _events(Calendar.from_ical(client.get(url).content))
    decision_id = Decision.objects.get(game=game, seat=0).decision_id

    pipeline.submit_action(
        game_id=game.pk, user=me, action={"type": "choose_peek", "decision_id": decision_id, "slots": [0, 1]}
    )

    after = _events(Calendar.from_ical(client.get(url).content))
    assert [str(e["uid"]) for e in before] != [str(e["uid"]) for e in after]
    assert all(decision_id not in str(e["uid"]) for e in after)


def test_feed_lists_the_next_rounds_of_my_leagues(toy_engine: str) -> None:
    """Each round of a season not yet started is an entry at its scheduled start."""
    organiser, member = UserFactory(), UserFactory()
    league = leagues.league_create(
        creator=organiser, name="Calendar League", game=toy_engine, players_per_table=3
    )
    leagues.membership_join_by_link(league=league, user=member, token=league.invite_token)
    starts = timezone.now() + timedelta(days=2)
    seasons.season_create(league=league, by=organiser, starts_at=starts, rounds=3, round_interval_days=7)

    entries = league_calendar.round_entries(user=member, now=timezone.now())

    assert [e.starts for e in entries] == [starts, starts + timedelta(days=7), starts + timedelta(days=14)]
    assert all("Calendar League" in e.summary for e in entries)
    assert league_calendar.round_entries(user=UserFactory(), now=timezone.now()) == []


def test_a_round_entry_is_in_the_readers_language(toy_engine: str) -> None:
    """The feed is written in its owner's language (a calendar program's fetch carries none): the
    leagues' round entries too, not only the decisions' deadlines."""
    organiser, member = UserFactory(), UserFactory()
    league = leagues.league_create(creator=organiser, name="Liga", game=toy_engine, players_per_table=3)
    leagues.membership_join_by_link(league=league, user=member, token=league.invite_token)
    seasons.season_create(
        league=league,
        by=organiser,
        starts_at=timezone.now() + timedelta(days=2),
        rounds=2,
        round_interval_days=7,
    )

    with translation.override("zh-hans"):
        entries = league_calendar.round_entries(user=member, now=timezone.now())

    assert entries[0].summary == "Liga：第1赛季第1轮开始"
    assert entries[1].description == "联赛 Liga 第1赛季共2轮中的第2轮。"


def test_regenerating_the_address_voids_the_old_one(client: Any) -> None:
    me = UserFactory()
    old = calendar.feed_regenerate(user=me).token

    new = calendar.feed_regenerate(user=me).token

    assert new != old
    assert client.get(reverse("calendar_feed", args=[old])).status_code == 404
    assert client.get(reverse("calendar_feed", args=[new])).status_code == 200


def test_unknown_address_answers_404(client: Any) -> None:
    assert client.get(reverse("calendar_feed", args=["no-such-token"])).status_code == 404


def test_preferences_page_makes_and_shows_the_address(client: Any) -> None:
    me = UserFactory()
    client.force_login(me)
    assert b"Make my calendar address" in client.get(reverse("notifications:preferences")).content

    client.post(reverse("notifications:calendar_regenerate"))

    page = client.get(reverse("notifications:preferences")).content.decode()
    assert calendar.feed_url(calendar.feed_get(user=me)) in page


def test_api_shows_and_regenerates_the_address(client: Any) -> None:
    me = UserFactory()
    client.force_login(me)
    assert client.get("/api/v1/me/calendar/").json() == {"url": None}

    made = client.post("/api/v1/me/calendar/")

    assert made.status_code == 201
    assert client.get("/api/v1/me/calendar/").json() == made.json()
    assert made.json()["url"].endswith(".ics")
