"""The play-by-email command language: one line of text <-> one wire-format action.

Each game's grammar and view lines are pure Python beside its engine (``baogame/rules/<game>/mail.py``
and ``viewtext.py``, BB-22, BH-20); this module picks the game's ``MailLanguage`` and adds what every
game accepts: the action itself as a JSON object on one line. ``parse_command`` gives an action without
``decision_id`` (the service fills it in); ``format_command`` is its inverse, used to print the
recipient's legal choices as examples. Engines without a grammar take ``<type> key=value …``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from baogame import jsonlimits
from baogame.rules import orders
from baogame.rules.mail import Action, CommandError, MailLanguage, help_lines, normalize, plain, words
from baogame.rules.registry import get_mail_language

__all__ = [
    "CommandError",
    "format_command",
    "language",
    "notation",
    "order_command",
    "parse_command",
    "summary",
]


# --- any other engine: "<type> key=value …" -------------------------------------------------------


def _parse_generic(line: str) -> Action:
    tokens = line.split()
    action: Action = {"type": tokens[0].lower()}
    for token in tokens[1:]:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise CommandError(
                "malformed_action", _("usage: TYPE key=value …, not %(word)s") % {"word": repr(token)}
            )
        action[key] = int(value) if re.fullmatch(r"-?[0-9]{1,9}", value) else value
    return action


def _format_generic(action: Action) -> str:
    rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action.get('type')} {rest}".strip()


def _view_lines_generic(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """The view's fields, one per line (the view is already redacted)."""
    return [f"{k}: {plain(v)}" for k, v in view.items() if k != "decision"]


GENERIC = MailLanguage(
    parse=_parse_generic,
    format=_format_generic,
    summary=(("<type> key=value …", gettext_noop("the action's wire format, e.g. 'play card=3'")),),
    notation=gettext_noop("Commands are the game's actions in its wire format."),
    view_lines=_view_lines_generic,
)


def language(engine: str) -> MailLanguage:
    """The mail commands and view lines of ``engine``: its package's ``mail.MAIL`` (the registry finds
    it), ``GENERIC`` for an engine without one."""
    return get_mail_language(engine) or GENERIC


def notation(engine: str) -> str:
    """How ``engine``'s commands write positions and cards, in the active language."""
    return _(language(engine).notation)


#: The standing-order commands' words in Chinese (``orders.MAIL_SUMMARY``), read before the orders'
#: parser sees the line; the game's own words (``过``, ``出`` …) come from its ``MailLanguage.aliases``.
ORDER_ALIASES: dict[str, str] = {
    "预设": "orders",
    "清除": "clear",
    "自动过": "autopass",
    "能压就出": "if beats",
    "自动结束": "end turn auto",
    "跳过抓牌": "skip windows",
    "跳过抢牌": "skip windows",
    "皇位": "offer",
    "预表态": "declare",
    "无": "none",
    "约局": "sitting",
    "机器人": "bot",
}


def summary(engine: str, *, sittings: bool = True) -> list[tuple[str, str]]:
    """The command language of ``engine`` as (example, meaning) pairs, with its standing orders, in
    the active language (a Chinese reader's examples are Chinese commands); ``sittings`` False: the
    table can have none (one person against bots), so ``sitting bot on / off`` is not offered."""
    pairs = help_lines(orders.mail_summary(engine, sittings=sittings))
    standing = [
        (example, _("standing order: %(meaning)s") % {"meaning": meaning}) for example, meaning in pairs
    ]
    return [
        *help_lines(language(engine).summary),
        *standing,
        # ``seat_commands``: the example is a command in the reader's language (托管 / 取消托管)
        (_("hand over / take back"), _("let the bot play my seat from now on / take my seat back")),
        ('{"type": …}', _("any action as a JSON object")),
    ]


def order_command(*, engine: str, text: str) -> orders.MailOrder | None:
    """The standing-order command of a reply's first line ("autopass on", "pass trick", "play 9 9 if it
    beats", "orders", …, or their Chinese words), or None when the line is an action command."""
    if text.strip().startswith("{"):
        return None
    aliases = {**language(engine).aliases, **ORDER_ALIASES}
    return orders.parse_mail_command(engine, " ".join(words(text, aliases)))


def parse_command(*, engine: str, text: str) -> Action:
    """The action a command line stands for (without ``decision_id``); ``CommandError`` if none."""
    line = normalize(text).strip().rstrip(".!;,").strip()
    if not line:
        raise CommandError("no_command", _("no command found in the first line of your reply"))
    if line.startswith("{"):
        try:
            action = jsonlimits.loads(text.strip().rstrip(".!;,").strip())
        except ValueError:  # not JSON, or nested too deep
            raise CommandError("malformed_action", _("that JSON action does not parse")) from None
        if not isinstance(action, dict):
            raise CommandError("malformed_action", _("an action is a JSON object"))
        return action
    if not any(ch.isalnum() for word in words(line) for ch in word):  # punctuation alone: ", ." or "，。"
        raise CommandError("no_command", _("no command found in the first line of your reply"))
    return language(engine).parse(line)


def format_command(*, engine: str, action: Action) -> str:
    """The command line for ``action`` (the inverse of ``parse_command``), in the active language's
    command words (``出 K K`` for a Chinese reader, ``play K K`` for an English one)."""
    mail_language = language(engine)
    line = mail_language.format({k: v for k, v in action.items() if k not in {"decision_id", "timeout"}})
    return mail_language.say(line, get_language())
