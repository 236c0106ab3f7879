"""Short sentences for events and decisions (history pages and email).

Each function uses only the fields of the dict it is given, so it never reveals more than the
event or decision itself (which the caller has already filtered by ``visible_to``).

Each sentence is a ``Text`` (``baogame.rules.text``): an English template marked for translation and
its parameters; ``describe_event``, ``describe_decision`` and ``deal_progress`` render it in English,
and the web layer renders ``event_text`` / ``decision_text`` / ``deal_progress_text`` in the reader's
language. Card codes (``K K BJ``) are the same in every language.
"""

from __future__ import annotations

from typing import Any

from ..text import COMMA, Plural, Text, join, n_, render, text
from ..text import gettext_noop as _


def seat_name(seat: Any) -> str:
    """``Seat 3`` (seats are shown 0-based, as everywhere in the rules)."""
    return render(_seat(seat))


def _seat(seat: Any) -> Text:
    return text(_("Seat %(seat)s"), seat=seat)


def cards_text(cards: list[str]) -> str:
    """``K K BJ``, or ``nothing`` for an empty list."""
    return render(_cards(cards))


def _cards(cards: list[str]) -> Text | str:
    return " ".join(cards) if cards else text(_("nothing"))


def deal_progress(view: dict[str, Any]) -> str:
    """The deal under way, from a view: ``Deal 2``; with a deal limit (BH-17.6, public) ``Deal 2 of 3``,
    and past it, when the lead was shared at the limit (BH-17.3), ``Deal 4 (extra: the lead was shared
    after 3)``."""
    return render(deal_progress_text(view))


def deal_progress_text(view: dict[str, Any]) -> Text:
    """The words of ``deal_progress``, to be rendered in any language."""
    limit = view.get("deal_limit")
    if not limit:
        return text(_("Deal %(deal)s"), deal=view.get("deal"))
    played = view.get("deals_played") or view.get("deal")
    if isinstance(played, int) and played > limit:
        return text(_("Deal %(deal)s (extra: the lead was shared after %(limit)s)"), deal=played, limit=limit)
    return text(_("Deal %(deal)s of %(limit)s"), deal=played, limit=limit)


#: A declaration (BH-8), as the whole sentence: who declares what, and whether it was by timeout.
DECLARATION = {
    "alone": (_("%(seat)s announces playing alone."), _("%(seat)s announces playing alone (by timeout).")),
    "support": (
        _("%(seat)s pledges support for the emperor."),
        _("%(seat)s pledges support for the emperor (by timeout)."),
    ),
    "oppose": (
        _("%(seat)s pledges opposition to the emperor."),
        _("%(seat)s pledges opposition to the emperor (by timeout)."),
    ),
    "none": (_("%(seat)s makes no declaration."), _("%(seat)s makes no declaration (by timeout).")),
}

#: How a deal ended for the emperor's side (``deal_ended``'s ``result``).
RESULT = {"won": _("won"), "lost": _("lost"), "drawn": _("drew"), "draw": _("drew")}


def describe_event(event: dict[str, Any]) -> str:
    """One sentence describing an event of BH-24."""
    return render(event_text(event))


def _timed(e: dict[str, Any], plain: str | Plural, timed: str | Plural, **params: Any) -> Text:
    """``plain``, or ``timed`` (the same sentence with "(by timeout)") when the action was a timeout's."""
    return text(timed if e.get("by_timeout") else plain, **params)


def _told_face_up(e: dict[str, Any]) -> Text | None:
    """A private event's sentence in the third person, for a reader who is not its seat; None for any
    other event (its usual sentence names its seats already)."""
    t = e.get("type")
    if t == "hand_dealt":
        return text(
            _("%(seat)s is dealt %(count)s cards: %(cards)s."),
            seat=_seat(e["seat"]),
            count=len(e["cards"]),
            cards=_cards(e["cards"]),
        )
    if t == "tribute_owed":
        return text(
            _("%(seat)s owes as tribute: %(cards)s."), seat=_seat(e["seat"]), cards=_cards(e["cards"])
        )
    if t == "tribute_cards_received":
        return text(
            _("%(seat)s receives as tribute: %(cards)s."), seat=_seat(e["seat"]), cards=_cards(e["cards"])
        )
    if t == "partner_notice":
        emperor = _seat((e.get("visible_to") or [None])[0])
        if e["partner"] is None:
            return text(_("%(seat)s holds both marked jokers and plays alone."), seat=emperor)
        return text(_("%(seat)s's partner is %(partner)s."), seat=emperor, partner=_seat(e["partner"]))
    return None


