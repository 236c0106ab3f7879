"""The API's only request parser: JSON, with the depth bound of ``baogame.jsonlimits``."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from baogame.jsonlimits import JsonTooDeep, check_depth


class BoundedJSONParser(JSONParser):
    """DRF's ``JSONParser`` (which catches only ``ValueError``), refusing JSON nested too deep with 400."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return check_depth(super().parse(stream, media_type, parser_context))
        except (RecursionError, JsonTooDeep):
            raise ParseError(f"JSON parse error - {JsonTooDeep()}") from None
