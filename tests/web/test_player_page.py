"""A player's public page (``/players/<username>/``, ``apps.games.players``): the name, the reliability
record, the games the viewer may see and the public leagues; linked from the open tables and the seats
of a game waiting for players.

It lists a game only when ``game_may_view`` would show it to the viewer asked for by number: never an
unlisted or private game, nor a private league's, to a stranger; their own players see theirs.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.accounts.closing import account_close
from apps.accounts.models import Profile
from apps.games import lifecycle, store
from apps.games.models import Game, SeatTenure
from apps.leagues import services as league_services
from apps.leagues.models import Membership, Season, Standing
from tests.factories import GameFactory, UserFactory
from tests.support.leagues import game_in_league, member_of_a_public_and_a_private_league

pytestmark = pytest.mark.django_db


def _listed(client: Any, username: str, section: str) -> list[str]:
    """The public ids of the games the player's page lists in ``section`` (``in-play`` or ``finished``)."""
    html = client.get(f"/players/{username}/").content.decode()
    block = html.split(f'id="{section}"')[1].split("</ul>")[0]
    return re.findall(r'data-game="([^"]+)"', block)


def _finish(game: Game) -> None:
    with transaction.atomic():
        lifecycle.game_adjudicate(store.lock_game(game.pk), places={0: 1, 1: 2, 2: 3}, reason="test")


def test_anybody_signed_out_sees_the_name_the_joining_date_and_the_record(client_for: Any) -> None:
    player = UserFactory(username="wren")
    Profile.objects.filter(user=player).update(display_name="Jenny Wren")
    game = GameFactory(seated=[player, UserFactory(), UserFactory()])
    SeatTenure.objects.update_or_create(
        game=game,
        position=0,
        user=player,
        defaults={"started_at": timezone.now(), "answered": 9, "timeouts": 1},
    )

    answer = client_for(None).get("/players/wren/")

    html = answer.content.decode()
    assert answer.status_code == 200
    assert "<h1>Jenny Wren" in html and "Joined on" in html
    assert "90% on time · 1 timeout" in html  # the record's summary, as organisers see it
    assert "Decisions answered on time</th><td>90%</td>" in html  # the share: the counts are the player's
    assert ">Games</th>" not in html


def test_the_player_alone_sees_how_many_games_and_answers_their_record_counts(client_for: Any) -> None:
    """The counts take in games others may not see (a private one here), and their growth would tell
    when the player sits at one."""
    player = UserFactory(username="shrike")
    hidden = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.PRIVATE)
    SeatTenure.objects.update_or_create(
        game=hidden, position=0, user=player, defaults={"started_at": timezone.now(), "answered": 4}
    )

    stranger = client_for(UserFactory()).get("/players/shrike/").content.decode()
    own = client_for(player).get("/players/shrike/").content.decode()

    assert "Decisions answered on time</th><td>100%</td>" in stranger and ">Games</th>" not in stranger
    assert "Decisions answered on time</th><td>4 (100%)</td>" in own and "<th>Games</th><td>1</td>" in own


def test_a_stranger_sees_public_games_in_play_and_finished_and_no_state(client_for: Any) -> None:
    player = UserFactory()
    playing = GameFactory(seated=[player, UserFactory(), UserFactory()])
    over = GameFactory(seated=[UserFactory(), player, UserFactory()])
    _finish(over)
    GameFactory(seated=[UserFactory(), UserFactory(), UserFactory()])  # somebody else's

    stranger = client_for(None)

    assert _listed(stranger, player.username, "in-play") == [playing.public_id]
    assert _listed(stranger, player.username, "finished") == [over.public_id]
    html = stranger.get(f"/players/{player.username}/").content.decode()
    assert "data-card" not in html and "data-zone" not in html


def test_unlisted_private_and_private_league_games_are_never_listed_to_a_stranger(client_for: Any) -> None:
    player = UserFactory()
    unlisted = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.UNLISTED)
    private = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.PRIVATE)
    in_private_league = GameFactory(seated=[player, UserFactory(), UserFactory()])
    game_in_league(in_private_league, public=False)
    in_public_league = GameFactory(seated=[player, UserFactory(), UserFactory()])
    game_in_league(in_public_league, public=True)

    for viewer in (None, UserFactory()):
        listed = _listed(client_for(viewer), player.username, "in-play")

        assert listed == [in_public_league.public_id]
        assert not {unlisted.public_id, private.public_id, in_private_league.public_id} & set(listed)