def event_text(event: dict[str, Any], *, face_up: bool = False) -> Text:  # noqa: C901, PLR0911, PLR0912
    """The sentence of ``describe_event``, to be rendered in any language (one per event type).

    A private event is written to the seat it was shown to ("You owe as tribute: 2."); ``face_up``
    writes it for a reader who is not that seat (the face-up replay): "Seat 3 owes as tribute: 2."
    """
    told = _told_face_up(event) if face_up else None
    if told is not None:
        return told
    t = event.get("type")
    e = event
    s = _seat(e.get("seat"))
    if t == "deal_started":
        return text(
            _("Deal %(deal)s is dealt: %(shuffler)s shuffles, %(cutter)s cuts, %(drawer)s draws first."),
            deal=e["deal"],
            shuffler=_seat(e["shuffler"]),
            cutter=_seat(e["cutter"]),
            drawer=_seat(e["first_drawer"]),
        )
    if t == "hand_dealt":
        return text(
            _("You are dealt %(count)s cards: %(cards)s."), count=len(e["cards"]), cards=_cards(e["cards"])
        )
    if t == "tribute_required":
        givers = [
            text(_("%(seat)s gives %(count)s"), seat=_seat(i), count=n) for i, n in enumerate(e["owed"]) if n
        ]
        takers = [
            text(_("%(seat)s receives %(count)s"), seat=_seat(i), count=n)
            for i, n in enumerate(e["allot"])
            if n
        ]
        return text(_("Tribute: %(moves)s."), moves=join(givers + takers, COMMA))
    if t == "tribute_owed":
        return text(_("You owe as tribute: %(cards)s."), cards=_cards(e["cards"]))
    if t == "tribute_given":
        return _timed(
            e,
            n_(
                "%(seat)s gives %(count)s tribute card face down.",
                "%(seat)s gives %(count)s tribute cards face down.",
                e["count"],
            ),
            n_(
                "%(seat)s gives %(count)s tribute card face down (by timeout).",
                "%(seat)s gives %(count)s tribute cards face down (by timeout).",
                e["count"],
            ),
            seat=s,
            count=e["count"],
        )
    if t == "tribute_received":
        return text(
            n_(
                "%(seat)s receives %(count)s tribute card.",
                "%(seat)s receives %(count)s tribute cards.",
                e["count"],
            ),
            seat=s,
            count=e["count"],
        )
    if t == "tribute_cards_received":
        return text(_("You receive as tribute: %(cards)s."), cards=_cards(e["cards"]))
    if t == "emperor_card_shown":
        return text(_("%(seat)s holds the marked red joker."), seat=s)
    if t == "emperor_card_passed":
        return _timed(
            e,
            _("%(giver)s passes the marked red joker to %(taker)s."),
            _("%(giver)s passes the marked red joker to %(taker)s (by timeout)."),
            giver=_seat(e["from"]),
            taker=_seat(e["to"]),
        )
    if t == "emperor_settled":
        if e.get("forced"):
            return text(_("%(seat)s is the emperor (nobody took the card)."), seat=s)
        return text(_("%(seat)s is the emperor."), seat=s)
    if t == "partner_notice":
        if e["partner"] is None:
            return text(_("You hold both marked jokers: you play alone."))
        return text(_("Your partner is %(seat)s."), seat=_seat(e["partner"]))
    if t == "declaration":
        return _declaration(e, s)
    if t == "declarations_closed":
        return text(
            _("Declarations are closed; the multiplier is %(multiplier)s."), multiplier=e["multiplier"]
        )
    if t == "play":
        if e.get("no_beat_request"):
            return _timed(
                e,
                _("%(seat)s plays %(cards)s and asks the others not to beat it."),
                _("%(seat)s plays %(cards)s and asks the others not to beat it (by timeout)."),
                seat=s,
                cards=_cards(e["cards"]),
            )
        return _timed(
            e,
            _("%(seat)s plays %(cards)s."),
            _("%(seat)s plays %(cards)s (by timeout)."),
            seat=s,
            cards=_cards(e["cards"]),
        )
    if t == "pass":
        return _timed(e, _("%(seat)s passes."), _("%(seat)s passes (by timeout)."), seat=s)
    if t == "partner_revealed":
        if e.get("alone"):
            return text(_("%(seat)s plays the marked black joker: the emperor plays alone."), seat=s)
        return text(_("%(seat)s plays the marked black joker and is the emperor's partner."), seat=s)
    if t == "went_out":
        return text(_("%(seat)s goes out in place %(place)s."), seat=s, place=e["place"])
    if t == "trick_won":
        return text(_("%(seat)s wins the trick; %(leader)s leads."), seat=s, leader=_seat(e["next_leader"]))
    if t == "guess":
        return text(_("%(seat)s guesses that %(target)s is the partner."), seat=s, target=_seat(e["target"]))
    if t == "deal_ended":
        return _deal_ended(e)
    if t == "game_over":
        return text(_("Game over: %(seat)s wins."), seat=_seat(e["winner"]))
    return text("%(type)s.", type=t)  # an unknown event: its type as it is


