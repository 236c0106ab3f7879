"""A closed account's API tokens are deleted (``accounts.closing.account_closing``): an inactive
account's token is refused already; this leaves none behind."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.accounts.closing import account_closing

from .models import ApiToken


@receiver(account_closing, dispatch_uid="api.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    ApiToken.objects.filter(user=user).delete()
