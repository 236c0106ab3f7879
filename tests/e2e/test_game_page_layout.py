"""In a real browser: the game page's panels line up, and only the list of moves scrolls."""

from __future__ import annotations

import pytest

from tests.e2e.test_rules_in_browser import log_in
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_what_happened_lines_up_with_the_panels_and_only_its_list_scrolls(live_server, page, screenshot):
    """The "What happened" section is a panel holding an ``ol.history``; the list's own style (its
    scroll height and narrow inset) must not land on the section around it."""
    players = [UserFactory(username=name) for name in ("wren", "tern", "rook")]
    game = GameFactory(engine="baobei", players=3, seated=players)
    log_in(page, live_server.url, "wren")
    page.goto(f"{live_server.url}/games/{game.public_id}/")

    heading_left = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('section.panel')]
              .filter(p => p.id).map(p => [p.id, p.querySelector('h2').getBoundingClientRect().left]))"""
    )
    section = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('section#history'));"
        " return [s.overflowY, s.maxHeight]; }"
    )

    assert {"history", "seed"} <= heading_left.keys()
    assert heading_left["history"] == pytest.approx(heading_left["seed"], abs=0.5)
    assert section == ["visible", "none"]
    screenshot("game-panels")


def test_every_field_of_the_new_game_form_sits_as_close_to_its_label(live_server, page, screenshot):
    """Text boxes and menus (a checkbox has the browser's own margin). A field's wrapper is named
    ``field-<name>``: plain ``players`` was the Bao Huang board's seat row, whose flex gap pushed the
    Players box away from its label."""
    UserFactory(username="wren")
    log_in(page, live_server.url, "wren")
    page.goto(f"{live_server.url}/games/new/")
    page.check("input[name=opponents][value=some]")  # shows the number of bots

    gaps = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#new-game .field:not([hidden])')]
            .flatMap(f => {
            const label = f.querySelector('label');
            const box = f.querySelector('input:not([type=checkbox]), select');
            const gap = box && box.getBoundingClientRect().top - label.getBoundingClientRect().bottom;
            return box ? [[box.name, gap]] : [];
        }))"""
    )

    assert {"players", "bots", "title"} <= gaps.keys()
    assert max(gaps.values()) - min(gaps.values()) < 1
    screenshot("new-game")