def test_a_fellow_player_sees_the_unlisted_and_private_games_they_share(client_for: Any) -> None:
    player, fellow = UserFactory(), UserFactory()
    shared = GameFactory(seated=[fellow, player, UserFactory()], visibility=Game.Visibility.PRIVATE)
    unlisted = GameFactory(seated=[player, fellow, UserFactory()], visibility=Game.Visibility.UNLISTED)
    not_shared = GameFactory(
        seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.UNLISTED
    )

    listed = _listed(client_for(fellow), player.username, "in-play")

    assert set(listed) == {shared.public_id, unlisted.public_id}
    assert not_shared.public_id not in listed


def test_a_private_league_game_is_listed_to_the_league_s_members_only(client_for: Any) -> None:
    player, member = UserFactory(), UserFactory()
    game = GameFactory(seated=[player, UserFactory(), UserFactory()])
    league = game_in_league(game, public=False)
    Membership.objects.create(league=league, user=member, status=Membership.Status.ACTIVE)

    assert _listed(client_for(member), player.username, "in-play") == [game.public_id]
    assert _listed(client_for(UserFactory()), player.username, "in-play") == []


def test_an_unknown_name_and_a_closed_account_answer_404(client_for: Any) -> None:
    leaving = UserFactory(username="leaving")
    GameFactory(seated=[leaving, UserFactory(), UserFactory()])
    account_close(user=leaving, password="pw-for-tests-123")
    leaving.refresh_from_db()

    assert client_for(None).get("/players/nobody-here/").status_code == 404
    assert client_for(None).get("/players/leaving/").status_code == 404
    assert client_for(UserFactory()).get(f"/players/{leaving.username}/").status_code == 404


def test_a_bot_account_has_a_page_marked_as_a_bot_s_without_its_owner(client_for: Any) -> None:
    owner, bot = UserFactory(username="owner"), UserFactory(username="robin")
    Profile.objects.filter(user=bot).update(is_bot_account=True, bot_owner=owner)

    html = client_for(None).get("/players/robin/").content.decode()

    assert "bot account" in html and "A program plays this account through the API." in html
    assert "owner" not in html.split("<main")[-1].split("</main>")[0]


def test_the_public_leagues_the_player_belongs_to_show_with_the_rating_and_no_private_one(
    client_for: Any,
) -> None:
    player = UserFactory()
    member_of_a_public_and_a_private_league(player)

    html = client_for(UserFactory()).get(f"/players/{player.username}/").content.decode()

    leagues = html.split('id="player-leagues"')[1].split("</ul>")[0]
    assert "Open Birds" in leagues and "rating 15.0 (season 1)" in leagues
    assert "Secret Club" not in html


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_page_costs_the_same_queries_for_many_games_as_for_one(client_for: Any, signed_in: bool) -> None:
    player = UserFactory()
    stranger = client_for(UserFactory() if signed_in else None)
    GameFactory(seated=[player, UserFactory(), UserFactory()])
    _finish(GameFactory(seated=[player, UserFactory(), UserFactory()]))

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert stranger.get(f"/players/{player.username}/").status_code == 200
        return len(captured.captured_queries)

    one = queries()
    for _ in range(3):
        GameFactory(seated=[player, UserFactory(), UserFactory()])
        _finish(GameFactory(seated=[player, UserFactory(), UserFactory()]))

    assert queries() == one


def test_the_open_tables_link_their_people_and_not_the_empty_or_bot_seats(client_for: Any) -> None:
    creator = UserFactory(username="heronry")
    game = lifecycle.game_create(creator=creator, engine="baobei", players=3, open_table=True, bots=1)

    html = client_for(None).get("/games/").content.decode()

    row = html.split(f'data-game="{game.public_id}"')[1].split("</li>")[0]
    assert '<a href="/players/heronry/" class="player-link">heronry</a>' in row
    assert row.count('class="player-link"') == 1  # the open seat and the bot's are plain


