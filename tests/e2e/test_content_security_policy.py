"""The Content-Security-Policy holds in a real browser: the main pages load, poll and post under it
without a single violation (no inline script, inline handler, inline style or eval; htmx from static)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import lifecycle as game_lifecycle
from apps.leagues import services as league_services
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Collects every CSP violation the page reports, in page order (``securitypolicyviolation`` events).
VIOLATION_LISTENER = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", e => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def _watch(page: Any) -> list[str]:
    """Every console error of the page: a Content-Security-Policy refusal, or htmx refusing to evaluate
    a script expression (an ``hx-trigger`` filter, ``hx-on``) because eval is not allowed."""
    reports: list[str] = []
    page.add_init_script(VIOLATION_LISTENER)
    page.on(
        "console",
        lambda msg: (
            reports.append(f"{msg.text} ({msg.location.get('url')})")
            if msg.type == "error" or "Content Security Policy" in msg.text
            else None
        ),
    )
    page.on("pageerror", lambda exc: reports.append(str(exc)))
    return reports


def _visit(page: Any, url: str) -> list[str]:
    response = page.goto(url)
    assert "script-src 'self'" in response.headers["content-security-policy"], url
    page.wait_for_load_state("networkidle")
    return list(page.evaluate("window.__csp || []"))


def test_the_main_pages_report_no_csp_violation(live_server: Any, page: Any) -> None:
    user = UserFactory(username="wren")
    league = league_services.league_create(creator=user, name="Birds", game="baobei", join=True)
    game = game_lifecycle.game_create(creator=user, engine="baobei", players=3, bots=2, control="live")
    console = _watch(page)
    pages = ["/", "/accounts/login/", "/accounts/signup/", "/leagues/", "/api/docs/"]
    signed_in = [
        "/",
        f"/games/{game.public_id}/",
        f"/games/{game.public_id}/history/",
        "/games/new/",
        "/leagues/",
        f"/leagues/{league.slug}/",
        f"/leagues/{league.slug}/manage/",
        "/accounts/profile/",
        "/api/tokens/",
        "/mail/preferences/",
    ]
    found: dict[str, list[str]] = {}

    for path in pages:
        found[path] = _visit(page, live_server.url + path)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "wren")
    page.fill("input[name=password]", "pw-for-tests-123")
    with page.expect_navigation():  # signed in before the next page is asked for
        page.locator("main form button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    for path in signed_in:
        found["signed in " + path] = _visit(page, live_server.url + path)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.wait_for_selector("#decision")
    page.locator("#decision input[name=slots]").nth(0).check()
    page.locator("#decision input[name=slots]").nth(1).check()
    old = page.locator("#board").element_handle()
    page.locator("#decision").get_by_role("button", name="Look").click()  # an htmx post
    page.wait_for_function("el => !el.isConnected", arg=old)
    page.wait_for_timeout(5000)  # at least one htmx poll of the board
    found["game after a move and a poll"] = list(page.evaluate("window.__csp || []"))

    assert {path: v for path, v in found.items() if v} == {}
    assert console == []
