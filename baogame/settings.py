"""Django settings: one module, configured from the environment, with embedded defaults.

A fresh checkout runs with no configuration at all: SQLite under ``var/``, a Celery worker and beat
on Celery's filesystem transport under ``var/``, and e-mail written to files under ``var/mail/``.
Production sets ``DATABASE_URL``, ``CELERY_BROKER_URL``, ``EMAIL_URL``, ``SECRET_KEY``,
``ALLOWED_HOSTS`` and ``DEBUG=False``; see docs/production.md.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import parse_qs, unquote, urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_Number = TypeVar("_Number", int, float)


def env_str(name: str, default: str | None = None) -> str:
    """A string from the environment; ``ImproperlyConfigured`` when it is required and missing."""
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise ImproperlyConfigured(f"Set the environment variable {name}.")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    """A boolean: 1/true/yes/on or 0/false/no/off (any case)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/true/yes/on or 0/false/no/off, not {value!r}.")


def env_int(name: str, default: int) -> int:
    """An integer from the environment."""
    return _env_number(name, default, int, "an integer")


def env_float(name: str, default: float) -> float:
    """A number (seconds, say) from the environment."""
    return _env_number(name, default, float, "a number")


def _env_number(name: str, default: _Number, kind: Callable[[str], _Number], what: str) -> _Number:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be {what}, not {value!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# --- Site: paths, mode, hosts -------------------------------------------------------------------------
VAR_DIR = Path(env_str("BAOGAME_VAR_DIR", str(BASE_DIR / "var")))
DEBUG = env_bool("DEBUG", True)
#: Under pytest: eager Celery tasks by default, plain static storage.
TESTING = env_bool("BAOGAME_TESTING", "pytest" in sys.modules)

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-do-not-use-in-production-0123456789")
else:
    SECRET_KEY = env_str("SECRET_KEY")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long in production.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# --- Applications, middleware, templates -------------------------------------------------------------
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "rest_framework",
    "drf_spectacular",
    "django_celery_beat",
    "django_htmx",
    "anymail",
    "apps.accounts",
    "apps.games",
    "apps.sittings",
    "apps.leagues",
    "apps.notifications",
    "apps.api",
    "apps.push",
    "apps.webhooks",
]

MIDDLEWARE = [
    # A program's API request (a token, no cookie) takes the short chain below instead of this one.
    "baogame.tokenapi.TokenApiMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "baogame.headers.PrivateResponseMiddleware",  # per-viewer answers: private, no-store; Vary
    "csp.middleware.CSPMiddleware",  # CONTENT_SECURITY_POLICY below
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language cookie, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "apps.accounts.middleware.UserTimezoneMiddleware",
    "apps.accounts.middleware.UserLanguageMiddleware",  # a signed-in person's chosen language wins
]
#: The middleware of an API request with a token and no cookie (``baogame.tokenapi``): what those of
#: ``MIDDLEWARE`` that shape every answer's headers do, in the same order; nothing of a browser's session.
TOKEN_API_MIDDLEWARE = [
    # security, privacy, CSP and frame options: worked out once per kind of answer (baogame.tokenapi)
    "baogame.tokenapi.AnswerHeadersMiddleware",
    "baogame.tokenapi.TokenLocaleMiddleware",  # a program may ask for a language too (Accept-Language)
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "baogame.urls"
WSGI_APPLICATION = "baogame.wsgi.application"
ASGI_APPLICATION = "baogame.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.games.context_processors.site",
                "apps.notifications.bounces.mail_problem",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
# Production keeps connections (DB_CONN_MAX_AGE): one per sync gunicorn worker; a pool measured no better.
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock at BEGIN, so two moves of one game serialise like a row lock.
    # Write-ahead logging lets the site read while the worker writes, and with it ``synchronous=NORMAL``
    # syncs the disk at checkpoints instead of on every commit: the database stays whole after a crash,
    # a power cut may lose the last commits. The embedded default is for trying the site and for
    # development (production runs on PostgreSQL); on a slow disk every commit's sync made seeding the
    # demo half of ``make run``'s start.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DB_PREPARED_STATEMENTS", True):
    # Server-side parameter binding, and each connection prepares a statement once it has run it
    # DB_PREPARE_THRESHOLD times: PostgreSQL then parses and plans a move's dozen statements once per
    # connection instead of on every request (with client-side binding every statement is new text).
    # Measured (bench/profile_moves, plain, with the backend's own CPU): PostgreSQL's CPU per move
    # 8.6-9.3 -> 4.4-4.8 ms. Behind a pooler that shares connections per transaction (PgBouncer in
    # transaction mode before 1.21) prepared statements break: set DB_PREPARED_STATEMENTS=false there.
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": True,
        "prepare_threshold": env_int("DB_PREPARE_THRESHOLD", 5),
    }
