"""Browser-test helpers: sign a user in, run axe-core on a page, measure overflow.

axe-core (``vendor/axe-core``, MPL-2.0) is evaluated through the DevTools protocol, which a page's
Content-Security-Policy does not govern, so the site needs no exception for it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django.test import Client

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
#: The impacts the issue forbids; "moderate" and "minor" findings are reported by axe but allowed.
FORBIDDEN_IMPACTS = {"serious", "critical"}
RUN_AXE = "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def sign_in(page: Any, live_server: Any, user: Any) -> None:
    """Give the browser a session of ``user`` (as after logging in)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one line each."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    violations = page.evaluate(RUN_AXE)
    return [
        f"{v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:5])}"
        for v in violations
        if v["impact"] in FORBIDDEN_IMPACTS
    ]


def overflow(page: Any) -> int:
    """How many pixels the page is wider than the window (0: nothing sticks out sideways)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))
