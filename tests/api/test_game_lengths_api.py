"""Creating a game through the API with a match length by name, or explicit options (BH-3.2, BB §2.3)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game

pytestmark = pytest.mark.django_db


def create(client: Any, **body: Any) -> Any:
    return client.post("/api/v1/games/", {"bots": 4, **body}, format="json")


def test_a_bao_huang_length_by_name_sets_the_deal_limit_and_every_view_shows_it_bh_17_6(
    client_for: Any, users: list
) -> None:
    api = client_for(users[0])

    created = create(api, engine="baohuang", players=5, length="short")

    body = created.json()
    assert created.status_code == 201
    assert body["length"] == "short" and body["length_text"] == "Short: 3 deals, or first to 30"
    view = api.get(f"/api/v1/games/{body['id']}/").json()["view"]
    assert (view["deal_limit"], view["deals_played"], view["target_score"]) == (3, 1, 30)


def test_a_bao_bei_length_by_name_scales_the_threshold_for_the_players(client_for: Any, users: list) -> None:
    created = create(client_for(users[0]), engine="baobei", players=4, bots=3, length="long")

    game = Game.objects.get(pk=created.json()["id"])
    assert game.length == "long" and game.options["threshold"] == 120
    assert created.json()["length_text"] == "Long: ends at 120 points with 4 players"


def test_explicit_options_without_a_length_are_named_by_what_they_amount_to(
    client_for: Any, users: list
) -> None:
    """An older client sends options only: the game is still named (here one deal; then custom)."""
    api = client_for(users[0])

    one = create(api, engine="baohuang", players=5, options={"deal_limit": 1}).json()
    custom = create(api, engine="baohuang", players=5, options={"target_score": 12}).json()
    default = create(api, engine="baohuang", players=5).json()

    assert (one["length"], custom["length"], default["length"]) == ("one_deal", "custom", "standard")
    assert custom["length_text"] == "Custom: first to 12"


def test_custom_takes_its_values_from_the_options(client_for: Any, users: list) -> None:
    created = create(
        client_for(users[0]), engine="baohuang", players=5, length="custom", options={"deal_limit": 5}
    )

    game = Game.objects.get(pk=created.json()["id"])
    assert game.length == "custom" and game.options["deal_limit"] == 5 and game.options["target_score"] == 30


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"engine": "baobei", "players": 3, "bots": 2, "length": "one_deal"}, "invalid_length"),
        ({"engine": "baohuang", "players": 5, "length": "custom"}, "invalid_length"),
        ({"engine": "baohuang", "players": 5, "length": "short", "options": {"deal_limit": 4}},
         "length_conflict"),
        ({"engine": "baobei", "players": 3, "bots": 2, "length": "short", "options": {"threshold": 99}},
         "length_conflict"),
        ({"engine": "baohuang", "players": 5, "length": "custom", "options": {"deal_limit": 0}},
         "invalid_options"),
        ({"engine": "baohuang", "players": 5, "options": {"deal_limit": "3"}}, "invalid_options"),
        ({"engine": "baohuang", "players": 5, "length": "forever"}, "invalid"),
    ],
)  # fmt: skip
def test_bad_lengths_are_refused_with_a_stable_code_and_create_nothing(
    client_for: Any, users: list, body: dict[str, Any], code: str
) -> None:
    """A name the game does not have or custom without values: invalid_length; a length and options that
    disagree: length_conflict; a value out of range: the rules' invalid_options (BH-25.1); not a length
    name at all: the API's invalid, naming the field."""
    response = create(client_for(users[0]), **body)

    assert response.status_code == 400 and response.json()["code"] == code
    assert not Game.objects.exists()


def test_the_schema_lists_the_length_names_with_their_meaning(client_for: Any, users: list) -> None:
    schema = client_for(users[0]).get("/api/schema/", HTTP_ACCEPT="application/json").json()

    length = schema["components"]["schemas"]["GameListInputRequest"]["properties"]["length"]
    refs = [part["$ref"].rsplit("/", 1)[1] for part in length.get("oneOf", length.get("allOf", []))]
    names = {name for ref in refs for name in schema["components"]["schemas"][ref].get("enum", [])}
    assert {"one_deal", "short", "standard", "normal", "long", "custom"} <= names
    assert "Short: 3 deals, or first to 30" in length["description"]
