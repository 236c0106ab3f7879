"""Non-interference: what a viewer can read does not depend on what the viewer has not seen.

For seeded playthroughs of both games (the engines' own bots play every seat), a viewer (a seat, or a
signed-in spectator) reads everything it can: the game page, its poll fragment, the history page, the
API detail, history and legal actions, refused moves (API and page), the reply to a move of its own
the mail about its open decision, the body of every webhook event its seat is sent and the Web Push
notice of its open decisions. Then a *twin* of the game is made that differs only in what the
viewer has not seen, and every read must be byte-identical, time stamps, CSRF tokens and one-time
keys apart:

* **card twin**: the identities of cards the viewer has not seen are exchanged in the stored state
  (Bao Bei: two face-down or undrawn cards swap places, and every seat's knowledge follows its card;
  Bao Huang: two other hands swap one card each). The engine's ``view`` for the viewer is the oracle
  of "not seen": a swap it would show is not used.
* **answer twin**: another owner of an open simultaneous decision (setup peek, plucking window,
  tribute, declaration) answers it without closing it (BB-30.6, a hidden move).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from apps.games import pipeline
from apps.games.models import Decision, Game, Move
from apps.notifications.mails import build_message
from apps.notifications.models import Category, Notification
from apps.push.services import seat_notice
from apps.webhooks.payloads import encode as webhook_encode
from apps.webhooks.payloads import webhook_body
from baogame.rules.baobei.cards import CODE_OF
from baogame.rules.baohuang.cards import RANKS
from baogame.rules.core import RuleError, visible
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

EXAMPLES = 5
SIMULTANEOUS = {"setup", "reaction", "tribute", "declare"}
#: Every example plays a game through the database: a failure is reported as found (derandomized, so
#: it replays), without minutes of shrinking.
NO_SHRINKING = [Phase.explicit, Phase.reuse, Phase.generate]

#: What may differ between two reads of the same thing: clock times, CSRF tokens, one-time form keys,
#: signed links and reply addresses of mails (each mail gets fresh ones).
NOISE = [
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?"), "<iso-time>"),
    (re.compile(r"\b\d{1,2}:\d{2}\b"), "<hh:mm>"),
    (re.compile(r'(csrfmiddlewaretoken" value=")[^"]+'), r"\1<csrf>"),
    (re.compile(r'("X-CSRFToken": ")[^"]+'), r"\1<csrf>"),
    (re.compile(r'(name="idempotency_key" value=")[^"]+'), r"\1<key>"),
    (re.compile(r"/mail/(go|unsubscribe)/[^/\s\"<>]+/"), r"/mail/\1/<token>/"),
    (re.compile(r"[\w.+=-]+@reply\.[\w.-]+"), "<reply-address>"),
]


def _normal(text: str) -> str:
    for pattern, replacement in NOISE:
        text = pattern.sub(replacement, text)
    return text


class _Rollback(Exception):
    pass


@contextmanager
def _rolled_back() -> Iterator[None]:
    """Run a block in a savepoint that is always rolled back: the database is as before afterwards."""
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass


# --- playing ------------------------------------------------------------------------------------------


def _bot_action(game: Game, seat: int, rng: random.Random) -> dict[str, Any]:
    bots, default = get_bots(game.engine)
    return bots[default](get_engine(game.engine).view(game.state, seat), rng)


def _simultaneous_open(state: dict[str, Any], engine_name: str) -> bool:
    """Whether a decision several seats answer at once is open with two owners or more."""
    pending = get_engine(engine_name).pending(state)
    return bool(pending) and pending[0].get("timing") in SIMULTANEOUS and len(pending[0]["seats"]) >= 2


def _play(
    engine_name: str, players: int, seed: int, moves: int, *, then_until_simultaneous: bool = False
) -> tuple[Game, list[Any]]:
    """A game of people played ``moves`` moves by the engine's default bot (stops when it ends); with
    ``then_until_simultaneous``, on (60 moves at most) until a simultaneous decision is open."""
    users = [UserFactory(password="!") for _ in range(players)]
    game = GameFactory(engine=engine_name, players=players, seated=users)
    engine, rng = get_engine(engine_name), random.Random(seed)
    for played in range(moves + (60 if then_until_simultaneous else 0)):
        game.refresh_from_db()
        pending = engine.pending(game.state) if game.status == Game.Status.ACTIVE else []
        if not pending or (played >= moves and _simultaneous_open(game.state, engine_name)):
            break
        seat = rng.choice(sorted(pending[0]["seats"]))
        try:
            pipeline.submit_action(game_id=game.pk, user=users[seat], action=_bot_action(game, seat, rng))
        except RuleError:
            break
    game.refresh_from_db()
    return game, users


# --- twins --------------------------------------------------------------------------------------------


def _swap_baobei(state: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """The state with card ids ``a`` and ``b`` exchanged everywhere: places, knowledge, touched marks."""
    perm = {a: b, b: a}

    def card(c: Any) -> Any:
        return perm.get(c, c) if isinstance(c, int) else c

    def mask(m: int) -> int:
        bit_a, bit_b = (m >> a) & 1, (m >> b) & 1
        m &= ~((1 << a) | (1 << b))
        return m | (bit_a << b) | (bit_b << a)

    twin = {**state}
    twin["displays"] = [[card(c) for c in d] for d in state["displays"]]
    for key in ("discard", "under", "draw", "drawn"):
        twin[key] = [card(c) for c in state[key]]
    twin["known"] = [mask(m) for m in state["known"]]
    twin["touched"] = mask(state["touched"])
    return twin


def _card_twin_baobei(state: dict[str, Any], viewer: int | None, rng: random.Random) -> list[dict[str, Any]]:
    """Swaps to try, one after the other: cards the viewer has not seen (face down or undrawn), in pairs."""
    known = state["known"][viewer] if viewer is not None else 0
    hidden = [c for d in state["displays"] for c in d if c is not None]
    hidden += state["draw"] + state["under"] + state["drawn"]
    unseen = [c for c in hidden if not (known >> c) & 1 and c not in state["discard"]]
    rng.shuffle(unseen)
    pairs = [(a, b) for a, b in zip(unseen[::2], unseen[1::2], strict=False) if CODE_OF[a] != CODE_OF[b]]
    return [{"swap": pair} for pair in pairs]


def _card_twin_baohuang(
    state: dict[str, Any], viewer: int | None, rng: random.Random
) -> list[dict[str, Any]]:
    """Exchanges to try: two hands other than the viewer's give each other one card of another rank."""
    others = [s for s in range(5) if s != viewer]
    return [{"hands": rng.sample(others, 2), "ranks": rng.sample(list(RANKS), 2)} for _ in range(12)]


