"""A refused display name is explained in the reader's language; its stable code stays English."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.accounts.names import TAKEN, display_name_problem
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_display_name_that_is_another_players_username_is_refused_in_chinese() -> None:
    UserFactory(username="wei")
    with translation.override("zh-hans"):
        problem = display_name_problem(name="Wei", user=UserFactory())

    assert problem == f"“Wei”是另一位玩家的用户名（{TAKEN}）"


def test_the_same_refusal_reads_in_english_for_an_english_reader() -> None:
    UserFactory(username="wei")
    with translation.override("en"):
        problem = display_name_problem(name="Wei", user=UserFactory())

    assert problem == f"“Wei” is another player's username ({TAKEN})"
