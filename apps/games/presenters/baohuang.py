"""Bao Huang board data from a seat's view (BH-23): my hand, the trick, roles, scores, my decision."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, pgettext, pgettext_lazy

from baogame.rules.baohuang.cards import CODES, NAMES, STRENGTH
from baogame.rules.baohuang.text import deal_progress_text
from baogame.rules.baohuang.viewtext import outcome_text
from baogame.rules.text import COMMA, join, text

from .. import rulebook
from ..sentences import localize
from .common import BoardInput, button, length_field, score_rows
from .fields import flag_field, int_field

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TEMPLATE = "games/boards/baohuang.html"
DECISION_TEMPLATE = "games/boards/baohuang_decision.html"
#: No action commits anything beyond itself.
COMMITS_END_TURN = False
#: How the game page tells anyone to recompute the shuffles from the seed (``revealed``: it is out).
SEED_TEMPLATE = "games/boards/baohuang_seed.html"
#: No settings of a seat's own on the game page.
SEAT_SETTINGS_TEMPLATE: str | None = None
#: The vacation banner's sentence (the game has no plucking windows to pass).
AWAY_TEXT: StrOrPromise = gettext_lazy("Your clocks in this game are stopped; the others see you as away.")
#: Quick-play buttons (the legal plays) are offered only in these decisions.
QUICK_PLAY_KINDS = {"turn"}
#: The section of the Bao Huang rules page for each decision kind (BH-18.1).
SECTIONS = {"tribute": "tribute", "turn": "play"}

ACTION_LABELS = {
    "keep_emperor": gettext_lazy("Keep the marked red joker (become emperor)"),
    "pass_emperor": gettext_lazy("Pass it on"),
    "declare_alone": gettext_lazy("Announce: I play alone (doubles)"),
    "no_declaration": gettext_lazy("No declaration"),
    "give_tribute": gettext_lazy("Give my tribute"),
}
DECLARATIONS = {
    "alone": gettext_lazy("plays alone"),
    "support": gettext_lazy("supports the emperor"),
    "oppose": gettext_lazy("opposes the emperor"),
    "none": gettext_lazy("no declaration"),
}
#: The phases of BH-23 as the board names them.
PHASES = {
    "tribute": pgettext_lazy("Bao Huang phase", "tribute"),
    "offer": pgettext_lazy("Bao Huang phase", "emperor offer"),
    "declare": pgettext_lazy("Bao Huang phase", "declarations"),
    "play": pgettext_lazy("Bao Huang phase", "play"),
    "over": pgettext_lazy("Bao Huang phase", "over"),
}
#: Quick-play buttons are offered when the legal plays are this few (otherwise: pick cards).
MAX_QUICK_PLAYS = 24
#: The cards' names on buttons, in the reader's language (``NAMES`` are the engine's English ones).
CARD_WORDS = {
    "6": pgettext_lazy("Bao Huang card", "six"),
    "7": pgettext_lazy("Bao Huang card", "seven"),
    "8": pgettext_lazy("Bao Huang card", "eight"),
    "9": pgettext_lazy("Bao Huang card", "nine"),
    "10": pgettext_lazy("Bao Huang card", "ten"),
    "J": pgettext_lazy("Bao Huang card", "jack"),
    "Q": pgettext_lazy("Bao Huang card", "queen"),
    "K": pgettext_lazy("Bao Huang card", "king"),
    "A": pgettext_lazy("Bao Huang card", "ace"),
    "2": pgettext_lazy("Bao Huang card", "two"),
    "BJ": pgettext_lazy("Bao Huang card", "black joker"),
    "BJ*": pgettext_lazy("Bao Huang card", "marked black joker"),
    "RJ": pgettext_lazy("Bao Huang card", "red joker"),
    "RJ*": pgettext_lazy("Bao Huang card", "marked red joker"),
}
#: Plural names of the ranks, for sentences like "two kings" (a marked joker is never plural).
PLURAL_WORDS = {
    "6": pgettext_lazy("Bao Huang cards", "sixes"),
    "7": pgettext_lazy("Bao Huang cards", "sevens"),
    "8": pgettext_lazy("Bao Huang cards", "eights"),
    "9": pgettext_lazy("Bao Huang cards", "nines"),
    "10": pgettext_lazy("Bao Huang cards", "tens"),
    "J": pgettext_lazy("Bao Huang cards", "jacks"),
    "Q": pgettext_lazy("Bao Huang cards", "queens"),
    "K": pgettext_lazy("Bao Huang cards", "kings"),
    "A": pgettext_lazy("Bao Huang cards", "aces"),
    "2": pgettext_lazy("Bao Huang cards", "twos"),
    "BJ": pgettext_lazy("Bao Huang cards", "black jokers"),
    "RJ": pgettext_lazy("Bao Huang cards", "red jokers"),
}
NUMBER_WORDS = {
    2: pgettext_lazy("how many cards", "two"),
    3: pgettext_lazy("how many cards", "three"),
    4: pgettext_lazy("how many cards", "four"),
    5: pgettext_lazy("how many cards", "five"),
    6: pgettext_lazy("how many cards", "six"),
    7: pgettext_lazy("how many cards", "seven"),
    8: pgettext_lazy("how many cards", "eight"),
}
#: How to pick a play in a turn, by the number of plays (BH-10, BH-11).
HINTS = {
    "lead_one": gettext_lazy(
        "You lead: 1 possible play: pick cards in your hand (the highlighted cards make it), "
        "then press “Play the selected cards”, or use a quick play."
    ),
    "beat_one": gettext_lazy(
        "1 play beats the top: pick cards in your hand (the highlighted cards make it), "
        "then press “Play the selected cards”, or use a quick play."
    ),
    "lead_quick": gettext_lazy(
        "You lead: %(count)s possible plays: pick cards in your hand (the highlighted cards can make one), "
        "then press “Play the selected cards”, or use a quick play."
    ),
    "lead": gettext_lazy(
        "You lead: %(count)s possible plays: pick cards in your hand (the highlighted cards can make one), "
        "then press “Play the selected cards”."
    ),
    "beat_quick": gettext_lazy(
        "%(count)s plays beat the top: pick cards in your hand (the highlighted cards can make one), "
        "then press “Play the selected cards”, or use a quick play."
    ),
    "beat": gettext_lazy(
        "%(count)s plays beat the top: pick cards in your hand (the highlighted cards can make one), "
        "then press “Play the selected cards”."
    ),
}
#: What playing a marked joker tells the table (BH-14), said on every button that plays one.
MARKED_NOTES = {
    "BJ*": gettext_lazy("BJ* is the partner card: playing it shows everyone your role"),
    "RJ*": gettext_lazy("RJ* is the emperor's card"),
}


def _cards_in_words(cards: list[str]) -> str:
    """``["K", "K", "BJ*"]`` as "two kings and the marked black joker", high cards last."""
    parts = []
    for code in CODES:
        n = cards.count(code)
        if not n:
            continue
        name = CARD_WORDS[code]
        if code.endswith("*"):
            parts.append(pgettext("one card", "the %(card)s") % {"card": name})
        elif n == 1:
            # The English article follows the English name's sound.
            vowel = NAMES[code][0] in "aeiou"
            single = pgettext("one card", "an %(card)s") if vowel else pgettext("one card", "a %(card)s")
            parts.append(single % {"card": name})
        else:
            number = NUMBER_WORDS.get(n) or pgettext("how many cards", "%(count)s") % {"count": n}
            parts.append(_("%(number)s %(cards)s") % {"number": number, "cards": PLURAL_WORDS[code]})
    if len(parts) == 1:
        return parts[0]
    head = pgettext("list separator", ", ").join(parts[:-1])
    return _("%(cards)s and %(last)s") % {"cards": head, "last": parts[-1]}


def play_label(cards: list[str], verb: str = "Play") -> str:
    """A button's words for playing (or giving) ``cards``: what it plays, in words and in codes.

    A marked joker is always named as such, with what it means (BH-2.5, BH-14): no button plays one
    without saying so.
    """
    codes = " ".join(sorted(cards, key=lambda c: (STRENGTH[c], c.endswith("*"))))
    notes = [str(MARKED_NOTES[c]) for c in MARKED_NOTES if c in cards]
    warning = f" ⚠ {'; '.join(notes)}" if notes else ""
    words = {"cards": _cards_in_words(cards), "codes": codes}
    if verb == "Give":
        return _("Give %(cards)s (%(codes)s)") % words + warning
    return _("Play %(cards)s (%(codes)s)") % words + warning


def _label(action: dict[str, Any]) -> str:
    if action["type"] == "pledge":
        return _("Pledge support for the emperor") if action["side"] == "support" else _("Pledge opposition")
    if action["type"] == "give_tribute":
        return play_label(action["cards"], verb="Give")
    return str(ACTION_LABELS.get(action["type"], action["type"].replace("_", " ")))


def _declaration(key: str | None) -> str | None:
    return str(DECLARATIONS.get(key, key)) if key else None


def sorted_hand(hand: list[str]) -> list[str]:
    """A hand from the weakest card to the strongest, a marked joker after its plain twin."""
    return sorted(hand, key=lambda c: (STRENGTH[c], c.endswith("*")))


def face_up_view(*, spectator: dict[str, Any], referee: dict[str, Any]) -> dict[str, Any]:
    """The spectator's view with the roles known (a game that is over: BH-23.5's secrets are out)."""
    return {
        **spectator,
        "partner": referee["partner"],
        "alone": referee["alone"],
        "partner_public": True,
    }


def face_up_cards(*, referee: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """What a face-up replay shows beside the board: every hand, ``{"name", "position", "cards"}``."""
    hands = [
        {"name": names[s], "position": s, "cards": sorted_hand(cards)}
        for s, cards in enumerate(referee["hands"])
    ]
    return {"hands": hands}


def wants_legal(decision: dict[str, Any]) -> bool:
    """The seat's legal plays become quick-play buttons in a turn (few enough: ``MAX_QUICK_PLAYS``)."""
    return decision.get("kind") in QUICK_PLAY_KINDS


