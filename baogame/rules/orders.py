"""Standing orders: a seat's answers given ahead (DESIGN.md "Standing orders").

Pure functions over an engine's state (standard library and ``baogame.rules`` only), shared by the
service (``apps.games.orders``) and the pace benchmark. An order is a small JSON-compatible record::

    {"kind": "pass_trick", "params": {}, "bound": "3.41"}

``bound`` is the trick (``"<deal>.<decision number at its lead>"``) or the deal (``"<deal>"``) the order
is for, or None for an order that lasts until revoked. ``standing_answer`` gives the action the orders
of a seat answer its open decision with — exactly a legal action of the engine in the rules files'
wire format, nothing that marks it as an order's — or None to ask the player, and the orders left.

Kinds (Bao Huang, ``baohuang.md``):

- ``pass_unbeatable`` — "pass when I cannot beat": pass a turn (BH-12.3, BH-12.5) when no combination
  of the hand beats the top (BH-11, BH-22.1). Persistent, opt-in.
- ``pass_trick`` — "pass to the end of this trick": pass every turn of this trick (BH-12.5); ends with
  the trick (BH-12.7).
- ``play_if_beats`` (``cards``) — "when my turn comes in this trick, play these cards if they beat the
  top, else ask me" (BH-11, BH-20.7). Used up at the seat's first turn in the trick; ends with it.
- ``offer`` (``answer``: ``keep`` | ``pass``) — the emperor offer answered ahead (BH-6.2), for one deal.
- ``declare`` (``answer``: ``none`` | ``pledge`` | ``alone``) — the declaration answered ahead (BH-8.2,
  BH-8.3; ``pledge`` pledges the seat's true side), for one deal.

An ``offer`` / ``declare`` order given once this deal's question is past is for the next deal; on the
game's last deal (``last_deal``: a next one comes only to break a shared lead) it is refused
(``no_next_deal``) rather than kept for a deal that may never come.

Kinds (Bao Bei, ``baobei.md``):

- ``end_turn_when_done`` — "end my turn when nothing is left to do": the ``end_turn`` decision
  (BB-20.7, BB-24) is answered without BAO. Persistent.
- ``skip_windows`` — "don't wait for me in windows": a plucking window (BB-20.2, BB-24) is passed.
  Persistent.

Kind of both games:

- ``sitting_bot`` — "if I miss a sitting, the bot plays my seat until I arrive": answers no decision
  itself; the sittings hand an absent seat that gave it to the bot after a sitting's grace period and
  back the moment its player arrives. Persistent.

An order that has become illegal (its trick or deal is over, the cards left the hand, the answer is
not one the seat may give) is dropped, and the player is asked as usual.
"""

from __future__ import annotations

from typing import Any

from .baobei.defaults import owns_open
from .baohuang.cards import sort_cards, to_counts
from .baohuang.combos import beats, is_combination, plays
from .baohuang.legal import decision_actions
from .baohuang.state import deal_limit, deals_played
from .core import RuleError
from .text import Text, gettext_noop, render, text
from .text import gettext_noop as _

Order = dict[str, Any]
Action = dict[str, Any]
State = dict[str, Any]

#: Every kind of each game, in the order in which ``standing_answer`` consults them.
KINDS: dict[str, tuple[str, ...]] = {
    "baohuang": ("play_if_beats", "pass_trick", "pass_unbeatable", "offer", "declare", "sitting_bot"),
    "baobei": ("end_turn_when_done", "skip_windows", "sitting_bot"),
}
#: Kinds that last until the player revokes them.
PERSISTENT = frozenset({"pass_unbeatable", "end_turn_when_done", "skip_windows", "sitting_bot"})
#: Kinds bound to the trick in which they are armed (BH-12.7 ends them).
TRICK_KINDS = frozenset({"pass_trick", "play_if_beats"})
#: Kinds bound to one deal (the current one, or the next once its question has been answered).
DEAL_KINDS = frozenset({"offer", "declare"})
#: The answers each answered-ahead kind accepts.
ANSWERS: dict[str, tuple[str, ...]] = {"offer": ("keep", "pass"), "declare": ("none", "pledge", "alone")}
#: The parameters each kind takes (none for the others).
PARAMS: dict[str, frozenset[str]] = {
    "play_if_beats": frozenset({"cards"}),
    "offer": frozenset({"answer"}),
    "declare": frozenset({"answer"}),
}
#: Kinds that exclude each other (a seat has one plan for its next turn of a trick).
EXCLUSIVE: dict[str, str] = {"pass_trick": "play_if_beats", "play_if_beats": "pass_trick"}


