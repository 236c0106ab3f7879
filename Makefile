# baogame — the README's commands. `make run` serves the site with everything embedded;
# `make test` runs the whole suite (on PostgreSQL when DATABASE_URL points at one).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements/base.txt requirements/dev.txt | sha1sum | cut -c1-12)

.PHONY: run test lint bench bench-ladder golden rehearsal venv migrate demo browser clean messages

$(STAMP): requirements/base.txt requirements/dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements/dev.txt
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

venv: $(STAMP)

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo
	$(PY) manage.py seed_demo_league

## Serve the site on http://127.0.0.1:8000 with a Celery worker and beat; Ctrl-C stops everything.
run: demo
	$(PY) manage.py rundev

## The whole test suite, in parallel (pytest-xdist): one worker per CPU (PYTEST_WORKERS=auto), each
## with its own test database and Redis database. Idle workers steal queued tests (worksteal), which
## evens out the long property runs; a module that needs a real Celery worker, or the browser, may
## start one in each xdist worker (a few seconds; `loadgroup` would keep them together, but it
## silently stops grouping with pytest 9.2, pytest-xdist issue 1386). `make test PYTEST_WORKERS=0`
## runs the suite in one process.
PYTEST_WORKERS ?= auto
test: venv browser
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

## Translations (GNU gettext): extract every marked string into locale/<language>/LC_MESSAGES/django.po,
## then compile the .mo files that the site reads (both are committed; docs/development.md).
LOCALES ?= zh_Hans
messages: venv
	$(PY) manage.py makemessages $(foreach l,$(LOCALES),-l $(l)) --no-obsolete
	$(PY) manage.py compilemessages $(foreach l,$(LOCALES),-l $(l)) --ignore '.venv' --ignore 'var'

## Lint with ruff (its checks and its formatting), then type-check with mypy (strict on baogame/rules,
## django-stubs on apps/).
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

## Benchmarks. First the stack's floor (a bare Django view on the same stack, FLOOR_MEASURE), then at once
## the load test against it (its JSON line gives the ratios to the floor measured in the same minute),
## the cost ladder from the floor to the site, then engines, deadline settlement and the store.
## Needs DATABASE_URL pointing at PostgreSQL, and wrk.
FLOOR_MEASURE ?= ../shared/floor/measure
bench: venv
	@test -x $(FLOOR_MEASURE) || { echo "$(FLOOR_MEASURE) not found: set FLOOR_MEASURE=path/to/measure"; exit 1; }
	@mkdir -p var
	$(FLOOR_MEASURE) | tee var/floor.txt
	$(PY) manage.py loadtest --clients 32 --seconds 20 --rate 0 --floor "$$(tail -n 1 var/floor.txt)"
	$(PY) manage.py loadtest --clients 32 --seconds 20 --rate 300 --floor "$$(tail -n 1 var/floor.txt)"
	$(PY) manage.py bench_ladder
	$(PY) -m bench.engines baobei --games 200
	$(PY) -m bench.engines baohuang --games 50
	$(PY) manage.py bench_deadlines --games 2000
	$(PY) manage.py bench_store

## The cost ladder alone: a move request from the floor to the site, one layer at a time.
bench-ladder: venv
	$(PY) manage.py bench_ladder

## Regenerate the golden API replies (tests/api/golden/) after a change to them on purpose, on SQLite
## and on the PostgreSQL database DATABASE_URL names; the diff then shows what clients will read.
golden: venv
	@case "$$DATABASE_URL" in postgres*) ;; *) echo "set DATABASE_URL=postgres://… (the goldens need both databases)"; exit 1;; esac
	GOLDEN_UPDATE=1 DATABASE_URL= $(PY) -m pytest tests/api/test_golden_replies.py -n 0 -q
	GOLDEN_UPDATE=1 $(PY) -m pytest tests/api/test_golden_replies.py -n 0 -q

## Two web nodes, two workers and beat on this machine; a node and a worker killed mid-run; every game
## checked. Needs DATABASE_URL (PostgreSQL, a database of its own) and CELERY_BROKER_URL (Redis).
REHEARSAL_ARGS ?= --seconds 60 --clients 16
rehearsal: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py rehearsal $(REHEARSAL_ARGS)

## Debian's chromium for the browser tests (installed when missing and we are root).
## Debian's chromium for the browser tests, and a Chinese font so that their screenshots of Chinese
## pages show characters, not boxes.
CJK_FONT := /usr/share/fonts/truetype/wqy/wqy-microhei.ttc
browser:
	@{ test -x /usr/bin/chromium && test -f $(CJK_FONT); } || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null) \
	  || echo "chromium not installed: browser tests will be skipped"; }

clean:
	rm -rf $(VENV) var .pytest_cache
