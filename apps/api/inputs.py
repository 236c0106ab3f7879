"""Input serializers that accept exactly what the OpenAPI schema documents, and nothing DRF would coerce.

DRF is lenient: a ``CharField`` takes ``0`` as ``"0"``, an ``IntegerField`` takes ``"7"``, ``"7.0"`` or
``"٧"``, a ``BooleanField`` takes ``"yes"`` or ``0``, a ``DateTimeField`` takes ``"2030-01-01 10:00"``,
and a ``CharField`` trims its value before checking its length. The schema (built from the same
fields) promises the JSON types and formats, so a client is refused (400 ``invalid``) for what the
schema forbids:

* ``JsonInput``, for JSON bodies: every value must already have its field's JSON type (recursively
  through lists and objects), strings their length untrimmed, date-times RFC 3339.
* ``QueryInput``, for query strings: integers are ASCII digits, booleans ``true`` or ``false``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from django.core.validators import (
    MaxValueValidator,
    MinValueValidator,
    ProhibitNullCharactersValidator,
    RegexValidator,
)
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from apps.games import lengths as game_lengths

_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})"
)
_QUERY_INT = re.compile(r"-?[0-9]{1,18}")
_QUERY_BOOL = {"true": True, "false": False}

#: One line of text, such as a mail subject: no control characters (a line break would end a header).
#: The schema shows it as the pattern ``^[^\u0000-\u001f\u007f]*$``.
NO_CONTROL_CHARACTERS = RegexValidator(
    r"\A[^\x00-\x1f\x7f]*\Z", message="Control characters are not allowed.", code="control_characters"
)


def json_type_error(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` is not of the JSON type (and format) that ``field`` documents, or None."""
    if value is None:
        return None  # the field's own allow_null decides
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be a boolean (true or false)."
    if isinstance(field, serializers.IntegerField):
        ok = type(value) is int or (type(value) is float and value.is_integer())
        return None if ok else "Must be an integer."
    if isinstance(field, (serializers.FloatField, serializers.DecimalField)):
        return None if type(value) in (int, float) else "Must be a number."
    if isinstance(field, serializers.DateTimeField):
        ok = isinstance(value, str) and _RFC3339.fullmatch(value) is not None
        return None if ok else "Must be an RFC 3339 date-time, such as 2030-01-31T18:00:00Z."
    if isinstance(field, (serializers.CharField, serializers.ChoiceField)):
        if not isinstance(value, str):
            return "Must be a string."
        max_length = getattr(field, "max_length", None)
        if max_length is not None and len(value) > max_length:  # before DRF trims it
            return f"Ensure this field has no more than {max_length} characters."
        return None
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return "Must be a list."
        errors = (f"item {i}: {e}" for i, v in enumerate(value) if (e := json_type_error(field.child, v)))
        return next(errors, None)
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return "Must be an object."
        errors = (f"{k}: {e}" for k, v in value.items() if (e := json_type_error(field.child, v)))
        return next(errors, None)
    return None  # JSONField and the like take any JSON; nested serializers check themselves


# No docstrings on the two base classes: drf-spectacular would show them on every input in the schema.


class JsonInput(serializers.Serializer):
    # A JSON body's serializer: values of the wrong JSON type are refused, not coerced.

    #: Refuse fields the serializer does not name, where one mistyped would change what the request
    #: does rather than fail it (a league join without its ``invite_token`` is a request to join).
    refuse_unknown_fields: ClassVar[bool] = False

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            errors = {
                name: [error]
                for name, field in self.fields.items()
                if not field.read_only and name in data and (error := json_type_error(field, data[name]))
            }
            if self.refuse_unknown_fields:
                errors |= {str(name): ["Unknown field."] for name in data if name not in self.fields}
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


