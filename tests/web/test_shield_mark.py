"""The Shield's mark beside its caller's BAO badge (BB-11.3) renders on every system: a drawn mark with
a spoken name, not U+26E8, for which Debian's Chromium has no glyph (it showed a box)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .boards import DUCK, EX_13, HUM, ann_bob_and_cy

pytestmark = pytest.mark.django_db

#: EX-13's hands, a duck more to draw; round begun at seat 2's turn (BB-25.3), seat 1 has called BAO
#: and its Shield is active.
SHIELDED = {
    "deal": {**EX_13["deal"], "draw": [HUM, DUCK]},
    "start": {"active": 2, "bao_caller": 1, "shield_active": True},
}


def test_the_active_shield_is_a_drawn_mark_named_shield_active_bb_11_3(client_for: Any) -> None:
    game, users = ann_bob_and_cy(SHIELDED)

    html = client_for(users[0]).get(f"/games/{game.public_id}/").content.decode()

    displays = html.split('<div class="displays">', 1)[1]
    caller = displays.split('data-seat="1"', 1)[1].split('<div class="slots">', 1)[0]
    assert "\u26e8" not in html
    assert re.search(
        r'<svg class="shield-mark"[^>]* role="img" aria-label="Shield active"><title>Shield active', caller
    )
    assert "Shield active" in html.split('class="shield on"', 1)[1][:40]  # the words stay too
