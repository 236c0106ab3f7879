"""The new-game form fits the chosen game without JavaScript: seats, bots and match lengths by name.

A person without JavaScript sees every game's fields, each naming its game; the server reads only the
chosen game's and explains, before anything is created, what does not fit.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.forms import GameCreateForm
from apps.games.models import Game
from tests.factories import UserFactory
from tests.support.catalogue import stand_in_chinese

pytestmark = pytest.mark.django_db


def post(client: Any, **fields: Any) -> Any:
    """Post the form as a browser without JavaScript does: every field with its value."""
    data = {
        "engine": "baobei",
        "players": 3,
        "opponents": "bots",
        "bots": 2,
        "control": "daily",
        "length_baobei": "normal",
        "length_baohuang": "standard",
        "memory_aid": "on",
        "title": "Form game",
        **fields,
    }
    return client.post("/games/new/", data)


def bots_of(game: Game) -> list[bool]:
    return [bool(s.bot) for s in game.seats.order_by("position")]


def test_bao_huang_against_bots_seats_five_with_four_bots_whatever_players_said_bh_1_1(client_for):
    """Issue of newcomers: Bao Huang chosen, the players box still says 3: the game still has five
    seats, and "bots" fills the four that are not mine, so it starts at once (BH-1.1)."""
    me = UserFactory()

    response = post(client_for(me), engine="baohuang", players=3, bots=2)

    game = Game.objects.get(title="Form game")
    assert response.status_code == 302
    assert game.players == 5 and bots_of(game) == [False, True, True, True, True]
    assert game.status == Game.Status.ACTIVE


def test_bots_fill_the_seats_left_after_the_invited_players(client_for):
    me, ann = UserFactory(), UserFactory(username="ann")

    post(client_for(me), engine="baohuang", invite="ann")

    game = Game.objects.get(title="Form game")
    assert game.seats.get(position=1).user == ann and bots_of(game) == [False, False, True, True, True]
    assert game.status == Game.Status.ACTIVE


def test_people_leaves_the_other_seats_open_and_some_bots_takes_the_number(client_for):
    me = UserFactory()

    post(client_for(me), players=4, opponents="people", title="Open")
    post(client_for(me), players=4, opponents="some", bots=1, title="Mixed")

    assert bots_of(Game.objects.get(title="Open")) == [False, False, False, False]
    assert bots_of(Game.objects.get(title="Mixed")) == [False, False, False, True]
    assert Game.objects.get(title="Mixed").status == Game.Status.OPEN


def test_more_bots_and_invitations_than_seats_are_explained_before_anything_is_created(client_for):
    me = UserFactory()
    UserFactory(username="ann")

    response = post(client_for(me), engine="baohuang", opponents="some", bots=4, invite="ann")

    assert response.status_code == 200
    assert "Bao Huang has 5 seats: you, 1 invited and 4 bots make 6." in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("length", "options", "deals"),
    [("one_deal", {"target_score": 30, "deal_limit": 1}, 1),
     ("short", {"target_score": 30, "deal_limit": 3}, 3),
     ("standard", {"target_score": 30, "deal_limit": None}, None)],
)  # fmt: skip
def test_bao_huang_lengths_by_name_set_the_deal_limit_bh_3_2_bh_17_6(client_for, length, options, deals):
    me = UserFactory()

    post(client_for(me), engine="baohuang", length_baohuang=length)

    game = Game.objects.get(title="Form game")
    assert game.length == length and game.options == options
    assert game.state["options"].get("deal_limit") == deals


def test_a_custom_bao_huang_length_takes_a_deal_limit_and_keeps_the_target_bh_17_6(client_for):
    """BH-17.6: a deal limit alone keeps the target of 30, which still ends the game earlier."""
    me = UserFactory()

    post(client_for(me), engine="baohuang", length_baohuang="custom", deal_limit=4)

    game = Game.objects.get(title="Form game")
    assert game.length == "custom" and game.options == {"target_score": 30, "deal_limit": 4}
    assert game.length_text == "Custom: 4 deals, or first to 30"


def test_a_custom_length_equal_to_a_named_one_is_stored_by_that_name(client_for):
    """The stored name says what the game is (durations are estimated by it), however it was chosen."""
    me = UserFactory()

    post(client_for(me), engine="baohuang", length_baohuang="custom", deal_limit=3)

    assert Game.objects.get(title="Form game").length == "short"


@pytest.mark.parametrize(
    ("players", "length", "threshold"),
    [(2, "short", 50), (4, "short", 40), (4, "normal", 80), (4, "long", 120), (6, "long", 90)],
)
def test_bao_bei_lengths_scale_the_threshold_of_section_2_3_for_the_players(
    client_for, players, length, threshold
):
    """§2.3's default threshold (100; 80 with 3-4; 60 with 5-6): short halves it, long adds half."""
    me = UserFactory()

    post(client_for(me), players=players, length_baobei=length)

    game = Game.objects.get(title="Form game")
    assert game.length == length and game.options["threshold"] == threshold


def test_a_custom_length_without_its_values_is_explained(client_for):
    me = UserFactory()

    response = post(client_for(me), engine="baohuang", length_baohuang="custom")

    assert "A custom length needs a target score and/or deal limit." in response.content.decode()
    assert not Game.objects.exists()


