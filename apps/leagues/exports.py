"""A season's standings, rating history and game list as rows: CSV on the pages, JSON through the API.

Each export is a list of flat dicts with fixed ``COLUMNS``, so the CSV and the JSON carry the same
fields (``parse_csv`` reads a CSV back into the same rows, the round-trip the tests check). Everything
here is public to whoever may see the league: names, places, points, ratings, and for each game its
public id and result state; no card of any game.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import pgettext_lazy

from apps.accounts.models import display_name
from apps.games import reliability

from . import confirmation, selectors, standings
from .models import Fixture, League, RatingHistory, Season

STANDINGS_COLUMNS = (
    "rank",
    "username",
    "name",
    "games_played",
    "wins",
    "points",
    "score_total",
    "mu",
    "sigma",
    "rating",
    "provisional_games",
    "on_time_percent",
)
RATINGS_COLUMNS = ("counted", "game", "username", "name", "mu", "sigma", "rating")
GAMES_COLUMNS = ("round", "table", "game", "status", "result", "players", "places", "totals", "confirm_by")
#: The CSV's header line in the reader's language: English keeps the field names themselves (what the
#: JSON export and older files carry); ``parse_csv`` reads either back.
COLUMN_LABELS = {
    "rank": pgettext_lazy("CSV column", "rank"),
    "username": pgettext_lazy("CSV column", "username"),
    "name": pgettext_lazy("CSV column", "name"),
    "games_played": pgettext_lazy("CSV column", "games_played"),
    "wins": pgettext_lazy("CSV column", "wins"),
    "points": pgettext_lazy("CSV column", "points"),
    "score_total": pgettext_lazy("CSV column", "score_total"),
    "mu": pgettext_lazy("CSV column", "mu"),
    "sigma": pgettext_lazy("CSV column", "sigma"),
    "rating": pgettext_lazy("CSV column", "rating"),
    "provisional_games": pgettext_lazy("CSV column", "provisional_games"),
    "on_time_percent": pgettext_lazy("CSV column", "on_time_percent"),
    "counted": pgettext_lazy("CSV column", "counted"),
    "game": pgettext_lazy("CSV column", "game"),
    "round": pgettext_lazy("CSV column", "round"),
    "table": pgettext_lazy("CSV column", "table"),
    "status": pgettext_lazy("CSV column", "status"),
    "result": pgettext_lazy("CSV column", "result"),
    "players": pgettext_lazy("CSV column", "players"),
    "places": pgettext_lazy("CSV column", "places"),
    "totals": pgettext_lazy("CSV column", "totals"),
    "confirm_by": pgettext_lazy("CSV column", "confirm_by"),
}

#: Export name -> its columns (the URL names them).
KINDS = {"standings": STANDINGS_COLUMNS, "ratings": RATINGS_COLUMNS, "games": GAMES_COLUMNS}

#: Columns that read back as integers / floats from a CSV (everything else stays a string).
_INTS = {
    "rank",
    "games_played",
    "wins",
    "points",
    "score_total",
    "provisional_games",
    "round",
    "table",
    "counted",
}
_FLOATS = {"mu", "sigma", "rating"}


def standings_rows(season: Season) -> list[dict[str, Any]]:
    """The season's table, best first, with each player's provisional games and reliability."""
    table = selectors.season_standings(season=season)
    provisional = confirmation.provisional_players(season)
    records = reliability.records_for([row.user_id for row in table])
    return [
        {
            "rank": row.rank,
            "username": row.username,
            "name": row.name,
            "games_played": row.games_played,
            "wins": row.wins,
            "points": row.points,
            "score_total": row.score_total,
            "mu": round(row.mu, 6),
            "sigma": round(row.sigma, 6),
            "rating": row.rating,
            "provisional_games": provisional.get(row.user_id, 0),
            "on_time_percent": _blank(records[row.user_id].on_time_percent),
        }
        for row in table
    ]


def rating_rows(season: Season) -> list[dict[str, Any]]:
    """Every rating change of the season, in the order the results were counted (``counted`` = 1, 2, …)."""
    entries = RatingHistory.objects.filter(season=season).select_related("user__profile", "game")
    return [
        {
            "counted": index,
            "game": entry.game.public_id,
            "username": entry.user.get_username(),
            "name": display_name(entry.user),
            "mu": round(entry.mu, 6),
            "sigma": round(entry.sigma, 6),
            "rating": round(entry.rating, 6),
        }
        for index, entry in enumerate(entries, start=1)
    ]


def games_rows(season: Season) -> list[dict[str, Any]]:
    """The season's games by round and table: status, result state, players and places by seat."""
    from .standings import placements

    rows = []
    for fixture in _season_fixtures(season):
        game = fixture.game
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        places: dict[int, tuple[int, int]] = {}
        if game.result and game.status == game.Status.FINISHED:
            places = placements(result=game.result, engine=game.engine, players=game.players)
        rows.append(
            {
                "round": fixture.round.number,
                "table": fixture.table,
                "game": game.public_id,
                "status": game.status,
                "result": confirmation.result_state(fixture),
                "players": _join(s.label for s in seats),
                "places": _join(places[s.position][0] for s in seats if s.position in places),
                "totals": _join(places[s.position][1] for s in seats if s.position in places),
                "confirm_by": fixture.confirm_by.isoformat() if fixture.confirm_by else "",
            }
        )
    return rows


