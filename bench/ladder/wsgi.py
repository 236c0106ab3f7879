"""The WSGI application of one rung of the ladder (``BAOGAME_LADDER_RUNG``), for gunicorn.

``floor`` configures bare Django as ``../shared/floor/floor.py`` does (no app, no middleware, the
database of ``DATABASE_URL`` with persistent connections); every other rung runs the site's settings.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

import django
from django.conf import settings
from django.core.wsgi import get_wsgi_application

RUNG = os.environ.get("BAOGAME_LADDER_RUNG", "site")

if RUNG == "floor":
    _url = urlparse(os.environ["DATABASE_URL"])
    settings.configure(
        DEBUG=False,
        ROOT_URLCONF="bench.ladder.floor_urls",
        SECRET_KEY="floor",
        ALLOWED_HOSTS=["*"],
        MIDDLEWARE=[],
        INSTALLED_APPS=[],
        DATABASES={
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": _url.path[1:],
                "USER": _url.username,
                "PASSWORD": _url.password or "",
                "HOST": _url.hostname,
                "PORT": _url.port or 5432,
                "CONN_MAX_AGE": None,
            }
        },
    )
    django.setup()
else:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baogame.settings")
    django.setup()
    from bench.ladder import rungs

    if RUNG == "store":
        rungs.mute_move_signals()
    if RUNG != "site":
        rungs.route(RUNG)

application = get_wsgi_application()
