"""Display names are unique without regard to case and are never another user's username:
on the profile page, through the API, at sign-up and for bot accounts; a migration resolves the
clashes that already exist."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import Profile
from apps.api import services as api_services
from apps.games.errors import ServiceError

pytestmark = pytest.mark.django_db


def _show_as(user: Any, name: str) -> None:
    Profile.objects.filter(user=user).update(display_name=name)


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_page_refuses_a_display_name_another_player_shows_in_another_case(users: list) -> None:
    _show_as(users[0], "Magpie")

    page = _signed_in(users[1]).post("/accounts/profile/", {"display_name": "mAGPIE", "time_zone": "UTC"})

    assert b"display_name_taken" in page.content
    assert Profile.objects.get(user=users[1]).display_name == ""


def test_the_api_refuses_a_display_name_that_is_another_users_username(users: list) -> None:
    answer = _signed_in(users[1]).patch(
        "/api/v1/me/", {"display_name": users[0].username.upper()}, content_type="application/json"
    )

    assert answer.status_code == 400
    assert "display_name_taken" in str(answer.json()["errors"]["display_name"])


def test_a_player_may_show_their_own_username_in_another_case(users: list) -> None:
    answer = _signed_in(users[1]).patch(
        "/api/v1/me/", {"display_name": users[1].username.upper()}, content_type="application/json"
    )

    assert answer.status_code == 200


def test_sign_up_refuses_a_username_another_player_shows_as(users: list) -> None:
    _show_as(users[0], "Kingfisher")

    page = Client().post(
        "/accounts/signup/",
        {
            "email": "k@example.com",
            "username": "kingfisher",
            "password1": "a-long-bird-password-42",
            "password2": "a-long-bird-password-42",
        },
    )

    assert b"display_name_taken" in page.content
    assert not Profile.objects.filter(user__username="kingfisher").exists()


def test_a_bot_account_cannot_show_as_another_player(users: list) -> None:
    with pytest.raises(ServiceError) as exc:
        api_services.bot_account_create(owner=users[1], username="robin-bot", display_name=users[0].username)

    assert exc.value.code == "display_name_taken"


@pytest.mark.django_db(transaction=True)
def test_the_migration_clears_clashing_display_names_oldest_account_first() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("accounts", "0001_initial")], [("accounts", "0002_unique_display_names")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user_model, profile_model = old.get_model("auth", "User"), old.get_model("accounts", "Profile")
    people = [user_model.objects.create(username=name) for name in ("ann", "bob", "cat", "dan")]
    for user, shown in zip(people, ["Heron", "heron", "ANN", "dan"], strict=True):
        profile_model.objects.update_or_create(user=user, defaults={"display_name": shown})
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(after)

        shown = dict(Profile.objects.order_by("user_id").values_list("user__username", "display_name"))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert shown == {"ann": "Heron", "bob": "", "cat": "", "dan": "dan"}


def test_a_display_name_is_kept_on_one_line(users: list) -> None:
    """A line break or a tab in a chosen name becomes a space, on the page and through the API: a name
    is shown on one line and goes into mail subjects, where a line break would make the header invalid
    and the mail fail."""
    _signed_in(users[0]).post(
        "/accounts/profile/", {"display_name": " Anna\r\nBcc: x@example.org ", "time_zone": "UTC"}
    )
    _signed_in(users[1]).patch(
        "/api/v1/me/", {"display_name": "Jay\t\tBird"}, content_type="application/json"
    )

    assert Profile.objects.get(user=users[0]).display_name == "Anna Bcc: x@example.org"
    assert Profile.objects.get(user=users[1]).display_name == "Jay Bird"


def test_a_bot_accounts_display_name_is_kept_on_one_line(users: list) -> None:
    bot = api_services.bot_account_create(owner=users[0], username="linebot", display_name="Line\nBot")

    assert Profile.objects.get(user=bot).display_name == "Line Bot"