def present(board: BoardInput) -> dict[str, Any]:
    """Template data for a Bao Huang board as ``seat`` sees it; ``legal``: my legal plays, if wanted."""
    view, seat, names, legal = board.view, board.seat, board.names, board.legal
    hand = view.get("hand")
    finished = view["finished"]
    top = view.get("top")
    declarations = view.get("declarations") or [None] * 5
    guesses = view.get("guesses") or [None] * 5
    order = list(range(5)) if seat is None else [(seat + i) % 5 for i in range(5)]
    seats = []
    for s in order:
        guess = guesses[s]
        seats.append(
            {
                "position": s,
                "name": names[s],
                "is_me": s == seat,
                "count": view["counts"][s],
                "turn": s == view.get("turn"),
                "leader": s == view.get("leader"),
                "emperor": s == view["emperor"],
                "partner": view["partner"] is not None and s == view["partner"] and not view.get("alone"),
                "place": finished.index(s) + 1 if s in finished else None,
                "declaration": _declaration(declarations[s]),
                "guess": None
                if guess is None
                else names[guess["target"] if isinstance(guess, dict) else guess],
            }
        )
    scores = score_rows(view, seat, names, 5)
    trick = [
        {
            "name": names[e["seat"]],
            "cards": e.get("cards"),
            "pass": e.get("type") == "pass" or not e.get("cards"),
            "no_beat_request": e.get("no_beat_request", False),
        }
        for e in view.get("trick", [])
        if isinstance(e, dict) and "seat" in e
    ]
    last = view.get("last_deal")
    return {
        "template": TEMPLATE,
        "decision_template": DECISION_TEMPLATE,
        "seats": seats,
        "hand": None if hand is None else sorted_hand(hand),
        "top": None
        if top is None
        else {
            "cards": top["cards"],
            "name": names[top["seat"]],
            "no_beat_request": top.get("no_beat_request", False),
        },
        "trick": trick,
        "deal": view["deal"],
        "deal_text": localize(deal_progress_text(view)),
        "deal_limit": view.get("deal_limit"),
        "phase": view["phase"],
        "phase_text": str(PHASES.get(view["phase"], view["phase"])),
        "emperor": None if view["emperor"] is None else names[view["emperor"]],
        "partner": _partner_text(view, names),
        "multiplier": view["multiplier"],
        "target_score": view.get("target_score"),
        "tribute": _tribute(view.get("tribute"), names),
        "finished": [names[s] for s in finished],
        "scores": scores,
        "has_round_scores": view.get("round_scores") is not None,
        "last_deal": None
        if last is None
        else {
            "deal": last["deal"],
            "result": outcome_text(str(last["result"]), bool(last["alone"])),
            "multiplier": last["multiplier"],
            "emperor": names[last["emperor"]],
            "partner": pgettext("the emperor's partner", "alone")
            if last["alone"]
            else names[last["partner"]],
            "hands": [
                {"name": names[s], "position": s, "cards": h} for s, h in enumerate(last["hands"]) if h
            ],
        },
        "over": view["over"],
        "winners": [names[w] for w in view["winners"]],
        "decision": _decision(view, seat, names, legal) if view.get("decision") else None,
        "guess_seats": _guess_seats(view, seat, names),
        "hand_picks": _hand_picks(hand, board.posted),
        "no_beat_request_again": bool(
            board.posted and board.posted.get("type") == ["play"] and board.posted.get("no_beat_request")
        ),
    }


