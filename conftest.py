"""Test configuration shared by every test folder.

Tests run on the database that ``DATABASE_URL`` names (PostgreSQL in CI), or on SQLite by default.
Under pytest, settings.TESTING is true and Celery tasks run eagerly unless a test starts a real
worker (``tests/support/celery_worker.py``).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baogame.settings")

#: Fixtures shared by several folders (a folder's own fixture of the same name wins).
pytest_plugins = ["tests.support.notify_clock"]
