"""Short sentences for events and decisions (history, email). They use only the fields of the event
or decision itself, never the state.

Each sentence is a ``Text`` (``baogame.rules.text``): an English template marked for translation and
its parameters; ``describe_event`` and ``describe_decision`` render it in English, and the web layer
renders ``event_text`` / ``decision_text`` in the reader's language.
"""

from __future__ import annotations

from typing import Any

from ..text import COMMA, SEMICOLON, Text, join, n_, render, text
from ..text import gettext_noop as _
from .cards import CARDS

#: The abilities (BB-9.7 … BB-9.12) in words, as the game page's legend names them.
ABILITY_WORDS = {
    "peek": _("peek"),
    "reveal": _("reveal"),
    "blind_swap": _("blind swap"),
    "macaw": _("look-and-swap"),
    "toco": _("add-a-card"),
    "shoebill": _("double replacement"),
}


def _bird(code: str) -> Text:
    """A bird's name (marked in ``cards.DECK_TABLE``)."""
    return text(CARDS[code]["name"])


def _card(code: Any) -> Text:
    """``a Magpie`` / ``an Ibis`` / ``an unknown card``."""
    if code is None or code == "?":
        return text(_("an unknown card"))
    if CARDS[code]["name"][0] in "AEIOU":
        return text(_("an %(bird)s"), bird=_bird(code))
    return text(_("a %(bird)s"), bird=_bird(code))


def _pos(p: dict[str, int], actor: Any = None, own: str = "their") -> Text:
    """``seat 2 slot 1``; a slot of the acting seat's own display is ``their own slot 1`` (``own``:
    ``your`` in a sentence addressed to that seat), not the seat's name twice."""
    if actor is not None and p["seat"] == actor:
        if own == "your":
            return text(_("your slot %(slot)s"), slot=p["slot"])
        return text(_("their own slot %(slot)s"), slot=p["slot"])
    return text(_("seat %(seat)s slot %(slot)s"), seat=p["seat"], slot=p["slot"])


def _two(e: dict[str, Any], actor: Any, own: str = "their") -> dict[str, Text]:
    """The two positions of a blind swap or a Macaw look, as ``first`` and ``second`` (``_pos``)."""
    return {"first": _pos(e["positions"][0], actor, own), "second": _pos(e["positions"][1], actor, own)}


def _cards(codes: list[str]) -> Text | str:
    return join([_card(c) for c in codes])


def _ability(key: Any) -> Text:
    return text(ABILITY_WORDS.get(key, str(key).replace("_", " ")))


def describe_event(e: dict[str, Any]) -> str:
    """One sentence for an event (BB-31), e.g. "Seat 2 plucked seat 0 slot 1: success, removed a Magpie"."""
    return render(event_text(e))