def _apply_change(engine_name: str, state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any] | None:
    """``state`` with one swap of card identities, or None when the cards are not there to swap."""
    if engine_name == "baobei":
        return _swap_baobei(state, *change["swap"])
    (x, y), (r, q) = change["hands"], change["ranks"]
    if state["hands"][x][r] < 1 or state["hands"][y][q] < 1:
        return None
    hands = [list(h) for h in state["hands"]]
    hands[x][r], hands[x][q] = hands[x][r] - 1, hands[x][q] + 1
    hands[y][q], hands[y][r] = hands[y][q] - 1, hands[y][r] + 1
    return {**state, "hands": hands}


CARD_TWINS: dict[str, Callable[..., list[dict[str, Any]]]] = {
    "baobei": _card_twin_baobei,
    "baohuang": _card_twin_baohuang,
}


def _card_twin(game: Game, viewer: int | None, rng: random.Random) -> dict[str, Any] | None:
    """A twin state the viewer's engine view cannot tell from the real one, or None (no unseen cards).

    Swaps of unseen cards are applied one after the other, each kept only when the viewer's view stays
    the same: so every card the viewer has not seen may change identity, and none it has seen does.
    """
    engine = get_engine(game.engine)
    seen = engine.view(game.state, viewer)
    twin = game.state
    for change in CARD_TWINS[game.engine](game.state, viewer, rng):
        candidate = _apply_change(game.engine, twin, change)
        if candidate is not None and engine.view(candidate, viewer) == seen:
            twin = candidate
    return twin if twin != game.state else None


# --- reading everything -------------------------------------------------------------------------------


