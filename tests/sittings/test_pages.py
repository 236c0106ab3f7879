"""The "Sittings" panel of the game page: the table proposes in its own time zone and answers; watchers
see nothing of it; the panel's own polls record presence."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games.models import Game
from apps.sittings import selectors
from apps.sittings.models import ProposedTime, SeatPresence, Sitting, SittingProposal
from tests.factories import UserFactory, signed_in
from tests.sittings.setup_helpers import three_at_a_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def test_a_player_sees_the_panel_and_a_watcher_does_not(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    url = game.get_absolute_url()

    mine = signed_in(people[0]).get(url).content.decode()
    watched = signed_in(UserFactory()).get(url).content.decode()

    assert 'id="sittings"' in mine
    assert 'id="sittings"' not in watched
    assert "Sittings</h2>" not in watched and "sittings-live" not in watched


def test_a_time_is_proposed_in_the_proposers_own_time_zone(table: tuple[Game, list[Any]]) -> None:
    """20:00 on a summer day in Berlin is 18:00 UTC."""
    game, people = table
    people[0].profile.time_zone = "Europe/Berlin"
    people[0].profile.save()
    day = (timezone.now() + timedelta(days=30)).date().replace(month=7, day=14)
    if day <= timezone.now().date():
        day = day.replace(year=day.year + 1)

    response = signed_in(people[0]).post(
        f"/games/{game.public_id}/sittings/propose/",
        {"day1": day.isoformat(), "at1": "20:00", "length": "60"},
    )

    assert response.status_code == 302
    row = ProposedTime.objects.get(proposal__game=game)
    assert row.starts_at == datetime(day.year, 7, 14, 18, 0, tzinfo=UTC)


def test_players_answer_on_the_page_and_the_sitting_is_listed(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    day = (timezone.now() + timedelta(days=3)).date().isoformat()
    signed_in(people[0]).post(f"/games/{game.public_id}/sittings/propose/", {"day1": day, "at1": "19:30"})
    pid = game.sitting_proposals.get().pk

    for user in people[1:]:
        response = signed_in(user).post(
            f"/games/{game.public_id}/sittings/{pid}/answer/",
            {"index": "1", "accept": "yes"},
            HTTP_HX_REQUEST="true",
        )

    assert response.status_code == 200
    assert "Agreed sittings" in response.content.decode()
    assert Sitting.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("index", ["²", "٣", "99999999999999999999999", "x"])
def test_a_time_index_that_is_no_time_of_the_proposal_is_no_server_error(
    table: tuple[Game, list[Any]], index: str
) -> None:
    """``index`` comes from outside: a digit ``int`` cannot read (``²``), a time the proposal lacks or
    no number at all is answered on the panel, never with a 500."""
    game, people = table
    day = (timezone.now() + timedelta(days=3)).date().isoformat()
    signed_in(people[0]).post(f"/games/{game.public_id}/sittings/propose/", {"day1": day, "at1": "19:30"})
    pid = game.sitting_proposals.get().pk

    response = signed_in(people[1]).post(
        f"/games/{game.public_id}/sittings/{pid}/answer/",
        {"index": index, "accept": "yes"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200


def test_a_refused_proposal_says_why_with_its_code(table: tuple[Game, list[Any]]) -> None:
    game, people = table

    response = signed_in(people[0]).post(
        f"/games/{game.public_id}/sittings/propose/",
        {"day1": "2001-01-01", "at1": "10:00"},
        HTTP_HX_REQUEST="true",
    )

    assert "(bad_times)" in response.content.decode()


def test_a_watcher_cannot_poll_propose_or_answer(table: tuple[Game, list[Any]]) -> None:
    game, people = table
    watcher = signed_in(UserFactory())

    answers = [
        watcher.get(f"/games/{game.public_id}/sittings/"),
        watcher.post(f"/games/{game.public_id}/sittings/propose/", {"day1": "2030-01-01", "at1": "10:00"}),
    ]

    assert [r.status_code for r in answers] == [403, 403]
    assert not game.sitting_proposals.exists()


def test_the_panels_poll_records_presence_and_it_lapses_after_30_seconds(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table

    signed_in(people[1]).get(f"/games/{game.public_id}/sittings/", HTTP_HX_REQUEST="true")

    now = timezone.now()
    assert selectors.present_seats(game=game, now=now) == {1}
    assert selectors.present_seats(game=game, now=now + timedelta(seconds=31)) == set()


def test_a_watchers_visit_records_no_presence(table: tuple[Game, list[Any]]) -> None:
    game, _ = table

    signed_in(UserFactory()).get(game.get_absolute_url())

    assert not SeatPresence.objects.filter(game=game).exists()


def test_opening_the_game_page_counts_as_presence(table: tuple[Game, list[Any]]) -> None:
    game, people = table

    for user in people:
        signed_in(user).get(game.get_absolute_url())

    panel = selectors.panel(game=game, user=people[0])
    assert panel is not None
    assert panel.everyone_here


def test_when_everyone_has_the_page_open_it_offers_play_now_and_all_yes_start_a_sitting(
    table: tuple[Game, list[Any]],
) -> None:
    game, people = table
    clients = [signed_in(user) for user in people]
    for client in clients:
        client.get(game.get_absolute_url())

    polled = clients[0].get(f"/games/{game.public_id}/sittings/", HTTP_HX_REQUEST="true").content.decode()
    clients[0].post(f"/games/{game.public_id}/sittings/play-now/", HTTP_HX_REQUEST="true")
    pid = game.sitting_proposals.get().pk
    for client in clients[1:]:
        answered = client.post(
            f"/games/{game.public_id}/sittings/{pid}/answer/", {"accept": "yes"}, HTTP_HX_REQUEST="true"
        )

    assert "Everyone is here." in polled
    assert "A sitting is under way" in answered.content.decode()
    assert Sitting.objects.get(game=game).kind == Sitting.Kind.AD_HOC


def test_a_player_not_at_the_table_now_is_not_here_not_away(table: tuple[Game, list[Any]]) -> None:
    """The presence list says who is at the table now; "away" is the word for a player on vacation."""
    game, people = table

    html = signed_in(people[0]).get(game.get_absolute_url()).content.decode()

    presence = html[html.index("seat-presence") : html.index("</p>", html.index("seat-presence"))]
    assert f"{people[1].username} (not here)" in presence and "(away)" not in presence


def test_a_weekly_series_names_the_proposers_zone_in_the_readers_language(
    table: tuple[Game, list[Any]],
) -> None:
    """The series is kept in the proposer's zone (Berlin); each reader reads that zone's name."""
    game, people = table
    people[0].profile.time_zone = "Europe/Berlin"
    people[0].profile.save()
    first_day = (timezone.now() + timedelta(days=2)).date().isoformat()
    signed_in(people[0]).post(
        f"/games/{game.public_id}/sittings/propose/",
        {"repeat": "1", "weekday": ["1", "3"], "at": "20:00", "weeks": "4", "first_day": first_day},
    )
    people[1].profile.language = "zh-hans"
    people[1].profile.save()

    english = signed_in(people[2]).get(game.get_absolute_url()).content.decode()
    chinese = signed_in(people[1]).get(game.get_absolute_url()).content.decode()

    assert "(20:00 Germany (Berlin) Time)" in english
    assert "（德国（柏林）时间 20:00）" in chinese


def _proposal_line(page: str) -> str:
    """The panel's line of the first proposed time."""
    part = page[page.index('class="sitting-proposal"') :]
    return part[part.index("<li>") : part.index("</li>")]


