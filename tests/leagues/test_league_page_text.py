"""The league page in words: the rating chart, the organisers, the organiser log."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from apps.leagues import auditlog, charts, seasons, services
from apps.leagues.auditlog import audit_sentence
from apps.leagues.models import AuditLog
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_chart_name_is_escaped_exactly_once():
    svg = str(charts.rating_chart(series={"Tom & <Jerry>": [0.0, 1.5]}))

    assert "Tom &amp; &lt;Jerry&gt;" in svg
    assert "&amp;amp;" not in svg and "<Jerry>" not in svg


def test_a_long_chart_name_is_never_cut_and_fits_the_picture():
    name = "Archibald Featherstonehaugh-Montmorency"
    svg = str(charts.rating_chart(series={name: [0.0, 2.0], "ann": [0.0, -1.0]}))

    legend = re.findall(r'<text class="legend-name" x="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    width = float(re.search(r'<svg[^>]*width="([\d.]+)"', svg).group(1))
    assert name in [text for _, text in legend]
    x = float(next(x for x, text in legend if text == name))
    assert x + len(name) * charts.CHAR_WIDTH <= width


def test_the_chart_has_labelled_axes():
    svg = str(charts.rating_chart(series={"ann": [0.0, 1.0, 2.0]}))

    titles = re.findall(r'<text class="axis-title (x|y)"[^>]*>([^<]*)</text>', svg)
    assert dict(titles) == {"x": charts.X_TITLE, "y": charts.Y_TITLE}


LINE = re.compile(
    r'<polyline fill="none" stroke="([^"]+)" stroke-width="2"'
    r'(?: stroke-dasharray="([^"]+)")?(?: stroke-dashoffset="([^"]+)")? points="[^"]*"><title>([^<]*)</title>'
)


def _lines(svg: str) -> dict[str, tuple[str, str, str]]:
    """Each polyline's (colour, dash pattern, dash offset), by the name in its tooltip, in drawing order."""
    return {name: (colour, dash, offset) for colour, dash, offset, name in LINE.findall(svg)}


def test_players_with_the_same_ratings_have_lines_that_still_look_different():
    """Nine players after one game each: three ratings, three lines drawn three times over; no two
    lines share both colour and dash pattern, and the coinciding ones differ in their dashes."""
    names = [f"Bot {n}" for n in range(1, 10)]
    series = {name: [0.0, [3.3, 1.5, -2.8][i % 3]] for i, name in enumerate(names)}

    lines = _lines(str(charts.rating_chart(series=series)))

    assert sorted(lines) == sorted(names)
    assert len({(colour, dash) for colour, dash, _ in lines.values()}) == len(names)
    for same in ([n for i, n in enumerate(names) if i % 3 == k] for k in range(3)):
        assert len({lines[n][1] for n in same}) == len(same)


def test_coinciding_lines_are_drawn_solid_first_and_one_pattern_half_a_period_apart():
    """Six players with one history: the solid lines go under the dashed ones (else a solid line drawn
    last would hide every line below it), and the two lines with the same pattern start it half a
    period apart, so both colours show."""
    names = [f"p{n}" for n in range(6)]
    lines = _lines(str(charts.rating_chart(series={name: [0.0, 1.0] for name in names})))

    order = list(lines)
    assert {order[0], order[1]} == {"p0", "p4"}  # index 0 and 4: the solid pattern
    assert lines["p1"][1] == lines["p5"][1] == charts.DASHES[1]
    period = sum(float(n) for n in charts.DASHES[1].split())
    offsets = {float(lines[n][2] or 0) for n in ("p1", "p5")}
    assert offsets == {0.0, period / 2}


def test_the_legend_shows_each_line_as_it_is_drawn():
    svg = str(charts.rating_chart(series={n: [0.0, 1.0] for n in ("ann", "bob", "cy", "dee", "eve", "fay")}))

    samples = re.findall(
        r'<line class="legend-line"[^>]* stroke="([^"]+)" stroke-width="2"'
        r'(?: stroke-dasharray="([^"]+)")?(?: stroke-dashoffset="([^"]+)")?/>',
        svg,
    )
    names = re.findall(r'<text class="legend-name"[^>]*>([^<]*)</text>', svg)
    assert names == ["ann", "bob", "cy", "dee", "eve", "fay"]  # the legend keeps the series' order
    assert dict(zip(names, samples, strict=True)) == _lines(svg)


def test_each_game_is_a_dot_with_the_rating_after_it():
    svg = str(charts.rating_chart(series={"ann": [0.0, 1.25, 2.0]}))

    assert re.findall(r"<circle [^>]*><title>([^<]*)</title></circle>", svg) == [
        "ann: 0.0 at the start",
        "ann: 1.2 after 1 game",
        "ann: 2.0 after 2 games",
    ]


def test_the_league_page_shows_the_organiser_as_organiser(client: Any, toy_league: Any, organiser: Any):
    html = client.get(f"/leagues/{toy_league.slug}/").content.decode()

    block = html.split('class="organisers"')[1].split("</p>")[0]
    assert (organiser.profile.name or organiser.username) in block
    assert '<span class="tag">organiser</span>' in block


def test_the_organiser_log_shows_sentences_not_codes(client: Any, toy_league: Any, organiser: Any):
    html = client.get(f"/leagues/{toy_league.slug}/").content.decode()

    log = html.split('class="audit-log"')[1].split("</ul>")[0]
    visible = re.sub(r"<[^>]+>", "", log)
    assert "created the league." in visible
    assert "league_created" not in visible