if DATABASES["default"]["ENGINE"].endswith("postgresql") and TESTING:
    # The tests' commits (live servers, real workers, killed processes) do not wait for the disk: what
    # they check is what other connections and processes see, which this does not change; only a
    # crash of PostgreSQL itself could lose the last commits. Measured on a slow disk: 3.5 -> 0.1 ms.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth (django-allauth) ------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
SITE_ID = 1
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_ADAPTER = "apps.accounts.adapter.AccountAdapter"  # a username may not be another's display name
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
# Confirming the address signs the person in when the link is opened in the browser session that
# signed up, within ACCOUNT_LOGIN_TIMEOUT (allauth's default, 15 minutes, is shorter than reading
# one's mail often takes); otherwise the login page says the address is confirmed and what to do.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_TIMEOUT = env_int("ACCOUNT_LOGIN_TIMEOUT", 3 * 3600)
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if not DEBUG else "http"
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "/accounts/login/"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# --- I18N / time ------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
#: The languages of the site. Another one takes a catalogue under locale/ (docs/development.md).
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "baogame_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
#: Dates and times are written in the page's language (Django's formats), English ones as in baogame/formats.
FORMAT_MODULE_PATH = ["baogame.formats"]

# --- Static files -----------------------------------------------------------------------------------
# Content-Security-Policy (django-csp): scripts and styles only from this site's static files (htmx
# included), no inline script, inline handler or inline style; forms post only here; no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Celery -----------------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://localhost/")
# The filesystem transport's folders are made when Django starts (``apps.games.apps``), not here.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    _queue_dir = VAR_DIR / "celery" / "queue"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "processed_folder": str(VAR_DIR / "celery" / "processed"),
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
        # How often a worker looks for new messages (kombu's default is 1 s): a bot's answer or a mail
        # should not wait a second for the worker to notice its task.
        "polling_interval": env_float("CELERY_POLLING_INTERVAL", 0.1),
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # acks_late: a message a killed worker held comes back after ``visibility_timeout`` seconds. An ETA
    # task (a deadline) further away than that is delivered again meanwhile; settling is idempotent
    # and the beat sweep settles anything missed, so this is safe.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
        "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10),
        "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10),
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", TESTING)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
#: Queues by urgency (baogame.celery): deadlines, people, background, each name with this prefix.
CELERY_QUEUE_PREFIX = env_str("CELERY_QUEUE_PREFIX", "")
CELERY_TASK_DEFAULT_QUEUE = f"{CELERY_QUEUE_PREFIX}people"
CELERY_TASK_ROUTES = ("baogame.celery.route_task",)

# --- E-mail -----------------------------------------------------------------------------------------
EMAIL_URL = env_str("EMAIL_URL", f"file://{VAR_DIR / 'mail'}")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "baogame <games@baogame.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: Domain of the signed per-user, per-game reply addresses (play by email).
REPLY_DOMAIN = env_str("REPLY_DOMAIN", "reply.baogame.localhost")
_email = urlparse(EMAIL_URL)
if _email.scheme == "file":
    EMAIL_BACKEND = "baogame.mailfiles.EmailBackend"  # Django's, one file per connection
    EMAIL_FILE_PATH = unquote(_email.netloc + _email.path)
elif _email.scheme in {"smtp", "smtps", "submission"}:
    _query = parse_qs(_email.query)
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = _email.hostname or "localhost"
    EMAIL_PORT = _email.port or {"smtp": 25, "smtps": 465, "submission": 587}[_email.scheme]
    EMAIL_HOST_USER = unquote(_email.username or "")
    EMAIL_HOST_PASSWORD = unquote(_email.password or "")
    EMAIL_USE_SSL = _email.scheme == "smtps"
    EMAIL_USE_TLS = _email.scheme == "submission" or _query.get("tls", ["0"])[0] in {"1", "true"}
elif _email.scheme == "console":
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
elif _email.scheme == "locmem":
    EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
elif _email.scheme.startswith("anymail"):
    # anymail://mailgun, anymail://postmark, … ; the provider's keys go in ANYMAIL_* variables.
    _esp = _email.netloc
    EMAIL_BACKEND = f"anymail.backends.{_esp}.EmailBackend"
else:
    raise ImproperlyConfigured(
        "EMAIL_URL must start with file://, smtp://, smtps://, submission://, "
        "console://, locmem:// or anymail://<provider>."
    )