def _bad(message: str) -> RuleError:
    return RuleError("invalid_order", message)


# --- Bao Huang helpers ------------------------------------------------------------------------------------


def trick_key(state: State) -> str | None:
    """BH-12.7: the current trick's name, ``"<deal>.<decision number of its lead>"``; None outside play.

    Every play and pass of a trick opens exactly one decision (BH-12.4) and a guess opens none
    (BH-9), so the lead's decision number is the current one less the trick's length.
    """
    if state.get("phase") != "play":
        return None
    return f"{state['deal']}.{state['decision_seq'] - len(state['trick'])}"


def last_deal(state: State) -> bool:
    """BH-17.6: whether the current deal is the game's last but for a tie: the deal limit is reached
    with it, so the game ends after it unless the highest total is then shared (BH-17.3), which nobody
    can know ahead (a one-deal game's first deal, a tie-breaking deal)."""
    limit = deal_limit(state)
    return limit is not None and deals_played(state) >= limit


def answer_ahead_deal(state: State, kind: str) -> int | None:
    """The deal an ``offer`` / ``declare`` order armed now is for: this one while its question is still
    to come or open (BH-6, BH-8), else the next; None when that next deal is not due (``last_deal``)."""
    phases = ("tribute", "offer") if kind == "offer" else ("tribute", "offer", "declare")
    deal: int = state["deal"]
    if state.get("phase") in phases:
        return deal
    return None if last_deal(state) else deal + 1


def _deal_bound(state: State, kind: str) -> str:
    """``answer_ahead_deal`` as an order's ``bound``; ``RuleError`` ``no_next_deal`` when there is none."""
    deal = answer_ahead_deal(state, kind)
    if deal is None:
        raise RuleError(
            "no_next_deal",
            f"deal {state['deal']} is the game's last unless its end leaves the lead shared (BH-17.3, "
            "BH-17.6): there is no next deal to answer ahead for",
        )
    return str(deal)


def _bh_cards(params: Any) -> list[str]:
    cards = params.get("cards") if isinstance(params, dict) else None
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise _bad('play_if_beats needs "cards", a non-empty array of card codes')
    counts = to_counts(cards)  # invalid_card
    if not is_combination(counts):
        raise RuleError("not_a_combination", "non-joker cards of one rank only (BH-10)")
    return sort_cards(cards)


def _holds(state: State, seat: int, cards: list[str]) -> bool:
    return all(c <= h for c, h in zip(to_counts(cards), state["hands"][seat], strict=True))


def _beats_top(state: State, cards: list[str]) -> bool:
    top = state["top"]
    return top is not None and beats(to_counts(cards), to_counts(top["cards"]))


def _can_beat(state: State, seat: int) -> bool:
    top = state["top"]
    return top is None or bool(plays(state["hands"][seat], to_counts(top["cards"])))


def _bh_alive(state: State, seat: int, order: Order) -> bool:
    """Whether an order still stands: its trick or deal is not over, its cards are still held."""
    if state.get("over"):
        return False
    kind = order["kind"]
    if kind in TRICK_KINDS:
        if order.get("bound") != trick_key(state) or seat in state["finished"]:
            return False
        return kind != "play_if_beats" or _holds(state, seat, order["params"]["cards"])
    if kind in DEAL_KINDS:
        return int(order.get("bound") or 0) >= int(state["deal"])
    return True


