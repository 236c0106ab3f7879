"""The API's ``detail`` in the request's language: ``Accept-Language`` asks for one;
without it a token user's profile language is used, else English. The ``code`` stays the stable
English identifier in every language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from rest_framework.test import APIClient

from apps.accounts.models import Profile
from apps.games.errortext import MESSAGES
from apps.games.models import Game
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db


def _turn(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return get_engine(game.engine).pending(game.state)[0]


def _bad_play(client: APIClient, game: Game, **headers: str) -> Any:
    d = _turn(game)
    return client.post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": {"type": "play", "decision_id": d["decision_id"], "card": 99}},
        format="json",
        headers=headers,
    )


def test_a_rule_error_in_english_keeps_its_own_message(client_for: Any, users: list, toy_game: Game) -> None:
    response = _bad_play(client_for(users[0]), toy_game)

    assert response.json() == {"code": "card_not_in_hand", "detail": "you do not hold that card"}


def test_accept_language_asks_for_chinese_and_the_code_stays_english(
    client_for: Any, users: list, toy_game: Game
) -> None:
    response = _bad_play(client_for(users[0]), toy_game, accept_language="zh-CN,zh;q=0.9")

    assert response.status_code == 400
    assert response.json() == {"code": "card_not_in_hand", "detail": "你手里没有全部这些牌。"}


def test_without_accept_language_the_token_users_profile_language_is_used(
    client_for: Any, users: list, toy_game: Game
) -> None:
    Profile.objects.filter(user=users[0]).update(language="zh-hans")

    response = _bad_play(client_for(users[0]), toy_game)

    assert response.json()["code"] == "card_not_in_hand"
    assert response.json()["detail"] == "你手里没有全部这些牌。"


def test_accept_language_wins_over_the_profile(client_for: Any, users: list, toy_game: Game) -> None:
    Profile.objects.filter(user=users[0]).update(language="zh-hans")

    response = _bad_play(client_for(users[0]), toy_game, accept_language="en")

    assert response.json()["detail"] == "you do not hold that card"


def test_drf_and_path_errors_are_translated_too(client_for: Any, users: list) -> None:
    anonymous = APIClient().get("/api/v1/me/", headers={"accept_language": "zh-hans"})
    missing = client_for(users[0]).get("/api/v1/games/999999/", headers={"accept_language": "zh-hans"})
    no_path = client_for(users[0]).get("/api/v1/no-such-thing/", headers={"accept_language": "zh-hans"})

    assert anonymous.json() == {"code": "not_authenticated", "detail": "没有提供身份验证凭据。"}
    assert missing.json() == {"code": "not_found", "detail": "未找到。"}
    assert no_path.json() == {"code": "not_found", "detail": "未找到。"}


ROOT = Path(settings.BASE_DIR)
#: The error codes of the rules standard's tables, as they are written there.
BB_23 = (
    "malformed_action stale_decision window_closed not_your_turn not_eligible not_your_decision "
    "action_not_allowed already_responded commit_not_allowed wrong_count invalid_position invalid_seat "
    "duplicate_target slot_empty no_cards draw_unavailable shielded no_card_to_give gift_missing "
    "gift_not_allowed gift_slot_empty gift_is_target duplicate_gift ability_mismatch same_player "
    "already_moved not_opponent invalid_card_index card_reused shoebill_incomplete invalid_options"
)
BH_21 = (
    "malformed_action unknown_action_type game_over wrong_phase not_your_turn already_submitted "
    "invalid_card card_not_in_hand empty_play not_a_combination wrong_card_count does_not_beat "
    "cannot_pass_lead not_emperor not_alone emperor_cannot_pledge pledge_side_mismatch wrong_tribute_count "
    "wrong_tribute_cards emperor_cannot_guess invalid_seat cannot_guess_self partner_already_revealed "
    "invalid_options"
)


def _raised_codes() -> set[str]:
    """Every code the code raises: ``RuleError("code"``, ``ServiceError("code"``, ``CommandError("code"``."""
    pattern = re.compile(r"(?:RuleError|ServiceError|CommandError)\(\s*\"([a-z_]+)\"")
    found: set[str] = set()
    for folder in ("apps", "baogame"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_error_code_has_a_sentence_in_the_table_and_a_chinese_translation() -> None:
    """BB-23, BH-21 and every code the services raise: one sentence each, translated."""
    codes = _raised_codes() | set(BB_23.split()) | set(BH_21.split())
    assert len(codes) > 100

    assert sorted(codes - set(MESSAGES)) == []
    with translation.override("en"):
        english = {code: str(text) for code, text in MESSAGES.items()}
    with translation.override("zh-hans"):
        untranslated = [code for code, text in MESSAGES.items() if str(text) == english[code]]
    assert untranslated == []
