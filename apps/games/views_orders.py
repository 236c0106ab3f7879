"""The "Standing orders" panel of the game page: the viewer's own orders, toggles and
the "play these if they beat" picker. A plain form (POST, then a redirect) that works without JavaScript;
the API (``/api/v1/games/{id}/orders/``) and mail replies offer the same. Only the seat's player sees it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from baogame.rules import orders as rules
from baogame.rules.core import RuleError

from . import orders
from .errortext import refusal
from .models import Game
from .views import visible_game

#: The tag of a refusal the "Standing orders" panel shows (``base.html`` leaves it to the panel).
PANEL_TAG = "standing-orders"


def _tell_used_at_once(request: AuthenticatedHttpRequest, game: Game) -> None:
    """The order just given is gone already: the decision it answers was open for the seat, so it was
    consulted at once (``orders.arm``) and either answered it (a move was made) or did not fit it and was
    dropped. Either way "saved" would be false: the panel lists no such order."""
    now = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
    if now != game.version:
        text = gettext("Your turn had come already: the order answered it at once (see the board).")
    else:
        text = gettext("Your turn has come already and the order does not fit it: it was dropped.")
    messages.info(request, text, extra_tags=PANEL_TAG)


@login_required
@require_POST
def orders_update(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Set (``do=arm``, ``kind``, ``cards`` / ``answer``), switch (``do=switch``, ``kind``, ``on``), revoke
    (``do=revoke``, ``kind``) or clear (``do=clear``) the viewer's standing orders."""
    game, _ = visible_game(request, public_id, seats="plain")
    do, kind = request.POST.get("do", ""), request.POST.get("kind", "")
    try:
        if do == "arm" or (do == "switch" and request.POST.get("on") == "on"):
            params: dict[str, Any] = {}
            if kind == "play_if_beats":
                params["cards"] = request.POST.getlist("cards")
                if not params["cards"]:
                    raise RuleError("invalid_order", gettext("Tick the cards the order is to play first."))
            elif kind in rules.ANSWERS:
                params["answer"] = request.POST.get("answer", "")
            held = orders.arm(game_id=game.pk, user=request.user, kind=kind, params=params)
            if kind not in {o["kind"] for o in held}:
                _tell_used_at_once(request, game)
                return redirect(f"{game.get_absolute_url()}#standing-orders")
        elif do in ("revoke", "switch"):
            orders.revoke(game_id=game.pk, user=request.user, kind=kind)
        elif do == "clear":
            orders.revoke(game_id=game.pk, user=request.user)
        else:
            raise RuleError("invalid_order", "choose an order to give or to withdraw")
    except RuleError as exc:
        # Shown in the panel itself (``_orders.html``), where the redirect below scrolls: at the top of
        # the page, out of sight, the player would not see why nothing changed.
        messages.error(request, refusal(exc), extra_tags=PANEL_TAG)
    else:
        messages.success(request, gettext("Your standing orders are saved."))
    return redirect(f"{game.get_absolute_url()}#standing-orders")
