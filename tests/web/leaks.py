"""Read the drawn cards of a game page and compare them with what the seat may know.

Every card a page draws is an element with ``data-zone`` and, only when its face is shown, a
``data-card`` code (``apps/games/templatetags/game_cards.py``). These helpers collect those elements
and check them against ``engine.view(state, seat)`` and the seat's visible events.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from baogame.rules.baobei.cards import CARDS as BIRDS


@dataclass
class Card:
    zone: str
    code: str | None
    pos: str | None
    seat: str | None
    classes: set[str]


class _Cards(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cards: list[Card] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        if "card" in classes and "data-zone" in a:
            self.cards.append(
                Card(a["data-zone"] or "", a.get("data-card"), a.get("data-pos"), a.get("data-seat"), classes)
            )


def drawn_cards(html: str) -> list[Card]:
    """Every card element of a page."""
    parser = _Cards()
    parser.feed(html)
    return parser.cards


def _codes_in(obj: Any, vocabulary: set[str]) -> set[str]:
    text = json.dumps(obj)
    return {code for code in vocabulary if f'"{code}"' in text}


#: Where a Bao Bei page may draw cards.
BAOBEI_ZONES = {"display", "drawn", "discard", "draw", "decision", "reveal"}


def _occupied(displays: list[list[str | None]]) -> dict[str, str]:
    """``{"seat.slot": code}`` for every occupied slot of a round's displays."""
    return {f"{s}.{k}": code for s, d in enumerate(displays) for k, code in enumerate(d) if code is not None}


def check_baobei_page(html: str, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Assert that a Bao Bei page shows exactly the faces ``view`` names, and names no other card.

    * each display position is drawn once: empty, face down (no code) or with the code the view gives;
    * drawn cards and the discard top are those of the view; decision cards are in the view's decision;
    * the "last round" reveal (zone ``reveal``) is exactly the displays of the last ``round_ended``
      event among the seat's events (BB-25.7, public once the round is over), and absent before one;
      once the game is over the displays themselves are that event's, face up;
    * every bird named anywhere on the page (code or name) occurs in the view or the seat's events.
    """
    cards = drawn_cards(html)
    display = {c.pos: c for c in cards if c.zone == "display"}
    ended = next((e for e in reversed(events) if e["type"] == "round_ended"), None)
    # Once the game is over the board shows the final displays face up, exactly as the last (public)
    # round_ended event revealed them (BB-14.1); until then, exactly what the view names.
    displays = ended["displays"] if view["over"] and ended is not None else view["displays"]
    expected = {f"{s}.{k}": card for s, d in enumerate(displays) for k, card in enumerate(d)}
    assert len(display) == len([c for c in cards if c.zone == "display"]), "a position drawn twice"
    assert set(display) == set(expected), "display positions differ from the view"
    for pos, card in expected.items():
        shown = display[pos]
        if card is None:
            assert "empty" in shown.classes and shown.code is None, f"{pos} should be empty"
        elif card == "?":
            assert shown.code is None and "back" in shown.classes, f"{pos} shows a face the seat has not seen"
        else:
            assert shown.code == card, f"{pos} should show {card}"
    assert Counter(c.code for c in cards if c.zone == "drawn") == Counter(
        None if c == "?" else c for c in view["drawn"]
    )
    discard = [c.code for c in cards if c.zone == "discard"]
    assert discard == (view["discard"][-1:] if view["discard"] else [])
    decision_codes = _codes_in(view.get("decision"), set(BIRDS))
    for c in cards:
        if c.zone == "decision":
            assert c.code in decision_codes | set(view["discard"][-1:]), (
                f"decision card {c.code} not in the view"
            )
        assert c.zone in BAOBEI_ZONES, f"unknown zone {c.zone}"
    revealed = {} if ended is None else _occupied(ended["displays"])
    assert {c.pos: c.code for c in cards if c.zone == "reveal"} == revealed, (
        "the reveal differs from the last round_ended event the seat has seen"
    )
    assert len([c for c in cards if c.zone == "reveal"]) == len(revealed), "a revealed card drawn twice"
    allowed = _codes_in(view, set(BIRDS)) | _codes_in(events, set(BIRDS))
    for code, meta in BIRDS.items():
        if code not in allowed:
            assert f'data-card="{code}"' not in html and meta["name"] not in html, (
                f"the page names {code}, which this seat has never been shown"
            )


def check_baohuang_page(html: str, view: dict[str, Any], seat: int | None) -> None:
    """Assert that a Bao Huang page shows my hand exactly and no card of another hand.

    Hands are drawn only for their owner; the trick, the top, my tribute cards and the revealed hands
    of the last deal are those of the view; no other card faces appear.
    """
    cards = drawn_cards(html)
    hand = [c for c in cards if c.zone == "hand"]
    if seat is None:
        assert hand == [], "a spectator sees a hand"
    else:
        assert {c.seat for c in hand} <= {str(seat)}, "another seat's hand is drawn"
        assert Counter(c.code for c in hand) == Counter(view["hand"]), "my hand differs from my view"
    top = view.get("top")
    assert Counter(c.code for c in cards if c.zone == "top") == Counter(top["cards"] if top else [])
    trick = Counter(code for e in view["trick"] for code in (e.get("cards") or []))
    assert Counter(c.code for c in cards if c.zone == "trick") == trick
    tribute = view.get("tribute") or {}
    mine = Counter((tribute.get("owed_cards") or []) + (tribute.get("received_cards") or []))
    assert not Counter(c.code for c in cards if c.zone == "tribute") - mine, "tribute cards of another seat"
    last = view.get("last_deal")
    revealed = Counter(code for h in (last["hands"] if last else []) for code in h)
    assert Counter(c.code for c in cards if c.zone == "reveal") == revealed
    for c in cards:
        assert c.zone in {"hand", "top", "trick", "tribute", "reveal"}, f"unknown zone {c.zone}"
