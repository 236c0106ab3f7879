"""Running a league through the API: creating it, seasons and rounds, requests, the organiser tools on
league games (each written to the audit log), the audit log and rating history (toy engine)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core import mail

from apps.games.models import Game
from apps.leagues.models import AuditLog, League, Membership
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db


@dataclass
class Club:
    slug: str
    season_id: int
    game_id: int
    organiser: Any  # plays too: has no organiser power over the game
    member: Any  # plays, does not organise
    api: Any  # the organiser's client
    member_api: Any
    steward: Any  # a second organiser, who does not play: uses the tools on the game
    steward_api: Any


@pytest.fixture
def club(client_for: Any, users: list, toy_engine: str) -> Club:
    """A private 2-seat toy league built through the API: season 1, round 1 started (one game)."""
    api, member_api = client_for(users[0]), client_for(users[1])
    league = api.post(
        "/api/v1/leagues/",
        {"name": "Toy club", "game": toy_engine, "is_public": False, "players_per_table": 2},
        format="json",
    ).json()
    invite = api.get(f"/api/v1/leagues/{league['slug']}/invite/").json()
    member_api.post(
        f"/api/v1/leagues/{league['slug']}/join/", {"invite_token": invite["invite_token"]}, format="json"
    )
    season = api.post(f"/api/v1/leagues/{league['slug']}/seasons/", {"rounds": 2}, format="json").json()
    rnd = api.post(f"/api/v1/leagues/{league['slug']}/seasons/{season['id']}/rounds/").json()
    League.objects.get(slug=league["slug"]).organisers.add(users[5])
    return Club(
        league["slug"],
        season["id"],
        rnd["fixtures"][0]["game_id"],
        users[0],
        users[1],
        api,
        member_api,
        users[5],
        client_for(users[5]),
    )


def _member(club: Club, user: Any) -> None:
    """``user`` joins the club (a substitute must be an active member)."""
    league = League.objects.get(slug=club.slug)
    Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)


def _tool(club: Club, action: str, body: dict[str, Any], client: Any = None) -> Any:
    return (client or club.steward_api).post(
        f"/api/v1/leagues/{club.slug}/games/{club.game_id}/{action}/", body, format="json"
    )


def test_a_league_built_through_the_api_seats_its_members_at_a_round_game(club: Club) -> None:
    game = Game.objects.get(pk=club.game_id)
    rounds = club.member_api.get(f"/api/v1/leagues/{club.slug}/seasons/{club.season_id}/rounds/").json()

    assert {s.user_id for s in game.seats.all()} == {club.organiser.pk, club.member.pk}
    assert game.status == Game.Status.ACTIVE
    assert [(r["number"], len(r["fixtures"])) for r in rounds] == [(1, 1)]
    assert list(AuditLog.objects.filter(league__slug=club.slug).values_list("action", flat=True)) == [
        "round_started",
        "season_created",
        "league_created",
    ]


@pytest.mark.parametrize(
    ("action", "body", "logged"),
    [
        ("pause", {"reason": "storm"}, "game_paused"),
        ("substitute", {"seat": 0, "username": "{newcomer}", "reason": "left"}, "substitute_offered"),
        ("bot-takeover", {"seat": 1, "on": True, "reason": "absent"}, "seat_to_bot"),
        ("adjudicate", {"places": [2, 1], "reason": "agreed"}, "game_adjudicated"),
        ("abort", {"reason": "broken"}, "game_aborted"),
    ],
)
def test_every_organiser_tool_writes_the_audit_log(
    club: Club, users: list, action: str, body: dict[str, Any], logged: str
) -> None:
    _member(club, users[3])
    body = {
        k: v.format(newcomer=users[3].get_username()) if isinstance(v, str) else v for k, v in body.items()
    }

    response = _tool(club, action, body)

    assert response.status_code in (200, 201), response.json()
    entry = AuditLog.objects.filter(league__slug=club.slug).first()
    assert (entry.action, entry.actor, entry.game_id, entry.reason) == (
        logged,
        club.steward,
        club.game_id,
        body["reason"],
    )
    shown = club.api.get(f"/api/v1/leagues/{club.slug}/audit-log/").json()[0]
    assert (shown["action"], shown["actor"], shown["game_id"]) == (
        logged,
        club.steward.get_username(),
        club.game_id,
    )


def test_extending_a_deadline_moves_the_clock_and_is_logged(club: Club) -> None:
    before = club.api.get(f"/api/v1/games/{club.game_id}/").json()["decisions"][0]

    response = _tool(club, "extend", {"seat": before["seat"], "hours": 5})

    after = club.api.get(f"/api/v1/games/{club.game_id}/").json()["decisions"][0]
    assert response.status_code == 200
    assert _seconds(after["deadline"]) - _seconds(before["deadline"]) == pytest.approx(5 * 3600, abs=2)
    assert AuditLog.objects.filter(action="deadline_extended", detail__hours=5).exists()


def test_pause_stops_every_clock_and_resume_restarts_it_through_the_api(club: Club) -> None:
    _tool(club, "pause", {"reason": "storm"})
    paused = club.member_api.get(f"/api/v1/games/{club.game_id}/").json()
    _tool(club, "resume", {})
    resumed = club.member_api.get(f"/api/v1/games/{club.game_id}/").json()

    assert paused["status"] == "paused"
    assert [(d["deadline"], d["clock_stopped"]) for d in paused["decisions"]] == [(None, True)]
    assert resumed["status"] == "active"
    assert resumed["decisions"][0]["deadline"] is not None and not resumed["decisions"][0]["clock_stopped"]


def test_a_member_who_does_not_organise_gets_403_and_nothing_changes(club: Club) -> None:
    logged = AuditLog.objects.count()

    answers = [
        _tool(club, "pause", {"reason": "mine"}, client=club.member_api),
        _tool(club, "abort", {"reason": "mine"}, client=club.member_api),
        club.member_api.post(f"/api/v1/leagues/{club.slug}/seasons/", {}, format="json"),
        club.member_api.post(
            f"/api/v1/leagues/{club.slug}/email/", {"subject": "a", "body": "b"}, format="json"
        ),
    ]

    assert [a.status_code for a in answers] == [403, 403, 403, 403]
    assert {a.json()["code"] for a in answers} == {"forbidden"}
    assert Game.objects.get(pk=club.game_id).status == Game.Status.ACTIVE
    assert AuditLog.objects.count() == logged and mail.outbox == []


def test_a_private_league_is_not_found_for_a_non_member(club: Club, client_for: Any, users: list) -> None:
    stranger = client_for(users[4])

    answers = [
        stranger.get(f"/api/v1/leagues/{club.slug}/audit-log/"),
        stranger.get(f"/api/v1/leagues/{club.slug}/seasons/{club.season_id}/ratings/"),
        stranger.post(
            f"/api/v1/leagues/{club.slug}/games/{club.game_id}/abort/", {"reason": "x"}, format="json"
        ),
    ]

    assert [a.status_code for a in answers] == [404, 404, 404]


def test_the_audit_log_shows_particulars_to_organisers_only(club: Club) -> None:
    _tool(club, "extend", {"seat": 0, "hours": 3})
    _tool(club, "extend", {"seat": 1, "hours": 3})  # one of the two has an open decision

    mine = club.api.get(f"/api/v1/leagues/{club.slug}/audit-log/").json()
    theirs = club.member_api.get(f"/api/v1/leagues/{club.slug}/audit-log/").json()

    assert mine[0]["action"] == "deadline_extended" and mine[0]["detail"]["hours"] == 3
    assert [e["action"] for e in theirs] == [e["action"] for e in mine]
    assert {e["detail"] is None for e in theirs} == {True}


def test_the_audit_log_tells_every_member_each_entry_as_the_league_page_does(club: Club) -> None:
    _tool(club, "pause", {"reason": "storm"})

    theirs = club.member_api.get(f"/api/v1/leagues/{club.slug}/audit-log/").json()

    steward = club.steward.get_username()
    assert theirs[0]["action"] == "game_paused" and theirs[0]["summary"] == ""
    assert theirs[0]["sentence"] == f"{steward} paused the game."
    assert theirs[-1]["sentence"] == f"{club.organiser.get_username()} created the league."
    chinese = club.member_api.get(
        f"/api/v1/leagues/{club.slug}/audit-log/", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).json()
    assert chinese[0]["sentence"] != theirs[0]["sentence"] and steward in chinese[0]["sentence"]


def test_a_signed_out_caller_reads_the_public_leagues_as_their_pages_show_them(
    club: Club, client_for: Any, users: list
) -> None:
    public = client_for(users[2]).post("/api/v1/leagues/", {"name": "Open", "game": "baobei"}, format="json")
    anonymous = client_for(None)

    listed = anonymous.get("/api/v1/leagues/")
    detail = anonymous.get(f"/api/v1/leagues/{public.json()['slug']}/")
    hidden = anonymous.get(f"/api/v1/leagues/{club.slug}/")
    create = anonymous.post("/api/v1/leagues/", {"name": "Mine", "game": "baobei"}, format="json")

    assert [league["slug"] for league in listed.json()] == [public.json()["slug"]]
    assert detail.status_code == 200 and detail.json()["me"] == {"organiser": False, "membership": None}
    assert hidden.status_code == 404  # the private club
    assert create.status_code == 401


def test_a_league_join_with_a_mistyped_field_is_refused_not_made_a_request(
    client_for: Any, users: list
) -> None:
    slug = client_for(users[0]).post("/api/v1/leagues/", {"name": "Open", "game": "baobei"}, format="json")
    slug = slug.json()["slug"]

    answer = client_for(users[1]).post(f"/api/v1/leagues/{slug}/join/", {"token": "abc"}, format="json")

    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert answer.json()["errors"] == {"token": ["Unknown field."]}
    assert not Membership.objects.filter(user=users[1], league__slug=slug).exists()


def test_organiser_approves_and_declines_requests_to_join(client_for: Any, users: list) -> None:
    api = client_for(users[0])
    slug = api.post("/api/v1/leagues/", {"name": "Open", "game": "baobei"}, format="json").json()["slug"]
    for user in users[1:3]:
        client_for(user).post(f"/api/v1/leagues/{slug}/join/", {}, format="json")
    pending = {m["username"]: m["id"] for m in api.get(f"/api/v1/leagues/{slug}/members/").json()}

    approved = api.post(f"/api/v1/leagues/{slug}/members/{pending[users[1].username]}/approve/")
    declined = api.post(f"/api/v1/leagues/{slug}/members/{pending[users[2].username]}/decline/")
    again = api.post(f"/api/v1/leagues/{slug}/members/{pending[users[1].username]}/approve/")

    assert approved.json()["status"] == "active" and declined.json()["status"] == "declined"
    assert again.status_code == 409 and again.json()["code"] == "not_pending"
    assert Membership.objects.get(user=users[1], league__slug=slug).status == Membership.Status.ACTIVE
    assert not Membership.objects.filter(user=users[2], league__slug=slug).exists()
    assert {"member_approved", "member_declined"} <= set(AuditLog.objects.values_list("action", flat=True))


def test_email_reaches_every_active_member_and_is_logged(club: Club) -> None:
    response = club.api.post(
        f"/api/v1/leagues/{club.slug}/email/", {"subject": "Round 2", "body": "Soon."}, format="json"
    )

    assert response.json() == {"sent": 2}
    assert sorted(m.to[0] for m in mail.outbox) == sorted([club.organiser.email, club.member.email])
    assert mail.outbox[0].subject == "[Toy club] Round 2"
    assert AuditLog.objects.filter(action="members_emailed").exists()


def test_an_adjudicated_game_enters_the_standings_and_rating_history(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    game = Game.objects.get(pk=club.game_id)
    seat_of = {s.user_id: s.position for s in game.seats.all()}
    places = [0, 0]
    places[seat_of[club.member.pk]], places[seat_of[club.organiser.pk]] = 1, 2

    with django_capture_on_commit_callbacks(execute=True):
        _tool(club, "adjudicate", {"places": places, "reason": "agreed"})

    ratings = club.member_api.get(f"/api/v1/leagues/{club.slug}/seasons/{club.season_id}/ratings/").json()
    table = club.member_api.get(f"/api/v1/leagues/{club.slug}/seasons/{club.season_id}/standings/").json()
    lines = {r["user_id"]: r["ratings"] for r in ratings}
    assert [len(lines[club.member.pk]), len(lines[club.organiser.pk])] == [2, 2]
    assert lines[club.member.pk][1] > lines[club.organiser.pk][1]
    assert table["standings"][0]["user_id"] == club.member.pk


def test_a_substitute_sees_exactly_the_seats_view(club: Club, client_for: Any, users: list) -> None:
    _member(club, users[3])
    offer = _tool(club, "substitute", {"seat": 0, "username": users[3].username, "reason": "left"}).json()
    newcomer = client_for(users[3])
    newcomer.post(f"/api/v1/leagues/{club.slug}/offers/{offer['id']}/accept/")

    body = newcomer.get(f"/api/v1/games/{club.game_id}/").json()

    game = Game.objects.get(pk=club.game_id)
    assert body["my_seat"] == 0
    assert body["view"] == get_engine("toy").view(game.state, 0)


def test_a_seat_handed_to_the_bot_shows_as_bot_played(club: Club) -> None:
    _tool(club, "bot-takeover", {"seat": 1, "on": True})
    on = club.member_api.get(f"/api/v1/games/{club.game_id}/").json()["seats"][1]
    _tool(club, "bot-takeover", {"seat": 1, "on": False})
    off = club.member_api.get(f"/api/v1/games/{club.game_id}/").json()["seats"][1]

    assert (on["is_bot"], on["bot_takeover"]) == (True, True)
    assert (off["is_bot"], off["bot_takeover"]) == (False, False)
    assert list(AuditLog.objects.values_list("action", flat=True)[:2]) == ["seat_from_bot", "seat_to_bot"]


def _seconds(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def test_an_organiser_patches_the_league_preset_for_the_games_to_come(club: Club) -> None:
    response = club.api.patch(
        f"/api/v1/leagues/{club.slug}/",
        {"timing_preset": "weekly", "engine_options": {"hand": 2}, "points_table": [1, 0]},
        format="json",
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["timing_preset"], body["engine_options"], body["points_table"]) == (
        "weekly",
        {"hand": 2},
        [1, 0],
    )
    assert body["players_per_table"] == 2 and body["is_public"] is False  # left out: unchanged
    assert AuditLog.objects.filter(league__slug=club.slug).first().action == "league_updated"
    # The game already in play keeps its options.
    assert Game.objects.get(pk=club.game_id).control == "daily"


def test_an_invalid_preset_is_a_400_with_the_services_code(club: Club) -> None:
    response = club.api.patch(f"/api/v1/leagues/{club.slug}/", {"players_per_table": 5}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_options"


def test_patching_a_league_is_for_organisers_and_hidden_from_outsiders(
    club: Club, client_for: Any, users: list
) -> None:
    change = {"timing_preset": "live"}

    by_member = club.member_api.patch(f"/api/v1/leagues/{club.slug}/", change, format="json")
    by_outsider = client_for(users[4]).patch(f"/api/v1/leagues/{club.slug}/", change, format="json")

    assert (by_member.status_code, by_member.json()["code"]) == (403, "forbidden")
    assert by_outsider.status_code == 404
    assert club.api.get(f"/api/v1/leagues/{club.slug}/").json()["timing_preset"] == "daily"


# --- organisers who play ---------------------------------------------------------------------------------

OWN_GAME_TOOLS = [
    ("extend", {"seat": 1, "hours": 5}),
    ("pause", {"reason": "mine"}),
    ("resume", {}),
    ("substitute", {"seat": 1, "username": "{newcomer}"}),
    ("bot-takeover", {"seat": 1, "on": True}),
    ("adjudicate", {"places": [1, 2], "reason": "mine"}),
    ("abort", {"reason": "mine"}),
]


@pytest.mark.parametrize(("action", "body"), OWN_GAME_TOOLS, ids=[a for a, _ in OWN_GAME_TOOLS])
def test_an_organiser_who_holds_a_seat_has_no_organiser_power_over_that_game(
    club: Club, users: list, action: str, body: dict[str, Any]
) -> None:
    _member(club, users[3])
    body = {k: v.format(newcomer=users[3].username) if isinstance(v, str) else v for k, v in body.items()}
    logged = AuditLog.objects.count()

    response = _tool(club, action, body, client=club.api)

    assert (response.status_code, response.json()["code"]) == (403, "own_game")
    assert AuditLog.objects.count() == logged
    assert Game.objects.get(pk=club.game_id).status == Game.Status.ACTIVE


def test_an_organiser_whose_bot_account_holds_a_seat_has_no_power_over_that_game(
    club: Club, users: list
) -> None:
    from apps.accounts.models import Profile

    Profile.objects.filter(user=club.member).update(is_bot_account=True, bot_owner=club.steward)

    response = _tool(club, "abort", {"reason": "my bot is losing"})

    assert (response.status_code, response.json()["code"]) == (403, "own_game")


def test_a_site_admin_who_does_not_play_may_act_on_a_league_game(
    club: Club, client_for: Any, users: list
) -> None:
    admin = users[4]
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])

    response = _tool(club, "pause", {"reason": "both organisers play"}, client=client_for(admin))

    assert response.status_code == 200
    assert Game.objects.get(pk=club.game_id).status == Game.Status.PAUSED


def test_a_substitute_takes_the_seat_only_once_they_accept_the_offer(
    club: Club, client_for: Any, users: list
) -> None:
    _member(club, users[3])
    game = Game.objects.get(pk=club.game_id)
    before = game.seats.get(position=1).user_id

    offer = _tool(club, "substitute", {"seat": 1, "username": users[3].username, "reason": "left"})
    waiting = Game.objects.get(pk=club.game_id).seats.get(position=1).user_id
    accepted = client_for(users[3]).post(f"/api/v1/leagues/{club.slug}/offers/{offer.json()['id']}/accept/")

    assert offer.status_code == 201 and offer.json()["status"] == "pending"
    assert waiting == before
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert Game.objects.get(pk=club.game_id).seats.get(position=1).user_id == users[3].pk


def test_only_the_newcomer_can_accept_a_seat_offer(club: Club, users: list) -> None:
    _member(club, users[3])
    offer = _tool(club, "substitute", {"seat": 1, "username": users[3].username}).json()

    answer = club.api.post(f"/api/v1/leagues/{club.slug}/offers/{offer['id']}/accept/")

    assert (answer.status_code, answer.json()["code"]) == (404, "no_such_offer")


@pytest.mark.parametrize("who", ["not a member", "seated"])
def test_a_substitute_must_be_an_active_member_not_seated_in_the_game(
    club: Club, users: list, who: str
) -> None:
    newcomer = users[3] if who == "not a member" else club.organiser

    response = _tool(club, "substitute", {"seat": 1, "username": newcomer.username})

    expected = "not_a_member" if who == "not a member" else "already_seated"
    assert (response.status_code, response.json()["code"]) == (409, expected)
    assert not AuditLog.objects.filter(action="substitute_offered").exists()


def test_the_audit_log_names_the_newcomer_for_every_member(club: Club, client_for: Any, users: list) -> None:
    _member(club, users[3])
    offer = _tool(club, "substitute", {"seat": 1, "username": users[3].username}).json()
    client_for(users[3]).post(f"/api/v1/leagues/{club.slug}/offers/{offer['id']}/accept/")

    log = club.member_api.get(f"/api/v1/leagues/{club.slug}/audit-log/").json()

    from apps.accounts.models import display_name

    assert [e["action"] for e in log[:2]] == ["player_substituted", "substitute_offered"]
    assert display_name(users[3]) in log[0]["summary"] and display_name(users[3]) in log[1]["summary"]
