"""Django's ``makemessages``, which also extracts the engines' plural marker ``n_`` (``baogame.rules.text``).

The rules package cannot import Django, so its history sentences mark their templates with
``gettext_noop as _`` (a name ``xgettext`` knows) and their plural templates with ``n_(singular,
plural, count)``, which ``xgettext`` learns here as a plural keyword: both forms become one
``msgid`` / ``msgid_plural`` entry of the catalogue.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=n_:1,2"]