def test_custom_values_with_a_named_length_are_explained_not_ignored(client_for):
    """Without JavaScript the deal limit box shows under every length: a value typed there with
    "Short" chosen is refused with the reason, never silently dropped."""
    me = UserFactory()

    response = post(client_for(me), engine="baohuang", length_baohuang="short", deal_limit=5)

    assert "You gave a deal limit: choose Custom to use it, or leave it empty." in response.content.decode()
    assert not Game.objects.exists()


def test_the_other_games_length_is_ignored(client_for):
    """Bao Bei chosen: the Bao Huang length posted beside it (it is on the page) changes nothing."""
    me = UserFactory()

    post(client_for(me), players=4, length_baobei="short", length_baohuang="custom")

    game = Game.objects.get(title="Form game")
    assert game.engine == "baobei" and game.length == "short" and "deal_limit" not in game.options


def test_the_page_marks_each_field_with_its_game_and_names_every_length_with_its_meaning(client_for):
    """Without JavaScript: the lengths say what they mean for every table size; each game's fields are
    marked for the script that shows only the chosen game's."""
    html = client_for(UserFactory()).get("/games/new/").content.decode()

    assert 'data-game="baohuang"' in html and 'data-game="baobei"' in html
    assert "Short: 3 deals, or first to 30" in html and "Standard: first to 30" in html
    assert "One deal" in html
    assert "Normal: ends at 100 points with 2 players, 80 with 3–4, 60 with 5–6" in html
    assert 'data-when="length_baohuang=custom"' in html and 'data-when="opponents=some"' in html
    assert 'id="new-game-data"' in html and "js/gameforms.js" in html


def test_the_form_data_for_the_script_gives_each_lengths_label_per_table_size() -> None:
    data = GameCreateForm().client_data()

    assert data["baohuang"]["fixed_players"] == 5 and data["baobei"]["fixed_players"] is None
    assert data["baobei"]["lengths"]["4"]["normal"] == "Normal: ends at 80 points with 4 players"
    assert data["baohuang"]["lengths"]["5"]["short"] == "Short: 3 deals, or first to 30"


def test_the_game_page_shows_the_length_and_the_deal_of_the_limit_bh_17_6(client_for):
    me = UserFactory()
    post(client_for(me), engine="baohuang", length_baohuang="short")
    game = Game.objects.get(title="Form game")

    html = client_for(me).get(game.get_absolute_url()).content.decode()

    assert "Length: Short: 3 deals, or first to 30" in html
    assert "Deal 1 of 3" in html


def test_the_worst_cases_fold_under_the_time_control_whose_help_stays_short(client_for):
    """The control's help says what a bank is; the four worst cases are a list folded under it, so that
    a newcomer reads one sentence, not six."""
    html = client_for(UserFactory()).get("/games/new/").content.decode()
    row = html.split('class="field field-control"')[1].split("</div>")[0]
    help_text = row.split("<small>")[1].split("</small>")[0]
    folded = row.split('<details class="field-more">')[1].split("</details>")[0]

    assert "can last at most" not in help_text and "time bank" in help_text
    assert (
        "<summary>How long a game can last at most, if every seat lets its bank run out</summary>" in folded
    )
    assert folded.count("<li>") == 4 and "<li>Weekly: a one-deal Bao Huang game can last at most" in folded


def test_the_form_states_each_named_controls_worst_case(client_for):
    """Each named control says how long a game can last at most if every seat runs its bank out on
    every decision, with the most decisions one seat met in the pace benchmark's games (147 in a
    one-deal Bao Huang game, which plays on after a shared lead, BH-17.6; 136 in a normal Bao Bei game
    of 3), not an average deal's 30, which would state a fifth of it."""
    html = client_for(UserFactory()).get("/games/new/").content.decode()

    for control, bao_huang, bao_bei in (
        ("Live", "7 hours", "4 hours"),
        ("Daily", "745 days", "414 days"),
        ("Relaxed", "1485 days", "825 days"),
        ("Weekly", "2225 days", "1236 days"),
    ):
        assert (
            f"{control}: a one-deal Bao Huang game can last at most {bao_huang}, "
            f"a normal Bao Bei game of 3 at most {bao_bei}."
        ) in html


def test_a_length_that_does_not_fit_is_explained_in_the_readers_language(client_for, monkeypatch):
    """Without JavaScript a Chinese reader is told in Chinese what does not fit (marked strings, with
    stand-ins until the catalogue has them), not in English built in code."""

    stand_ins = {
        "You gave a %(names)s: choose Custom to use it, or leave it empty.": "你填了%(names)s：选自定义。",
        "A custom length needs a %(names)s.": "自定义长度需要%(names)s。",
        " and ": "和",
        " and/or ": "和/或",
    }
    stand_in_chinese(monkeypatch, stand_ins)
    me = UserFactory()
    me.profile.language = "zh-hans"
    me.profile.save()

    named = post(client_for(me), engine="baohuang", length_baohuang="short", deal_limit=5).content.decode()
    custom = post(client_for(me), engine="baohuang", length_baohuang="custom").content.decode()

    assert "choose Custom" not in named and "You gave a" not in named
    assert "A custom length needs" not in custom and " and/or " not in custom
    assert not Game.objects.exists()
