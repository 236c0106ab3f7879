"""The choices a mail lists: each legal choice once, whatever the order of its order-free fields."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from apps.notifications import commands
from apps.notifications.compose import choices, describe_decision, open_decision
from apps.notifications.mails import render_mail
from baogame.rules.baobei.cards import CARDS
from baogame.rules.registry import get_engine
from tests.notifications.conftest import play_game
from tests.rules.baobei import helpers as bb
from tests.rules.baobei.helpers import a_game, play
from tests.rules.baohuang import helpers as bh

pytestmark = pytest.mark.django_db


def test_a_setup_peek_is_listed_once_not_once_per_order_of_its_slots(users: list[Any]) -> None:
    """Bao Bei's setup peek (BB-22) is a set of two slots: ``peek 0 1`` is listed, ``peek 1 0`` is not."""
    game = play_game("baobei", users[:1], 3)

    lines = [str(line) for line in choices(game, 0)]

    peeks = [line for line in lines if line.startswith("peek ")]
    as_sets = [frozenset(commands.parse_command(engine="baobei", text=line)["slots"]) for line in peeks]
    assert peeks
    assert len(as_sets) == len(set(as_sets)), peeks


def _pluck_window_for_seat_0(users: list[Any]) -> Any:
    """A three-seat Bao Bei game in which seat 1 has just discarded: seat 0 may pluck or pass (BB-7)."""
    birds = ["sparrow", "magpie", "peacock", "crested_ibis"]
    state = a_game([birds, birds[::-1], birds], draw=["kingfisher", "sparrow"], active=1)
    state = play(play(state, 1, "draw"), 1, "discard")
    game = play_game("baobei", users[:1], 3)
    game.state = state
    return game


def test_a_plucking_window_mail_shows_the_pluck_pattern_with_examples_not_a_sample_bb_22(
    users: list[Any],
) -> None:
    """BB-22: the hundreds of plucks of a window are two examples, the commands' pattern with what each
    part means, and the pass; no arbitrary sample and no "more like these"."""
    game = _pluck_window_for_seat_0(users)

    lines = [str(line) for line in choices(game, 0)]

    assert lines[:3] == ["pluck 1.0 gift 0", "double 0.0 1.0 gift - 1", "… and 910 more, written as:"]
    assert lines[3].startswith("pluck S.K gift G  -  pluck the card at seat S, slot K, giving your slot G")
    assert lines[4].startswith("double S.K S.K gift G G  -  pluck two cards at once")
    assert lines[5:] == ["pass"]
    assert not [line for line in lines if "more like these" in line]


def test_the_pluck_examples_are_legal_commands_that_name_no_card_bb_20_9(users: list[Any]) -> None:
    """BB-20.9: the examples are positions the reader can see, never a card, face down or not."""
    game = _pluck_window_for_seat_0(users)
    legal = get_engine("baobei").legal_actions(game.state, 0)

    examples = [
        line.command
        for line in choices(game, 0)
        if line.command.startswith(("pluck ", "double ")) and not line.meaning
    ]

    parsed = [commands.parse_command(engine="baobei", text=line) for line in examples]
    assert len(examples) == 2
    assert all({**action, "decision_id": "w0"} in legal for action in parsed)
    words = " ".join(str(line) for line in choices(game, 0)).lower()
    assert not [code for code, card in CARDS.items() if code in words or card["name"].lower() in words]


def _ability_for_seat_0(users: list[Any], card: str, extra: list[str] | None = None) -> Any:
    """Seat 0 drew ``card`` and discarded it; the window closed; its ability is offered (BB-9)."""
    state = bb.play(bb.a_game(bb.FOUR, draw=[card, *(extra or [])]), 0, "draw")
    state = bb.pass_all(bb.play(state, 0, "discard"))
    if card == bb.SHOEBILL:
        state = bb.play(state, 0, "use_ability", ability="shoebill")
    game = play_game("baobei", users[:1], 3)
    game.state = state
    return game


