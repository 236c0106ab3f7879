"""CI runs the suite as a newcomer does, then on PostgreSQL (issue 37, point 11): `make test` with no
database or broker settings at all (SQLite and the filesystem broker, as the README says) comes before
the PostgreSQL and Redis run, so that a break that only a fresh clone sees cannot land unnoticed; the
browser tests' screenshots are left under var/screenshots/ as the run's artifacts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "run"


def _commands() -> list[str]:
    return [
        line.strip() for line in SCRIPT.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]


def test_ci_runs_make_test_as_a_newcomer_before_the_postgresql_run() -> None:
    commands = _commands()
    newcomer = commands.index("env -u DATABASE_URL -u CELERY_BROKER_URL -u CELERY_TEST_BROKER_URL make test")
    postgres = next(
        i for i, c in enumerate(commands) if c.startswith('export DATABASE_URL="${DATABASE_URL:-postgres')
    )

    assert newcomer < postgres < commands.index('make test PYTEST_ARGS="--ignore=tests/rules"')
    assert commands[-1] == 'make test PYTEST_ARGS="--ignore=tests/rules"'
    assert commands.index("make lint") < newcomer


def test_the_tests_left_out_of_the_postgresql_run_use_no_database() -> None:
    """tests/rules tests the pure engines (baogame/rules): nothing there reaches Django, a database or
    a broker, so running them once, in the newcomer's run, is enough."""
    rules = SCRIPT.parents[1] / "tests" / "rules"
    for test in rules.rglob("*.py"):
        text = test.read_text()
        assert "django" not in text and "from apps" not in text and "live_server" not in text, test


def test_ci_keeps_the_browser_screenshots_under_var() -> None:
    commands = _commands()
    keep = commands.index('export BAOGAME_SCREENSHOTS="${BAOGAME_SCREENSHOTS:-var/screenshots}"')

    assert keep < commands.index(
        "env -u DATABASE_URL -u CELERY_BROKER_URL -u CELERY_TEST_BROKER_URL make test"
    )


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_ci_script_parses() -> None:
    assert subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True).returncode == 0
