"""Each game's presentation lives in its presenter, chosen by engine name.

The generic pages ask the game's ``GameType`` and presenter instead of testing a game's name: these
tests pin what each game gets through them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.http import QueryDict

from apps.games import lifecycle
from apps.games.forms import GameCreateForm, action_from_post
from apps.games.models import Game
from apps.games.presenters import PRESENTERS, generic, presenter_for
from apps.leagues.standings import high_score_wins
from baogame.rules.registry import ENGINES
from tests.factories import UserFactory
from tests.support.played import a_finished_baobei_game


def test_every_game_people_can_create_has_its_own_presenter_and_rules_page() -> None:
    """A game without a presenter would fall back to ``generic``: its JSON board and no rules page."""
    assert set(PRESENTERS) <= set(ENGINES)
    for engine in Game.Engine.values:
        presenter = presenter_for(engine)

        assert presenter is not generic
        assert presenter.rules_page() is not None


def test_an_engine_without_a_presenter_gets_the_generic_one(toy_engine: str) -> None:
    assert presenter_for(toy_engine) is generic


def test_a_bao_bei_form_posts_its_decision_id_bb_20_3() -> None:
    data = QueryDict("type=keep&slot=2&decision_id=d7&commit_end_turn=on")

    assert action_from_post(engine="baobei", data=data) == {
        "type": "keep",
        "decision_id": "d7",
        "slot": 2,
        "commit_end_turn": True,
    }


def test_a_bao_huang_form_posts_only_the_parameters_of_its_action_bh_19_1() -> None:
    """No ``decision_id`` (BH-19.1) and no Bao Bei box (BB-20.7) even if a page posted them."""
    data = QueryDict("type=play&cards=K&cards=K&decision_id=1.1&commit_end_turn=on")

    assert action_from_post(engine="baohuang", data=data) == {"type": "play", "cards": ["K", "K"]}


def test_the_create_form_offers_each_game_with_its_seat_limits_bb_1_1_bh_1_1() -> None:
    form = GameCreateForm()

    assert list(form.fields["engine"].choices) == [
        ("baobei", "Bao Bei (2-6 players)"),
        ("baohuang", "Bao Huang (5 players)"),
    ]


def test_the_create_form_takes_each_games_option_fields_from_its_presenter_bb_25_1_bh_25_1() -> None:
    fields = list(GameCreateForm().fields)

    options = [name for name in fields if name not in {"engine", "players", "opponents", "bots",
               "control", "control_initial_hours", "control_increment_hours", "control_cap_hours",
               "weekends_off", "invite", "title", "bot_test", "visibility", "open_table",
               "min_reliability"}]  # fmt: skip
    assert [name for name in options if not name.startswith("length_")] == [
        *PRESENTERS["baobei"].CREATE_FIELDS,
        *PRESENTERS["baohuang"].CREATE_FIELDS,
    ]
    assert options == [
        "length_baobei",
        "threshold",
        "memory_aid",
        "length_baohuang",
        "target_score",
        "deal_limit",
    ]
    assert fields.index("length_baobei") == fields.index("weekends_off") + 1  # the options follow the clock


@pytest.mark.django_db
def test_the_create_form_passes_bao_beis_options_to_its_setup_bb_25_1() -> None:
    form = GameCreateForm({"engine": "baobei", "players": 3, "bots": 2, "control": "live", "threshold": 50})

    assert form.is_valid(), form.errors
    assert form.options() == {"memory_aid": False, "threshold": 50}  # an unticked box posts nothing


@pytest.mark.django_db
def test_the_create_form_seats_bao_huang_at_five_whatever_was_asked_bh_1_1() -> None:
    form = GameCreateForm(
        {"engine": "baohuang", "players": 3, "bots": 4, "control": "daily", "target_score": 20}
    )

    assert form.is_valid(), form.errors
    assert form.cleaned_data["players"] == 5
    assert form.options() == {"target_score": 20}


@pytest.mark.django_db
def test_the_create_form_refuses_seats_outside_bao_beis_limits_bb_1_1() -> None:
    form = GameCreateForm({"engine": "baobei", "players": 1, "bots": 0, "control": "daily"})

    assert not form.is_valid()
    assert "players" in form.errors


def test_league_tables_rank_by_the_engines_order(toy_engine: str) -> None:
    """BH-17.5 high first; BB-15.5 (and the toy engine) low first; a retired engine low first."""
    assert high_score_wins("baohuang") is True
    assert high_score_wins("baobei") is False
    assert high_score_wins(toy_engine) is False
    assert high_score_wins("retired") is False


@pytest.mark.django_db
def test_a_bao_bei_page_offers_the_seat_setting_and_names_its_shuffle_rule(client_for: Any) -> None:
    user = UserFactory()
    game = lifecycle.game_create(creator=user, engine="baobei", players=3, bots=2)

    html = client_for(user).get(game.get_absolute_url()).content.decode()

    assert 'name="skip_pluck_windows"' in html
    assert "recompute every shuffle (BB-25.10)" in html


@pytest.mark.django_db
def test_a_bao_huang_page_has_no_seat_setting_and_names_its_shuffle_rule(client_for: Any) -> None:
    user = UserFactory()
    game = lifecycle.game_create(creator=user, engine="baohuang", players=5, bots=4)

    html = client_for(user).get(game.get_absolute_url()).content.decode()

    assert 'id="seat-settings"' not in html
    assert "recompute every shuffle (BH-25.9)" in html


@pytest.mark.django_db
def test_a_finished_bao_bei_page_tells_how_to_recompute_its_deals_bb_25_10(client_for: Any) -> None:
    user = UserFactory()
    game = a_finished_baobei_game(user)

    html = client_for(user).get(game.get_absolute_url()).content.decode()

    assert 'random.Random(f"baobei:{seed}:round:{r}:deal")' in html
    assert 'id="seat-settings"' not in html  # the game is over