@pytest.mark.parametrize(
    ("card", "pattern"),
    [
        (bb.CUCKOO, "swap S.K S.K"),
        (bb.MACAW, "macaw S.K S.K"),
        (bb.SHOEBILL, "place mine C K theirs C S.K"),
    ],
)
def test_an_ability_with_many_targets_is_mailed_as_examples_and_its_pattern_bb_9(
    users: list[Any], card: str, pattern: str
) -> None:
    """BB-9.9, BB-9.10, BB-9.12: the Cuckoo's and the Macaw's pairs of cards and the Shoebill's
    placements are too many to list: legal examples, the pattern with its meaning, the decline."""
    game = _ability_for_seat_0(users, card, [bb.GOLDEN, bb.PEACOCK])
    legal = [
        _same({k: v for k, v in a.items() if k != "decision_id"})
        for a in get_engine("baobei").legal_actions(game.state, 0)
    ]

    lines = choices(game, 0)

    typed = [commands.parse_command(engine="baobei", text=line.command) for line in lines if not line.meaning]
    assert [line.command for line in lines if line.meaning and line.command] == [pattern]
    assert len(typed) >= 2 and all(_same(action) in legal for action in typed)
    assert not [line for line in lines if "more like these" in str(line)]


@pytest.mark.parametrize("card", [bb.CUCKOO, bb.MACAW])
def test_a_pair_of_cards_in_either_order_is_counted_as_one_choice_bb_9_9_bb_9_10(
    users: list[Any], card: str
) -> None:
    """BB-9.9, BB-9.10: swapping (or looking at) A and B is swapping B and A: the mail's "… and N more"
    counts each pair of cards once, although the engine lists both orders."""
    game = _ability_for_seat_0(users, card, [bb.GOLDEN, bb.PEACOCK])
    pairs = {
        frozenset(json.dumps(t, sort_keys=True) for t in a["targets"])
        for a in get_engine("baobei").legal_actions(game.state, 0)
        if a["type"] == "use_ability"
    }

    lines = choices(game, 0)

    examples = [
        line for line in lines if line.command and not line.meaning and line.command.split()[0] != "decline"
    ]
    more = next(line.meaning for line in lines if line.meaning.startswith("… and "))
    assert more == f"… and {len(pairs) - len(examples)} more, written as:"


# --- Bao Huang's turns (BH-10 to BH-12, BH-22) ------------------------------------------------------

#: A hand with hundreds of plays: four of each rank 6 … 2 and four jokers (BH-10).
BIG_HAND = [c for c in ["6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"] for _ in range(4)] + [
    "BJ",
    "RJ",
    "RJ",
    "BJ",
]
REST = [["6"], ["7", "7"], ["8", "8"], ["9", "9"]]


def _bao_huang(users: list[Any], state: dict[str, Any]) -> Any:
    game = play_game("baohuang", users[:1], 5)
    game.state = state
    return game


def _leading(users: list[Any]) -> Any:
    """Seat 0 is the emperor (``RJ*``, kept) and leads the first trick with ``BIG_HAND`` (BH-12.1)."""
    state, _ = bh.keep_and_declare(bh.a_game([[*BIG_HAND, "RJ*"], *REST[:3], ["BJ*", "10"]]))
    assert get_engine("baohuang").pending(state)[0]["seats"] == [0]
    return _bao_huang(users, state)


def _following_a_pair(users: list[Any]) -> Any:
    """Seat 4, the emperor, leads 6 6; seat 0 may beat it with any pair of ``BIG_HAND`` or pass."""
    hands = [BIG_HAND, ["BJ*", "7"], ["8"], ["9"], ["RJ*", "6", "6", "J"]]
    state, _ = bh.keep_and_declare(bh.a_game(hands))
    state, _ = bh.act(state, 4, {"type": "play", "cards": ["6", "6"]})
    assert get_engine("baohuang").pending(state)[0]["seats"] == [0]
    return _bao_huang(users, state)


def _same(action: dict[str, Any]) -> dict[str, Any]:
    return {**action, "cards": sorted(action["cards"])} if "cards" in action else action


def _typed_back(game: Any, seat: int = 0) -> list[dict[str, Any]]:
    """Every choice line that is a command alone (no pattern), read by the inbound mail parser."""
    return [
        _same(commands.parse_command(engine=game.engine, text=line.command))
        for line in choices(game, seat)
        if line.command and not line.meaning
    ]