def _bh_answer(state: State, seat: int, order: Order) -> tuple[Action | None, bool]:
    """(the order's answer to the seat's open decision or None, whether the order is used up)."""
    kind, phase = order["kind"], state["phase"]
    if kind in DEAL_KINDS and order.get("bound") != str(state["deal"]):
        return None, False  # armed for the next deal
    if kind == "offer" and phase == "offer" and state["offer"] == seat:  # BH-6.2
        return {"type": "keep_emperor" if order["params"]["answer"] == "keep" else "pass_emperor"}, True
    if kind == "declare" and phase == "declare":  # BH-8.2, BH-8.3
        answer = order["params"]["answer"]
        wanted = {"none": "no_declaration", "alone": "declare_alone", "pledge": "pledge"}[answer]
        for action in decision_actions(state, seat):
            if action["type"] == wanted:
                return action, True
        return None, True  # not an answer this seat may give: dropped, the player is asked
    if phase != "play" or state["turn"] != seat:
        return None, False
    if kind == "play_if_beats":  # BH-11, BH-20.7: used up at the seat's first turn of the trick
        cards = order["params"]["cards"]
        return ({"type": "play", "cards": list(cards)} if _beats_top(state, cards) else None), True
    if state["top"] is None:  # leading: a pass is never legal (BH-12.3)
        return None, False
    if kind == "pass_trick" or (kind == "pass_unbeatable" and not _can_beat(state, seat)):
        return {"type": "pass"}, False  # BH-12.5
    return None, False


# --- Bao Bei ----------------------------------------------------------------------------------------------


def _bb_answer(state: State, seat: int, order: Order) -> tuple[Action | None, bool]:
    if not owns_open(state, seat):
        return None, False
    decision = state["decision"]
    if order["kind"] == "end_turn_when_done" and decision["kind"] == "end_turn":  # BB-20.7, BB-24
        return {"type": "end_turn", "decision_id": decision["id"], "bao": False}, False
    if order["kind"] == "skip_windows" and decision["kind"] == "pluck_window":  # BB-24: pass
        return {"type": "pass", "decision_id": decision["id"]}, False
    return None, False


# --- the public functions ---------------------------------------------------------------------------------


def make_order(game: str, state: State, seat: int, kind: Any, params: Any = None) -> Order:
    """A checked order of ``seat`` armed now, bound to its trick or deal; ``RuleError`` when refused.

    Codes: ``unknown_order`` (not a kind of this game), ``invalid_order`` (bad parameters),
    ``invalid_card`` / ``not_a_combination`` / ``card_not_in_hand`` (``play_if_beats``' cards, BH-10,
    BH-20.7), ``no_trick`` (a trick order outside play, BH-12), ``no_next_deal`` (an answer ahead for
    a next deal that is not due, BH-17.6), ``game_over``.
    """
    if not isinstance(kind, str) or kind not in KINDS.get(game, ()):
        raise RuleError("unknown_order", f"{game} has no standing order {str(kind)[:40]!r}")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise _bad("an order's params are a JSON object")
    if state.get("over") or state.get("phase") == "over":
        raise RuleError("game_over", "the game is over")
    extra = set(params) - PARAMS.get(kind, frozenset())
    if extra:
        raise _bad(f"{kind} takes no parameter {sorted(extra)[0]!r}")
    clean: dict[str, Any] = {}
    bound: str | None = None
    if kind == "play_if_beats":
        clean["cards"] = _bh_cards(params)
        if not _holds(state, seat, clean["cards"]):
            raise RuleError("card_not_in_hand", "you do not hold all of those cards")
    elif kind in ANSWERS:
        answer = params.get("answer")
        if answer not in ANSWERS[kind]:
            raise _bad(f'{kind} needs "answer", one of {", ".join(ANSWERS[kind])}')
        clean["answer"] = answer
        bound = _deal_bound(state, kind)
    if kind in TRICK_KINDS:
        bound = trick_key(state)
        if bound is None:
            raise RuleError("no_trick", "a trick order can be given only while a trick is played (BH-12)")
        if seat in state["finished"]:
            raise RuleError("no_trick", "you have gone out (BH-13)")
    return {"kind": kind, "params": clean, "bound": bound}


