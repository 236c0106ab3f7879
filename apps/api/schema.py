"""OpenAPI additions: the shared error body on every operation."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction

ERROR_SCHEMA = {
    "type": "object",
    "description": "Every error: a stable machine-readable code and a human-readable detail.",
    "properties": {
        "code": {"type": "string", "example": "not_your_turn"},
        "detail": {"type": "string"},
        "errors": {"type": "object", "additionalProperties": True, "description": "Field errors (400)."},
    },
    "required": ["code", "detail"],
}

_ALWAYS = {
    "400": "Invalid input, or the rules refuse the action (`code` from the rules file).",
    "401": "Not signed in: send `Authorization: Bearer <token>` or a session cookie.",
    "403": "Signed in, but not allowed (e.g. not seated, not the creator).",
    "404": "No such object.",
    "405": "Method not allowed.",
    "406": "Not acceptable: ask for application/json.",
}
_WRITES = {
    "409": "Conflict with the current state (game not active, key reused, name taken).",
    "413": "The request body is too large (`request_too_large`).",
    "415": "Unsupported media type: send application/json.",
    "429": "Too many writes: wait `Retry-After` seconds.",
}

#: Failures of one operation only.
_BY_OPERATION = {
    "games_act": {"422": "The Idempotency-Key was used for a different action (`idempotency_key_mismatch`)."},
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: document the ``Error`` body for every failure status."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            statuses = dict(_ALWAYS)
            if method in {"post", "put", "patch", "delete"}:
                statuses.update(_WRITES)
            statuses.update(_BY_OPERATION.get(operation.get("operationId", ""), {}))
            responses = operation.setdefault("responses", {})
            for status_code, text in statuses.items():
                responses.setdefault(
                    status_code, {"description": text, "content": {"application/json": {"schema": ref}}}
                )
    return result


class ApiAutoSchema(AutoSchema):
    """Names a nested serializer after its API class (``GameListApi.InputSerializer``: ``GameListInput``)."""

    def get_serializer_name(self, serializer: Any, direction: Direction) -> str:
        qualname = type(serializer).__qualname__
        if "." in qualname:
            outer, inner = qualname.rsplit(".", 1)
            return outer.removesuffix("Api") + inner
        return super().get_serializer_name(serializer, direction)
