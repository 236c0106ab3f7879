"""Creating a game, joining by link or username, the dashboard and the profile page."""

from __future__ import annotations

import pytest

from apps.games import lifecycle
from apps.games.models import Decision, Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_creating_a_bao_bei_game_with_bots_starts_it_with_my_options(client_for):
    me = UserFactory()

    response = client_for(me).post(
        "/games/new/",
        {
            "engine": "baobei",
            "players": 3,
            "bots": 2,
            "control": "live",
            "threshold": 20,
            "memory_aid": "",
            "title": "Birds",
        },
    )

    game = Game.objects.get(title="Birds")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.public_id}/"
    assert game.status == Game.Status.ACTIVE and game.control == "live"
    assert game.options["threshold"] == 20 and game.options["memory_aid"] is False
    assert [s.bot != "" for s in game.seats.order_by("position")] == [False, True, True]


def test_bao_huang_always_has_five_seats_and_takes_the_target_score_bh_25_1(client_for):
    me = UserFactory()

    client_for(me).post(
        "/games/new/",
        {
            "engine": "baohuang",
            "players": 3,
            "bots": 4,
            "control": "daily",
            "target_score": 12,
            "title": "Court",
        },
    )

    game = Game.objects.get(title="Court")
    assert game.players == 5 and game.options["target_score"] == 12
    assert game.status == Game.Status.ACTIVE


def test_open_game_shows_the_invitation_link_and_starts_when_the_last_seat_is_taken(client_for):
    me, friend = UserFactory(), UserFactory()
    client_for(me).post(
        "/games/new/",
        {"engine": "baobei", "players": 3, "bots": 1, "control": "daily", "title": "Open"},
    )
    game = Game.objects.get(title="Open")

    page = client_for(me).get(f"/games/{game.public_id}/").content.decode()
    client_for(friend).post(f"/games/join/{game.invitations.get().token}/")

    assert f"/games/join/{game.invitations.get().token}/" in page
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(position=1).user == friend


def test_invitation_link_shows_its_game_to_anonymous_holders_and_asks_them_to_log_in(client_for):
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=2, title="Friday table")
    path = f"/games/join/{game.invitations.get().token}/"

    page = client_for(None).get(path)
    taking = client_for(None).post(path)

    html = page.content.decode()
    assert page.status_code == 200 and "Friday table" in html and creator.profile.display_name in html
    assert f'href="/accounts/login/?next={path}"' in html
    assert f'href="/accounts/signup/?next={path}"' in html
    assert "Take a seat" not in html
    assert taking.status_code == 302 and taking["Location"] == f"/accounts/login/?next={path}"
    assert game.seats.filter(user=None).count() == 1  # nothing taken


def test_players_invited_by_username_get_a_seat_at_once(client_for):
    me, ann, bob = UserFactory(), UserFactory(username="ann"), UserFactory(username="bob")

    client_for(me).post(
        "/games/new/",
        {
            "engine": "baobei",
            "players": 3,
            "bots": 0,
            "control": "daily",
            "invite": "ann, bob",
            "title": "Friends",
        },
    )

    game = Game.objects.get(title="Friends")
    assert {s.user for s in game.seats.all()} == {me, ann, bob}
    assert game.status == Game.Status.ACTIVE


def test_unknown_invited_username_is_refused_and_creates_nothing(client_for):
    response = client_for(UserFactory()).post(
        "/games/new/",
        {
            "engine": "baobei",
            "players": 3,
            "bots": 0,
            "control": "daily",
            "invite": "nobody-here",
        },
    )

    assert response.status_code == 200 and "No such user: nobody-here" in response.content.decode()
    assert not Game.objects.exists()


