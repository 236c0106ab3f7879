"""Test configuration shared by every test folder.

Tests run on the database that ``DATABASE_URL`` names (PostgreSQL in CI), or on SQLite by default.
Celery tasks run eagerly unless a test starts a real worker (``tests/support/celery_worker.py``).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baogame.settings")
os.environ["BAOGAME_TESTING"] = "1"
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
