"""Writes of the api app: personal API tokens and bot accounts."""

from __future__ import annotations

import re
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from apps.accounts.models import Profile
from apps.accounts.names import bot_name_problem, display_name_problem, one_line, username_problem
from apps.games.errors import ServiceError

from .models import ApiToken, token_digest

#: How many live tokens one account may hold.
MAX_TOKENS_PER_USER = 20
#: How many bot accounts one person may own.
MAX_BOTS_PER_OWNER = 10
TOKEN_PREFIX = "bg_"
_USERNAME = re.compile(r"^[A-Za-z0-9_.+-]{3,40}$")


def _is_bot(user: User) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_bot_account)


def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Create a named token for ``user``; returns the row and the secret, which is shown only now."""
    name = name.strip()
    if not name or len(name) > 60:
        raise ServiceError("invalid_name", "a token name is 1-60 characters")
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
        raise ServiceError("too_many_tokens", f"at most {MAX_TOKENS_PER_USER} tokens per account")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, prefix=raw[:10], digest=token_digest(raw))
    return token, raw


def token_revoke(*, user: User, token_id: int) -> None:
    """Delete one of the user's tokens, or of a bot account the user owns."""
    deleted, _ = ApiToken.objects.filter(pk=token_id).filter(_owned_by(user)).delete()
    if not deleted:
        raise ServiceError("not_found", "no such token", status=404)


def _owned_by(user: User) -> Q:
    return Q(user=user) | Q(user__profile__bot_owner=user, user__profile__is_bot_account=True)


def bot_account_create(*, owner: User, username: str, display_name: str = "") -> User:
    """Create a bot account owned by ``owner``: no password login, played through API tokens."""
    if _is_bot(owner):
        raise ServiceError("forbidden", "a bot account cannot own bots", status=403)
    if not _USERNAME.match(username or ""):
        raise ServiceError("invalid_username", "3-40 letters, digits or . + - _")
    if Profile.objects.filter(bot_owner=owner, is_bot_account=True).count() >= MAX_BOTS_PER_OWNER:
        raise ServiceError("too_many_bots", f"at most {MAX_BOTS_PER_OWNER} bot accounts per person")
    display_name = one_line(display_name)
    reserved = bot_name_problem(name=display_name)
    if reserved:
        raise ServiceError("reserved_name", reserved)
    for problem in (display_name_problem(name=display_name, user=None), username_problem(username=username)):
        if problem:
            raise ServiceError("display_name_taken", problem, status=409)
    user_model = get_user_model()
    try:
        with transaction.atomic():
            if user_model.objects.filter(username__iexact=username).exists():
                raise IntegrityError
            bot = user_model(username=username)
            bot.set_unusable_password()
            bot.save()
            Profile.objects.update_or_create(
                user=bot,
                defaults={"is_bot_account": True, "bot_owner": owner, "display_name": display_name[:60]},
            )
    except IntegrityError:
        raise ServiceError("username_taken", "that username is taken", status=409) from None
    return bot


def bot_token_create(*, owner: User, bot_id: int, name: str) -> tuple[ApiToken, str]:
    """Create a token for one of the owner's bot accounts."""
    profile = Profile.objects.filter(user_id=bot_id, bot_owner=owner, is_bot_account=True).first()
    if profile is None:
        raise ServiceError("not_found", "no such bot account", status=404)
    return token_create(user=profile.user, name=name)