def rows(kind: str, season: Season) -> list[dict[str, Any]]:
    """The rows of one export (``KINDS``)."""
    return {"standings": standings_rows, "ratings": rating_rows, "games": games_rows}[kind](season)


def to_csv(kind: str, data: Iterable[dict[str, Any]]) -> str:
    """Rows as CSV text with a header line in the reader's language (RFC 4180 quoting)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=KINDS[kind], lineterminator="\r\n")
    writer.writerow({key: str(COLUMN_LABELS.get(key, key)) for key in KINDS[kind]})
    writer.writerows(data)
    return out.getvalue()


def parse_csv(kind: str, text: str) -> list[dict[str, Any]]:
    """Read an export's CSV back into rows (numbers as numbers, an empty cell as "")."""
    columns = KINDS[kind]
    labels = tuple(str(COLUMN_LABELS.get(key, key)) for key in columns)
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) not in (columns, labels):
        raise ValueError(f"not a {kind} export: columns {reader.fieldnames}")
    reader.fieldnames = list(columns)
    return [{k: _typed(k, v) for k, v in line.items()} for line in reader]


def results_open_to_organisers(*, league: League) -> list[Fixture]:
    """Provisional and reopened results of the league, for the organiser's confirm / reopen tools."""
    fixtures = (
        Fixture.objects.filter(
            round__season__league=league, counted_at__isnull=False, confirmed_at__isnull=True
        )
        .select_related("game", "round__season")
        .prefetch_related("game__seats__user__profile")
        .order_by("confirm_by", "pk")
    )
    out = []
    for fixture in fixtures:
        fixture.result_state = confirmation.result_state(fixture)  # type: ignore[attr-defined]
        if fixture.result_state in {confirmation.PROVISIONAL, confirmation.REOPENED}:  # type: ignore[attr-defined]
            fixture.placings = _placings(fixture.game)  # type: ignore[attr-defined]
            out.append(fixture)
    return out


def _placings(game: Any) -> list[dict[str, Any]]:
    """A finished game's seats best first: place, the seat's name on the pages, its game score."""
    places = standings.placements(result=game.result, engine=game.engine, players=game.players)
    labels = {seat.position: seat.label for seat in game.seats.all()}
    return [
        {"place": place, "name": labels.get(position, str(position)), "total": total}
        for position, (place, total) in sorted(places.items(), key=lambda item: (item[1][0], item[0]))
    ]


def _season_fixtures(season: Season) -> QuerySet[Fixture]:
    return (
        Fixture.objects.filter(round__season=season)
        .select_related("game", "round")
        .prefetch_related("game__seats__user__profile")
        .order_by("round__number", "table")
    )


def _join(values: Iterable[Any]) -> str:
    return "; ".join(str(v) for v in values)


def _blank(value: Any) -> Any:
    return "" if value is None else value


def _typed(column: str, value: str) -> Any:
    if value == "":
        return ""
    if column in _INTS or column == "on_time_percent":
        return int(value)
    if column in _FLOATS:
        return float(value)
    return value