def arm(
    game: str, state: State, seat: int, orders: list[Order], kind: Any, params: Any = None
) -> list[Order]:
    """``orders`` with the new order: it replaces one of the same kind and the one it excludes
    (``pass_trick`` and ``play_if_beats`` are one plan for the seat's turns in a trick)."""
    order = make_order(game, state, seat, kind, params)
    drop = {order["kind"], EXCLUSIVE.get(order["kind"], "")}
    return [o for o in alive(game, state, seat, orders) if o["kind"] not in drop] + [order]


def alive(game: str, state: State, seat: int, orders: list[Order]) -> list[Order]:
    """The orders that still stand (their trick or deal is not over, their cards still held)."""
    if game == "baohuang":
        return [o for o in orders if _bh_alive(state, seat, o)]
    return [o for o in orders if not state.get("over") and state.get("phase") != "over"]


def standing_answer(
    game: str, state: State, seat: int, orders: list[Order]
) -> tuple[Action | None, list[Order]]:
    """The action ``seat``'s orders answer its open decision with (None: ask the player), and the
    orders left: those still standing, without the ones used up or found illegal now.

    The action is one the seat could have sent itself (same wire format, no ``timeout``); orders are
    consulted in the order of ``KINDS``, so a conditional play is tried before a pass.
    """
    kinds = KINDS.get(game, ())
    left = [o for o in alive(game, state, seat, orders) if o["kind"] in kinds]
    left.sort(key=lambda o: kinds.index(o["kind"]))
    answer_of = _bh_answer if game == "baohuang" else _bb_answer
    for order in list(left):
        action, used = answer_of(state, seat, order)
        if used:
            left.remove(order)
        if action is not None:
            return action, left
    return None, left


def describe(order: Order) -> str:
    """A short English line for the owner's page and mail (never shown to anyone else)."""
    return render(describe_text(order))


#: The lines of ``offer`` / ``declare`` orders, by answer (``ANSWERS``).
ANSWER_LINES = {
    ("offer", "keep"): _("emperor offer: keep (deal %(deal)s)"),
    ("offer", "pass"): _("emperor offer: pass (deal %(deal)s)"),
    ("declare", "none"): _("declaration: none (deal %(deal)s)"),
    ("declare", "pledge"): _("declaration: pledge (deal %(deal)s)"),
    ("declare", "alone"): _("declaration: alone (deal %(deal)s)"),
}
#: The line of each kind whose line needs none of the order's values.
FIXED_LINES = {
    "pass_unbeatable": _("pass when I cannot beat"),
    "pass_trick": _("pass to the end of this trick"),
    "end_turn_when_done": _("end my turn when nothing is left to do"),
    "skip_windows": _("don't wait for me in windows"),
    "sitting_bot": _("if I miss a sitting, the bot plays my seat until I arrive"),
}


def describe_text(order: Order) -> Text:
    """The line of ``describe``, to be rendered in any language (``baogame.rules.text``)."""
    kind, params = order["kind"], order.get("params") or {}
    fixed = FIXED_LINES.get(str(kind))
    if fixed is not None:
        return text(fixed)
    if kind == "play_if_beats":
        return text(_("play %(cards)s if it beats, else ask me"), cards=" ".join(params.get("cards", [])))
    line = ANSWER_LINES.get((str(kind), str(params.get("answer"))))
    if line is not None:
        return text(line, deal=order.get("bound"))
    if kind in ("offer", "declare"):  # an answer that no order may hold (``make_order`` checks)
        return text(
            "%(kind)s: %(answer)s (deal %(deal)s)",
            kind=kind,
            answer=params.get("answer"),
            deal=order.get("bound"),
        )
    return text("%(kind)s", kind=kind)  # an unknown kind: its name as it is


