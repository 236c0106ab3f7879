"""Service-level refusals that share the engine's ``{"code", "detail"}`` shape: ``ServiceError`` lives in
``baogame.errors``, below every app, so that the accounts app raises it too."""

from __future__ import annotations

from baogame.errors import ServiceError as ServiceError
