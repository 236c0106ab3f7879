"""Table talk (``apps.games.table_talk``): the players write, whoever may see the game reads, on the
game page and in the API; a spectator, an empty or a too long message and a flood are refused."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.utils.html import escape

from apps.accounts.closing import account_close
from apps.games.models import Game, TableMessage, TalkReport
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> tuple[Game, Any, Any]:
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    return GameFactory(engine="baohuang", players=5, seated=[ann, bob], bots=3), ann, bob


def _talk(client: Any, game: Game, text: str, **headers: Any) -> Any:
    return client.post(f"/games/{game.public_id}/talk/", {"text": text}, **headers)


def test_a_player_writes_and_the_table_and_a_spectator_read_it(client_for, table) -> None:
    game, ann, bob = table

    sent = _talk(client_for(ann), game, "Good luck, all!\r\nSlow day for me.")
    page = client_for(bob).get(f"/games/{game.public_id}/").content.decode()
    watching = client_for(UserFactory()).get(f"/games/{game.public_id}/talk/").content.decode()

    assert sent.status_code == 302 and sent["Location"].endswith("#table-talk")
    assert "<strong>ann</strong>" in page and "Good luck, all!<br>Slow day for me." in page
    assert "Good luck, all!" in watching
    assert 'name="text"' in page  # bob may write too
    spectator_page = client_for(UserFactory()).get(f"/games/{game.public_id}/").content.decode()
    assert "Table talk" in spectator_page and 'name="text"' not in spectator_page


def test_a_spectator_cannot_write(client_for, table) -> None:
    game, _, _ = table

    answer = _talk(client_for(UserFactory()), game, "hello", HTTP_HX_REQUEST="true")

    assert "not_seated" in answer.content.decode()
    assert not TableMessage.objects.exists()


@pytest.mark.parametrize("text", ["   ", "x" * 501, "evil \u202eraw text"])
def test_an_empty_too_long_or_direction_turning_message_is_refused(client_for, table, text: str) -> None:
    game, ann, _ = table

    answer = _talk(client_for(ann), game, text, HTTP_HX_REQUEST="true")

    assert "invalid_talk" in answer.content.decode()
    assert not TableMessage.objects.exists()


def test_a_refused_message_stays_in_the_box_without_javascript(client_for, table) -> None:
    """A plain form's refusal goes back to the game page with the message still in the box, once."""
    game, ann, _ = table
    client = client_for(ann)
    long = "Too long, <b>but</b> mine: " + "x" * 500

    answer = _talk(client, game, long)
    page = client.get(answer["Location"]).content.decode()
    later = client.get(f"/games/{game.public_id}/").content.decode()

    assert "invalid_talk" in page
    assert f"required>\n{escape(long)}</textarea>" in page
    assert "required>\n</textarea>" in later
    assert not TableMessage.objects.exists()


def test_a_refused_message_stays_in_the_box_of_the_htmx_panel(client_for, table) -> None:
    game, ann, _ = table

    panel = _talk(client_for(ann), game, "x" * 501, HTTP_HX_REQUEST="true").content.decode()
    sent = _talk(client_for(ann), game, "short", HTTP_HX_REQUEST="true").content.decode()

    assert f"required>\n{'x' * 501}</textarea>" in panel
    assert "required>\n</textarea>" in sent


def test_a_flood_is_refused_after_five_messages_a_minute(client_for, table) -> None:
    game, ann, _ = table
    client = client_for(ann)

    answers = [_talk(client, game, f"line {i}", HTTP_HX_REQUEST="true").content.decode() for i in range(6)]

    assert TableMessage.objects.count() == 5
    assert "talk_too_fast" in answers[-1] and "talk_too_fast" not in answers[-2]


def test_a_message_is_timed_in_the_readers_own_time_zone_which_it_names(client_for, table) -> None:
    """As every time on the site: "Mon 7 Dec, 16:52 UTC+8", never a bare "2026-12-07 08:52"."""
    game, ann, bob = table
    TableMessage.objects.create(
        game=game, user=ann, seat=0, text="hello", created_at=datetime(2026, 12, 7, 8, 52, tzinfo=UTC)
    )
    bob.profile.time_zone = "Asia/Shanghai"
    bob.profile.save()

    page = client_for(bob).get(f"/games/{game.public_id}/").content.decode()
    lines = client_for(bob).get(f"/games/{game.public_id}/talk/").content.decode()

    for text in (page, lines):
        assert 'class="muted">Mon 7 Dec, 16:52 UTC+8</time> <strong>ann</strong>' in text


def test_what_a_player_writes_is_shown_as_text_not_markup(client_for, table) -> None:
    game, ann, bob = table

    _talk(client_for(ann), game, "<script>alert(1)</script>")
    page = client_for(bob).get(f"/games/{game.public_id}/").content.decode()

    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_api_lists_and_writes_messages(client_for, table) -> None:
    game, ann, bob = table
    url = f"/api/v1/games/{game.pk}/messages/"

    made = client_for(ann).post(url, {"text": "gg"}, content_type="application/json")
    listed = client_for(bob).get(url).json()
    refused = client_for(UserFactory()).post(url, {"text": "hi"}, content_type="application/json")

    assert made.status_code == 201 and made.json()["name"] == "ann" and made.json()["seat"] == 0
    assert [(m["seat"], m["name"], m["text"]) for m in listed] == [(0, "ann", "gg")]
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"