def _hand_picks(hand: list[str] | None, posted: dict[str, list[str]] | None) -> list[dict[str, Any]]:
    """The hand's cards for the play form, those of my own refused play ticked again (as many of a
    code as it sent); only cards of my hand are ticked, so nothing posted is printed."""
    left = Counter(posted.get("cards", [])) if posted and posted.get("type") == ["play"] else Counter()
    picks = []
    for code in hand or []:
        picks.append({"code": code, "checked": left[code] > 0})
        left[code] -= 1
    return picks


def _tribute(tribute: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    """BH-23.3: who gives and who receives how many cards, by name, and who has given or received
    (public); the seat's own cards as its view has them: owed until given, then given; received."""
    if tribute is None:
        return None

    def side(counts: list[int], done: list[Any], did: str, does: str) -> list[Any]:
        """Each seat of one side with its count of cards: what it did, or does still."""
        return [
            text(did if done[s] is not None else does, seat=names[s], count=n)
            for s, n in enumerate(counts)
            if n
        ]

    moves = side(
        tribute["owed"],
        tribute["given"],
        gettext_noop("%(seat)s has given %(count)s"),
        gettext_noop("%(seat)s gives %(count)s"),
    ) + side(
        tribute["allot"],
        tribute["received"],
        gettext_noop("%(seat)s has received %(count)s"),
        gettext_noop("%(seat)s receives %(count)s"),
    )
    return {
        "text": localize(text(gettext_noop("Tribute: %(moves)s."), moves=join(moves, COMMA))),
        "owed_cards": None if tribute["given_cards"] else tribute["owed_cards"],
        "given_cards": tribute["given_cards"],
        "received_cards": tribute["received_cards"],
    }


def _partner_text(view: dict[str, Any], names: list[str]) -> str | None:
    """BH-23.5/23.6: the partner as this seat knows it."""
    if view["emperor"] is None:
        return None
    if view.get("alone"):
        return _("none: the emperor plays alone")
    if view["partner"] is None:
        return pgettext("the emperor's partner", "unknown")
    return names[view["partner"]]


def _guess_seats(view: dict[str, Any], seat: int | None, names: list[str]) -> list[dict[str, Any]]:
    """BH-9: the seats I may guess, while the partner question is open."""
    if seat is None or view["phase"] not in {"declare", "play"} or view.get("partner_public"):
        return []
    if seat == view["emperor"]:
        return []
    return [{"value": s, "label": names[s]} for s in range(5) if s != seat]


def _decision(
    view: dict[str, Any], seat: int | None, names: list[str], plays: list[dict[str, Any]] | None
) -> dict[str, Any]:
    d = view["decision"]
    out: dict[str, Any] = {"kind": d["kind"], "allowed": d["allowed"], "buttons": [], "quick_plays": []}
    if d["kind"] == "turn":
        out["can_pass"] = "pass" in d["allowed"]
        if out["can_pass"]:
            out["buttons"].append(button(pgettext("button", "Pass"), {"type": "pass"}, style="quiet"))
        quick = [p for p in (plays or []) if p.get("type") == "play"]
        if 0 < len(quick) <= MAX_QUICK_PLAYS:
            out["quick_plays"] = [button(play_label(p["cards"]), p) for p in quick]
        out.update(_play_hint(quick, lead=not out["can_pass"], known=plays is not None))
    else:
        out["buttons"] = [button(_label(a), a) for a in d.get("actions", [])]
    return out


def _play_hint(plays: list[dict[str, Any]], *, lead: bool, known: bool) -> dict[str, Any]:
    """How many plays this seat has in a turn, the cards that are part of one, and how to pick them.

    Whatever the number of plays (quick-play buttons only when few), the box says that plays exist
    and which cards of the hand can make one, highlighted there (BH-10, BH-11)."""
    count = len(plays)
    usable = {c for p in plays for c in p["cards"]}
    quick = 0 < count <= MAX_QUICK_PLAYS
    if not known:
        text = _("Pick cards in your hand below, then press “Play the selected cards”.")
    elif count == 0:
        text = _("Nothing in your hand beats the top: pass.")
    elif count == 1:
        text = str(HINTS["lead_one" if lead else "beat_one"])
    else:
        key = ("lead" if lead else "beat") + ("_quick" if quick else "")
        text = str(HINTS[key]) % {"count": count}
    return {"play_count": count if known else None, "usable_cards": sorted(usable), "play_hint": text}


# --- the rules page -----------------------------------------------------------------------------------


def rules_page() -> tuple[str, dict[str, Any]]:
    """The rules page's template and the data it computes from the engine."""
    return "rules/baohuang.html", rulebook.baohuang_context()


def rules_section(decision: dict[str, Any]) -> str:
    """The anchor of the rules section that explains an open decision."""
    kind = decision.get("kind", "")
    if kind == "declare":
        allowed = decision.get("allowed") or []
        return "emperor" if "keep_emperor" in allowed else "declarations"
    return SECTIONS.get(kind, "play")


# --- forms --------------------------------------------------------------------------------------------


#: The create form's option fields (BH-25.1): a custom length's values (BH-3.2).
CREATE_FIELDS: dict[str, forms.Field] = {
    "target_score": length_field(
        gettext_lazy("Target score"),
        gettext_lazy("Bao Huang, custom length: the first to this total wins (empty: 30)."),
    ),
    "deal_limit": length_field(
        gettext_lazy("Deal limit"),
        gettext_lazy(
            "Bao Huang, custom length: the game ends after this many deals, the highest total "
            "winning; a shared lead plays another deal (BH-17.6). Empty: no limit."
        ),
    ),
}


def create_options(data: dict[str, Any]) -> dict[str, Any]:
    """The options (BH-25.1) of the create form's cleaned ``data``; unset ones take their defaults."""
    return {key: data[key] for key in ("target_score", "deal_limit") if data.get(key)}


def action_params(kind: str, data: QueryDict) -> dict[str, Any]:
    """The parameters of BH-20's action ``kind`` from form fields."""
    if kind in {"play", "give_tribute"}:
        out: dict[str, Any] = {"cards": data.getlist("cards")}
        if kind == "play" and flag_field(data, "no_beat_request"):
            out["no_beat_request"] = True
        return out
    if kind == "pledge":
        return {"side": data.get("side", "")}
    if kind == "guess_partner":
        return {"seat": int_field(data, "seat")}
    return {}


def add_posted_flags(action: dict[str, Any], data: QueryDict) -> None:
    """No form box adds anything to a Bao Huang action."""