def test_a_proposed_times_state_and_answers_are_words_of_the_readers_language(
    table: tuple[Game, list[Any]],
) -> None:
    """The panel says "waiting for answers" and each player's "yes" or "?" in English, and in Chinese
    to a reader who chose Chinese: neither the state's code nor English words."""
    game, people = table
    day = (timezone.now() + timedelta(days=3)).date().isoformat()
    signed_in(people[0]).post(f"/games/{game.public_id}/sittings/propose/", {"day1": day, "at1": "19:30"})
    people[2].profile.language = "zh-hans"
    people[2].profile.save()

    english = _proposal_line(signed_in(people[1]).get(game.get_absolute_url()).content.decode())
    chinese = _proposal_line(signed_in(people[2]).get(game.get_absolute_url()).content.decode())

    assert "waiting for answers" in english and "yes" in english and "— open" not in english
    assert "等待答复" in chinese and "同意" in chinese
    assert "waiting for answers" not in chinese and " yes" not in chinese and "— open" not in chinese


def test_a_proposals_heading_in_chinese_joins_its_proposer_and_length_with_no_list_comma(
    table: tuple[Game, list[Any]],
) -> None:
    """ "由ann提议、60分钟" read as a list of two things: the heading is who proposed, then how long."""
    game, people = table
    day = (timezone.now() + timedelta(days=3)).date().isoformat()
    signed_in(people[0]).post(f"/games/{game.public_id}/sittings/propose/", {"day1": day, "at1": "19:30"})
    people[1].profile.language = "zh-hans"
    people[1].profile.save()

    chinese = signed_in(people[1]).get(game.get_absolute_url()).content.decode()
    heading = chinese[chinese.index('class="sitting-proposal"') :]
    heading = heading[heading.index("<h3>") : heading.index("</h3>")]

    assert "提议" in heading and "60" in heading
    assert "提议、" not in heading


