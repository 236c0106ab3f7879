"""A refusal shown on a page (the game page's answer to a refused form, a flash message) reads in the
reader's language: the error table's sentence for its code, with the stable English code beside it."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.accounts.models import Profile
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _refused_page(language: str) -> str:
    user = UserFactory()
    Profile.objects.filter(user=user).update(language=language)
    game = GameFactory(engine="baobei", players=2, bots=1, seated=[user])
    client = Client()
    client.force_login(user)
    answer = client.post(f"/games/{game.public_id}/act/", {"type": "no_such_action"}, HTTP_HX_REQUEST="true")
    return answer.content.decode()


def test_a_refused_move_on_the_game_page_reads_in_chinese_with_its_code() -> None:
    page = _refused_page("zh-hans")

    assert "被拒绝：动作格式不对。" in page  # the error table's sentence for malformed_action
    assert "unknown action type" not in page  # the engine's English message
    assert "<code>malformed_action</code>" in page  # the code stays English


def test_a_refused_move_on_the_game_page_keeps_its_english_message_for_an_english_reader() -> None:
    page = _refused_page("en")

    assert "Refused: unknown action type" in page
    assert "被拒绝" not in page
