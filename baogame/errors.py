"""Service-level refusals that share the engine's ``{"code", "detail"}`` shape (every app raises them;
``apps.games.errors`` names the same class)."""

from __future__ import annotations

from baogame.rules.core import RuleError


class ServiceError(RuleError):
    """A refusal by the service rather than the rules (not seated, game not active, …).

    ``status`` is the HTTP status the API and pages answer with.
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(code, message)
        self.status = status