def _offer_play_now(game: Game, proposer: Any) -> datetime:
    """An open ad-hoc offer ("play now") made just now by ``proposer``; returns when it was made."""
    offered = timezone.now()
    proposal = SittingProposal.objects.create(
        game=game,
        proposer=proposer,
        kind=SittingProposal.Kind.AD_HOC,
        length=timedelta(hours=1),
        time_zone="UTC",
        created_at=offered,
    )
    ProposedTime.objects.create(proposal=proposal, index=1, starts_at=offered)
    return offered


def _present(game: Game, people: list[Any]) -> None:
    for position, person in enumerate(people):
        SeatPresence.objects.update_or_create(
            game=game, position=position, defaults={"user": person, "seen_at": timezone.now()}
        )


def test_an_ad_hoc_offer_says_how_long_it_plays_and_when_it_lapses(table: tuple[Game, list[Any]]) -> None:
    """ "Play now" offers a sitting of up to an hour, open for the others to answer for five minutes
    (``selectors.AD_HOC_OFFER_LIFE``): the panel says both, in one sentence each (times in UTC here,
    the players' zone), and the offer's time is when it was made, not a start time."""
    game, people = table
    offered = _offer_play_now(game, people[0])
    _present(game, people)
    lapses = (offered + selectors.AD_HOC_OFFER_LIFE).astimezone(UTC).strftime("%H:%M")

    page = signed_in(people[1]).get(game.get_absolute_url()).content.decode()

    assert "Everyone is here: play now, for up to 60 minutes?" in page
    assert f"The offer lapses at {lapses} unless everyone says yes first." in page
    line = _proposal_line(page)
    assert f"Offered at {offered.astimezone(UTC):%H:%M}" in line
    assert f"{offered.year}," not in line  # no date: it does not start then


def test_an_ad_hoc_offer_no_longer_says_everyone_is_here_once_someone_left(
    table: tuple[Game, list[Any]],
) -> None:
    """The presence line above says who is not here: the offer's heading must not contradict it."""
    game, people = table
    _offer_play_now(game, people[0])
    _present(game, people[:2])  # the third player's page is closed

    page = signed_in(people[1]).get(game.get_absolute_url()).content.decode()

    assert "Play now, for up to 60 minutes?" in page
    assert "Everyone is here" not in page


def test_a_refused_proposal_without_javascript_is_told_in_the_panel_the_page_scrolls_to(
    table: tuple[Game, list[Any]],
) -> None:
    """The plain form redirects to ``#sittings``: the refusal is shown there, in the panel, and not only
    at the top of the page, out of sight, where the player would not see why nothing was proposed."""
    game, people = table

    response = signed_in(people[0]).post(
        f"/games/{game.public_id}/sittings/propose/", {"day1": "2001-01-01", "at1": "10:00"}, follow=True
    )
    html = response.content.decode()
    panel = re.search(r'<section class="panel sittings" id="sittings">.*?</section>', html, re.S)

    assert response.redirect_chain[-1][0].endswith("#sittings")
    assert panel is not None and "(bad_times)" in panel.group(0)
    assert html.count("(bad_times)") == 1