def event_text(e: dict[str, Any], *, face_up: bool = False) -> Text:  # noqa: C901, PLR0911, PLR0912
    """The sentence of ``describe_event``, to be rendered in any language (one per event type).

    A private event is written to the seat it was shown to ("You drew a Magpie (4)."); ``face_up``
    writes it for a reader who is not that seat (the face-up replay): "Seat 2 drew a Magpie (4)."
    """
    told = _told_face_up(e) if face_up else None
    if told is not None:
        return told
    t = e.get("type")
    s = e.get("seat")
    if t == "round_started":
        fields = {
            "round": e["round"],
            "seats": e["participants"],
            "first": e["starting_seat"],
            "card": _card(e["discard_top"]),
        }
        if e.get("deciding"):
            return text(
                _(
                    "Deciding round %(round)s started with seats %(seats)s; seat %(first)s begins; "
                    "the first discard is %(card)s."
                ),
                **fields,
            )
        return text(
            _(
                "Round %(round)s started with seats %(seats)s; seat %(first)s begins; "
                "the first discard is %(card)s."
            ),
            **fields,
        )
    if t == "setup_peek_chosen":
        return text(
            _("You looked at your slots %(first)s and %(second)s: %(cards)s."),
            first=e["slots"][0],
            second=e["slots"][1],
            cards=_cards(e["cards"]),
        )
    if t == "setup_peek_done":
        choices = [
            text(
                _("seat %(seat)s slots %(first)s and %(second)s"),
                seat=c["seat"],
                first=c["slots"][0],
                second=c["slots"][1],
            )
            for c in e["choices"]
        ]
        return text(_("Everyone has looked at two cards: %(choices)s."), choices=join(choices, SEMICOLON))
    if t == "turn_started":
        return text(_("Seat %(seat)s's turn."), seat=s)
    if t == "turn_ended":
        return text(_("Seat %(seat)s's turn ended."), seat=s)
    if t == "drew":
        if "card" in e:
            return text(_("You drew %(card)s."), card=_card(e["card"]))
        return text(_("Seat %(seat)s drew a card."), seat=s)
    if t == "kept":
        return text(
            _("Seat %(seat)s kept the drawn card in slot %(slot)s and discarded %(card)s."),
            seat=s,
            slot=e["slot"],
            card=_card(e["card"]),
        )
    if t == "discarded":
        if e.get("automatic"):
            return text(
                _("Seat %(seat)s automatically discarded the drawn card, %(card)s."),
                seat=s,
                card=_card(e["card"]),
            )
        return text(_("Seat %(seat)s discarded the drawn card, %(card)s."), seat=s, card=_card(e["card"]))
    if t == "took_discard":
        return text(
            _(
                "Seat %(seat)s took %(card)s from the discard pile into slot %(slot)s and "
                "discarded %(discarded)s."
            ),
            seat=s,
            card=_card(e["card"]),
            slot=e["slot"],
            discarded=_card(e["discarded"]),
        )
    if t == "window_opened":
        return text(
            _("Seats %(seats)s may pluck against %(card)s."), seats=e["eligible"], card=_card(e["reference"])
        )
    if t == "window_closed":
        if e["how"] == "pluck":
            return text(_("The plucking window closed with a pluck."))
        return text(_("The plucking window closed; seats %(seats)s passed."), seats=e["passed"])
    if t == "pluck_resolved":
        return _pluck(e)
    if t == "penalty_added":
        if e.get("skipped"):
            return text(_("Seat %(seat)s could not receive a penalty card: nothing left to draw."), seat=s)
        return text(
            _("Seat %(seat)s received an unseen penalty card in slot %(slot)s."), seat=s, slot=e["slot"]
        )
    if t == "recycled":
        return text(
            _("The discard pile was shuffled into a new draw pile of %(size)s (recycling %(count)s)."),
            size=e["draw_size"],
            count=e["recycles"],
        )
    if t == "automatic_final_phase":
        if e["cause"] == "recycling":
            return text(
                _("The automatic final phase began after the second recycling; seat %(seat)s is the anchor."),
                seat=e["anchor"],
            )
        return text(
            _("The automatic final phase began after the exhausted deck; seat %(seat)s is the anchor."),
            seat=e["anchor"],
        )
    if t in ("ability_offered", "ability_declined", "ability_no_effect"):
        template = {
            "ability_offered": _("Seat %(seat)s may use the %(ability)s ability of %(card)s."),
            "ability_declined": _("Seat %(seat)s declined the %(ability)s ability of %(card)s."),
            "ability_no_effect": _("Seat %(seat)s could not use the %(ability)s ability of %(card)s."),
        }[t]
        return text(template, seat=s, ability=_ability(e["ability"]), card=_card(e["card"]))
    return _ability_event(t, s, e)


def _pluck(e: dict[str, Any]) -> Text:
    s = e.get("seat")
    fields = {
        "seat": s,
        "where": join([_pos(p, s) for p in e["targets"]], COMMA),
        "cards": _cards(e["cards"]),
    }
    gifts = _gifts(e) if e["success"] else None  # a failed pluck moves no gift (BB-7.5, BB-8.4)
    if e["kind"] == "double":
        if gifts is not None:
            return text(
                _("Seat %(seat)s double-plucked %(where)s: success, removed %(cards)s; gave %(gifts)s."),
                gifts=gifts,
                **fields,
            )
        if e["success"]:
            return text(_("Seat %(seat)s double-plucked %(where)s: success, removed %(cards)s."), **fields)
        return text(_("Seat %(seat)s double-plucked %(where)s: failure, showing %(cards)s."), **fields)
    if gifts is not None:
        return text(
            _("Seat %(seat)s plucked %(where)s: success, removed %(cards)s; gave %(gifts)s."),
            gifts=gifts,
            **fields,
        )
    if e["success"]:
        return text(_("Seat %(seat)s plucked %(where)s: success, removed %(cards)s."), **fields)
    return text(_("Seat %(seat)s plucked %(where)s: failure, showing %(cards)s."), **fields)


