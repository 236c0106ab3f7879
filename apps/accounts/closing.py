"""Closing an account: the person leaves the site, their games and leagues go on without them.

The account is not deleted but emptied, because other people's records hold it: every finished game
keeps its seats and its moves, every league its standings, and a row deleted under them would turn a
seat into an open one or take a line out of a table. So closing, in one short transaction that locks
no game:

* each higher app lets go of the person (``account_closing``, sent first, inside the transaction):
  league memberships end and organiser roles with them, their API tokens, webhooks, browsers for Web
  Push, unsent mails, calendar feed and table talk are deleted, a vacation ends;
* their own bot accounts are closed the same way;
* what is personal goes: the e-mail addresses (so no mail is ever sent), the display name, the
  password (no one can sign in), and the username becomes ``closed-<id>``, the name the games show
  from then on; the account is inactive.

The account is unusable as soon as that commits. Their games are let go of afterwards, each in a
transaction of its own that locks that game only, by a task queued on commit and, should it stop half
way, by a periodic sweep (``apps.games.closing``): the bot plays their seats in games in play until each
game ends, a seat of a game not yet started is free again.

What stays is what the others saw during play and still need: the moves, the results, the standings'
figures, the organiser log's entries (under the new name).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.dispatch import Signal

from baogame.errors import ServiceError

from .models import Profile
from .names import CLOSED_PREFIX

#: Sent inside the closing transaction, before the account is emptied, with ``user``: each app lets go
#: of that person's rows (an exception rolls the whole closing back). A receiver locks no game: the
#: games app queues, for when it commits, the work of one transaction per game.
account_closing = Signal()

#: The username a closed account takes: what its past games and league tables show. Nobody else's
#: name starts like that (``names.CLOSED_PREFIX``), so it is always free.
CLOSED_NAME = CLOSED_PREFIX + "{pk}"


def account_close(*, user: User, password: str) -> None:
    """Close ``user``'s account, once they confirmed with their password (``wrong_password`` otherwise;
    an account without a usable password confirms with an empty one). A bot account is refused
    (``bot_account``): it closes with its owner's, so that a token alone can never close one."""
    profile = Profile.objects.filter(user=user).first()
    if profile is not None and profile.is_bot_account:
        raise ServiceError("bot_account", "a bot account is closed with its owner's account", status=403)
    if user.has_usable_password() and not user.check_password(password):
        raise ServiceError("wrong_password", "that is not your password", status=403)
    with transaction.atomic():
        for bot in User.objects.filter(profile__bot_owner=user, profile__is_bot_account=True, is_active=True):
            _close(bot)
        _close(user)


def _close(user: Any) -> None:
    from allauth.account.models import EmailAddress

    account_closing.send(sender=User, user=user)
    EmailAddress.objects.filter(user=user).delete()
    user.username = CLOSED_NAME.format(pk=user.pk)
    user.email = user.first_name = user.last_name = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
    Profile.objects.filter(user=user).update(display_name="", vacation_started_at=None)
