"""In a real browser: from a game's decision box to the rules section that explains it; the birds."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", "pw-for-tests-123")
    with page.expect_navigation():  # signed in before the next page is asked for
        page.locator("main form button[type=submit]").click()


def test_a_decision_box_link_opens_the_rules_section_that_explains_it(live_server, page, screenshot):
    players = [UserFactory(username=name) for name in ("wren", "tern", "rook")]
    game = GameFactory(engine="baobei", players=3, seated=players)
    log_in(page, live_server.url, "wren")
    page.goto(f"{live_server.url}/games/{game.public_id}/")

    with page.expect_navigation():
        page.locator("#decision").get_by_role("link", name="Rules: setting up a round").click()

    assert page.url.endswith("/rules/baobei/#setup")
    section = page.locator("section#setup")
    assert section.get_by_role("heading", name="Setting up a round").is_visible()
    assert section.evaluate("el => el.matches(':target')")
    top = section.evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < 200  # scrolled to the section
    screenshot("rules-setup")


def test_no_bird_name_is_cut_at_the_card_size_of_the_page(live_server, page, screenshot):
    page.goto(f"{live_server.url}/rules/baobei/")
    page.wait_for_load_state("networkidle")

    cut = page.evaluate(
        """() => [...document.querySelectorAll('.bird-table .card.bird')].filter(card => {
            const name = card.querySelector('.name'), c = card.getBoundingClientRect(),
                  n = name.getBoundingClientRect(), style = getComputedStyle(card);
            const inner = parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
            return n.left < c.left + inner - 0.5 || n.right > c.right - inner + 0.5 ||
                   n.bottom > c.bottom - parseFloat(style.borderBottomWidth) + 0.5 ||
                   name.scrollWidth > name.clientWidth + 0.5;
        }).map(card => card.dataset.card)"""
    )
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('.bird-table .card.bird use')]
                 .map(u => u.getAttribute('href').split('#')[1])"""
    )

    assert cut == []
    assert len(drawn) == 15 and len(set(drawn)) == 15
    screenshot("rules-birds")
