"""The pace benchmark (``bench.pace``): seeded games in simulated time through the clock's banks and
the rules' standing orders. Small runs; what they check holds for any seed.

Rules cited: BH-18 (a lapsed decision takes the seat's default), BB-25.5 3 (the same for Bao Bei).
"""

from __future__ import annotations

import json
import random

from django.core.management import call_command

from apps.games.estimates import read_table
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


def _one_deal_rows(capsys, *extra):
    """The JSON rows of ``bench_pace`` for one one-deal Bao Huang game under ``daily``."""
    one_deal = ["--game", "baohuang", "--length", "one_deal", "--control", "daily"]
    call_command("bench_pace", "--games", "1", *one_deal, *extra)
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]


def test_the_written_table_is_the_one_the_estimates_read(tmp_path, capsys):
    path = tmp_path / "table.json"

    row = _one_deal_rows(capsys, "--write-table", str(path))[0]
    table = read_table(path)
    assert list(table) == [("baohuang", 5, "one_deal", "daily")]
    median, p90_days, deals, games = table[("baohuang", 5, "one_deal", "daily")]
    assert (round(median, 1), round(p90_days, 1), games) == (
        row["median_days"],
        row["p90_days"],
        row["games"],
    )
    assert round(deals, 1) == row["deals"]
    assert "--write-table" in json.loads(path.read_text())["made_with"]


# --- the sittings model (issue point 7) -------------------------------------------------------------------


def test_a_group_sits_twice_a_week_at_the_same_two_hours():
    from bench.pace.sittings import LENGTH, WEEK, weekly

    group = weekly("baohuang", 5)
    first = [group.at_or_after(t) for t in (0.0, group.hours[0] + LENGTH)]
    later = group.at_or_after(3 * WEEK)

    assert len(set(group.hours)) == 2
    assert [s.start for s in first] == list(group.hours)
    assert later.start == 3 * WEEK + group.hours[0] and later.index == 6
    assert later.end - later.start == LENGTH


def test_nine_people_in_ten_come_to_a_sitting():
    from bench.pace.sittings import weekly

    group = weekly("baobei", 1)
    came = [
        group.present(group.at_or_after(week * 7 * model.DAY), seat)
        for week in range(400)
        for seat in range(5)
    ]

    assert 0.87 < sum(came) / len(came) < 0.93


def _at_sitting(present: bool):
    """A decision opened an hour before the group's first sitting, owed by a seat that comes or not."""
    from bench.pace.sittings import weekly

    group = weekly("baohuang", 2)
    sitting = group.at_or_after(0.0)
    seat = next(s for s in range(200) if group.present(sitting, s) == present)
    return group, sitting, seat


class _Never(random.Random):
    def lognormvariate(self, mu, sigma):  # the person would answer only after a week
        return 7 * model.DAY


def test_a_person_at_the_sitting_answers_in_20_s_on_the_live_control():
    """Point 7: 20 s per decision for those present; their own bank ran only until the sitting began
    (it is given back at the end, with no increment for a live answer)."""
    from bench.pace.clockwork import Bank
    from bench.pace.sittings import PER_DECISION

    group, sitting, seat = _at_sitting(present=True)
    opened = sitting.start - model.HOUR
    bank = Bank(_daily())

    owed = simulate._schedule({"timing": "turn"}, bank, _daily(), opened, _Never(), seat, group)

    assert (owed.due, owed.lapsed, owed.live_from) == (sitting.start + PER_DECISION, False, sitting.start)


def test_the_bot_plays_a_missing_seat_after_the_grace_period_on_its_own_bank():
    """Point 7 and 5: every simulated person opted in to the bot playing their seat in a sitting they
    miss; it answers once the grace period is over, charged to their correspondence bank."""
    from bench.pace.clockwork import Bank
    from bench.pace.sittings import GRACE

    group, sitting, seat = _at_sitting(present=False)
    opened = sitting.start - model.HOUR

    owed = simulate._schedule({"timing": "turn"}, Bank(_daily()), _daily(), opened, _Never(), seat, group)

    assert (owed.due, owed.lapsed, owed.live_from) == (sitting.start + GRACE, False, None)


def test_sittings_shorten_a_game_and_run_the_same_twice():
    plain = simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=4, orders=True)
    sat = simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=4, orders=True, sittings=True)
    again = simulate.play("baohuang", 5, SHORT_BH, _daily(), seed=4, orders=True, sittings=True)

    assert sat == again
    assert sat.seconds < plain.seconds / 3


def test_sittings_rows_carry_sittings_true_and_the_same_keys(capsys):
    plain, sat = _one_deal_rows(capsys)[0], _one_deal_rows(capsys, "--sittings")[0]

    assert plain["sittings"] is False and sat["sittings"] is True
    assert plain.keys() == sat.keys()
