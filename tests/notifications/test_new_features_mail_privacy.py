"""Attacks on the mails added with open tables and cancelling: a seat mail still waiting when its game is
cancelled is dropped, not sent with "seats still free"; the cancelled mail goes to the people seated and
to nobody else (an unlisted game's link reaches nobody who holds no seat), and neither mail carries an
invitation token, which would seat anybody."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from apps.accounts.models import Profile
from apps.games import lifecycle, lobby
from apps.games.models import Game, Invitation
from apps.notifications import send
from apps.notifications.models import Notification
from tests.conftest import requires_postgres
from tests.factories import UserFactory
from tests.support.race import race

from .conftest import mails_to


def _open_table(creator: Any, players: int = 4) -> Game:
    return lifecycle.game_create(creator=creator, engine="baobei", players=players, open_table=True)


def _texts(message: Any) -> list[str]:
    return [message.subject, message.body, *(html for html, _ in message.alternatives)]


@pytest.mark.django_db
def test_a_seat_mail_not_sent_when_the_game_is_cancelled_is_dropped(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its task comes after the cancelling: the creator hears nothing of "seats still free"."""
    creator, anna = UserFactory(), UserFactory()
    game = _open_table(creator)
    with monkeypatch.context() as patched:
        patched.setattr(send, "queue_send", lambda note, *, now: None)
        with django_capture_on_commit_callbacks(execute=True):
            lobby.open_table_join(game_id=game.pk, user=anna)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.game_cancel(game_id=game.pk, by=creator)
    note = Notification.objects.get(kind=Notification.Kind.SEAT_TAKEN)

    sent = send.notification_send(notification_id=note.pk)

    note.refresh_from_db()
    assert sent is False and note.status == Notification.Status.SKIPPED
    assert mails_to(creator) == []
    assert [m.subject.endswith(": cancelled") for m in mails_to(anna)] == [True]


@pytest.mark.django_db
def test_the_cancelled_mail_of_an_unlisted_game_goes_to_its_seated_people_only(
    django_capture_on_commit_callbacks: Any,
) -> None:
    creator, seated, invited, watcher = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(
        creator=creator, engine="baobei", players=4, visibility=Game.Visibility.UNLISTED
    )
    lifecycle.game_join(game_id=game.pk, user=seated)
    single = Invitation.objects.create(game=game, single_use=True)
    tokens = [*Invitation.objects.filter(game=game).values_list("token", flat=True), single.token]
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        lobby.game_cancel(game_id=game.pk, by=creator)

    [told] = mail.outbox
    assert told.to == [seated.email]
    assert mails_to(invited) == mails_to(watcher) == mails_to(creator) == []
    for text in _texts(told):
        assert not any(token in text for token in tokens)
        assert creator.email not in text and game.seed not in text


@pytest.mark.django_db
def test_the_seat_mail_carries_no_invitation_token(django_capture_on_commit_callbacks: Any) -> None:
    creator, anna = UserFactory(), UserFactory()
    game = _open_table(creator)
    tokens = list(Invitation.objects.filter(game=game).values_list("token", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        lobby.open_table_join(game_id=game.pk, user=anna)

    [sent] = mails_to(creator)
    assert tokens and not any(token in text for text in _texts(sent) for token in tokens)


@requires_postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_a_seat_taken_and_a_cancelling_at_once_mail_each_person_what_happened_to_them(attempt: int) -> None:
    """Whatever the order the game's lock gives them: the creator is mailed a seat only for a seat taken
    before the cancelling; who sat then hears that it was cancelled; who came after hears nothing."""
    creator = UserFactory()
    game = _open_table(creator, players=4)
    strangers = [UserFactory(), UserFactory()]
    mail.outbox.clear()

    results = race(
        [lambda: lobby.game_cancel(game_id=game.pk, by=creator)]
        + [lambda u=u: lobby.open_table_join(game_id=game.pk, user=u) for u in strangers]
    )

    game.refresh_from_db()
    assert isinstance(results[0], Game) and game.cancelled  # two seats of three free: never full
    sat = [u for u, r in zip(strangers, results[1:], strict=True) if isinstance(r, Game)]
    turned_away = [u for u in strangers if u not in sat]
    seat_mails = [m for m in mails_to(creator) if "took a seat" in m.subject]
    assert len(seat_mails) <= len(sat)
    assert all(
        any(u.get_username() in m.subject or str(u.profile.name) in m.subject for u in sat)
        for m in seat_mails
    )
    for user in sat:
        assert [m.subject.endswith(": cancelled") for m in mails_to(user)] == [True]
    for user in turned_away:
        assert mails_to(user) == []
    assert not any(m.subject.endswith(": cancelled") for m in mails_to(creator))


@pytest.mark.django_db
def test_a_name_with_a_line_break_cannot_stop_the_creators_seat_mail(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The profile form keeps a line break inside a display name; in a subject it would fail the header
    (Django refuses it rather than let it add one), so the stranger who sat would silence the mail."""
    creator, anna = UserFactory(), UserFactory()
    Profile.objects.filter(user=anna).update(display_name="Anna\r\nBcc: evil@example.org")
    game = _open_table(creator)

    with django_capture_on_commit_callbacks(execute=True):
        lobby.open_table_join(game_id=game.pk, user=anna)

    [sent] = mails_to(creator)
    assert sent.subject == f"[baogame] {game}: Anna Bcc: evil@example.org took a seat"
    assert sent.bcc == [] and sent.message()["Bcc"] is None
    assert Notification.objects.get(kind=Notification.Kind.SEAT_TAKEN).status == Notification.Status.SENT