def _gifts(e: dict[str, Any]) -> Text | str | None:
    """Where a successful pluck's gifts went, e.g. ``their own slot 3 face down into seat 0 slot 1``:
    the slots are public, the cards never (BB-31, ``pluck_resolved``); None when no gift was given."""
    s: int = e["seat"]
    given = [
        text(_("%(gift)s face down into %(where)s"), gift=_pos({"seat": s, "slot": g}, s), where=_pos(t, s))
        for t, g in zip(e["targets"], e.get("gifts") or [], strict=False)
        if g is not None
    ]
    return join(given, COMMA) if given else None


def _told_face_up(e: dict[str, Any]) -> Text | None:
    """A private event's sentence in the third person, for a reader who is not its seat; None for any
    other event (its usual sentence names its seats already)."""
    t, s = e.get("type"), e.get("seat")
    if t == "setup_peek_chosen":
        return text(
            _("Seat %(seat)s looked at their slots %(first)s and %(second)s: %(cards)s."),
            seat=s,
            first=e["slots"][0],
            second=e["slots"][1],
            cards=_cards(e["cards"]),
        )
    if t == "drew" and "card" in e:
        return text(_("Seat %(seat)s drew %(card)s."), seat=s, card=_card(e["card"]))
    if t == "peeked" and "card" in e:
        return text(
            _("Seat %(seat)s peeked at %(where)s: %(card)s."),
            seat=s,
            where=_pos(e["position"], s),
            card=_card(e["card"]),
        )
    if t == "macaw_looked" and "cards" in e:
        return text(
            _("Seat %(seat)s looked at %(first)s and %(second)s: %(cards)s."),
            seat=s,
            **_two(e, s),
            cards=_cards(e["cards"]),
        )
    if t == "shoebill_drawn" and "cards" in e:
        return text(_("Seat %(seat)s's Shoebill drew %(cards)s."), seat=s, cards=_cards(e["cards"]))
    if t == "shoebill_placed" and "placed" in e:
        placed = [
            text(_("%(card)s at %(where)s"), card=_card(p["card"]), where=_pos(p["position"]))
            for p in e["placed"]
        ]
        return text(_("Seat %(seat)s placed %(placed)s."), seat=s, placed=join(placed, COMMA))
    return None


def _ability_event(t: Any, s: Any, e: dict[str, Any]) -> Text:  # noqa: C901, PLR0911 - one per event type
    """The events of the abilities (BB-9.7 … BB-9.12), BAO and the ends."""
    if t == "peeked":
        if "card" in e:
            return text(
                _("You peeked at %(where)s: %(card)s."),
                where=_pos(e["position"], s, "your"),
                card=_card(e["card"]),
            )
        return text(_("Seat %(seat)s peeked at %(where)s."), seat=s, where=_pos(e["position"], s))
    if t == "revealed":
        return text(
            _("Seat %(seat)s revealed %(where)s: %(card)s."),
            seat=s,
            where=_pos(e["position"], s),
            card=_card(e["card"]),
        )
    if t == "blind_swapped":
        return text(_("Seat %(seat)s swapped %(first)s and %(second)s blind."), seat=s, **_two(e, s))
    if t == "macaw_looked":
        if "cards" in e:
            return text(
                _("You looked at %(first)s and %(second)s: %(cards)s."),
                **_two(e, s, "your"),
                cards=_cards(e["cards"]),
            )
        return text(_("Seat %(seat)s looked at %(first)s and %(second)s."), seat=s, **_two(e, s))
    if t == "macaw_decided":
        if e["swap"]:
            return text(_("Seat %(seat)s swapped the two cards."), seat=s)
        return text(_("Seat %(seat)s did not swap the two cards."), seat=s)
    if t == "toco_added":
        if e.get("skipped"):
            return text(_("Seat %(seat)s's Toco Toucan had no effect: nothing left to draw."), seat=s)
        return text(
            _("Seat %(seat)s added an unseen card to seat %(target)s slot %(slot)s."),
            seat=s,
            target=e["target_seat"],
            slot=e["slot"],
        )
    if t == "shoebill_drawn":
        if "cards" in e:
            return text(_("Your Shoebill drew %(cards)s."), cards=_cards(e["cards"]))
        return text(
            n_(
                "Seat %(seat)s drew %(count)s card with the Shoebill.",
                "Seat %(seat)s drew %(count)s cards with the Shoebill.",
                e["count"],
            ),
            seat=s,
            count=e["count"],
        )
    if t == "shoebill_placed":
        if "placed" in e:
            placed = [
                text(_("%(card)s at %(where)s"), card=_card(p["card"]), where=_pos(p["position"]))
                for p in e["placed"]
            ]
            return text(_("You placed %(placed)s."), placed=join(placed, COMMA))
        where = join([_pos(p) for p in e["replaced"]], COMMA, text(_("nothing")))
        return text(
            n_(
                "Seat %(seat)s replaced %(where)s; %(count)s card went beneath the discard pile.",
                "Seat %(seat)s replaced %(where)s; %(count)s cards went beneath the discard pile.",
                e["under_count"],
            ),
            seat=s,
            where=where,
            count=e["under_count"],
        )
    if t == "bao_called":
        return text(_("Seat %(seat)s called BAO!"), seat=s)
    if t == "shield_activated":
        return text(_("The Shield now protects seat %(seat)s's cards."), seat=s)
    if t == "round_ended":
        return _round_ended(e)
    if t == "game_ended":
        return text(_("The game is over: seat %(seat)s wins."), seat=e["winner"])
    return text(_("Event %(type)s."), type=t)


