"""The creator of a game waiting for players is mailed when somebody takes one of its seats, at its open
table (``lobby.open_table_join``) or by an invitation link (``invitations.invitation_accept``), both
told by ``signals.seat_taken`` to ``notify.notify_seat_taken``: who sat and how many seats are still
free, with the game's link; once per seat, recorded with the seat so that a lost task is sent by the
sweep. The seat that fills the table starts the game, whose own mails tell: no seat mail for it. The
mail follows the creator's invitations setting, address and language, and goes to nobody else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games import invitations, lifecycle, lobby
from apps.games.models import Game
from apps.notifications import notify, preferences, send
from apps.notifications.models import Notification
from tests.factories import UserFactory

from .conftest import mails_to

pytestmark = pytest.mark.django_db


def _open_table(creator: Any, players: int = 4, **kwargs: Any) -> Game:
    return lifecycle.game_create(creator=creator, engine="baobei", players=players, open_table=True, **kwargs)


def _sit(game: Game, user: Any, capture: Any) -> None:
    with capture(execute=True):
        lobby.open_table_join(game_id=game.pk, user=user)


def _seat_mails(user: Any) -> list[Any]:
    return [m for m in mails_to(user) if "took a seat" in m.subject]


@pytest.fixture
def creator() -> Any:
    return UserFactory(username="host")


@pytest.fixture
def anna() -> Any:
    anna = UserFactory(username="anna")
    Profile.objects.filter(user=anna).update(display_name="Anna K")
    return anna


def test_the_creator_is_mailed_who_took_a_seat_and_how_many_are_still_free(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _open_table(creator)

    _sit(game, anna, django_capture_on_commit_callbacks)

    [sent] = mail.outbox
    assert sent.to == [creator.email]
    assert sent.subject == f"[baogame] {game}: Anna K took a seat"
    assert f"Anna K took a seat at {game}. 2 seats are still free" in sent.body
    assert "/mail/go/" in sent.body  # the creator's signed link to the game
    html, _ = sent.alternatives[0]
    assert "Anna K took a seat at your table" in html
    note = Notification.objects.get(kind=Notification.Kind.SEAT_TAKEN)
    assert (note.user, note.status, note.seat) == (creator, Notification.Status.SENT, 1)


def test_each_stranger_is_told_once_and_the_seat_that_starts_the_game_sends_no_seat_mail(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    bo, cy = UserFactory(username="bo"), UserFactory(username="cy")
    game = _open_table(creator)

    for user in (anna, bo, cy):
        _sit(game, user, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    told = _seat_mails(creator)
    assert [m.subject.split(": ")[-1] for m in told] == ["Anna K took a seat", "bo took a seat"]
    assert "1 seat is still free: the game starts when it is taken" in told[1].body
    assert Notification.objects.filter(kind=Notification.Kind.SEAT_TAKEN).count() == 2
    assert not any(_seat_mails(user) for user in (anna, bo, cy))  # nobody but the creator


def test_a_seat_mail_is_sent_once_even_when_asked_again(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _open_table(creator)
    _sit(game, anna, django_capture_on_commit_callbacks)
    note = Notification.objects.get(kind=Notification.Kind.SEAT_TAKEN)

    again = notify.notify_seat_taken(game_id=game.pk, position=1)
    resent = send.notification_send(notification_id=note.pk)

    assert again is None and resent is False
    assert len(_seat_mails(creator)) == 1


def test_a_seat_mail_whose_task_was_lost_is_sent_by_the_sweep(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _open_table(creator)
    with monkeypatch.context() as patched:
        patched.setattr(send, "queue_send", lambda note, *, now: None)  # the broker lost it
        _sit(game, anna, django_capture_on_commit_callbacks)
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        queued = send.notifications_recover(now=timezone.now() + timedelta(hours=1))

    assert queued == 1 and [m.to for m in _seat_mails(creator)] == [[creator.email]]


def test_a_seat_mail_not_sent_before_the_table_filled_is_dropped(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game started meanwhile: its own mails tell the table; a stale "seats still free" would not."""
    game = _open_table(creator, players=3)
    with monkeypatch.context() as patched:
        patched.setattr(send, "queue_send", lambda note, *, now: None)
        _sit(game, anna, django_capture_on_commit_callbacks)
    _sit(game, UserFactory(), django_capture_on_commit_callbacks)  # the last seat: the game starts
    note = Notification.objects.get(kind=Notification.Kind.SEAT_TAKEN)

    sent = send.notification_send(notification_id=note.pk)

    note.refresh_from_db()
    assert sent is False and note.status == Notification.Status.SKIPPED
    assert _seat_mails(creator) == []