def _refusals(game: Game, seat: int | None, rng: random.Random) -> list[dict[str, Any]]:
    """Actions that are refused, for the error replies: malformed, stale, out of turn."""
    out: list[dict[str, Any]] = [{"type": "no_such_action"}]
    pending = get_engine(game.engine).pending(game.state) if game.state else []
    if pending:
        out.append({"type": pending[0]["allowed"][0], "decision_id": "stale-id"})
    if game.engine == "baobei":
        out.append(
            {
                "type": "pluck",
                "decision_id": pending[0].get("decision_id") if pending else "x",
                "target": {"seat": 0, "slot": 0},
            }
        )
    else:
        # Five red jokers: the pack holds four jokers of each colour, one of the red ones marked (BH-2.1,
        # BH-2.5), so no hand ever holds this play. Three were once a legal play (a deal gave the viewer
        # three red jokers on a top of three kings), and the "refusal" was applied.
        out.append({"type": "play", "cards": ["RJ"] * 5})
    if seat is not None and pending and seat in pending[0]["seats"]:
        action = _bot_action(game, seat, rng)
        out.append({**action, "decision_id": "stale-id"} if "decision_id" in action else {**action, "x": 1})
    return out


def _viewer_action(game: Game, seat: int | None) -> dict[str, Any] | None:
    """The move the viewer makes for the "move reply" read (its bot's choice), or None."""
    pending = get_engine(game.engine).pending(game.state) if game.status == Game.Status.ACTIVE else []
    if seat is None or not any(seat in d["seats"] for d in pending):
        return None
    return _bot_action(game, seat, random.Random(11))


def _same_outcome(
    engine_name: str, one: dict[str, Any], other: dict[str, Any], seat: int, action: Any
) -> bool:
    """Whether the viewer's move tells it the same in both states (a draw or a peek may reveal a card the
    twin changed: then the replies may rightly differ). The engine is the oracle."""
    engine = get_engine(engine_name)
    outcomes = []
    for state in (one, other):
        try:
            new, events = engine.apply(state, seat, action)
        except RuleError as exc:
            outcomes.append((exc.code, exc.message))
            continue
        outcomes.append((engine.view(new, seat), [e for e in events if visible(e, seat)]))
    return outcomes[0] == outcomes[1]