def test_a_bao_huang_lead_mail_gives_examples_and_the_play_pattern_not_a_sample_bh_10_bh_12_3(
    users: list[Any],
) -> None:
    """BH-10, BH-12.3: at the lead hundreds of combinations are legal; the mail gives a few examples,
    the pattern of a play with what it means, no pass (a lead cannot pass) and no "more like these"."""
    game = _leading(users)

    lines = choices(game, 0)

    text = [str(line) for line in lines]
    examples = [line.command for line in lines if line.command.startswith("play ") and not line.meaning]
    assert examples == ["play 6", "play 6 6 6 6", "play 6 RJ"]
    assert text[3].startswith("… and ") and text[3].endswith(" more, written as:")
    assert text[4].startswith("play C C …  -  the cards of your hand to play (C: a card), in any order")
    assert text[5] == "play C C … nobeat  -  the same, asking the others not to beat it"
    assert "pass" not in text
    assert not [line for line in text if "more like these" in line]


def test_a_bao_huang_follow_mail_gives_examples_the_pattern_of_that_size_and_the_pass_bh_11_bh_12_3(
    users: list[Any],
) -> None:
    """BH-11, BH-12.3: against a pair the pattern is two cards, each higher; passing is legal."""
    game = _following_a_pair(users)

    lines = choices(game, 0)

    text = [str(line) for line in lines]
    patterns = [line for line in lines if line.command.startswith("play C")]
    assert [p.command for p in patterns] == ["play C C", "play C C nobeat"]
    assert patterns[0].meaning.startswith("2 cards of your hand (C: a card): one rank with any jokers")
    assert "pass" in text
    assert len([line for line in lines if line.command.startswith("play ") and not line.meaning]) == 3
    assert not [line for line in text if "more like these" in line]


@pytest.mark.parametrize("position", [_leading, _following_a_pair])
def test_every_bao_huang_example_is_a_legal_action_the_reply_parser_reads_bh_20_bh_22(
    users: list[Any], position: Any
) -> None:
    """BH-20, BH-22: each command line of the mail, typed back, is one of the seat's legal actions."""
    game = position(users)
    legal = [_same(a) for a in get_engine("baohuang").legal_actions(game.state, 0)]

    typed = _typed_back(game)

    assert len(typed) >= 3
    assert all(action in legal for action in typed), typed


def test_a_small_bao_huang_turn_lists_every_choice_bh_22(users: list[Any]) -> None:
    """BH-22: six plays that beat a single 6, the pass and four guesses are all listed, no pattern."""
    hands = [["7", "8", "9", "10", "J", "Q"], ["BJ*", "7"], ["8"], ["9"], ["RJ*", "6", "J"]]
    state, _ = bh.keep_and_declare(bh.a_game(hands))
    state, _ = bh.act(state, 4, {"type": "play", "cards": ["6"]})
    game = _bao_huang(users, state)
    legal = [_same(a) for a in get_engine("baohuang").legal_actions(game.state, 0)]

    lines = choices(game, 0)

    assert all(not line.meaning for line in lines)
    assert sorted(_typed_back(game), key=str) == sorted(legal, key=str)
    assert len(lines) == 11


#: Bao Huang from its second deal, after a deal the imperial side won: the commoners owe tribute (BH-25.5).
AFTER_A_WON_DEAL = {"start": {"deal": 2, "previous": {"emperor": 1, "partner": 2, "result": "won"}}}