def test_a_private_games_talk_is_hidden_from_outsiders(client_for, table) -> None:
    game, ann, _ = table
    _talk(client_for(ann), game, "between us")
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PRIVATE)

    page = client_for(UserFactory()).get(f"/games/{game.public_id}/talk/")
    api = client_for(UserFactory()).get(f"/api/v1/games/{game.pk}/messages/")

    assert page.status_code == 404 and api.status_code == 404


def test_closing_an_account_deletes_its_table_talk(client_for, table) -> None:
    game, ann, bob = table
    _talk(client_for(ann), game, "mine")
    _talk(client_for(bob), game, "theirs")

    account_close(user=ann, password="pw-for-tests-123")

    assert list(TableMessage.objects.values_list("text", flat=True)) == ["theirs"]


def test_a_site_admin_finds_and_removes_a_message_in_the_admin(client_for, table) -> None:
    game, ann, _ = table
    _talk(client_for(ann), game, "something rude")
    staff = UserFactory(is_staff=True, is_superuser=True)
    message = TableMessage.objects.get()

    listed = client_for(staff).get("/admin/games/tablemessage/?q=rude")
    client_for(staff).post(f"/admin/games/tablemessage/{message.pk}/delete/", {"post": "yes"})

    assert listed.status_code == 200 and "something rude" in listed.content.decode()
    assert not TableMessage.objects.exists()


def _report(client: Any, game: Game, message: TableMessage, **headers: Any) -> Any:
    return client.post(f"/games/{game.public_id}/talk/{message.pk}/report/", **headers)


def test_a_reader_reports_a_message_once_and_sees_it_marked(client_for, table) -> None:
    """A player and a spectator may report; a second report of the same message records nothing more."""
    game, ann, bob = table
    _talk(client_for(ann), game, "something rude")
    message = TableMessage.objects.get()
    spectator = UserFactory()

    first = _report(client_for(bob), game, message, HTTP_HX_REQUEST="true").content.decode()
    again = _report(client_for(bob), game, message, HTTP_HX_REQUEST="true")
    plain = _report(client_for(spectator), game, message)

    assert "talk-reported" in first and "talk-report-button" not in first
    assert again.status_code == 200
    assert plain.status_code == 302 and plain["Location"].endswith("#table-talk")
    assert sorted(TalkReport.objects.values_list("reporter__username", flat=True)) == sorted(
        ["bob", spectator.username]
    )


def test_the_report_button_is_for_readers_other_than_the_writer(client_for, table) -> None:
    game, ann, bob = table
    _talk(client_for(ann), game, "hello")

    def lines(user: Any) -> str:
        return client_for(user).get(f"/games/{game.public_id}/talk/").content.decode()

    assert "talk-report-button" in lines(bob) and "talk-report-button" in lines(UserFactory())
    assert "talk-report-button" not in lines(ann)  # the writer
    assert "talk-report-button" not in lines(None)  # nobody signed in


def test_nobody_reports_their_own_message_a_message_of_another_game_or_without_signing_in(
    client_for, table
) -> None:
    game, ann, bob = table
    _talk(client_for(ann), game, "mine")
    message = TableMessage.objects.get()
    other = GameFactory(engine="baobei", players=2, seated=[bob, UserFactory()])

    own = _report(client_for(ann), game, message, HTTP_HX_REQUEST="true").content.decode()
    elsewhere = _report(client_for(bob), other, message, HTTP_HX_REQUEST="true").content.decode()
    anonymous = _report(client_for(None), game, message)

    assert "own_message" in own and "no_such_message" in elsewhere
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not TalkReport.objects.exists()


def test_the_api_reports_a_message_201_then_200(client_for, table) -> None:
    game, ann, bob = table
    _talk(client_for(ann), game, "something rude")
    message = TableMessage.objects.get()
    url = f"/api/v1/games/{game.pk}/messages/{message.pk}/report/"

    first, again = client_for(bob).post(url), client_for(bob).post(url)
    own = client_for(ann).post(url)
    missing = client_for(bob).post(f"/api/v1/games/{game.pk}/messages/{message.pk + 1}/report/")

    assert (first.status_code, again.status_code) == (201, 200) and first.json() == {"reported": True}
    assert (own.status_code, own.json()["code"]) == (400, "own_message")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_such_message")
    assert TalkReport.objects.count() == 1


def test_an_outsider_cannot_report_a_message_of_a_private_game(client_for, table) -> None:
    """A game the reporter may not see answers as if it did not exist, on the page and in the API."""
    game, ann, _ = table
    _talk(client_for(ann), game, "between us")
    message = TableMessage.objects.get()
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PRIVATE)
    outsider = UserFactory()

    page = _report(client_for(outsider), game, message)
    api = client_for(outsider).post(f"/api/v1/games/{game.pk}/messages/{message.pk}/report/")

    assert page.status_code == 404 and api.status_code == 404
    assert not TalkReport.objects.exists()


def test_a_site_admin_finds_the_reported_messages(client_for, table) -> None:
    game, ann, bob = table
    _talk(client_for(ann), game, "something rude")
    _talk(client_for(ann), game, "good game")
    rude = TableMessage.objects.get(text="something rude")
    _report(client_for(bob), game, rude)
    staff = client_for(UserFactory(is_staff=True, is_superuser=True))

    reported = staff.get("/admin/games/tablemessage/?reported=yes").content.decode()
    reports = staff.get("/admin/games/talkreport/").content.decode()

    assert "something rude" in reported and "good game" not in reported
    assert f"report of message {rude.pk}" in reports