def _declaration(e: dict[str, Any], s: Text) -> Text:
    """``Seat 2 pledges support for the emperor.``, and "The deal is doubled." when it doubles it."""
    plain, timed = DECLARATION.get(e["what"], (_("%(seat)s %(what)s."), _("%(seat)s %(what)s (by timeout).")))
    sentence = _timed(e, plain, timed, seat=s, what=e["what"])
    if e.get("doubled"):
        return text(_("%(sentence)s The deal is doubled."), sentence=sentence)
    return sentence


def _deal_ended(e: dict[str, Any]) -> Text:
    scores = join(
        [text(_("%(seat)s %(score)s"), seat=_seat(i), score=f"{v:+d}") for i, v in enumerate(e["scores"])],
        COMMA,
    )
    result = e["result"]
    fields = {
        "deal": e["deal"],
        "emperor": _seat(e["emperor"]),
        "multiplier": e["multiplier"],
        "scores": scores,
        "result": text(RESULT[result]) if result in RESULT else result,
    }
    if e.get("alone"):
        return text(
            _(
                "Deal %(deal)s ends: the emperor %(emperor)s played alone and %(result)s "
                "(x%(multiplier)s). Scores: %(scores)s."
            ),
            **fields,
        )
    return text(
        _(
            "Deal %(deal)s ends: the emperor %(emperor)s played with %(partner)s as partner and %(result)s "
            "(x%(multiplier)s). Scores: %(scores)s."
        ),
        partner=_seat(e["partner"]),
        **fields,
    )


#: What each decision asks for, by the actions it allows (BH-6, BH-8, BH-5, BH-12), else by its kind.
KIND_TEXT = {
    "tribute": _("give your tribute"),
    "declare": _("answer the emperor offer or the declarations"),
    "turn": _("play or pass"),
}


def describe_decision(decision: dict[str, Any]) -> str:
    """One sentence for an open decision: who must do what."""
    sentence = render(decision_text(decision))
    return sentence[0].upper() + sentence[1:]  # a prompt starts with a capital letter


def decision_text(decision: dict[str, Any]) -> Text:
    """The sentence of ``describe_decision`` (its first letter may need a capital), in any language."""
    allowed = decision.get("allowed") or []
    if "keep_emperor" in allowed:
        what = _("keep the marked red joker (become emperor) or pass it on")
    elif "pledge" in allowed:
        what = _("declare (pledge, announce alone) or make no declaration")
    elif allowed == ["play"]:
        what = _("lead a combination")
    elif "pass" in allowed:
        what = _("beat the top combination or pass")
    elif "give_tribute" in allowed:
        what = _("give the owed tribute cards")
    else:
        what = KIND_TEXT.get(decision.get("kind", ""), _("decide"))
    seats = decision.get("seats")
    if seats is None:
        return text(_("%(what)s."), what=text(what))
    return text(_("%(seats)s: %(what)s."), seats=join([_seat(s) for s in seats], COMMA), what=text(what))
