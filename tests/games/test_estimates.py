"""Honest estimates: before a game starts the site says how long it will take, from its own finished
games with the same settings once there are enough of them, otherwise from the pace model; after the
game it says how long it took. BH-3.2 and BB §2.3 (lengths) decide what "the same settings" are.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone, translation

from apps.games import estimates, lifecycle, signals
from apps.games.clock.controls import NAMED_CONTROLS, control_from
from apps.games.errors import ServiceError
from apps.games.estimates import TABLE
from apps.games.models import Game
from apps.games.store import lock_game
from bench.pace.clockwork import named_controls
from bench.pace.rows import run_row
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _finished(
    n: int,
    *,
    days: float,
    engine: str = "baohuang",
    players: int = 5,
    length: str = "short",
    control: str = "daily",
) -> None:
    """``n`` finished games of people only, each ``days`` long, with these settings, each end announced
    as a game's end is once committed (``signals.game_ended``)."""
    end = timezone.now()
    made = Game.objects.bulk_create(
        Game(
            engine=engine,
            players=players,
            length=length,
            control=control,
            status=Game.Status.FINISHED,
            started_at=end - timedelta(days=days),
            finished_at=end,
        )
        for _ in range(n)
    )
    for game in made:
        signals.game_ended.send(sender=Game, game_id=game.pk)


def test_without_history_the_estimate_comes_from_the_pace_model_table():
    found = estimates.estimate("baohuang", 5, "short", "daily")

    median, p90, _deals, n = TABLE[("baohuang", 5, "short", "daily")]
    assert (found.days_typical, found.days_p90, found.source, found.n) == (median, p90, "model", n)
    assert "pace model" in found.text()


def test_twenty_finished_games_with_the_same_settings_make_the_site_the_source():
    _finished(19, days=40)
    assert estimates.estimate("baohuang", 5, "short", "daily").source == "model"

    _finished(1, days=40)
    found = estimates.estimate("baohuang", 5, "short", "daily")

    assert (found.source, found.n, round(found.days_typical)) == ("site", 20, 40)
    assert "20 games of people with these settings have finished" in found.text()


def test_a_games_end_refreshes_the_kept_site_estimate(django_capture_on_commit_callbacks: Any):
    """The site's record is kept between requests, but the end of a game makes the next estimate count it."""
    _finished(19, days=40)
    assert estimates.estimate("baohuang", 5, "short", "daily").source == "model"
    game = GameFactory(engine="baohuang", players=5, length="short")

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        lifecycle.game_adjudicate(lock_game(game.pk), places={s: s + 1 for s in range(5)}, reason="agreed")
    found = estimates.estimate("baohuang", 5, "short", "daily")

    assert (found.source, found.n) == ("site", 20)


def test_a_kept_site_estimate_does_not_outlive_its_time(monkeypatch: pytest.MonkeyPatch):
    """A game that ended in another process (whose end this one did not hear of) counts once the kept
    record has expired."""
    _finished(20, days=40)
    assert estimates.estimate("baohuang", 5, "short", "daily").n == 20
    Game.objects.create(
        engine="baohuang",
        players=5,
        length="short",
        control="daily",
        status=Game.Status.FINISHED,
        started_at=timezone.now() - timedelta(days=40),
        finished_at=timezone.now(),
    )
    assert estimates.estimate("baohuang", 5, "short", "daily").n == 20

    later = time.time() + estimates.SITE_CACHE_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    found = estimates.estimate("baohuang", 5, "short", "daily")

    assert found.n == 21


def test_games_with_other_settings_do_not_count_bh_3_2():
    _finished(20, days=40, length="one_deal")
    _finished(20, days=40, control="weekly")

    assert estimates.estimate("baohuang", 5, "short", "daily").source == "model"


def test_a_custom_length_scales_the_nearest_named_length_bh_3_2():
    short = estimates.estimate("baohuang", 5, "short", "daily")

    six = estimates.estimate("baohuang", 5, "custom", "daily", options={"target_score": 30, "deal_limit": 6})

    assert six.source == "model"
    assert six.days_typical == pytest.approx(2 * short.days_typical)


def test_a_custom_control_is_estimated_as_the_nearest_named_one():
    near_weekly = control_from("custom", {"initial": 8 * 86400, "increment": 3 * 86400, "cap": 14 * 86400})

    assert estimates.estimate("baobei", 3, "normal", near_weekly) == estimates.estimate(
        "baobei", 3, "normal", "weekly"
    )


def test_the_model_answers_without_the_database_for_custom_settings(django_assert_num_queries):
    with django_assert_num_queries(0):
        estimates.estimate("baobei", 4, "custom", "daily", options={"threshold": 70})


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"engine": "baobei", "players": 9, "length": None, "control": "daily"}, "invalid_options"),
        ({"engine": "baohuang", "players": 5, "length": "long", "control": "daily"}, "invalid_length"),
        ({"engine": "baohuang", "players": 5, "length": None, "control": "hourly"}, "invalid_control"),
        ({"engine": "baohuang", "players": 5, "length": None, "control": "custom"}, "invalid_control"),
        ({"engine": "chess", "players": 2, "length": None, "control": "daily"}, "invalid_options"),
    ],
)
def test_settings_a_game_could_not_have_are_refused_with_a_stable_code(settings: dict[str, Any], code: str):
    with pytest.raises(ServiceError) as refused:
        estimates.estimate_for(**settings)

    assert refused.value.code == code


