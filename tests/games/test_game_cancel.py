"""Cancelling a game that waits for players (``apps.games.lobby.game_cancel``): only its creator may,
only before it starts, never a league's game; it ends aborted, leaves the open tables, counts in nobody's
record, its invitation links say that it was cancelled, and the people already seated are told."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core import mail

from apps.games import invitations, lifecycle, lobby, reliability, selectors
from apps.games.errors import ServiceError
from apps.games.models import Decision, Game, Move, SeatTenure
from apps.leagues import seasons
from apps.leagues import services as league_services
from apps.notifications import mails, preferences
from apps.notifications.models import Mode, Notification
from apps.webhooks.models import WebhookDelivery, WebhookEndpoint
from apps.webhooks.services import webhooks_fanout
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _refusal(game: Game, by: Any) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        lobby.game_cancel(game_id=game.pk, by=by)
    return refused.value


def test_the_creator_cancels_a_waiting_game_and_it_ends_aborted_before_it_started() -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    cancelled = lobby.game_cancel(game_id=game.pk, by=creator)
    game.refresh_from_db()

    assert cancelled.pk == game.pk
    assert game.status == Game.Status.ABORTED and game.cancelled
    assert game.started_at is None and game.finished_at is not None and game.result is None
    assert game.status_reason == lobby.CANCELLED_REASON
    assert game.state is None and not Move.objects.filter(game=game).exists()
    assert not Decision.objects.filter(game=game).exists()


def test_a_cancelled_open_table_leaves_the_open_tables() -> None:
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=3, open_table=True)
    listed = [g.pk for g in lobby.open_tables()]

    lobby.game_cancel(game_id=game.pk, by=creator)

    assert listed == [game.pk]
    assert list(lobby.open_tables()) == []
    with pytest.raises(ServiceError) as taken:
        lobby.open_table_join(game_id=game.pk, user=UserFactory())
    assert taken.value.code == "game_cancelled"


def test_only_the_creator_may_cancel_a_seated_player_and_a_watcher_are_forbidden() -> None:
    creator, joined, watcher = UserFactory(), UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    by_player, by_watcher = _refusal(game, joined), _refusal(game, watcher)
    game.refresh_from_db()

    assert (by_player.code, by_player.status) == ("forbidden", 403)
    assert (by_watcher.code, by_watcher.status) == ("forbidden", 403)
    assert game.status == Game.Status.OPEN


@pytest.mark.parametrize("visibility", [Game.Visibility.UNLISTED, Game.Visibility.PRIVATE])
def test_a_game_the_caller_may_not_see_is_not_found(visibility: str) -> None:
    game = lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3, visibility=visibility)

    refused = _refusal(game, UserFactory())

    assert (refused.code, refused.status) == ("not_found", 404)


def test_a_game_that_does_not_exist_is_not_found() -> None:
    with pytest.raises(ServiceError) as refused:
        lobby.game_cancel(game_id=987654, by=UserFactory())

    assert (refused.value.code, refused.value.status) == ("not_found", 404)


def test_a_started_game_cannot_be_cancelled(toy_engine: str) -> None:
    creator = UserFactory()
    game = GameFactory(engine=toy_engine, players=2, seated=[creator, UserFactory()])

    refused = _refusal(game, creator)
    game.refresh_from_db()

    assert (refused.code, refused.status) == ("game_not_open", 409)
    assert game.status == Game.Status.ACTIVE


def test_a_game_that_is_over_cannot_be_cancelled_again() -> None:
    creator = UserFactory()
    game = GameFactory(players=3, seated=[creator])
    lobby.game_cancel(game_id=game.pk, by=creator)

    refused = _refusal(game, creator)

    assert (refused.code, refused.status) == ("game_not_open", 409)


def test_a_league_game_is_refused_even_to_the_organiser_who_plays_it(toy_engine: str, users: list) -> None:
    organiser, member = users[0], users[1]
    league = league_services.league_create(
        creator=organiser, name="Cancel club", game=toy_engine, players_per_table=2, join=True
    )
    league_services.membership_join_by_link(league=league, user=member, token=league.invite_token)
    season = seasons.season_create(league=league, by=organiser)
    game = seasons.round_start(season_id=season.pk, by=organiser).fixtures.get().game

    refusals = [_refusal(game, user) for user in (organiser, member)]
    game.refresh_from_db()

    assert {(r.code, r.status) for r in refusals} == {("league_game", 403)}
    assert game.status == Game.Status.ACTIVE


def test_a_cancelled_games_invitation_link_says_so_and_seats_nobody() -> None:
    creator = UserFactory()
    game = GameFactory(players=3, seated=[creator])
    standing = game.invitations.get()
    revoked = invitations.invitation_create(game_id=game.pk, user=creator, single_use=True)
    invitations.invitation_revoke(game_id=game.pk, user=creator, token=revoked.token)

    lobby.game_cancel(game_id=game.pk, by=creator)

    with pytest.raises(invitations.GameCancelled) as shown:
        invitations.invitation_get(token=standing.token)
    with pytest.raises(ServiceError) as accepted:
        invitations.invitation_accept(token=standing.token, user=UserFactory())
    with pytest.raises(ServiceError) as old:
        invitations.invitation_get(token=revoked.token)
    assert (shown.value.code, shown.value.game.pk) == ("game_cancelled", game.pk)
    assert (accepted.value.code, accepted.value.status) == ("game_cancelled", 409)
    assert old.value.code == "invitation_invalid"
    assert game.seats.filter(user__isnull=False).count() == 1


def test_a_cancelled_game_counts_in_nobodys_record_nor_among_the_finished_games() -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])

    lobby.game_cancel(game_id=game.pk, by=creator)

    assert not SeatTenure.objects.filter(game=game).exists()
    records = reliability.records_for([creator.pk, joined.pk])
    assert records == {creator.pk: reliability.Record(), joined.pk: reliability.Record()}
    assert game.pk not in {g.pk for g in selectors.game_list_watchable(status=Game.Status.FINISHED)}
    assert game.pk not in {g.pk for g in selectors.game_list_watchable(status=Game.Status.ACTIVE)}


def test_the_people_seated_are_told_it_was_cancelled_and_the_creator_is_not(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, joined, other = UserFactory(), UserFactory(), UserFactory()
    game = GameFactory(players=4, seated=[creator, joined, other])
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        lobby.game_cancel(game_id=game.pk, by=creator)

    told = sorted(m.to[0] for m in mail.outbox)
    assert told == sorted([joined.email, other.email])
    message = next(m for m in mail.outbox if m.to == [joined.email])
    html = message.alternatives[0][0]
    assert message.subject.endswith(": cancelled")
    assert f"{creator.username} cancelled" in message.body and "before it started" in message.body
    for text in (message.subject, message.body, html):
        assert "final" not in text.lower() and "aborted" not in text.lower() and "Your view" not in text
    assert not Notification.objects.filter(user=creator, game=game).exists()


def test_a_cancelled_game_is_news_in_a_digest_not_a_result(django_capture_on_commit_callbacks: Any) -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])
    preferences.preferences_set(user=joined, category="results", mode=Mode.DIGEST, digest_hour=8)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.game_cancel(game_id=game.pk, by=creator)
    note = Notification.objects.get(user=joined, game=game)

    digest = mails._summary_message(joined, [note], heading="Digest", quiet=False)

    assert note.status == Notification.Status.QUEUED_DIGEST
    assert digest is not None and "cancelled before it started" in digest.body
    assert "game result" not in digest.body


def test_a_seated_programs_webhook_hears_the_game_ended_without_a_result() -> None:
    creator, joined = UserFactory(), UserFactory()
    game = GameFactory(players=3, seated=[creator, joined])
    WebhookEndpoint.objects.create(user=joined, url="https://hooks.example.com/end", secret="s" * 32)

    lobby.game_cancel(game_id=game.pk, by=creator)
    made = webhooks_fanout(game_id=game.pk, move_id=None, ended=True)  # what the end's outbox row runs

    body = json.loads(WebhookDelivery.objects.get(game=game, endpoint__user=joined).body)
    assert made == 1
    assert (body["type"], body["status"], body["result"], body["seat"]) == ("game.ended", "aborted", None, 1)
    assert body["events"] == [] and body["decisions"] == []