#: Which ESP's inbound webhook /mail/inbound/ speaks: mailgun, postmark, sendgrid, amazon_ses, …
ANYMAIL_INBOUND_ESP = env_str("ANYMAIL_INBOUND_ESP", "mailgun")
#: Every ``ANYMAIL_*`` variable but ``ANYMAIL_INBOUND_ESP``, as anymail's settings: the provider's keys,
#: and ``WEBHOOK_SECRET`` ("user:password"), the basic auth that guards /mail/inbound/ (ESPs that sign
#: their webhooks also need their key, e.g. ``ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY``).
ANYMAIL: dict[str, str] = {
    key[len("ANYMAIL_") :]: value
    for key, value in os.environ.items()
    if key.startswith("ANYMAIL_") and key != "ANYMAIL_INBOUND_ESP"
}
#: The development mailbox at /dev/mail/ exists only with the file backend in DEBUG.
DEV_MAILBOX = DEBUG and EMAIL_BACKEND == "baogame.mailfiles.EmailBackend"

# --- Games: clocks, vacations, bots, the sweep (apps.games) --------------------------------------------
#: Yearly vacation budget in days.
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 30)
#: Seconds between two sweeps (and two heartbeats of each queue's worker, see /healthz).
GAMES_SWEEP_INTERVAL = env_int("GAMES_SWEEP_INTERVAL", 60)
#: Seconds a bot seat may own a decision with no move before the sweep queues its bot task again.
GAMES_BOT_STALL = env_int("GAMES_BOT_STALL", 60)
#: Games the sweep claims and settles per transaction (each game in its own savepoint). Several
#: sweeps or workers settle in parallel: each claims games the others have not locked.
GAMES_SETTLE_BATCH = env_int("GAMES_SETTLE_BATCH", 100)
#: Sweeps one process runs at once on PostgreSQL, each in a thread with a database connection of its
#: own (so a worker holds this many more connections while it sweeps): one computes its batch while
#: another waits for the database. 1 (the default) settles in the calling thread only; more pays only
#: when the database is slow to answer (docs/benchmarks.md).
GAMES_SETTLE_THREADS = env_int("GAMES_SETTLE_THREADS", 1)
#: /healthz answers 503 when the sweep or a queue's worker has not done its work for this many seconds.
HEALTHZ_MAX_AGE = env_int("HEALTHZ_MAX_AGE", 3 * GAMES_SWEEP_INTERVAL)
#: Moves enqueue deadline and bot tasks after commit; only the deadline benchmark turns this off.
GAMES_SCHEDULE_TASKS = env_bool("GAMES_SCHEDULE_TASKS", True)
#: The reads and writes of a move (lock, seats, decisions, the move and decision rows) and the API
#: token lookup run as SQL built once and sent in one round trip (``apps.games.sql``); off, the plain
#: ORM does the same work query by query. Same results either way; docs/benchmarks.md says why.
GAMES_HAND_SQL = env_bool("GAMES_HAND_SQL", True)
#: Seconds an all-bot game's bot loop pauses between moves (outside its transaction). SQLite lets one
#: writer in at a time and a loop that takes the lock again at once starves the games where people wait,
#: so with SQLite (``make run``) the all-bot games leave room; PostgreSQL locks rows and needs no pause
#: (nor do the tests, whose bots play in one process).
GAMES_BACKGROUND_BOT_PAUSE = env_float(
    "GAMES_BACKGROUND_BOT_PAUSE",
    0.05 if DATABASES["default"]["ENGINE"].endswith("sqlite3") and not TESTING else 0.0,
)