def test_the_seats_of_a_game_waiting_for_players_link_their_people(client_for: Any) -> None:
    creator, guest = UserFactory(username="creator"), UserFactory(username="guest")
    game = lifecycle.game_create(creator=creator, engine="baobei", players=4, bots=1)
    lifecycle.game_join(game_id=game.pk, user=guest)

    html = client_for(guest).get(game.get_absolute_url()).content.decode()

    seats = html.split("Waiting for players")[1].split("</ul>")[0]
    assert 'Seat 0: <a href="/players/creator/" class="player-link">creator</a>' in seats
    assert 'Seat 1: <a href="/players/guest/" class="player-link">guest</a>' in seats
    assert seats.count('class="player-link"') == 2  # the open seat and the bot's are plain


def test_the_league_standings_link_their_players_but_not_a_closed_account(client_for: Any) -> None:
    organiser, player, leaving = UserFactory(), UserFactory(username="lark"), UserFactory(username="gone")
    league = league_services.league_create(creator=organiser, name="Open Birds", game="baobei")
    season = Season.objects.create(league=league, number=1, starts_at=timezone.now())
    for user in (player, leaving):
        Standing.objects.create(season=season, user=user)
    account_close(user=leaving, password="pw-for-tests-123")
    leaving.refresh_from_db()

    html = client_for(None).get(league.get_absolute_url()).content.decode()

    table = html.split('class="standings"')[1].split("</table>")[0]
    assert '<a href="/players/lark/" class="player-link">lark</a>' in table
    assert leaving.username in table and f"/players/{leaving.username}/" not in table


def test_the_league_members_named_before_the_first_round_link_their_players_but_not_a_closed_account(
    client_for: Any,
) -> None:
    """Before a round gives them standings, the league page lists its members by name: linked as the
    standings link them, with the same ``player-link`` class, a closed account's name plain."""
    organiser, player, leaving = UserFactory(), UserFactory(username="lark"), UserFactory(username="gone")
    Profile.objects.filter(user=player).update(display_name="Sky <Lark>")
    league = league_services.league_create(creator=organiser, name="Open Birds", game="baobei")
    for user in (player, leaving):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    account_close(user=leaving, password="pw-for-tests-123")
    leaving.refresh_from_db()
    Membership.objects.filter(user=leaving).update(status=Membership.Status.ACTIVE)  # as if still listed

    html = client_for(None).get(league.get_absolute_url()).content.decode()

    members = html.split('class="members"')[1].split("</p>")[0]
    assert '<a href="/players/lark/" class="player-link">Sky &lt;Lark&gt;</a>' in members
    assert members.count('class="player-link"') == 1
    assert f"/players/{leaving.username}/" not in members


def test_the_watch_pages_games_in_play_link_their_players_names(client_for: Any) -> None:
    """The rows of games in play (the Watch page's, and a player's page's) link each person's name to
    their page; a server bot's seat stays plain."""
    player = UserFactory(username="linnet")
    GameFactory(players=3, bots=1, seated=[player, UserFactory()])

    block = client_for(None).get("/games/").content.decode().split('id="in-play"')[1].split("</ul>")[0]

    assert 'href="/players/linnet/"' in block
    assert "(bot)</a>" not in block


def test_a_name_in_another_case_redirects_to_the_players_page_under_its_own_spelling(client_for: Any) -> None:
    """Usernames are one whatever their case (allauth signs people in so): ``/players/Demo/`` is demo's."""
    UserFactory(username="demo")

    answer = client_for(None).get("/players/Demo/")

    assert answer.status_code == 302 and answer["Location"] == "/players/demo/"
    assert client_for(None).get(answer["Location"]).status_code == 200


def test_of_two_old_accounts_differing_only_by_case_the_exact_spelling_is_shown(client_for: Any) -> None:
    UserFactory(username="kite")
    Kite = UserFactory(username="Kite")  # noqa: N806 - the account's own spelling
    Profile.objects.filter(user=Kite).update(display_name="Red Kite")

    answer = client_for(None).get("/players/Kite/")

    assert answer.status_code == 200 and "<h1>Red Kite" in answer.content.decode()
