"""Closing an account (``apps.accounts.closing``): the person leaves, their games and leagues go on.

Their seats in games in play go to the bot for good, a seat of a game not started is free again (and a
game left with nobody is aborted), they leave their leagues and organise none, their addresses, name,
tokens, webhooks and browsers go, and nobody can sign in as them again.
"""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from apps.accounts.closing import account_close
from apps.api import services as api_services
from apps.games import lifecycle
from apps.games.errors import ServiceError
from apps.games.models import Game, Seat
from apps.leagues import organisers
from apps.leagues import services as league_services
from apps.leagues.auditlog import audit_sentence
from apps.leagues.models import AuditLog, Membership
from apps.notifications.models import CalendarFeed, Notification
from apps.push.models import PushSubscription
from apps.webhooks.models import WebhookEndpoint
from tests.factories import GameFactory, UserFactory, signed_in

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-123"  # tests.factories.UserFactory's


@pytest.fixture
def ann() -> Any:
    return UserFactory(username="ann", email="ann@example.org")


def test_the_bot_plays_a_closed_accounts_seats_in_games_in_play_for_good(
    ann: Any, users: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """The games are let go of once the closing commits (its task, run here when it commits)."""
    game = GameFactory(engine="baobei", players=2, seated=[ann, users[0]])

    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=ann, password=PASSWORD)

    seat = Seat.objects.get(game=game, position=0)
    assert seat.bot_takeover and seat.user_id == ann.pk
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_seat_of_a_game_not_started_is_free_again_and_a_game_left_empty_is_aborted(
    ann: Any, users: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    shared = lifecycle.game_create(creator=ann, engine="baobei", players=3)
    lifecycle.game_join(game_id=shared.pk, user=users[0])
    alone = lifecycle.game_create(creator=ann, engine="baobei", players=3)

    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=ann, password=PASSWORD)

    assert Game.objects.get(pk=shared.pk).status == Game.Status.OPEN
    assert not Seat.objects.filter(game=shared, user=ann).exists()
    assert Seat.objects.filter(game=shared, user=None).count() == 2
    assert Game.objects.get(pk=alone.pk).status == Game.Status.ABORTED


def test_a_closed_account_leaves_its_leagues_and_organises_none(ann: Any, users: list[Any]) -> None:
    """Its memberships end, its organiser role goes, and the organiser log names it by its new name."""
    bob = users[0]
    league = league_services.league_create(creator=bob, name="Birds", game="baobei", join=True)
    asked = league_services.membership_request(league=league, user=ann)
    league_services.membership_approve(league=league, membership_id=asked.pk, by=bob)
    organisers.organiser_add(league=league, membership_id=asked.pk, by=bob)

    account_close(user=ann, password=PASSWORD)

    assert Membership.objects.get(league=league, user=ann).status == Membership.Status.WITHDRAWN
    assert list(league.organisers.all()) == [bob]
    log = [audit_sentence(e) for e in AuditLog.objects.filter(league=league).order_by("pk")]
    assert log[-2:] == [
        f"{bob.username} approved closed-{ann.pk}'s request to join.",
        f"{bob.username} made closed-{ann.pk} an organiser.",
    ]


def test_a_league_its_only_organiser_leaves_passes_to_its_longest_standing_member(
    ann: Any, users: list[Any]
) -> None:
    """Not to a bot account, nor to a later member; the organiser log says who organises it now."""
    bob, cid, dee = users[0], users[1], users[2]
    league = league_services.league_create(creator=ann, name="Birds", game="baobei", join=True)
    bot = api_services.bot_account_create(owner=dee, username="deebot", display_name="Dee's bot")
    for member in (bot, bob, cid):  # the bot account joined first
        asked = league_services.membership_request(league=league, user=member)
        league_services.membership_approve(league=league, membership_id=asked.pk, by=ann)

    account_close(user=ann, password=PASSWORD)

    assert list(league.organisers.all()) == [bob]
    entry = AuditLog.objects.filter(league=league).latest("pk")
    assert (entry.action, entry.actor) == ("organiser_succeeded", bob)
    assert audit_sentence(entry).startswith(f"{bob.username} organises the league now")


def test_a_league_with_another_organiser_or_no_member_left_gets_no_new_organiser(
    ann: Any, users: list[Any]
) -> None:
    bob, cid = users[0], users[1]
    shared = league_services.league_create(creator=ann, name="Shared", game="baobei", join=True)
    asked = league_services.membership_request(league=shared, user=bob)
    league_services.membership_approve(league=shared, membership_id=asked.pk, by=ann)
    organisers.organiser_add(league=shared, membership_id=asked.pk, by=ann)
    asked = league_services.membership_request(league=shared, user=cid)
    league_services.membership_approve(league=shared, membership_id=asked.pk, by=ann)
    alone = league_services.league_create(creator=ann, name="Alone", game="baobei", join=True)

    account_close(user=ann, password=PASSWORD)

    assert list(shared.organisers.all()) == [bob]
    assert not alone.organisers.exists()
    assert not AuditLog.objects.filter(action="organiser_succeeded").exists()