def test_dashboard_lists_games_waiting_for_me_first(client_for):
    me, other = UserFactory(), UserFactory()
    waiting = lifecycle.game_create(creator=me, engine="baobei", players=2, title="Waiting")
    lifecycle.game_join(game_id=waiting.pk, user=other)
    quiet = lifecycle.game_create(creator=me, engine="baobei", players=2, title="Quiet")  # created later
    lifecycle.game_join(game_id=quiet.pk, user=other)
    Decision.objects.filter(game=quiet, seat=0).delete()  # only the other seat must act there

    html = client_for(me).get("/").content.decode()

    assert html.index("Waiting") < html.index("Quiet")
    waiting_section = html[html.index('id="waiting"') : html.index('id="others"')]
    assert "Waiting" in waiting_section and "Quiet" not in waiting_section


def test_profile_page_saves_display_name_and_time_zone(client_for):
    me = UserFactory()

    client_for(me).post("/accounts/profile/", {"display_name": "Magpie Fan", "time_zone": "Asia/Shanghai"})

    me.profile.refresh_from_db()
    assert me.profile.display_name == "Magpie Fan" and me.profile.time_zone == "Asia/Shanghai"


def test_deadline_is_shown_in_my_time_zone(baobei_game, client_for):
    game, players = baobei_game
    players[0].profile.time_zone = "Asia/Shanghai"
    players[0].profile.save()

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    assert "UTC+8" in html
    assert "CST" not in html  # US Central is "CST" too


def test_navigation_links_are_in_the_layout(client_for):
    html = client_for(UserFactory()).get("/").content.decode()

    for link in ("/games/new/", "/leagues/", "/api/docs/", "/accounts/profile/"):
        assert f'href="{link}"' in html


def test_a_player_already_seated_who_opens_the_invitation_link_is_taken_to_the_game(client_for):
    """The creator (or anybody seated) opening the link again is not offered a seat they cannot take."""
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=3, title="Open")
    path = f"/games/join/{game.invitations.get().token}/"

    seen = client_for(creator).get(path)
    taking = client_for(creator).post(path)

    assert seen.status_code == 302 and seen["Location"] == f"/games/{game.public_id}/"
    assert taking.status_code == 302 and taking["Location"] == f"/games/{game.public_id}/"
    assert game.seats.filter(user=creator).count() == 1


def test_the_invitation_link_of_a_started_game_leads_its_players_to_it_and_nobody_else(client_for):
    """Once the table is full the link seats nobody (404), but a player who sits there and opens it
    again, from the mail or chat it came in, is taken to the game rather than to "not found"."""
    creator, friend, stranger = UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=2, title="Pair")
    path = f"/games/join/{game.invitations.get().token}/"
    client_for(friend).post(path)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    again = client_for(friend).get(path)
    strangers = client_for(stranger).get(path)
    anonymous = client_for(None).get(path)

    assert again.status_code == 302 and again["Location"] == f"/games/{game.public_id}/"
    assert strangers.status_code == 404 and anonymous.status_code == 404


def test_the_invitation_page_links_the_seated_players_to_their_pages(client_for):
    """Before sitting down with strangers, look them up: their names lead to their players' pages."""
    creator = UserFactory(username="host")
    game = lifecycle.game_create(creator=creator, engine="baobei", players=3, bots=1, title="Strangers")

    html = client_for(None).get(f"/games/join/{game.invitations.get().token}/").content.decode()

    assert 'href="/players/host/"' in html


def test_a_stale_invitation_link_says_it_seats_nobody_any_more_and_a_made_up_one_reads_the_same(client_for):
    """Still a 404 (docs/playing.md), but one that tells the holder what happened to the link; an unknown
    token gets the very same page, so the page never tells whether a token ever existed."""
    creator, friend, late = UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=2, title="Pair")
    path = f"/games/join/{game.invitations.get().token}/"
    client_for(friend).post(path)

    stale = client_for(late).get(path)
    made_up = client_for(late).get("/games/join/no-such-token/")

    assert stale.status_code == 404 and made_up.status_code == 404
    assert "does not seat anybody any more" in stale.content.decode()
    assert _main(made_up.content.decode()) == _main(stale.content.decode())


def _main(html: str) -> str:
    return html[html.index("<main>") : html.index("</main>")]
