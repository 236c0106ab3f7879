"""Pairing formats of a league (``League.pairing_format``), each deterministic from the season's seed.

* ``spread`` (``apps.leagues.pairing``): the season's rounds planned together so that opponents
  repeat as little as possible;
* ``swiss`` (``swiss``): each round seats players of similar standing together, rematches avoided first;
* ``round_robin`` (``round_robin``): every pair of a division meets equally often, as far as the
  table sizes allow.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

FORMATS = ("spread", "swiss", "round_robin")
LABELS = {
    "spread": gettext_lazy("Spread the opponents"),
    "swiss": gettext_lazy("Swiss"),
    "round_robin": gettext_lazy("Round robin"),
}
