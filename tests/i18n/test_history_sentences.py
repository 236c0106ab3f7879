"""The history sentences of both games in the reader's language: played through
by bots, every event and decision of Bao Bei and Bao Huang reads in Chinese with no English left, its
placeholders filled and its seats still replaced by players' names; in English the sentences are the
engines' own ``describe_*``, word for word."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from apps.games.presenters.common import describe_decision, describe_event, name_seats
from apps.games.sentences import bird_name, card_name, localize
from baogame.rules import orders
from baogame.rules.baobei import bots as bb_bots
from baogame.rules.baobei import text as bb_text
from baogame.rules.baobei.cards import CARDS
from baogame.rules.baobei.engine import ENGINE as BAOBEI
from baogame.rules.baohuang import bots as bh_bots
from baogame.rules.baohuang import text as bh_text
from baogame.rules.baohuang.cards import CODES
from baogame.rules.baohuang.engine import ENGINE as BAOHUANG

#: Bao Huang's card codes (BH-2.3) stay as they are in every language.
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9]|[JQKA]|[BR]J\*?)(?![A-Za-z0-9])")

#: Events no bot game is sure to reach, in the fields the engines write (BB-31, BH-24).
RARE_EVENTS: dict[str, list[dict[str, Any]]] = {
    "baobei": [
        {
            "type": "round_started",
            "round": 3,
            "deciding": True,
            "participants": [0, 2],
            "starting_seat": 2,
            "discard_top": "magpie",
        },
        {"type": "setup_peek_done", "choices": [{"seat": 0, "slots": [0, 1]}, {"seat": 1, "slots": [2, 3]}]},
        {"type": "ability_no_effect", "seat": 1, "ability": "toco", "card": "toco_toucan"},
        {"type": "ability_declined", "seat": 1, "ability": "macaw", "card": "macaw"},
        {"type": "automatic_final_phase", "cause": "recycling", "anchor": 1},
        {"type": "automatic_final_phase", "cause": "exhausted", "anchor": 0},
        {"type": "recycled", "draw_size": 40, "recycles": 2},
        {
            "type": "pluck_resolved",
            "seat": 0,
            "kind": "double",
            "success": False,
            "targets": [{"seat": 0, "slot": 1}, {"seat": 1, "slot": 2}],
            "cards": ["crested_ibis", "golden_toucan"],
        },
        {"type": "penalty_added", "seat": 1, "skipped": True},
        {"type": "toco_added", "seat": 0, "skipped": True},
        {"type": "toco_added", "seat": 0, "target_seat": 1, "slot": 4},
        {"type": "shoebill_drawn", "seat": 0, "count": 2},
        {
            "type": "shoebill_placed",
            "seat": 0,
            "placed": [
                {"card": "sparrow", "position": {"seat": 0, "slot": 1}},
                {"card": "peacock", "position": {"seat": 1, "slot": 0}},
            ],
        },
        {"type": "shoebill_placed", "seat": 0, "replaced": [], "under_count": 0},
        {"type": "shield_activated", "seat": 1},
        {"type": "discarded", "seat": 1, "automatic": True, "card": "kingfisher"},
        {
            "type": "round_ended",
            "round": 2,
            "deciding": True,
            "scores": [3, None, 5],
            "totals": [40, 50, 41],
            "bao": {"caller": 0, "success": False},
        },
        {
            "type": "round_ended",
            "round": 1,
            "scores": [0, 7],
            "totals": [0, 7],
            "bao": {"caller": 0, "success": True},
        },
        {"type": "game_ended", "winner": 1},
    ],
    "baohuang": [
        {"type": "guess", "seat": 1, "target": 2},
        {"type": "emperor_card_passed", "from": 1, "to": 2, "by_timeout": True},
        {"type": "emperor_settled", "seat": 2, "forced": True},
        {"type": "partner_notice", "partner": None},
        {"type": "declaration", "seat": 0, "what": "alone", "doubled": True, "by_timeout": True},
        {"type": "declaration", "seat": 3, "what": "oppose", "doubled": True},
        {"type": "declaration", "seat": 1, "what": "support", "doubled": False},
        {"type": "play", "seat": 1, "cards": ["9", "9", "BJ*"], "no_beat_request": True},
        {"type": "partner_revealed", "seat": 0, "alone": True},
        {
            "type": "deal_ended",
            "deal": 2,
            "emperor": 0,
            "alone": True,
            "result": "draw",
            "multiplier": 2,
            "scores": [0, 0, 0, 0, 0],
        },
        {
            "type": "deal_ended",
            "deal": 3,
            "emperor": 0,
            "partner": 2,
            "result": "lost",
            "multiplier": 1,
            "scores": [-4, 2, -2, 2, 2],
        },
        {"type": "game_over", "winner": 3},
    ],
}


def _played(engine: Any, bot: Any, players: int, seed: int, moves: int) -> Iterator[dict[str, Any]]:
    """Every event and open decision of a bot game, the decisions marked with ``_decision``."""
    rng = random.Random(seed)
    if hasattr(engine, "setup_with_events"):
        state, events = engine.setup_with_events(players, {}, seed)
    else:
        state, events = engine.setup(players, {}, seed), []
    yield from events
    for _ in range(moves):
        pending = engine.pending(state)
        if not pending:
            return
        decision = pending[0]
        yield {"_decision": decision}
        seat = (decision.get("seats") or [decision.get("seat")])[0]
        state, events = engine.apply(state, seat, bot(engine.view(state, seat), rng))
        yield from events


def _sentences(game: str) -> Iterator[tuple[dict[str, Any], str]]:
    """(event or decision, its sentence in the active language) of a few bot games and the rare events."""
    if game == "baohuang":
        items = [e for seed in range(3) for e in _played(BAOHUANG, bh_bots.strategic_bot, 5, seed, 900)]
    else:
        items = [e for seed in range(4) for e in _played(BAOBEI, bb_bots.random_bot, 2 + seed, seed, 700)]
    for item in [*items, *RARE_EVENTS[game]]:
        if "_decision" in item:
            yield item["_decision"], describe_decision(game, item["_decision"])
        else:
            yield item, describe_event(game, item)


def _english_left(sentence: str) -> list[str]:
    """The Latin words of a sentence once the card codes are taken out."""
    return re.findall(r"[A-Za-z]+", CARD_CODE.sub("", sentence))


@pytest.mark.parametrize("game", ["baobei", "baohuang"])
def test_every_history_sentence_reads_in_chinese_with_no_english_left(game: str) -> None:
    with translation.override("zh-hans"):
        sentences = list(_sentences(game))

    kinds = {item.get("type") or item.get("kind") for item, _ in sentences}
    assert len(kinds) > 20  # both games reach most of their events and decisions
    left = {s for _, s in sentences if _english_left(s)}
    assert left == set()
    assert {s for _, s in sentences if "%(" in s or "%s" in s} == set()
    assert all(re.search(r"[\u4e00-\u9fff]", s) for _, s in sentences)


@pytest.mark.parametrize("game", ["baobei", "baohuang"])
def test_in_english_the_sentences_are_the_engines_own(game: str) -> None:
    module = bb_text if game == "baobei" else bh_text
    with translation.override("en"):
        sentences = list(_sentences(game))

    for item, sentence in sentences:
        if "type" in item:
            assert sentence == module.describe_event(item)
        else:
            expected = module.describe_decision(item)
            assert sentence == expected[:1].upper() + expected[1:]


def test_chinese_sentences_name_the_players_in_place_of_their_seats() -> None:
    """The pages replace ``座位N`` as they replace ``Seat N``: a seat, a slot of a seat, a list of seats."""
    pluck = {
        "type": "pluck_resolved",
        "seat": 2,
        "kind": "single",
        "targets": [{"seat": 0, "slot": 1}],
        "success": True,
        "cards": ["magpie"],
    }
    window = {"type": "window_closed", "how": "timeout", "passed": [0, 1, 2]}
    with translation.override("zh-hans"):
        plucked = str(name_seats(describe_event("baobei", pluck), ["ann", "bob", "cy"]))
        closed = str(name_seats(describe_event("baobei", window), ["ann", "bob", "cy"]))

    assert plucked.startswith('<span class="seat-name" data-seat="2"')
    assert ">ann</span>的第1格：成功，拿走了喜鹊。" in plucked
    shown = re.sub(r"<[^>]+>", "", plucked + closed)  # the text; each name's title names its seat
    assert "座位" not in shown
    assert closed.startswith("抓牌时机结束；") and closed.endswith("选择了过。")
    assert ">ann</span>、<span" in closed and ">bob</span>和<span" in closed


def test_card_and_bird_names_and_standing_orders_in_chinese() -> None:
    with translation.override("zh-hans"):
        birds = {code: bird_name(code) for code in CARDS}
        cards = {code: card_name(code) for code in CODES}
        lines = [
            localize(orders.describe_text(o))
            for o in (
                {"kind": "pass_unbeatable", "params": {}, "bound": None},
                {"kind": "play_if_beats", "params": {"cards": ["9", "9"]}, "bound": "2.5"},
                {"kind": "offer", "params": {"answer": "pass"}, "bound": "3"},
                {"kind": "declare", "params": {"answer": "alone"}, "bound": "3"},
                {"kind": "skip_windows", "params": {}, "bound": None},
            )
        ]

    assert (
        birds["shoebill"] == "鲸头鹳"
        and birds["toco_toucan"] == "鞭笞巨嘴鸟"
        and birds["macaw"] == "金刚鹦鹉"
    )
    assert not [name for name in birds.values() if _english_left(name)]
    assert cards["RJ"] == "大王" and cards["BJ"] == "小王" and cards["RJ*"].startswith("标记大王")
    assert lines == [
        "压不过时自动过",
        "能压过就出 9 9，否则问我",
        "让皇帝：让给下家（第3局）",
        "表态：独保（第3局）",
        "抓牌时机不等我",
    ]


def test_a_named_seats_tooltip_and_its_number_beside_a_repeated_name_are_in_chinese() -> None:
    """The title of each name ("seat 2" on hover) and the number beside a name two seats share were
    English on a Chinese page."""
    draw = {"type": "drew", "seat": 2}
    window = {"type": "window_closed", "how": "timeout", "passed": [1, 2]}
    with translation.override("zh-hans"):
        drew = str(name_seats(describe_event("baobei", draw), ["ann", "bob", "cy"]))
        closed = str(name_seats(describe_event("baobei", window), ["ann", "Sam", "Sam"]))

    assert '<span class="seat-name" data-seat="2" title="2号座位">cy</span>' in drew
    assert 'title="1号座位">Sam（座位 1）</span>' in closed
    assert "seat" not in drew.replace("seat-name", "").replace("data-seat", "")
    assert "seat " not in closed
