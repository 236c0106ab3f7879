"""Configuration from the environment (DESIGN.md, "Configuration"; STYLE.md §3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-production-secret-for-the-deploy-check-" + "y" * 20,
    "ALLOWED_HOSTS": "baogame.example.org",
    "DATABASE_URL": "postgres://baogame:pw@db.example.org:5432/baogame",
    "CELERY_BROKER_URL": "redis://cache.example.org:6379/0",
    "EMAIL_URL": "submission://mailer:pw@smtp.example.org",
    "SITE_URL": "https://baogame.example.org",
    "ANYMAIL_WEBHOOK_SECRET": "mailhook:webhook-secret-for-the-deploy-check",
}


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    dropped = {"DJANGO_ALLOW_ASYNC_UNSAFE"}  # set by the browser tests' conftest in this process
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in PRODUCTION and k not in dropped and not k.startswith("PYTEST")
    }
    clean["BAOGAME_TESTING"] = "0"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_variables() -> None:
    result = _manage(PRODUCTION, "check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_missing_secret_key_stops_startup_with_a_clear_message() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}

    result = _manage(env, "check")

    assert result.returncode != 0
    assert "Set the environment variable SECRET_KEY" in result.stderr


def test_bad_boolean_names_the_variable() -> None:
    result = _manage({"DEBUG": "maybe"}, "check")

    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_importing_the_settings_makes_no_folder(tmp_path: Path) -> None:
    """The embedded defaults' folders (broker, static root) are made when Django starts, not on import."""
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "DATABASE_URL"}}
    env.update(BAOGAME_VAR_DIR=str(var), BAOGAME_TESTING="0")
    code = "import baogame.settings as s; print(s.CELERY_BROKER_TRANSPORT_OPTIONS['data_folder_in'])"

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(var / "celery" / "queue")
    assert not var.exists()


def _database_options(**env: str) -> str:
    """``DATABASES["default"]["OPTIONS"]`` as the settings module makes it from ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DB_", "PYTEST"))}
    clean.update({"BAOGAME_TESTING": "0", **env})
    code = "import baogame.settings as s; print(sorted(s.DATABASES['default'].get('OPTIONS', {}).items()))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_postgresql_connections_prepare_their_statements_unless_switched_off() -> None:
    """Server-side binding with prepared statements on PostgreSQL (DB_PREPARED_STATEMENTS);
    off for a pooler that cannot keep them; never for SQLite."""
    postgres = "postgres://baogame:pw@db.example.org:5432/baogame"

    assert (
        _database_options(DATABASE_URL=postgres)
        == "[('prepare_threshold', 5), ('server_side_binding', True)]"
    )
    assert _database_options(DATABASE_URL=postgres, DB_PREPARE_THRESHOLD="2").startswith(
        "[('prepare_threshold', 2)"
    )
    assert _database_options(DATABASE_URL=postgres, DB_PREPARED_STATEMENTS="false") == "[]"
    assert "server_side_binding" not in _database_options(DATABASE_URL="sqlite:////tmp/x.sqlite3")


def test_the_embedded_sqlite_logs_ahead_and_syncs_at_checkpoints() -> None:
    """The embedded default (``make run``): write-ahead logging, no disk sync on every commit."""
    options = _database_options(DATABASE_URL="sqlite:////tmp/x.sqlite3")

    assert "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;" in options
    assert "('transaction_mode', 'IMMEDIATE')" in options


def test_only_the_tests_commit_to_postgresql_without_waiting_for_the_disk() -> None:
    postgres = "postgres://baogame:pw@db.example.org:5432/baogame"

    assert "synchronous_commit" not in _database_options(DATABASE_URL=postgres)
    assert "('options', '-c synchronous_commit=off')" in _database_options(
        DATABASE_URL=postgres, BAOGAME_TESTING="1"
    )
