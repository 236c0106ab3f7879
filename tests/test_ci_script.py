"""CI runs the suite as a newcomer does, then on PostgreSQL: `make test` with no
database or broker settings at all (SQLite and the filesystem broker, as the README says) comes before
the PostgreSQL and Redis run, so that a break that only a fresh clone sees cannot land unnoticed; the
browser tests' screenshots are left under var/screenshots/ as the run's artifacts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "run"
POSTGRESQL_RUN = (
    'make test PYTEST_ARGS="--ignore=tests/rules --ignore=tests/e2e/test_accessibility.py '
    "--ignore=tests/e2e/test_content_security_policy.py -m 'not embedded'\""
)


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

    assert newcomer < postgres < commands.index(POSTGRESQL_RUN)
    assert commands[-1] == POSTGRESQL_RUN
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


def test_the_embedded_tests_left_out_of_the_postgresql_run_ignore_its_settings() -> None:
    """An ``embedded`` test runs `make run`'s own set-up in subprocesses whose environment drops
    DATABASE_URL and the broker settings, so the PostgreSQL run would repeat the newcomer's run's test."""
    tests = SCRIPT.parents[1] / "tests"
    marked = [
        t
        for t in tests.rglob("test_*.py")
        if "pytest.mark.embedded" in t.read_text() and t.name != Path(__file__).name
    ]
    assert marked
    for test in marked:
        text = test.read_text()
        assert '"DATABASE_URL"' in text and '"CELERY_"' in text and "BAOGAME_VAR_DIR" in text, test
        assert "django_db" not in text and "live_server" not in text, test


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_ci_script_parses() -> None:
    assert subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True).returncode == 0


def test_ci_prints_how_long_each_stage_took() -> None:
    """Every CI log ends with each stage's time (install, lint, the two test runs), even when a stage
    fails: the report runs on EXIT."""
    commands = _commands()

    assert "trap report_stages EXIT" in commands
    install, lint = commands.index('stage "install"'), commands.index('stage "lint"')
    sqlite, postgres = commands.index('stage "test: SQLite"'), commands.index('stage "test: PostgreSQL"')
    newcomer = commands.index("env -u DATABASE_URL -u CELERY_BROKER_URL -u CELERY_TEST_BROKER_URL make test")
    assert install < commands.index("make venv") < lint < commands.index("make lint") < sqlite < newcomer
    assert newcomer < postgres < commands.index(POSTGRESQL_RUN)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_stage_report_names_each_stage_and_keeps_the_exit_status(tmp_path: Path) -> None:
    text = SCRIPT.read_text()
    timing = text[
        text.index("STAGES=()") : text.index("trap report_stages EXIT") + len("trap report_stages EXIT")
    ]
    script = tmp_path / "stages"
    script.write_text(
        f'set -euo pipefail\n{timing}\nstage "first"\nstage "second"\nfalse\necho unreachable\n'
    )

    run = subprocess.run(["bash", str(script)], capture_output=True, text=True)

    assert run.returncode == 1
    assert "unreachable" not in run.stdout
    lines = run.stdout.splitlines()
    assert lines[0].startswith("== CI stages (load average: ")
    assert [line.split()[0] for line in lines[1:]] == ["first", "second", "total"]
