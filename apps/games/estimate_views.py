"""The expected duration of a game's settings, as JSON for the new-game form (``static/js/estimate.js``)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from . import estimates, lengths
from .clock.controls import CUSTOM_KEYS, DEFAULT_CONTROL
from .errors import ServiceError

_INT = re.compile(r"-?[0-9]{1,12}")


def _int(params: Mapping[str, str], name: str) -> int | None:
    raw = params.get(name, "")
    if raw == "":
        return None
    if _INT.fullmatch(raw) is None:
        raise ServiceError("invalid_options", f"{name} must be a whole number")
    return int(raw)


@require_GET
def estimate(request: HttpRequest) -> JsonResponse:
    """``?game=&players=&length=&control=`` (and a custom length's or control's values; ``sittings=1``:
    the table means to meet at agreed weekly sittings; ``solo=1``: bots take every other seat) → the
    estimate."""
    params = request.GET
    engine = params.get("game", "")
    try:
        values = {key: _int(params, key) for key in lengths.length_keys(engine)}
        custom = {key: _int(params, key) for key in CUSTOM_KEYS}
        found = estimates.estimate_for(
            engine=engine,
            players=_int(params, "players"),
            length=params.get("length") or None,
            control=params.get("control") or DEFAULT_CONTROL,
            options={k: v for k, v in values.items() if v is not None},
            custom={k: v for k, v in custom.items() if v is not None},
            sittings=params.get("sittings", "") in ("1", "true", "on"),
            solo=params.get("solo", "") in ("1", "true", "on"),
        )
    except ServiceError as exc:
        return JsonResponse(exc.to_json(), status=exc.status)
    return JsonResponse(found.to_json())