def parsed(serializer: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``data`` as ``serializer`` validates it (a JSON body, a query string); a ValidationError, answered
    400 ``invalid`` with the fields' messages, when it refuses them."""
    checked = serializer(data=data)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


def query_int(raw: str, name: str) -> int:
    """A query-string integer: optional minus sign and ASCII digits, nothing else."""
    if _QUERY_INT.fullmatch(raw) is None:
        raise serializers.ValidationError({name: ["A valid integer is required."]})
    return int(raw)


_QUERY_UINT = re.compile(r"[0-9]{1,18}")
#: The validators an ``IntegerField`` makes of its ``min_value`` and ``max_value`` (``quick`` checks those).
_RANGE_VALIDATORS = (MinValueValidator, MaxValueValidator)
#: The validators DRF gives every ``CharField``, which a query string's text passes unless it holds
#: NUL or a lone surrogate (``_UNSAFE_TEXT``).
_TEXT_VALIDATORS = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)
_UNSAFE_TEXT = re.compile("[\x00\ud800-\udfff]")


def _quick_text(cls: type[serializers.Serializer], name: str, field: Any, raw: str) -> Any:
    """The value of the text field ``name`` for ``raw`` as the serializer validates it: kept as sent (no
    trimming, a blank one allowed), then its ``validate_<name>``; None when any of that is not so, or
    when the check refuses it (the serializer then says why)."""
    if (
        field.trim_whitespace
        or not field.allow_blank
        or any(type(v) not in _TEXT_VALIDATORS for v in field.validators)
        or _UNSAFE_TEXT.search(raw) is not None
    ):
        return None
    try:
        return getattr(cls(), f"validate_{name}")(raw)
    except Exception:  # noqa: BLE001 - refused, or a check that needs the serializer's data: its own way
        return None


class QueryInput(serializers.Serializer):
    # A query string's serializer: ``?limit=`` or ``?limit=1.0`` is refused, not read as the default.

    @classmethod
    def quick(cls, data: Mapping[str, Any]) -> dict[str, Any] | None:
        # ``validated_data`` for a plain query (known names; integer fields of ASCII digits in range,
        # text fields kept as sent), without making the serializer's fields (DRF deep-copies every
        # field of it): what the two hottest reads and writes send. A text field's ``validate_<name>``
        # runs as the serializer would run it. None for anything else: then the serializer parses, and
        # refuses.
        fields = cls._declared_fields
        if cls.validate is not serializers.Serializer.validate or any(name not in fields for name in data):
            return None
        values: dict[str, Any] = {}
        for name, field in fields.items():
            checked = hasattr(cls, f"validate_{name}")
            if name not in data:  # DRF: the default (then its ``validate_<name>``), or nothing
                if field.required or (field.default is not empty and (checked or callable(field.default))):
                    return None
                if field.default is not empty:
                    values[name] = field.default
                continue
            raw = data.get(name)
            if field.read_only or not isinstance(raw, str):
                return None
            if type(field) is serializers.CharField:
                value = _quick_text(cls, name, field, raw) if checked else None
                if value is None:
                    return None
                values[name] = value
                continue
            if (
                type(field) is not serializers.IntegerField
                or checked
                or any(type(v) not in _RANGE_VALIDATORS for v in field.validators)
                or _QUERY_UINT.fullmatch(raw) is None
            ):
                return None
            value = int(raw)
            low, high = field.min_value, field.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                return None
            values[name] = value
        return values

    def to_internal_value(self, data: Any) -> Any:
        values: dict[str, Any] = {}
        for name, field in self.fields.items():
            if name not in data:
                continue
            raw = data.get(name)
            if isinstance(field, serializers.BooleanField):
                if raw not in _QUERY_BOOL:
                    raise serializers.ValidationError({name: ["Must be true or false."]})
                values[name] = _QUERY_BOOL[raw]
            elif isinstance(field, serializers.IntegerField):
                values[name] = query_int(raw, name)
            else:
                values[name] = raw
        return super().to_internal_value(values)


def length_field(*, where: str, options: str) -> serializers.ChoiceField:
    """A match length by name (``apps.games.lengths``), optional: every game's names in the schema,
    with what each means; the service refuses a name the game does not have (``invalid_length``).
    ``where`` says whose length it is, ``options`` where a custom length's values go."""
    return serializers.ChoiceField(
        choices=game_lengths.all_names(),
        required=False,
        allow_null=True,
        default=None,
        help_text=f"The match length by name, {where}: "
        + game_lengths.names_text().replace(" in options", f" in {options}")
        + ". Omitted: the options decide. A name the game does not have, or custom without a value: "
        "invalid_length; a value the rules refuse: invalid_options.",
    )
