"""Players' names linking to their public pages (``/players/<username>/``, ``apps.games.players``).

``{{ seat|seat_name }}`` for a seat, ``{% player_page username name linked %}`` for a row that knows
the username (a league table's). Only a seat a person or a bot account holds links
(``players.player_linked``): a server bot's seat, an open seat and a closed account's show their plain
label, as before.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ..models import Seat
from ..players import player_linked

register = template.Library()


@register.filter
def seat_name(seat: Seat) -> SafeString | str:
    """The seat's label (``Seat.label``), a link to its player's page when it has one."""
    if seat.bot or seat.user is None or not player_linked(seat.user):
        return seat.label
    return player_page(seat.user.get_username(), seat.label)


@register.simple_tag
def player_page(username: str, name: str, linked: bool = True) -> SafeString | str:
    """``name`` linking to the page of the player ``username``; plain when not ``linked`` (the row
    says whether that player has a page)."""
    if not linked:
        return name
    url = reverse("games:player", args=[username])
    return format_html('<a href="{}" class="player-link">{}</a>', url, name)