@pytest.mark.parametrize(
    ("action", "detail", "sentence"),
    [
        (
            "round_started",
            {"season": 1, "round": 2, "tables": 3},
            "Boss started round 2 of season 1 (3 tables).",
        ),
        ("deadline_extended", {"seat": 1, "hours": 24}, "Boss gave seat 1 24 more hours."),
        ("member_declined", {"user": "secret-applicant"}, "Boss declined a request to join."),
        ("members_emailed", {"subject": "private", "recipients": 4}, "Boss e-mailed the members."),
        ("seat_to_bot", {"seat": 2}, "Boss handed seat 2 to the bot."),
        ("result_confirmed", {"how": "organiser"}, "Boss confirmed the result."),
        ("result_reopened", {}, "Boss reopened the result."),
        ("result_adjudicated", {"places": {"0": 1, "1": 2}}, "Boss gave the result by adjudication."),
        (
            "substitute_offered",
            {"seat": 1, "previous": "ann", "previous_name": "Ann", "newcomer": "bo", "newcomer_name": "Bo"},
            "Boss offered seat 1 to Bo in place of Ann.",
        ),
        ("substitute_declined", {"seat": 1, "newcomer": "boss"}, "Boss declined the offer of seat 1."),
        (
            "member_below_reliability",
            {"user": "wren", "on_time": 61, "minimum": 80},
            "Boss found wren below the league's minimum reliability.",
        ),
    ],
)
def test_each_organiser_action_reads_as_a_sentence(toy_league: Any, action: str, detail: dict, sentence: str):
    boss = UserFactory(username="boss")
    boss.profile.display_name = "Boss"
    boss.profile.save()
    entry = AuditLog.objects.create(league=toy_league, actor=boss, action=action, detail=detail)

    assert audit_sentence(entry) == sentence


def test_every_action_a_league_records_has_its_sentence() -> None:
    """Each ``audit(action=...)`` of the leagues' code reads as a sentence, not as its code."""
    recorded = set()
    for path in Path(auditlog.__file__).parent.rglob("*.py"):
        recorded |= set(re.findall(r'action="([a-z_]+)"', path.read_text()))
        recorded |= {
            a for pair in re.findall(r'"([a-z_]+)" if on else "([a-z_]+)"', path.read_text()) for a in pair
        }

    assert recorded and recorded <= set(auditlog.SENTENCES), sorted(recorded - set(auditlog.SENTENCES))


def test_a_name_keeps_its_own_case_at_the_start_of_a_sentence(toy_league: Any):
    entry = AuditLog.objects.create(
        league=toy_league, actor=UserFactory(username="demo"), action="league_created"
    )

    assert audit_sentence(entry) == "demo created the league."


def test_a_result_final_at_the_end_of_its_confirmation_period_is_said_so(toy_league: Any):
    entry = AuditLog.objects.create(
        league=toy_league, actor=None, action="result_confirmed", detail={"how": "period_ended"}
    )

    assert audit_sentence(entry) == "The result became final: nobody objected within its confirmation period."


def test_an_entry_of_the_schedule_is_said_so(toy_league: Any):
    entry = AuditLog.objects.create(
        league=toy_league, actor=None, action="round_started", detail={"season": 1, "round": 1, "tables": 2}
    )

    assert audit_sentence(entry) == "The schedule started round 1 of season 1 (2 tables)."


def test_the_organiser_log_reads_in_the_readers_language(toy_league: Any):
    entry = AuditLog.objects.create(
        league=toy_league, actor=None, action="round_started", detail={"season": 1, "round": 2, "tables": 3}
    )

    with translation.override("zh-hans"):
        assert audit_sentence(entry) == "赛程开始了第1赛季第2轮（3桌）。"


@pytest.mark.parametrize(("engine", "name"), [("baobei", "Bao Bei"), ("baohuang", "Bao Huang")])
def test_league_pages_name_the_game_not_its_engine(client: Any, organiser: Any, engine: str, name: str):
    league = services.league_create(creator=organiser, name="Evening club", game=engine, players_per_table=5)

    detail = re.sub(r"<[^>]+>", "", client.get(f"/leagues/{league.slug}/").content.decode())
    listing = re.sub(r"<[^>]+>", "", client.get("/leagues/").content.decode())
    assert f"{name} · tables of 5" in detail
    assert "Evening club" in listing and f"{name} · tables of 5" in listing


def test_the_leagues_page_gives_each_leagues_members_season_and_my_part(
    toy_league: Any, members: list[Any], organiser: Any
) -> None:
    seasons.season_create(league=toy_league, by=organiser, rounds=2)
    other = services.league_create(
        creator=UserFactory(), name="Quiet club", game="baobei", players_per_table=3
    )
    services.membership_request(league=other, user=members[0])

    def row(client: Client, slug: str) -> list[str]:
        page = client.get("/leagues/").content.decode()
        cells = page.split(f'data-league="{slug}"')[1].split("</tr>")[0]
        return [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in re.split(r"</t[hd]>", cells)][:6]

    me = Client()
    me.force_login(members[0])
    boss = Client()
    boss.force_login(organiser)

    assert row(me, toy_league.slug)[3:] == ["6", "Season 1 · Scheduled", "member"]
    assert row(me, other.slug)[3:] == ["0", "No season yet.", "asked to join"]
    assert row(boss, toy_league.slug)[2:] == ["Daily", "6", "Season 1 · Scheduled", "organiser"]
    assert row(Client(), toy_league.slug)[5] == ""