def test_a_creator_without_an_address_or_with_invitations_off_is_not_mailed(
    anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    silent = UserFactory(username="silent", email="")
    quiet = UserFactory(username="quiet")
    preferences.cell_set(user=quiet, category="invitations", channel="mail", mode="off")
    games = [_open_table(silent), _open_table(quiet)]

    for game in games:
        _sit(game, anna, django_capture_on_commit_callbacks)

    assert mail.outbox == []
    assert not Notification.objects.filter(kind=Notification.Kind.SEAT_TAKEN).exists()


def test_a_creator_taking_a_seat_at_their_own_table_is_not_mailed(
    creator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _open_table(creator, creator_seat=False)

    _sit(game, creator, django_capture_on_commit_callbacks)

    assert mail.outbox == []


def test_the_seat_mail_is_in_the_creators_language(
    anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Whoever sits, in whatever language: the mail is in the creator's (``mail_language``)."""
    host = UserFactory(username="zhhost")
    Profile.objects.filter(user=host).update(language="zh-hans")
    game = _open_table(host)

    _sit(game, anna, django_capture_on_commit_callbacks)

    [sent] = mail.outbox
    html, _ = sent.alternatives[0]
    assert 'lang="zh-hans"' in html and "Anna K" in sent.subject


def test_the_seat_mail_names_the_player_and_tells_nothing_else_of_them_or_the_game(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Their display name, as the game page shows them; not their address or username, not the seed,
    no view of a game that has not begun."""
    game = _open_table(creator)

    _sit(game, anna, django_capture_on_commit_callbacks)

    [sent] = mail.outbox
    html, _ = sent.alternatives[0]
    for text in (sent.subject, sent.body, html):
        assert "Anna K" in text
        assert anna.email not in text and "anna@" not in text and game.seed not in text
    assert "Your view" not in sent.body and "Your choices" not in sent.body
    assert sent.reply_to == []  # nothing to answer by mail


def test_a_creator_who_takes_invitations_in_the_digest_reads_the_seat_there(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    preferences.cell_set(user=creator, category="invitations", channel="mail", mode="digest")
    preferences.preferences_set(user=creator, digest_hour=8)
    game = _open_table(creator)
    _sit(game, anna, django_capture_on_commit_callbacks)
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        notify.digests_send_due(now=datetime(2025, 1, 15, 8, 10, tzinfo=UTC))

    [digest] = mail.outbox
    assert digest.to == [creator.email]
    assert f"{game}: a player took a seat at your table" in digest.body


def _invited_game(creator: Any, players: int = 4, **kwargs: Any) -> Game:
    return lifecycle.game_create(creator=creator, engine="baobei", players=players, **kwargs)


def _accept(game: Game, user: Any, capture: Any, *, single_use: bool = False) -> None:
    invitation = invitations.invitation_create(game_id=game.pk, user=game.created_by, single_use=single_use)
    with capture(execute=True):
        invitations.invitation_accept(token=invitation.token, user=user)


@pytest.mark.parametrize("single_use", [False, True])
def test_the_creator_is_mailed_who_took_a_seat_by_the_invitation_link(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any, single_use: bool
) -> None:
    """The link is for whoever holds it (a seated player may pass it on): the creator hears who came, as
    at an open table."""
    game = _invited_game(creator)

    _accept(game, anna, django_capture_on_commit_callbacks, single_use=single_use)

    [sent] = mail.outbox
    assert sent.to == [creator.email]
    assert sent.subject == f"[baogame] {game}: Anna K took a seat"
    assert f"Anna K took a seat at {game}. 2 seats are still free" in sent.body
    note = Notification.objects.get(kind=Notification.Kind.SEAT_TAKEN)
    assert (note.user, note.status, note.seat) == (creator, Notification.Status.SENT, 1)


def test_the_seat_that_fills_the_table_by_the_invitation_link_sends_no_seat_mail(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _invited_game(creator, players=3)
    _accept(game, anna, django_capture_on_commit_callbacks)

    _accept(game, UserFactory(username="last"), django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert [m.subject.split(": ")[-1] for m in _seat_mails(creator)] == ["Anna K took a seat"]
    assert Notification.objects.filter(kind=Notification.Kind.SEAT_TAKEN).count() == 1


def test_a_creator_taking_a_seat_by_their_own_invitation_link_is_not_mailed(
    creator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _invited_game(creator, creator_seat=False)

    _accept(game, creator, django_capture_on_commit_callbacks)

    assert mail.outbox == []
    assert not Notification.objects.filter(kind=Notification.Kind.SEAT_TAKEN).exists()


def test_a_seat_mail_of_the_invitation_link_is_recorded_with_the_seat_or_not_at_all(
    creator: Any, anna: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written inside the seat's transaction: a lost task is sent by the sweep, and a seat that is rolled
    back leaves no mail behind."""
    game = _invited_game(creator)
    token = invitations.invitation_create(game_id=game.pk, user=creator).token
    with pytest.raises(RuntimeError), transaction.atomic():
        invitations.invitation_accept(token=token, user=UserFactory(username="undone"))
        raise RuntimeError("the request failed after the seat was taken")
    assert not Notification.objects.filter(kind=Notification.Kind.SEAT_TAKEN).exists()
    with monkeypatch.context() as patched:
        patched.setattr(send, "queue_send", lambda note, *, now: None)  # the broker lost it
        with django_capture_on_commit_callbacks(execute=True):
            invitations.invitation_accept(token=token, user=anna)
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        queued = send.notifications_recover(now=timezone.now() + timedelta(hours=1))

    assert queued == 1 and [m.subject for m in _seat_mails(creator)] == [
        f"[baogame] {game}: Anna K took a seat"
    ]