# --- Notifications and play by e-mail (apps.notifications) --------------------------------------------
#: Seconds a signed reply address (and a game link in a mail) stays valid.
NOTIFICATIONS_REPLY_MAX_AGE = env_int("NOTIFICATIONS_REPLY_MAX_AGE", 30 * 24 * 3600)
#: Seconds after which a notification still ``sending`` counts as claimed by a dead worker and is
#: re-queued (sent again if that worker had in fact sent it). It must exceed the longest real send,
#: so the SMTP backend gets a timeout (Django's default is none: a hung connection would hang forever).
NOTIFICATIONS_CLAIM_TIMEOUT = env_int("NOTIFICATIONS_CLAIM_TIMEOUT", 15 * 60)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 60)
#: Seconds a decision or round-result mail waits so that a burst becomes one mail (never more than a
#: quarter of the time left to the decision's deadline). The tests set it where they measure it.
NOTIFY_SETTLE_SECONDS = env_int("NOTIFY_SETTLE_SECONDS", 0 if TESTING else 90)
#: Seconds between the beat's reminder sweeps: a reminder goes out at most this late (see
#: ``apps.notifications.notify.reminders_send_due``, which also skips reminders too short to be of use).
NOTIFY_REMINDER_SWEEP_SECONDS = env_int("NOTIFY_REMINDER_SWEEP_SECONDS", 60)
#: Seconds after which a notification still ``pending`` (its send task lost) is queued again.
NOTIFICATIONS_PENDING_RETRY = env_int("NOTIFICATIONS_PENDING_RETRY", 120)
#: Seconds after which a move's mail fan-out still in the outbox (its notify_move_applied task lost) is
#: queued again, by the same sweep.
NOTIFICATIONS_OUTBOX_RETRY = env_int("NOTIFICATIONS_OUTBOX_RETRY", 60)
#: Seconds: a web process wakes the outbox's drain task at most once this often (the first commit after a
#: quiet spell wakes it at once, later ones share one wake-up at the end of the interval), so under load
#: one publish serves the outbox rows of many moves. 0: a wake-up for every commit that wrote a row.
NOTIFICATIONS_OUTBOX_WAKE = env_float("NOTIFICATIONS_OUTBOX_WAKE", 0.5)
#: Comma-separated addresses told when a table-talk message is first reported (in the site's default
#: language); empty: every active staff member with an e-mail address who may remove table-talk messages
#: in the admin (``moderation.may_remove_messages``), each in their own language.
TALK_REPORTS_MAIL_TO = env_list("TALK_REPORTS_MAIL_TO", [])

# --- Web Push and webhooks (apps.push, apps.webhooks) ---------------------------------------------------
# VAPID keys (RFC 8292), base64url: the public key as an uncompressed P-256 point (the browser's
# applicationServerKey), the private key as its raw 32 bytes. Without them the site offers no push. In
# development `make run` writes keys to var/vapid.json, read here when the environment has none.
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
# Tests never read it: what a test sees must not depend on whether `make run` ran in this checkout.
if DEBUG and not TESTING and not (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY):
    try:
        _dev_vapid = json.loads((VAR_DIR / "vapid.json").read_text())
    except (OSError, ValueError):
        _dev_vapid = {}
    VAPID_PUBLIC_KEY = str(_dev_vapid.get("public_key", ""))
    VAPID_PRIVATE_KEY = str(_dev_vapid.get("private_key", ""))
#: The VAPID "sub" claim: how a push service reaches the site's operator (mailto: or https:).
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">"))
#: Where the push switch lives (the profile page); its forms come back here.
PUSH_SETTINGS_PAGE = "/accounts/profile/#push"
#: Webhook and push URLs resolving to private, loopback or link-local addresses are refused unless this
#: is on (off in production unless set; on in development so a receiver on 127.0.0.1 works).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", DEBUG)
#: Plain http:// webhook URLs, to loopback addresses only (development).
WEBHOOKS_ALLOW_HTTP = env_bool("WEBHOOKS_ALLOW_HTTP", DEBUG)
#: Seconds before the first retry of a failed webhook; each later retry waits twice as long (≤ 1 h).
WEBHOOKS_RETRY_SECONDS = env_int("WEBHOOKS_RETRY_SECONDS", 10)
#: Attempts of one event before it is given up (the first and its retries: about 3 h with the defaults).
WEBHOOKS_MAX_ATTEMPTS = env_int("WEBHOOKS_MAX_ATTEMPTS", 12)
#: Failed attempts in a row (over all events) after which an endpoint is switched off, with a notice.
WEBHOOKS_DISABLE_AFTER = env_int("WEBHOOKS_DISABLE_AFTER", 30)
#: Seconds to wait for a webhook receiver or a push service to answer.
WEBHOOKS_TIMEOUT = env_int("WEBHOOKS_TIMEOUT", 10)