def test_what_is_personal_goes_and_nobody_signs_in_as_them_again(ann: Any) -> None:
    ann.profile.display_name = "Ann the Bold"
    ann.profile.save()
    api_services.token_create(user=ann, name="laptop")
    WebhookEndpoint.objects.create(user=ann, url="https://example.org/hook", secret="s" * 20)
    PushSubscription.objects.create(user=ann, endpoint="https://push.example/1", p256dh="k", auth="a")
    bot = api_services.bot_account_create(owner=ann, username="annbot", display_name="Ann's bot")
    game = GameFactory(engine="baobei", players=2, seated=[ann, UserFactory()])
    waiting = Notification.objects.create(
        user=ann, game=game, version=1, kind=Notification.Kind.DECISION, category="turn"
    )
    CalendarFeed.objects.create(user=ann)
    pk = ann.pk
    assert EmailAddress.objects.filter(user=ann).exists()  # the factory's verified address

    account_close(user=ann, password=PASSWORD)

    ann.refresh_from_db()
    assert ann.username == f"closed-{pk}" and ann.email == "" and not ann.is_active
    assert not ann.has_usable_password()
    assert ann.profile.display_name == "" and ann.profile.name == f"closed-{pk}"
    assert not EmailAddress.objects.filter(user=ann).exists()
    assert not ann.api_tokens.exists()
    assert not WebhookEndpoint.objects.filter(user=ann).exists()
    assert not PushSubscription.objects.filter(user=ann).exists()
    assert not Notification.objects.filter(pk=waiting.pk).exists()
    assert not CalendarFeed.objects.filter(user=ann).exists()
    bot.refresh_from_db()
    assert bot.username == f"closed-{bot.pk}" and not bot.is_active
    assert not Client().login(username="ann", password=PASSWORD)


def test_the_wrong_password_closes_nothing_and_a_bot_account_cannot_close_itself(ann: Any) -> None:
    bot = api_services.bot_account_create(owner=ann, username="annbot")

    with pytest.raises(ServiceError) as wrong:
        account_close(user=ann, password="not-it")
    with pytest.raises(ServiceError) as own:
        account_close(user=bot, password="")

    assert wrong.value.code == "wrong_password" and own.value.code == "bot_account"
    ann.refresh_from_db()
    bot.refresh_from_db()
    assert ann.is_active and ann.username == "ann" and bot.is_active


def test_the_profile_page_closes_the_account_after_the_password_and_the_tick(ann: Any) -> None:
    client = signed_in(ann)
    assert "Close your account" in client.get("/accounts/profile/").content.decode()

    unticked = client.post("/accounts/close/", {"password": PASSWORD}, follow=True)
    wrong = client.post("/accounts/close/", {"password": "nope", "understood": "yes"}, follow=True)
    ann.refresh_from_db()
    assert ann.is_active
    assert "Tick the box" in unticked.content.decode()
    assert "That is not your password" in wrong.content.decode()

    closed = client.post("/accounts/close/", {"password": PASSWORD, "understood": "yes"}, follow=True)

    ann.refresh_from_db()
    assert not ann.is_active
    assert "Your account is closed." in closed.content.decode()
    assert "within a few minutes the bot takes over your seats" in closed.content.decode()
    assert client.get("/accounts/profile/").status_code == 302  # signed out


def test_the_api_closes_my_account_and_my_token_stops_working(ann: Any) -> None:
    _, raw = api_services.token_create(user=ann, name="laptop")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {raw}"}

    wrong = Client().post("/api/v1/me/close/", {"password": "nope"}, "application/json", **auth)
    done = Client().post("/api/v1/me/close/", {"password": PASSWORD}, "application/json", **auth)
    after = Client().get("/api/v1/me/", **auth)

    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    assert done.status_code == 204
    assert after.status_code == 401


def test_nobody_else_may_take_a_closed_accounts_kind_of_name(ann: Any) -> None:
    """A closed account becomes ``closed-<id>``: no sign-up, display name or bot account may start so,
    which would block a closing or pass for a closed account."""
    signup = Client().post(
        "/accounts/signup/",
        {
            "username": "closed-99",
            "email": "x@example.org",
            "password1": "a-long-pass-123",
            "password2": "a-long-pass-123",
        },
    )
    named = signed_in(ann).post("/accounts/profile/", {"display_name": "Closed-7", "time_zone": "UTC"})
    with pytest.raises(ServiceError):
        api_services.bot_account_create(owner=ann, username="closed-12")

    assert "kept for closed accounts" in signup.content.decode()
    assert "kept for closed accounts" in named.content.decode()
    ann.profile.refresh_from_db()
    assert ann.profile.display_name == ""
    assert not get_user_model().objects.filter(username__startswith="closed-").exists()
