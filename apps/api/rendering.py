"""An answer's body through its output serializer, with the serializer's fields made once per class.

``OutputSerializer(body).data`` makes the serializer's fields anew each time: DRF deep-copies every
declared field (each copy runs the field's ``__init__`` again: its error messages merged over its
classes, its validators), and every nested serializer's too. For a game's detail that is most of the
answer's CPU (``python -m bench.profile_moves --kind 'GET games'``), and the same for a game's creation
and a join, which every new table makes.

``rendered(OutputSerializer, body)`` is ``OutputSerializer(body).data``: the same ``ReturnDict`` (or
``ReturnList`` with ``many=True``), equal item by item, with the same ``serializer`` attached (made but
never asked for its fields, which costs nothing). It turns the body into primitives with one template
of the class, made and bound once per process, whose fields are only read while they do.

That is safe for the fields whose ``to_representation`` reads nothing but the value and what the field
was made with (``_PURE``: numbers, text, choices, dates and times, JSON, lists and dicts of those, and
serializers and lists of serializers made of them): they read no context, no request, no parent and no
state a call leaves behind. A serializer with any other field (a method field, a relation, a file, a
hyperlink), with its own ``to_representation`` or list class, or an empty body, is rendered by DRF as
before, each time. A change of DRF's settings (tests) forgets the templates.
"""

from __future__ import annotations

from typing import Any

from django.core.signals import setting_changed
from django.db.models.manager import BaseManager
from django.dispatch import receiver
from rest_framework import fields as drf_fields
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import ReturnDict, ReturnList

#: Fields whose ``to_representation`` depends only on the value and the field's own arguments.
_PURE = (
    drf_fields.BooleanField,
    drf_fields.CharField,  # EmailField, SlugField, URLField, RegexField, …: the same representation
    drf_fields.ChoiceField,
    drf_fields.DateField,
    drf_fields.DateTimeField,  # the current time zone is read at each call
    drf_fields.DecimalField,
    drf_fields.DurationField,
    drf_fields.FloatField,
    drf_fields.IntegerField,
    drf_fields.JSONField,
    drf_fields.ReadOnlyField,
    drf_fields.TimeField,
    drf_fields.UUIDField,
    drf_fields._UnvalidatedField,  # a ListField's or DictField's child by default: the value itself
)

#: A class's bound template, or None when DRF renders it each time.
_templates: dict[type[serializers.Serializer], serializers.Serializer | None] = {}


def rendered(serializer_class: type[serializers.Serializer], body: Any, *, many: bool = False) -> Any:
    """``serializer_class(body, many=many).data``, with the class's fields made once (module doc)."""
    template = _template(serializer_class) if body is not None else None
    if template is None:
        return serializer_class(body, many=many).data
    if many:
        items = body.all() if isinstance(body, BaseManager) else body
        return ReturnList(
            [template.to_representation(item) for item in items],
            serializer=serializer_class(body, many=True),
        )
    return ReturnDict(template.to_representation(body), serializer=serializer_class(body))


def _template(serializer_class: type[serializers.Serializer]) -> serializers.Serializer | None:
    if serializer_class in _templates:
        return _templates[serializer_class]
    template: serializers.Serializer | None = serializer_class()
    if not _pure(template):  # type: ignore[arg-type]
        template = None
    _templates[serializer_class] = template  # another thread may store its own: either is right
    return template


def _pure(field: drf_fields.Field) -> bool:
    """Whether ``field``'s representation depends only on the value it is given (module doc); a
    serializer's fields are made (and bound, once) by asking."""
    kind = type(field)
    if kind.get_attribute is not drf_fields.Field.get_attribute or getattr(
        field.default, "requires_context", False
    ):  # reads the instance its own way, or a default from the context (the request's user)
        return False
    if isinstance(field, serializers.ListSerializer):
        return kind is serializers.ListSerializer and field.child is not None and _pure(field.child)
    if isinstance(field, serializers.Serializer):
        return (
            kind.to_representation is serializers.Serializer.to_representation
            and getattr(getattr(kind, "Meta", None), "list_serializer_class", None) is None
            and not isinstance(field, serializers.ModelSerializer)
            and all(_pure(child) for child in field.fields.values())
        )
    if isinstance(field, drf_fields.ListField | drf_fields.DictField):
        return kind in (drf_fields.ListField, drf_fields.DictField) and _pure(field.child)
    method = kind.to_representation
    return isinstance(field, _PURE) and any(method is pure.to_representation for pure in _PURE)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in {"REST_FRAMEWORK", "USE_TZ", "TIME_ZONE"}:
        _templates.clear()
