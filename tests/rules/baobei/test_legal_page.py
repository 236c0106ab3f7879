"""``legal_page`` (the API's page of legal actions) equals slicing ``legal_actions`` (BB-25.5 2, BB-22).

Bao Bei's double plucks are counted, not built, so the count must match the list exactly: own and
others' targets, gifts from the spare slots, and targets protected by the BAO caller's shield (BB-11.6).
"""

from __future__ import annotations

import random

from baogame.rules.baobei.bots import BOTS
from baogame.rules.baobei.state import occupied, protected

from .helpers import E

PAGES = [(0, 1), (0, 30), (7, 5), (25, 200), (10_000, 5)]


def _check(st: dict, seat: int) -> None:
    full = E.legal_actions(st, seat)
    for offset, limit in PAGES:
        assert E.legal_page(st, seat, offset, limit) == (len(full), full[offset : offset + limit])
    tail = max(0, len(full) - 3)
    assert E.legal_page(st, seat, tail, 10) == (len(full), full[tail:])  # across plucks and the rest


def test_legal_page_matches_legal_actions_in_random_games_bb_25_5() -> None:
    checked = shielded = 0
    for game in range(14):
        rng = random.Random(f"page:{game}")
        n = 2 + game % 5  # 2-6 players
        st = E.setup(n, {"threshold": rng.choice([5, 12, 25]), "memory_aid": True}, f"page{game}")
        while pending := E.pending(st):
            decision = pending[0]
            seat = rng.choice(decision["seats"])
            plucking = decision["kind"] in ("after_draw", "pluck_window")
            if plucking and rng.random() < 0.3 or rng.random() < 0.02:
                _check(st, seat)
                checked += 1
                shielded += any(
                    protected(st, s, seat) and occupied(st, s) for s in st["participants"] if s != seat
                )
            bot = BOTS["random"] if rng.random() < 0.7 else BOTS["memory"]
            st, _ = E.apply(st, seat, bot(E.view(st, seat), rng))
    assert checked > 150
    assert shielded > 0, "no shielded display was met: the protected case went untested"


def test_a_seat_without_an_open_decision_has_an_empty_page() -> None:
    st = E.setup(3, E.default_options(3), "empty-page")
    owners = set(E.pending(st)[0]["seats"])
    outsider = next(s for s in range(3) if s not in owners) if len(owners) < 3 else None
    if outsider is None:  # the setup peek is everyone's: play it out first
        for s in range(3):
            st, _ = E.apply(st, s, E.legal_actions(st, s)[0])
        outsider = next(s for s in range(3) if s not in E.pending(st)[0]["seats"])

    assert E.legal_page(st, outsider, 0, 30) == (0, [])