def _round_ended(e: dict[str, Any]) -> Text:
    """ "Round 2 ended: seat 0 scored 8 (total 43); seat 1 scored 0 (total 61)." and the BAO outcome
    (BB-25.7): each seat that played the round, by seat; a seat that sat out a deciding round is left
    out. A deciding round's scores do not change the totals (BB-15), so it gives scores alone."""
    scores, totals = e.get("scores") or [], e.get("totals") or []
    parts = []
    for seat, score in enumerate(scores):
        if score is None:
            continue
        total = totals[seat] if seat < len(totals) and not e.get("deciding") else None
        if total is None:
            parts.append(text(_("seat %(seat)s scored %(score)s"), seat=seat, score=score))
        else:
            parts.append(
                text(
                    _("seat %(seat)s scored %(score)s (total %(total)s)"), seat=seat, score=score, total=total
                )
            )
    fields = {"round": e["round"], "scores": join(parts, SEMICOLON, text(_("no scores")))}
    if e.get("deciding"):
        ended = text(_("Deciding round %(round)s ended: %(scores)s."), **fields)
    else:
        ended = text(_("Round %(round)s ended: %(scores)s."), **fields)
    bao = e.get("bao")
    if not bao:
        return ended
    if bao["success"]:
        return text(_("%(ended)s Seat %(seat)s's BAO succeeded."), ended=ended, seat=bao["caller"])
    return text(_("%(ended)s Seat %(seat)s's BAO failed."), ended=ended, seat=bao["caller"])


def describe_decision(d: dict[str, Any]) -> str:
    """One sentence for an open decision, e.g. "Your turn: draw or take the Magpie"."""
    return render(decision_text(d))


#: The sentence of each decision whose sentence needs nothing from its context.
FIXED_DECISIONS = {
    "setup_peek": _("Choose two of your cards to look at."),
    "macaw_decide": _("Swap the two cards you looked at, or not."),
    "shoebill_place": _("Place your Shoebill cards."),
    "end_turn": _("End your turn, or call BAO."),
}


def decision_text(d: dict[str, Any]) -> Text:
    """The sentence of ``describe_decision``, to be rendered in any language."""
    kind = d.get("kind")
    ctx = d.get("context") or {}
    fixed = FIXED_DECISIONS.get(str(kind))
    if fixed is not None:
        return text(fixed)
    if kind == "turn_action":
        if ctx.get("can_take"):
            bird = _bird(ctx["discard_top"])
            if ctx.get("can_draw"):
                return text(_("Your turn: draw or take the %(bird)s."), bird=bird)
            return text(_("Your turn: take the %(bird)s."), bird=bird)
        return text(_("Your turn: draw."))
    if kind == "after_draw":
        if "drawn" in ctx:
            return text(
                _("You drew the %(bird)s: pluck with it, keep it or discard it."), bird=_bird(ctx["drawn"])
            )
        return text(_("You drew the drawn card: pluck with it, keep it or discard it."))
    if kind == "pluck_window":
        return text(_("Pluck against the %(bird)s, or pass."), bird=_bird(ctx["reference"]))
    if kind == "ability":
        return text(
            _("Use the %(ability)s ability of the %(bird)s, or decline."),
            ability=_ability(ctx.get("ability")),
            bird=_bird(ctx["card"]),
        )
    return text(_("Make your choice."))
