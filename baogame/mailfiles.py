"""The file mail backend of the embedded default (``EMAIL_URL=file://…``): one file per connection.

Django's file backend names its file by the second and the backend object's address (``id``). Two
processes forked from one parent (Celery's pool, several workers, gunicorn's) can hold a backend at the
same address in the same second, so both append to one file; a long mail is written in several pieces
and may interleave with another's, and whoever reads the files (``/dev/mail/``, the rehearsal's count of
the mails each player received) finds one mail fewer and a garbled one. Here the name also holds the
process id and a counter of the process's connections, so no two connections share a file.
"""

from __future__ import annotations

import itertools
import os
from datetime import datetime

from django.core.mail.backends import filebased

_connections = itertools.count(1)


class EmailBackend(filebased.EmailBackend):
    """Django's file backend, each connection writing a file of its own (module doc)."""

    def _get_filename(self) -> str:
        fname: str | None = self._fname  # type: ignore[has-type]  # Django's attribute, untyped
        if fname is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            fname = os.path.join(self.file_path, f"{stamp}-{os.getpid()}-{next(_connections)}.log")
            self._fname = fname
        return fname