# --- Periodic tasks (Celery beat) ---------------------------------------------------------------------
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Games: settle what is overdue, queue near deadlines and lost bots; each queue's worker's heartbeat.
    "games-sweep-due": {"task": "apps.games.tasks.sweep_due", "schedule": float(GAMES_SWEEP_INTERVAL)},
    **{
        f"games-heartbeat-{_queue}": {
            "task": "apps.games.tasks.heartbeat",
            "schedule": float(GAMES_SWEEP_INTERVAL),
            "args": (_queue,),
        }
        for _queue in ("deadlines", "people", "background")
    },
    # Closed accounts: let go of any game a closing left half done (a crash, a lost task).
    "games-sweep-closed-accounts": {"task": "apps.games.tasks.sweep_closed_accounts", "schedule": 300.0},
    # Reminders: at 75% of a decision's time, at most a sweep late (NOTIFY_REMINDER_SWEEP_SECONDS).
    "notifications-reminders": {
        "task": "apps.notifications.tasks.send_reminders",
        "schedule": float(NOTIFY_REMINDER_SWEEP_SECONDS),
    },
    # Sittings: the reminder mail and push 15 minutes before each agreed sitting (sent once each), and
    # the calendar updates and cancellations whose own task was lost.
    "sittings-reminders": {"task": "apps.sittings.tasks.send_reminders", "schedule": 60.0},
    # Start and end sittings on time, close those of ended games (the game page's panel also does it
    # for its own game).
    "sittings-advance": {"task": "apps.sittings.tasks.advance_sittings", "schedule": 30.0},
    # Every 10 minutes; each user's digest goes out once per local day, in their chosen hour.
    "notifications-digests": {"task": "apps.notifications.tasks.send_digests", "schedule": 600.0},
    "notifications-reclaim-stale": {
        "task": "apps.notifications.tasks.reclaim_stale_notifications",
        "schedule": float(GAMES_SWEEP_INTERVAL),
    },
    "notifications-expire-reply-addresses": {
        "task": "apps.notifications.tasks.expire_reply_addresses",
        "schedule": 24 * 3600.0,
    },
    # Push notices come one per burst (NOTIFY_SETTLE_SECONDS, as mail); this recovers a lost send task
    # and sends what quiet hours held once they end.
    "push-send-due-bursts": {
        "task": "apps.push.tasks.send_due_bursts",
        "schedule": float(GAMES_SWEEP_INTERVAL),
    },
    "webhooks-requeue-lost": {
        "task": "apps.webhooks.tasks.requeue_lost_webhooks",
        "schedule": float(GAMES_SWEEP_INTERVAL),
    },
    # Leagues: start every round whose time has come (Season.starts_at + n × round_interval_days).
    "leagues-start-due-rounds": {"task": "apps.leagues.tasks.start_due_rounds", "schedule": 300.0},
    # Confirm every provisional league result whose confirmation period has ended.
    "leagues-confirm-due-results": {"task": "apps.leagues.tasks.confirm_due_results", "schedule": 300.0},
    # Queue again every lost mail about a request to join: the organisers', the approval's and the
    # decline's; delete the declines told, or given up, 30 days ago (apps.leagues.joinmail).
    "leagues-recover-join-request-mails": {
        "task": "apps.leagues.tasks.recover_join_request_mails",
        "schedule": 300.0,
    },
}

# --- JSON API (Django REST framework, drf-spectacular; apps.api) --------------------------------------
# Personal API tokens (Bearer) first, so an anonymous request gets 401 with WWW-Authenticate; the
# session still works for the browser. Every error is {"code", "detail"}; writes are rate-limited.
# Bodies are JSON only (the schema says so; form encodings would turn every value into a string).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "apps.api.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "apps.api.exceptions.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["apps.api.throttling.WriteRateThrottle"],
    "DEFAULT_PARSER_CLASSES": ["apps.api.parsers.BoundedJSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.api.negotiation.ApiContentNegotiation",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "baogame API",
    "DESCRIPTION": "Play Bao Bei and Bao Huang asynchronously: games, moves, leagues.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apps.api.schema.add_error_responses",
    ],
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
}
#: A program's plain move request and ``/legal`` read (a token, no cookie, JSON) are answered without DRF's
#: objects around the view, with the same answer (``apps.api.plainmove``); False sends them through DRF's.
API_PLAIN_MOVES = env_bool("API_PLAIN_MOVES", True)
#: Writes (POST/PUT/PATCH/DELETE) per user, "N/s|min|hour|day": a burst of N, then one per period/N
#: (``apps.api.throttling``); "off" disables the limit.
API_WRITE_RATE = env_str("API_WRITE_RATE", "120/min")
#: Anonymous reads of the API's public lists (the watch list), per client address, as API_WRITE_RATE.
API_ANON_READ_RATE = env_str("API_ANON_READ_RATE", "60/min")
#: The write-rate counters live in this cache. The default (per-process memory) counts per gunicorn
#: worker; production sets API_CACHE_URL=redis://…/N so that all workers share one count.
CACHES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
API_THROTTLE_CACHE = "default"
if env_str("API_CACHE_URL", ""):
    CACHES["api"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_str("API_CACHE_URL"),
        # A Redis that is down or stuck must answer fast: the throttle then lets writes through.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    API_THROTTLE_CACHE = "api"

# --- Security (production) --------------------------------------------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True

# --- Logging ------------------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
