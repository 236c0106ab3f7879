"""Keep one person's accounts apart at league tables: a member never plays their own bot account.

A bot account (``Profile.bot_owner``) is its owner's seat too (``apps.games.people``), so a table that
seats both would let one person play two hands. The pairing treats this as a hard constraint:

* ``forbidden_pairs`` names the pairs of members that are one person;
* ``weigh`` adds them to the planner's meeting history with a weight no spread of ordinary repeats
  can match, so the annealer seats them apart whenever any seating does;
* ``check_tables`` refuses a round whose tables still seat two accounts of one person: the planner
  could not keep them apart (e.g. four members at one table of four, two of them one person), and the
  organiser is told which accounts and what to change (``owner_at_own_table``, 409);
* ``division_problems`` finds, before a season's divisions are confirmed, a division where no round
  can ever start: one person with more accounts than the division has tables and byes
  (``owner_at_own_table``: say, an organiser alone with their own bot accounts), or too few members
  for one table (``division_too_small``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext, gettext_noop

from apps.accounts.models import display_name
from apps.games import people
from apps.games.errors import ServiceError

from .pairing import Pair, pair, table_sizes

#: The history weight of a forbidden pair: placing it adds about ``2 * WEIGHT`` to the planner's cost
#: (a sum of squared meeting counts), more than any season of ordinary repeats costs.
WEIGHT = 1000


def persons(member_ids: Sequence[int]) -> dict[int, int]:
    """Member id -> the id of the person behind the account (the bot owner, else the member)."""
    users = get_user_model().objects.filter(pk__in=member_ids).select_related("profile")
    return {u.pk: people.person_of(u) or u.pk for u in users}


def forbidden_pairs(member_ids: Sequence[int]) -> set[Pair]:
    """Pairs of members who are one person (a member and their bot account, or two of their bots)."""
    person = persons(member_ids)
    return {pair(a, b) for a, b in combinations(sorted(person), 2) if person[a] == person[b]}


def weigh(history: Counter[Pair], forbidden: set[Pair]) -> Counter[Pair]:
    """The meeting history with every forbidden pair made too costly to seat together."""
    weighted = Counter(history)
    for p in forbidden:
        weighted[p] += WEIGHT
    return weighted


def check_tables(tables: Sequence[Sequence[int]], forbidden: set[Pair]) -> None:
    """Refuse (``owner_at_own_table``) a round that seats two accounts of one person at one table."""
    for number, table in enumerate(tables, start=1):
        clash = sorted(pair(a, b) for a, b in combinations(table, 2) if pair(a, b) in forbidden)
        if clash:
            a, b = clash[0]
            users = get_user_model().objects.select_related("profile").in_bulk([a, b])
            raise ServiceError(
                "owner_at_own_table",
                f"the pairing cannot keep {display_name(users[a])} and {display_name(users[b])} apart "
                f"(one person's accounts) at table {number}: with these members every seating puts them "
                "together. Withdraw one of the two accounts, or add members, before starting the round.",
                status=409,
            )


#: Code -> the sentence that tells an organiser why no round can start in a division, and what to do.
PROBLEM_TEXTS = {
    "division_too_small": gettext_noop(
        "division %(division)s has %(members)s member(s) and a table needs at least %(smallest)s: no "
        "round can seat them. Move members into it or out of it."
    ),
    "owner_at_own_table": gettext_noop(
        "division %(division)s: %(accounts)s are one person's accounts, and its %(members)s members make "
        "%(tables)s table(s) and %(byes)s bye(s), so every round would seat them together. Move some "
        "of these accounts to another division, withdraw them, or add members."
    ),
}


@dataclass(frozen=True)
class DivisionProblem:
    """Why no round can start in a division: a stable ``code`` and the sentence's values."""

    division: int
    code: str
    params: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def detail(self) -> str:
        """The sentence in English (the refusal's message, the API's ``detail`` in English)."""
        return PROBLEM_TEXTS[self.code] % self.params

    @property
    def text(self) -> str:
        """The sentence in the reader's language (the organiser's proposal page)."""
        return gettext(PROBLEM_TEXTS[self.code]) % self.params


def division_problems(
    divisions: Mapping[int, Sequence[int]], *, size: int, smallest: int
) -> list[DivisionProblem]:
    """The divisions (member ids by division) where no round can ever start, with the reason.

    A person's accounts must sit at different tables or sit out (a bye), so a person with more
    accounts than the division has tables and byes is always seated with themselves; a division with
    members but fewer than a table's smallest size seats nobody. Empty divisions are no problem."""
    problems = []
    for division, members in sorted(divisions.items()):
        if not members:
            continue
        tables, byes = table_sizes(members=len(members), size=size, min_size=smallest)
        if not tables:
            problems.append(
                DivisionProblem(
                    division,
                    "division_too_small",
                    {"division": division, "members": len(members), "smallest": smallest},
                )
            )
            continue
        person = persons(members)
        users = get_user_model().objects.select_related("profile").in_bulk(list(members))
        for owner, count in sorted(Counter(person.values()).items()):
            if count < 2 or count <= len(tables) + byes:
                continue
            accounts = sorted(display_name(users[m]) for m in members if person[m] == owner)
            problems.append(
                DivisionProblem(
                    division,
                    "owner_at_own_table",
                    {
                        "division": division,
                        "accounts": ", ".join(accounts),
                        "members": len(members),
                        "tables": len(tables),
                        "byes": byes,
                    },
                )
            )
    return problems
