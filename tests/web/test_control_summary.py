"""A time control's summary says its bank, increment and cap as the clocks say time (DESIGN.md,
"Clocks, reaction windows, standing orders and sittings": a bank, an increment per answered decision, a
cap): a value that is not a whole number of days, hours or minutes is not rounded to one ("1 minute"
for 72 s, "1.0 hours" for 3690 s), and one that is keeps its words ("36 hours")."""

from __future__ import annotations

import pytest

from apps.games import lifecycle
from apps.games.clock.controls import NAMED_CONTROLS, control_from
from apps.games.presenters.timeleft import control_summary
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

#: The QA report's custom control: a 0.02 h bank (72 s), +0 per move, up to 0.02 h.
SEVENTY_TWO = {"initial": 72, "increment": 0, "cap": 72}


def test_a_bank_of_72_seconds_reads_as_the_clocks_write_it_not_as_one_minute(client_for) -> None:
    ann, bob = UserFactory(), UserFactory()
    game = lifecycle.game_create(
        creator=ann, engine="baobei", players=2, control="custom", control_custom=SEVENTY_TWO
    )
    lifecycle.game_join(game_id=game.pk, user=bob)

    html = client_for(ann).get(f"/games/{game.public_id}/").content.decode()

    assert "Time control: Custom, 1 min 12 s, +0 s per move, up to 1 min 12 s." in html
    assert "1 minute" not in html


@pytest.mark.parametrize(
    ("custom", "summary"),
    [
        ({"initial": 90, "increment": 30, "cap": 150}, "1 min 30 s, +30 s per move, up to 2 min 30 s"),
        ({"initial": 3690, "increment": 90, "cap": 7200}, "1 h 1 min, +1 min 30 s per move, up to 2 hours"),
        ({"initial": 90030, "increment": 3600, "cap": 129600}, "1 day 1 h, +1 hour per move, up to 36 hours"),
    ],
)
def test_a_custom_control_that_is_not_in_whole_units_is_summarised_as_the_clocks_write_it(
    custom: dict[str, int], summary: str
) -> None:
    control = control_from("custom", custom)

    assert control_summary(control) == summary
    assert control.summary() == summary  # the API's summary, in English


def test_the_named_controls_keep_their_summaries() -> None:
    assert {name: control_summary(c) for name, c in NAMED_CONTROLS.items()} == {
        "live": "15 minutes, +30 s per move, up to 15 minutes",
        "daily": "3 days, +1 day per move, up to 5 days",
        "relaxed": "5 days, +2 days per move, up to 10 days",
        "weekly": "7 days, +3 days per move, up to 14 days",
    }
    assert {name: c.summary() for name, c in NAMED_CONTROLS.items()} == {
        name: control_summary(c) for name, c in NAMED_CONTROLS.items()
    }