def test_every_named_setting_has_a_model_row():
    for engine, sizes, names in (
        ("baobei", range(2, 7), ("short", "normal", "long")),
        ("baohuang", (5,), ("one_deal", "short", "standard")),
    ):
        for players in sizes:
            for length in names:
                for control in NAMED_CONTROLS:
                    assert (engine, players, length, control) in TABLE


@pytest.mark.parametrize(("game", "players", "length"), [("baobei", 2, "short"), ("baohuang", 5, "short")])
def test_the_table_matches_a_small_bench_run_of_the_same_row(game: str, players: int, length: str):
    row = run_row(game, length, named_controls()["daily"], games=6, seed=101, players=players)

    median = TABLE[(game, players, length, "daily")][0]
    assert row.median_days == pytest.approx(median, rel=0.4)


def test_span_words_fit_the_duration():
    assert [estimates.span(d) for d in (0.2, 9, 60, 400, 900)] == [
        "5 hours",
        "9 days",
        "9 weeks",
        "13 months",
        "2.5 years",
    ]


def test_the_new_game_form_states_the_estimate_and_where_it_comes_from():
    client = Client()
    client.force_login(UserFactory())

    page = client.get("/games/new/").content.decode()

    # The form's first choice is bots in every other seat: the game goes at the player's own pace.
    assert 'class="estimate muted"' in page
    assert "Expected duration: As fast as you answer: the bots answer at once. For comparison: About" in page
    assert "js/estimate.js" in page and 'data-estimate-url="/games/estimate/"' in page


def test_against_bots_the_estimate_says_the_game_goes_at_the_players_own_pace():
    settings = {"game": "baohuang", "length": "short", "control": "daily"}

    people = Client().get("/games/estimate/", settings).json()
    solo = Client().get("/games/estimate/", {**settings, "solo": "1"}).json()

    assert people["text"].startswith("About") and "bots" not in people["text"]
    assert solo["text"] == f"As fast as you answer: the bots answer at once. For comparison: {people['text']}"
    assert (solo["days_typical"], solo["days_p90"], solo["source"]) == (
        people["days_typical"],
        people["days_p90"],
        people["source"],
    )


def test_the_form_endpoint_answers_the_settings_as_json():
    reply = Client().get(
        "/games/estimate/", {"game": "baohuang", "length": "custom", "deal_limit": 6, "control": "daily"}
    )

    body = reply.json()
    assert reply.status_code == 200 and body["source"] == "model" and body["text"].startswith("About")
    refused = Client().get("/games/estimate/", {"game": "baohuang", "length": "long"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_length"


def _lasting(**duration: float) -> Game:
    """A finished game begun on 6 December 2026 at 20:58:49 (UTC) that lasted ``duration``."""
    start = datetime(2026, 12, 6, 20, 58, 49, tzinfo=UTC)
    return Game(status=Game.Status.FINISHED, started_at=start, finished_at=start + timedelta(**duration))


def test_a_game_of_seconds_took_less_than_a_minute_not_an_hour():
    assert estimates.took_text(_lasting(seconds=3)) == "Took less than a minute (6 December 2026)."


def test_a_game_of_minutes_says_its_minutes():
    assert estimates.took_text(_lasting(minutes=40)) == "Took 40 minutes (6 December 2026)."


def test_a_game_of_hours_keeps_its_hours_and_both_days():
    assert estimates.took_text(_lasting(hours=5)) == "Took 5 hours (6 December 2026 to 7 December 2026)."


def test_a_short_game_says_how_long_it_took_in_chinese():
    with translation.override("zh-hans"):
        seconds, minutes = estimates.took_text(_lasting(seconds=3)), estimates.took_text(_lasting(minutes=40))

    assert seconds == "历时不到一分钟（2026年12月6日）。"
    assert minutes == "历时40分钟（2026年12月6日）。"


def test_the_invitation_page_states_the_estimate():
    game = GameFactory(engine="baohuang", players=5, length="short", seated=[UserFactory()])
    guest = Client()
    guest.force_login(UserFactory())

    page = guest.get(f"/games/join/{game.invitations.get().token}/").content.decode()

    assert "Expected duration: About" in page


def test_a_finished_game_says_how_long_it_took():
    game = GameFactory(engine="baobei", players=2)
    start = timezone.now() - timedelta(days=30)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, started_at=start, finished_at=start + timedelta(days=30)
    )
    game.refresh_from_db()

    page = Client().get(game.get_absolute_url()).content.decode()

    assert estimates.took_days(game) == pytest.approx(30)
    assert "Took 4 weeks" in page