# --- mail replies ------------------------------------------------------------------------------------------

_LIST = (gettext_noop("orders / orders clear"), gettext_noop("list / clear my standing orders"))
_SITTING_BOT = (
    gettext_noop("sitting bot on / sitting bot off"),
    gettext_noop("if I miss a sitting, the bot plays my seat until I arrive"),
)
#: The order commands of a mail reply, as (example, meaning) pairs for the mails' help lines (marked
#: for the catalogue: the mails show them in the reader's language).
MAIL_SUMMARY: dict[str, tuple[tuple[str, str], ...]] = {
    "baohuang": (
        (
            gettext_noop("autopass on / autopass off"),
            gettext_noop("pass when I cannot beat (others may notice an instant pass)"),
        ),
        (gettext_noop("pass trick"), gettext_noop("pass to the end of this trick")),
        (
            gettext_noop("play 9 9 if it beats"),
            gettext_noop("at my turn in this trick play these if they beat, else ask me"),
        ),
        (gettext_noop("offer keep / offer pass"), gettext_noop("answer the emperor offer ahead")),
        (
            gettext_noop("declare none / declare pledge / declare alone"),
            gettext_noop("answer the declaration ahead"),
        ),
        _SITTING_BOT,
        _LIST,
    ),
    "baobei": (
        (
            gettext_noop("end turn auto on / end turn auto off"),
            gettext_noop("end my turn when nothing is left to do"),
        ),
        (
            gettext_noop("skip windows on / skip windows off"),
            gettext_noop("don't wait for me in plucking windows"),
        ),
        _SITTING_BOT,
        _LIST,
    ),
}


def mail_summary(game: str, *, sittings: bool = True) -> tuple[tuple[str, str], ...]:
    """The order commands of ``game``'s mails (``MAIL_SUMMARY``); without ``sitting bot on / off`` when
    the table can have no sittings (one person against bots)."""
    return tuple(pair for pair in MAIL_SUMMARY.get(game, ()) if sittings or pair != _SITTING_BOT)


_SWITCHES: dict[str, dict[tuple[str, ...], str]] = {
    "baohuang": {("autopass",): "pass_unbeatable", ("sitting", "bot"): "sitting_bot"},
    "baobei": {
        ("end", "turn", "auto"): "end_turn_when_done",
        ("skip", "windows"): "skip_windows",
        ("sitting", "bot"): "sitting_bot",
    },
}

#: What a mail reply asks of the orders: ("arm", kind, params), ("revoke", kind), ("list",), ("clear",).
MailOrder = tuple[Any, ...]


def parse_mail_command(game: str, line: str) -> MailOrder | None:
    """The order command of a reply's first line (``MAIL_SUMMARY``), or None when the line is not one
    (it is then read as an action). Cards are upper-cased as in action commands (BH-2.3)."""
    words = line.strip().rstrip(".!;,").split()
    low = [w.lower() for w in words]
    if low == ["orders"]:
        return ("list",)
    if low in (["orders", "clear"], ["orders", "off"]):
        return ("clear",)
    for prefix, kind in _SWITCHES.get(game, {}).items():
        if tuple(low[:-1]) == prefix and low[-1] in ("on", "off"):
            return ("arm", kind, {}) if low[-1] == "on" else ("revoke", kind)
    if game != "baohuang":
        return None
    if low == ["pass", "trick"]:
        return ("arm", "pass_trick", {})
    tail = 2 if low[-2:] == ["if", "beats"] else 3 if low[-3:] == ["if", "it", "beats"] else 0
    if tail and low[0] == "play":
        cards = words[1 : len(words) - tail]
        return ("arm", "play_if_beats", {"cards": [c.upper() for c in cards]})
    if len(low) == 2 and low[0] in ANSWERS and low[1] in ANSWERS[low[0]]:
        return ("arm", low[0], {"answer": low[1]})
    return None