def _reads(game: Game, user: Any, seat: int | None, move: dict[str, Any] | None) -> dict[str, str]:
    """Everything ``user`` (holding ``seat``, None for a spectator) can read of the game now; with
    ``move``, also the reply to that move of the viewer's and the board after it (then rolled back)."""
    client = Client()
    client.force_login(user)
    page, api = f"/games/{game.public_id}/", f"/api/v1/games/{game.pk}/"
    reads = {
        "page": client.get(page),
        "poll": client.get(f"{page}?since=stale", HTTP_HX_REQUEST="true"),
        "history page": client.get(f"{page}history/"),
        "api detail": client.get(api),
        "api history": client.get(f"{api}history/?limit=2000"),
        "api legal": client.get(f"{api}legal/?limit=2000"),
    }
    out = {name: f"{r.status_code} {r.content.decode()}" for name, r in reads.items()}
    for i, action in enumerate(_refusals(game, seat, random.Random(7))):
        answer = client.post(f"{api}actions/", {"action": action}, "application/json")
        out[f"refused {i}"] = f"{answer.status_code} {answer.content.decode()}"
    out["refused page"] = client.post(  # the page's answer to a refused form
        f"{page}act/", {"type": "no_such_action"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    game.refresh_from_db()
    pending = get_engine(game.engine).pending(game.state) if game.status == Game.Status.ACTIVE else []
    mine = next((d for d in pending if seat is not None and seat in d["seats"]), None)
    if mine is not None:
        with _rolled_back():
            note = Notification(
                user=user,
                game=game,
                version=game.version,
                kind=Notification.Kind.DECISION,
                category=Category.TURN,
                seat=seat,
                decision_id=mine.get("decision_id") or "",
                decision_kind=mine["kind"],
            )
            message = build_message(note)
            out["mail"] = (
                ""
                if message is None
                else "\n".join([message.subject, message.body, *(str(a[0]) for a in message.alternatives)])
            )
    if seat is not None:
        out.update(_pushed(game, seat))
    if move is not None:
        with _rolled_back():
            answer = client.post(f"{api}actions/", {"action": move}, "application/json")
            out["move reply"] = f"{answer.status_code} {answer.content.decode()}"
            game.refresh_from_db()
            out["webhook after move"] = _pushed(game, seat)["webhook bodies"] if seat is not None else ""
            out["board after move"] = client.get(
                f"{page}?since=stale", HTTP_HX_REQUEST="true"
            ).content.decode()
    return {name: _normal(text) for name, text in out.items()}


def _pushed(game: Game, seat: int) -> dict[str, str]:
    """What the seat's webhooks and browsers are sent: the body of every event of the game (its start and
    each move; another seat's hidden answer is none) and the push notice of its open decisions."""
    moves = [None, *Move.objects.filter(game=game).order_by("seq")]
    bodies = [webhook_body(game=game, seat=seat, move=m) for m in moves]
    rows = Decision.objects.filter(game=game, seat=seat).order_by("decision_id")
    notice = seat_notice(game=game, seat=seat, decisions=[(r.kind, r.decision_id) for r in rows])
    return {
        "webhook bodies": "\n".join(webhook_encode(b) for b in bodies if b is not None),
        "push notice": "" if notice is None else notice[0].decode(),
    }


def _assert_same(before: dict[str, str], after: dict[str, str]) -> None:
    assert before.keys() == after.keys()
    for name in before:
        assert before[name] == after[name], f"{name} differs"


# --- the property ---------------------------------------------------------------------------------------


GAMES = st.sampled_from([("baobei", 2), ("baobei", 3), ("baohuang", 5)])


@pytest.mark.parametrize("engine_name", ["baobei", "baohuang"])
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    phases=NO_SHRINKING,
)
@given(data=st.data(), seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_unseen_cards_do_not_change_any_read_of_the_viewer(
    engine_name: str, data: Any, seed: int, moves: int
) -> None:
    players = 5 if engine_name == "baohuang" else data.draw(st.sampled_from([2, 3]), label="players")
    game, users = _play(engine_name, players, seed, moves)
    assume(game.status == Game.Status.ACTIVE)
    seat = data.draw(st.sampled_from([*range(players), None]), label="viewer seat")
    viewer = users[seat] if seat is not None else UserFactory(password="!")
    twin = _card_twin(game, seat, random.Random(seed))
    assume(twin is not None)
    move = _viewer_action(game, seat)
    if move is not None and not _same_outcome(engine_name, game.state, twin, seat, move):  # type: ignore[arg-type]
        move = None  # the move itself shows the viewer a card the twin changed

    before = _reads(game, viewer, seat, move)
    Game.objects.filter(pk=game.pk).update(state=twin)
    game.refresh_from_db()
    after = _reads(game, viewer, seat, move)

    _assert_same(before, after)


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    phases=NO_SHRINKING,
)
@given(data=st.data(), game_shape=GAMES, seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_other_owners_answers_to_an_open_decision_do_not_change_any_read_of_the_viewer(
    data: Any, game_shape: tuple[str, int], seed: int, moves: int
) -> None:
    """BB-30.6: who has answered a simultaneous decision is published only when it closes."""
    engine_name, players = game_shape
    game, users = _play(engine_name, players, seed, moves, then_until_simultaneous=True)
    assume(game.status == Game.Status.ACTIVE and _simultaneous_open(game.state, engine_name))
    open_now = get_engine(engine_name).pending(game.state)[0]
    answering = data.draw(st.sampled_from(sorted(open_now["seats"])), label="answering seat")
    seat = data.draw(st.sampled_from([s for s in [*range(players), None] if s != answering]), label="viewer")
    viewer = users[seat] if seat is not None else UserFactory(password="!")

    answer = _bot_action(game, answering, random.Random(seed))
    try:
        answered, _ = get_engine(engine_name).apply(game.state, answering, answer)
    except RuleError:
        answered = None
    assume(answered is not None)
    move = _viewer_action(game, seat)
    if move is not None and not _same_outcome(engine_name, game.state, answered, seat, move):  # type: ignore[arg-type]
        move = None  # e.g. the viewer's pass now closes the window and publishes every answer

    before = _reads(game, viewer, seat, move)
    pipeline.submit_action(game_id=game.pk, user=users[answering], action=answer)
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assume(last is not None and last.hidden)  # the answer did not close the decision
    game.refresh_from_db()
    after = _reads(game, viewer, seat, move)

    _assert_same(before, after)


# --- standing orders ---------------------------------------------------------------------------------


def _order_for(game: Game, seat: int) -> tuple[str, dict[str, Any]] | None:
    """A standing order that answers ``seat``'s open decision now, with the answer the player would
    send by hand instead; None when no order kind answers this decision."""
    pending = get_engine(game.engine).pending(game.state)
    decision = next((d for d in pending if seat in d["seats"]), None)
    if decision is None:
        return None
    state = game.state
    if game.engine == "baohuang":
        if state["phase"] == "play" and state["top"] is not None:
            return "pass_trick", {"type": "pass"}
        if state["phase"] == "offer":
            return "offer", {"type": "keep_emperor"}
        if state["phase"] == "declare":
            return "declare", {"type": "no_declaration"}
        return None
    if decision["kind"] == "end_turn":
        end_turn = {"type": "end_turn", "decision_id": decision["decision_id"], "bao": False}
        return "end_turn_when_done", end_turn
    if decision["kind"] == "pluck_window":
        return "skip_windows", {"type": "pass", "decision_id": decision["decision_id"]}
    return None


def _play_until_order(
    engine_name: str, players: int, seed: int, moves: int, viewer: int | None
) -> tuple[Game, list[Any], int | None]:
    """A game played ``moves`` moves, then on (120 at most) until another seat than the viewer owns a
    decision a standing order answers; returns that seat (None if none came)."""
    users = [UserFactory(password="!") for _ in range(players)]
    game = GameFactory(engine=engine_name, players=players, seated=users)
    engine, rng = get_engine(engine_name), random.Random(seed)
    for played in range(moves + 120):
        game.refresh_from_db()
        pending = engine.pending(game.state) if game.status == Game.Status.ACTIVE else []
        if not pending:
            break
        if played >= moves:
            owners = sorted(pending[0]["seats"])
            owner = next((s for s in owners if s != viewer and _order_for(game, s)), None)
            if owner is not None:
                return game, users, owner
        seat = rng.choice(sorted(pending[0]["seats"]))
        try:
            pipeline.submit_action(game_id=game.pk, user=users[seat], action=_bot_action(game, seat, rng))
        except RuleError:
            break
    return game, users, None


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    phases=NO_SHRINKING,
)
@given(data=st.data(), game_shape=GAMES, seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_an_answer_given_by_a_standing_order_reads_like_one_sent_by_hand(
    data: Any, game_shape: tuple[str, int], seed: int, moves: int
) -> None:
    """DESIGN.md "Standing orders": another seat's answer given by its standing order (and the order it keeps)
    changes no read of the viewer compared with the same answer sent by that player."""
    from apps.games import orders

    engine_name, players = game_shape
    seat = data.draw(st.sampled_from([*range(players), None]), label="viewer seat")
    game, users, owner = _play_until_order(engine_name, players, seed, moves, seat)
    assume(owner is not None and game.status == Game.Status.ACTIVE)
    assert owner is not None
    viewer = users[seat] if seat is not None else UserFactory(password="!")
    found = _order_for(game, owner)
    assert found is not None
    kind, by_hand = found

    def reads_after(answer: Callable[[], Any]) -> dict[str, str]:
        with _rolled_back():
            answer()
            game.refresh_from_db()
            return _reads(game, viewer, seat, _viewer_action(game, seat))

    # Both answers are given, and both reads made, at one instant: a bank's seconds and a countdown
    # must not differ only because the second run came a second later.
    with mock.patch("django.utils.timezone.now", return_value=timezone.now()):
        hand = reads_after(lambda: pipeline.submit_action(game_id=game.pk, user=users[owner], action=by_hand))
        ordered = reads_after(
            lambda: orders.arm(game_id=game.pk, user=users[owner], kind=kind, params=_order_params(kind))
        )

    _assert_same(hand, ordered)


def _order_params(kind: str) -> dict[str, Any]:
    return {"offer": {"answer": "keep"}, "declare": {"answer": "none"}}.get(kind, {})
