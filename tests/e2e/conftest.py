"""Real-browser tests: Playwright's sync API driving Debian's chromium against ``live_server``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")

# Playwright's sync API runs an event loop in this thread; the ORM calls of the test are still sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _close_what_a_test_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser context a test left open (a failed assertion skips its own ``close()``): a
    page left polling would keep calling the session's live server during later tests, outside their
    database access."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(20_000)
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def screenshot(page: Any) -> Any:
    """Save a screenshot when BAOGAME_SCREENSHOTS names a folder (development only; never committed)."""

    def take(name: str) -> None:
        folder = os.environ.get("BAOGAME_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)

    return take
