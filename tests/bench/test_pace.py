"""The pace benchmark (``bench.pace``): seeded games in simulated time through the clock's banks and
the rules' standing orders. Small runs; what they check holds for any seed.

Rules cited: BH-18 (a lapsed decision takes the seat's default), BB-25.5 3 (the same for Bao Bei).
"""

from __future__ import annotations

import json
import random

from django.core.management import call_command

from bench.pace import model, simulate
from bench.pace.clockwork import make_control, named_controls
from bench.pace.rows import games_for, p90

SHORT_BH = {"target_score": 30, "deal_limit": 1}


def _daily():
    return named_controls()["daily"]


def test_the_model_delay_has_median_two_hours_and_p90_twelve_hours():
    rng = random.Random(7)
    delays = sorted(model.delay(rng) for _ in range(20_000))
    assert abs(delays[10_000] / model.HOUR - 2) < 0.15
    assert abs(delays[18_000] / model.HOUR - 12) < 1.0


def test_a_seeded_game_runs_the_same_twice():
    first = simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=3, orders=True)
    again = simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=3, orders=True)

    assert first == again
    assert first.seconds > 0 and sum(first.asked) > 0


def test_a_smaller_bank_times_out_more_decisions_bh_18():
    daily = _daily()
    tight = make_control(
        "tight", initial=4 * model.HOUR, increment=1 * model.HOUR, cap=4 * model.HOUR, reaction=daily.reaction
    )
    roomy = [simulate.play("baohuang", 5, SHORT_BH, daily, seed=s, orders=False) for s in (1, 2)]
    short = [simulate.play("baohuang", 5, SHORT_BH, tight, seed=s, orders=False) for s in (1, 2)]

    def share(runs: list[simulate.GameRun]) -> float:
        return sum(r.timeouts for r in runs) / sum(sum(r.asked) for r in runs)

    assert share(short) > share(roomy) + 0.1


def test_orders_cut_the_decisions_asked_of_a_bao_huang_seat():
    seeds = (1, 2, 3)
    plain = [simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=s, orders=False) for s in seeds]
    ordered = [simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=s, orders=True) for s in seeds]

    def per_deal(runs: list[simulate.GameRun]) -> float:
        return sum(sum(r.asked) for r in runs) / sum(r.deals * r.players for r in runs)

    assert per_deal(ordered) < 0.95 * per_deal(plain)
    assert all(r.by_orders > 0 for r in ordered) and all(r.by_orders == 0 for r in plain)


def test_bao_bei_windows_are_fixed_reaction_periods_not_banks_bb_25_5():
    run = simulate.play("baobei", 2, {"threshold": 50}, _daily(), seed=1, orders=False)

    assert run.windows_asked > 0
    assert run.deals == 1


def test_a_standard_bao_huang_row_plays_a_quarter_of_the_games():
    assert games_for("baohuang", "standard", 20) == 5
    assert games_for("baohuang", "standard", 4) == 3
    assert games_for("baohuang", "short", 20) == 20


def test_p90_of_one_game_is_that_game():
    assert p90([5.0]) == 5.0
    assert p90([float(i) for i in range(1, 11)]) > 9


def test_the_command_prints_a_table_and_one_json_line_per_row(capsys):
    call_command(
        "bench_pace", "--games", "1", "--game", "baohuang", "--length", "one_deal", "--control", "daily"
    )

    out = capsys.readouterr().out.splitlines()
    rows = [json.loads(line) for line in out if line.startswith("{")]
    assert len(rows) == 1
    keys = {
        "game",
        "players",
        "length",
        "control",
        "sittings",
        "asked_per_seat_per_deal",
        "asked_per_seat_per_deal_with_orders",
        "timeout_share",
        "median_days",
        "p90_days",
        "worst_case_days",
        "estimate_days",
    }
    assert keys <= rows[0].keys()
    assert rows[0]["sittings"] is False and rows[0]["game"] == "baohuang"