@pytest.mark.parametrize(
    ("engine", "players", "seed", "options"),
    [("baohuang", 5, 1, AFTER_A_WON_DEAL), ("baobei", 3, 2, {}), ("baobei", 4, 3, {})],
)
def test_no_decision_of_either_game_is_mailed_as_a_sample_bb_22_bh_22(
    users: list[Any], engine: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    """BB-22, BH-22: along a game played by random legal actions (Bao Huang from a tribute, BH-5), every
    decision's mail lists its choices or writes them as examples and patterns, never "… and N more
    like these"; every command line of it, typed back, is a legal action of that seat."""
    rules = get_engine(engine)
    rng = random.Random(seed)
    state = rules.setup(players, {**rules.default_options(players), **options}, seed)
    game = play_game(engine, users[:1], players)
    kinds: set[str] = set()
    for _ in range(250):
        decisions = rules.pending(state)
        if not decisions:
            break
        seat = decisions[0]["seats"][0]
        legal = rules.legal_actions(state, seat)
        game.state = state
        lines = choices(game, seat)
        kinds.add(decisions[0]["kind"])
        assert not [str(line) for line in lines if "more like these" in str(line)], decisions[0]["kind"]
        typed = [commands.parse_command(engine=engine, text=c.command) for c in lines if not c.meaning]
        undecided = [_same({k: v for k, v in a.items() if k != "decision_id"}) for a in legal]
        assert all(_same(action) in undecided for action in typed), decisions[0]["kind"]
        kind = rng.choice(sorted({a["type"] for a in legal} - {"guess_partner"}))  # each kind as likely
        state, _ = rules.apply(state, seat, rng.choice([a for a in legal if a["type"] == kind]))
    assert len(kinds) >= 3 and (engine != "baohuang" or "tribute" in kinds), kinds


@pytest.mark.parametrize(
    ("position", "command", "meaning", "example"),
    [
        (_leading, "play C C …", "the cards of your hand to play", "play 6 RJ"),
        (
            _pluck_window_for_seat_0,
            "pluck S.K gift G",
            "pluck the card at seat S, slot K",
            "pluck 1.0 gift 0",
        ),
    ],
)
def test_the_html_mail_sets_only_the_command_in_code_its_meaning_in_plain_text(
    users: list[Any], position: Any, command: str, meaning: str, example: str
) -> None:
    """The HTML body (Bao Huang's plays, Bao Bei's plucks): ``<code>`` holds what a person types; the
    pattern's meaning and the note ("… and N more, written as:") are plain text beside it. The text
    body keeps "command  -  meaning" on one line."""
    game = position(users)
    context = {"heading": "Your move", "game_name": "g", "choices": choices(game, 0), "link": "https://x/"}

    message = render_mail(to="a@example.com", subject="s", template="notification", context=context)

    html_body = message.alternatives[0][0]
    assert f"<li><code>{command}</code> – {meaning}" in html_body
    assert f"<li><code>{example}</code></li>" in html_body
    assert "<li><code>pass</code></li>" in html_body or position is _leading
    assert "<code>… and" not in html_body
    assert "<li>… and " in html_body
    assert f"{command}  -  {meaning}" in message.body


def test_a_bao_huang_turn_at_the_lead_is_mailed_as_a_lead_not_as_play_or_pass_bh_11_1(
    users: list[Any],
) -> None:
    """BH-11.1: the leader must play, so the mail asks for a lead; a follower may play or pass."""
    leading, following = _leading(users), _following_a_pair(users)

    assert describe_decision("baohuang", open_decision(leading, 0) or {}) == "Lead a combination."
    assert describe_decision("baohuang", open_decision(following, 0) or {}) == "Play or pass."


def test_the_emperor_offer_and_the_declarations_are_mailed_as_what_they_are_bh_6_2_bh_8(
    users: list[Any],
) -> None:
    """Both are decisions of kind ``declare``: the offer's mail asks to keep or pass the marked red
    joker, the declarations' to declare, never "the emperor offer or the declarations" once the offer
    is settled."""
    hands = [["RJ*", "6", "7"], ["BJ*", "8"], ["9"], ["10"], ["J"]]
    offered = _bao_huang(users, bh.a_game(hands))
    state, _ = bh.act(bh.a_game(hands), 0, {"type": "keep_emperor"})
    declaring = _bao_huang(users, state)

    offer = describe_decision("baohuang", open_decision(offered, 0) or {})
    declare = describe_decision("baohuang", open_decision(declaring, 2) or {})

    assert offer == "Keep the marked red joker (become emperor) or pass it on."
    assert declare == "Declare (pledge, announce alone) or make no declaration."
