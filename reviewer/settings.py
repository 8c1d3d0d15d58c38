"""Django settings, read from the environment.

``DATABASE_URL``  database URL; default: an SQLite file ``db.sqlite3`` in the project
                  folder. PostgreSQL: ``postgres://user@host:5432/name`` (psycopg 3).
``SECRET_KEY``    required when ``DEBUG`` is off, unless the key file exists
                  (``SECRET_KEY_FILE``, default ``.secret_key``; the quick start writes it).
``DEBUG``         ``1``/``true`` to turn on; default off.
``DEVELOPMENT``   ``1``/``true`` on a developer's machine (the quick start sets it): plain
                  HTTP, static files served from ``static/``, ``load_demo`` allowed, mail to
                  the console, and the application's own error pages (``DEBUG`` shows
                  Django's debug pages instead); default off.
``ALLOWED_HOSTS`` comma-separated host names; default ``127.0.0.1,localhost``.
The security settings (HTTPS, HSTS, cookies, sessions, login lockout) are read at the
end of this file; README "Configuration" and "Security" list their variables.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from .report_storage import reports_storage_setting

# Django's generic classes subscriptable at run time (ModelForm[Case], ModelAdmin[Case],
# QuerySet[Case]): the annotations the type checker reads (pyproject.toml) are evaluated
# where a class is built from one.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_count(name: str, default: int, *, minimum: int = 0) -> int:
    """A whole number of at least ``minimum`` from the environment; ``default`` when unset."""
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value.strip())
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least {minimum}, not {value!r}.")
    return number


DEBUG = env_bool("DEBUG")
# A developer's machine (scripts/run.sh): what the quick start needs of DEBUG (plain HTTP,
# static files served from static/, load_demo, mail to the console) without its debug
# pages, so a missing page shows templates/404.html as in production. DEBUG implies it.
DEVELOPMENT = env_bool("DEVELOPMENT")
_LOCAL = DEBUG or DEVELOPMENT

# The signing key: SECRET_KEY from the environment; else the key file SECRET_KEY_FILE
# names (default ``.secret_key`` in the project folder, which the quick start writes once
# with a random key, readable by its owner only, never committed); else, with DEBUG on
# only, a fixed development key.
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and SECRET_KEY_FILE.is_file():
    SECRET_KEY = SECRET_KEY_FILE.read_text(encoding="utf-8").strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            f"(or written to the key file SECRET_KEY_FILE, now {SECRET_KEY_FILE})."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG-on"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "csp",
    "axes",
    "django_tasks",  # the backport of Django 6's tasks framework
    "django_tasks_db",  # its database backend: the queue is a table, run by `manage.py report_worker` (db_worker, reconnecting)
    "assessments",
    "contacts",  # contact reports with the submitter (ChemSTEER's Contact Report)
    "calendar_review",  # the review calendar (TSCA's 90 days, suspensions, extensions) and assignment
    "portfolio",  # the team's rework and open workload (/portfolio/): after calendar_review, whose due dates it sums
    "notices",  # notices in the application and by email; supervisors' comments on single uses
    "audit",  # after axes: its login-failed receiver reads what axes decided
    "signin",  # single sign-on (OpenID Connect), PIV at the proxy, local accounts (docs/sign-in.md)
    "demo",  # manage.py load_demo: the demo data of a developer's machine
    "ninja",  # django-ninja: its Swagger UI assets, served from static/ (nothing from a CDN)
    "api",  # the JSON API under /api/v1/ (docs/api.md)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "reviewer.middleware.RequestHygieneMiddleware",  # methods (HEAD as GET), no caching when logged in, unknown proxy
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "audit.sessions.SessionLifetimeMiddleware",  # after auth and messages
    "signin.middleware.SignInMiddleware",  # PIV at the proxy; roles renewed from the provider (after the lifetime)
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "reviewer.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "assessments.context_processors.review_nav",
                "notices.context_processors.notice_nav",
            ],
        },
    },
]

WSGI_APPLICATION = "reviewer.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        # A kept connection the server dropped (restart, failover) is replaced before a
        # request uses it, instead of failing that request.
        conn_health_checks=True,
    )
}
# Behind PgBouncer in transaction pooling a transaction may run on another server connection
# than the one before it: Django's server-side cursors (iterator()) must then be off
# (docs/deployment.md).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool("DB_DISABLE_SERVER_SIDE_CURSORS")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The quick start's SQLite file is shared by the web server and the report worker
    # (two processes): write-ahead logging lets pages read while the worker writes, a
    # transaction takes the write lock when it starts (not half-way, where SQLite could
    # only fail it), and a writer waits up to 20 s for the other rather than failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=20,
        init_command="PRAGMA journal_mode=WAL;",
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
FIXTURE_DIRS = [BASE_DIR / "fixtures"]
# Rendered IRER PDFs (assessments.reports.cache), shared by every web host and report worker:
# REPORT_STORAGE=database (default: rows of this database), s3 (an S3-compatible bucket through
# django-storages) or filesystem (the folder REPORT_CACHE_DIR, one host only). Never served by
# URL; they hold full copies of CBI reports (reviewer/report_storage.py). Safe to empty.
REPORT_CACHE_DIR = Path(os.environ.get("REPORT_CACHE_DIR", str(BASE_DIR / "report_cache")))

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "reports": reports_storage_setting(os.environ, cache_dir=REPORT_CACHE_DIR),
}

if DEVELOPMENT and not DEBUG:
    # The quick start runs no collectstatic: WhiteNoise serves static/ as it is (read on
    # each request, so an edited stylesheet shows on reload), named as they are.
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Report workers' heartbeats (assessments.reports.heartbeat): a beat every N seconds; a worker
# silent this long counts as lost and its report goes back to the queue (at most 3 attempts).
REPORT_WORKER_HEARTBEAT_SECONDS = float(os.environ.get("REPORT_WORKER_HEARTBEAT_SECONDS", "5"))
REPORT_WORKER_SILENT_AFTER_SECONDS = float(os.environ.get("REPORT_WORKER_SILENT_AFTER_SECONDS", "30"))

# Background tasks (django-tasks, database backend): the IRER PDF is drawn by
# ``manage.py report_worker`` processes, not the web workers (assessments.reports.tasks). The
# queue is a table in this database, so it needs no other server; on PostgreSQL each worker
# claims a task with SELECT ... FOR UPDATE SKIP LOCKED, so workers on several hosts share it.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

# The review calendar (calendar_review): a new case's review period in calendar days (TSCA
# section 5(a)(1): 90 days from receipt), and how many days before its due date a case is
# flagged "due soon" on the case list and the home page.
PMN_REVIEW_DAYS = int(os.environ.get("PMN_REVIEW_DAYS", "90"))
PMN_DUE_SOON_DAYS = int(os.environ.get("PMN_DUE_SOON_DAYS", "14"))

# Email (notices.services.notify): printed to the console with DEBUG or DEVELOPMENT on; in production an
# SMTP server from the environment. PMN_SITE_URL (e.g. https://pmn.example.gov) starts the
# links in the emails; without it they are paths only.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if _LOCAL else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "pmn-review@localhost")
PMN_SITE_URL = os.environ.get("PMN_SITE_URL", "")

# The JSON API (api/, docs/api.md). Tokens: valid API_TOKEN_DEFAULT_DAYS days unless their owner
# says otherwise, at most API_TOKEN_MAX_DAYS. Each token may make API_RATE_LIMIT_PER_MINUTE
# requests a minute (then 429 with Retry-After), counted in the database so every web process
# shares the count. A POST's Idempotency-Key and its answer are kept API_IDEMPOTENCY_HOURS hours.
API_TOKEN_DEFAULT_DAYS = env_count("API_TOKEN_DEFAULT_DAYS", 90, minimum=1)
API_TOKEN_MAX_DAYS = env_count("API_TOKEN_MAX_DAYS", 365, minimum=1)
API_RATE_LIMIT_PER_MINUTE = env_count("API_RATE_LIMIT_PER_MINUTE", 120, minimum=1)
API_IDEMPOTENCY_HOURS = env_count("API_IDEMPOTENCY_HOURS", 24, minimum=1)
if API_TOKEN_DEFAULT_DAYS > API_TOKEN_MAX_DAYS:
    raise ImproperlyConfigured(
        f"API_TOKEN_DEFAULT_DAYS ({API_TOKEN_DEFAULT_DAYS}) must be at most API_TOKEN_MAX_DAYS ({API_TOKEN_MAX_DAYS})."
    )

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Security (README "Security"). Production (DEBUG and DEVELOPMENT off) is HTTPS-only by default and passes
# ``manage.py check --deploy``; tests/security holds each rule.

# Cookies and sessions. A login lasts SESSION_COOKIE_AGE seconds at most and ends after
# SESSION_IDLE_TIMEOUT seconds without a request (audit.sessions.SessionLifetimeMiddleware);
# the session cookie ends with the browser.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE", str(8 * 3600)))
SESSION_IDLE_TIMEOUT = int(os.environ.get("SESSION_IDLE_TIMEOUT", str(30 * 60)))
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not _LOCAL:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)

# HTTPS. Behind a TLS-terminating proxy, set SECURE_PROXY_SSL_HEADER to the header the
# proxy sets (and strips from clients), e.g. ``X-Forwarded-Proto`` (value ``https``) or
# ``X-Forwarded-Ssl=on``; otherwise every request looks like plain HTTP and is redirected.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not _LOCAL)
# The health check (reviewer/health.py) answers plain HTTP too: a check from inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
_proxy_ssl_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip()
if _proxy_ssl_header:
    _name, _, _value = _proxy_ssl_header.partition("=")
    _name = _name.strip().upper().replace("-", "_")
    SECURE_PROXY_SSL_HEADER = (_name if _name.startswith("HTTP_") else f"HTTP_{_name}", _value.strip() or "https")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if _LOCAL else str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
# Clients' addresses (login throttle and audit trail): the number of trusted reverse
# proxies that append to X-Forwarded-For; 0 reads REMOTE_ADDR (audit.client). Unset (None)
# reads REMOTE_ADDR too, but a request from this host carrying X-Forwarded-For (a proxy
# the settings do not know of) is then refused (reviewer.middleware): set it to the number
# of proxies, or to 0 to serve with the proxy's address as every client's.
TRUSTED_PROXY_COUNT = env_count("TRUSTED_PROXY_COUNT", 0) if os.environ.get("TRUSTED_PROXY_COUNT", "").strip() else None

# Content security policy (django-csp): nothing inline, nothing from other origins.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],  # Bootstrap's icons are data: SVGs in its CSS
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Login throttling (django-axes with audit.lockout.LoginThrottle), each limit declared here
# once and read by the throttle, the lockout page and django-axes:
# - LOGIN_FAILURE_LIMIT failures for one username from one address (whether or not the
#   username exists) start progressive delays for that pair: each further attempt waits
#   LOGIN_DELAY_SECONDS after the last failure, doubled with each further failure, at most
#   LOGIN_MAX_DELAY_SECONDS. An attempt during the wait is refused unchecked (429 with
#   Retry-After) and not counted; after it, the right password logs in. Nobody's failures
#   can keep a user out for longer than the longest delay.
# - LOGIN_ADDRESS_FAILURE_LIMIT failures from one address under usernames that have no
#   account mark the address: every failed login from it is then answered 429 and recorded
#   as a lockout (the same answer whether the username exists, so it tells nothing); a
#   right password still logs in.
# - Failures are forgotten LOGIN_COOLOFF_MINUTES after the last one; a login clears its
#   pair's. ``manage.py axes_reset_username NAME`` / ``axes_reset_ip ADDRESS`` (or deleting
#   the access attempt in the admin) clears them by hand.
LOGIN_FAILURE_LIMIT = env_count("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env_count("LOGIN_ADDRESS_FAILURE_LIMIT", 20, minimum=1)
LOGIN_COOLOFF_MINUTES = env_count("LOGIN_COOLOFF_MINUTES", 15, minimum=1)
LOGIN_DELAY_SECONDS = env_count("LOGIN_DELAY_SECONDS", 15, minimum=1)
LOGIN_MAX_DELAY_SECONDS = env_count("LOGIN_MAX_DELAY_SECONDS", 300, minimum=1)
if not LOGIN_DELAY_SECONDS <= LOGIN_MAX_DELAY_SECONDS <= LOGIN_COOLOFF_MINUTES * 60:
    raise ImproperlyConfigured(
        f"LOGIN_MAX_DELAY_SECONDS must be at least LOGIN_DELAY_SECONDS ({LOGIN_DELAY_SECONDS}) and at most "
        f"LOGIN_COOLOFF_MINUTES in seconds ({LOGIN_COOLOFF_MINUTES * 60}), not {LOGIN_MAX_DELAY_SECONDS}."
    )
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses an attempt during its wait
    "signin.backends.LocalAccountBackend",  # passwords; only break-glass administrators when LOCAL_SIGN_IN is off
    "signin.backends.IdentityBackend",  # sessions signed in by the identity provider or PIV (signin.views)
]

# Sign-in (docs/sign-in.md; signin.config reads these). Single sign-on with an OpenID Connect
# provider is on when OIDC_ISSUER is set: the client's id, how it authenticates to the token
# endpoint (private_key_jwt with the private key's file, as Login.gov requires, or
# client_secret_basic with the secret), the scopes, the assurance asked for and the levels
# accepted (acr), which of the provider's groups (claim OIDC_GROUPS_CLAIM; empty: roles are
# set in the admin) give each role, and how often a signed-in person's roles are read again.
OIDC_ISSUER = os.environ.get("OIDC_ISSUER", "")
OIDC_CLIENT_ID = os.environ.get("OIDC_CLIENT_ID", "")
OIDC_CLIENT_AUTH = os.environ.get("OIDC_CLIENT_AUTH", "private_key_jwt")
OIDC_CLIENT_SECRET = os.environ.get("OIDC_CLIENT_SECRET", "")
OIDC_PRIVATE_KEY_FILE = os.environ.get("OIDC_PRIVATE_KEY_FILE", "")
OIDC_PRIVATE_KEY_ID = os.environ.get("OIDC_PRIVATE_KEY_ID", "")
OIDC_SCOPES = os.environ.get("OIDC_SCOPES", "openid profile email groups offline_access")
OIDC_ACR_VALUES = os.environ.get("OIDC_ACR_VALUES", "")
OIDC_REQUIRED_ACR = os.environ.get("OIDC_REQUIRED_ACR", "")
OIDC_GROUPS_CLAIM = os.environ.get("OIDC_GROUPS_CLAIM", "groups")
OIDC_REVIEWER_GROUPS = os.environ.get("OIDC_REVIEWER_GROUPS", "")
OIDC_SUPERVISOR_GROUPS = os.environ.get("OIDC_SUPERVISOR_GROUPS", "")
OIDC_ADMINISTRATOR_GROUPS = os.environ.get("OIDC_ADMINISTRATOR_GROUPS", "")
OIDC_CBI_GROUPS = os.environ.get("OIDC_CBI_GROUPS", "")
OIDC_RENEW_SECONDS = env_count("OIDC_RENEW_SECONDS", 15 * 60)
OIDC_PROVIDER_NAME = os.environ.get("OIDC_PROVIDER_NAME", "single sign-on")
OIDC_PROVIDER_LOGOUT = env_bool("OIDC_PROVIDER_LOGOUT", True)
OIDC_HTTP_TIMEOUT = env_count("OIDC_HTTP_TIMEOUT", 10, minimum=1)
OIDC_METADATA_SECONDS = env_count("OIDC_METADATA_SECONDS", 3600)
# Local accounts (username and password): on for the quick start; off in production except
# for the break-glass administrators named here (comma-separated usernames).
LOCAL_SIGN_IN = env_bool("LOCAL_SIGN_IN", True)
BREAK_GLASS_USERS = os.environ.get("BREAK_GLASS_USERS", "")
# PIV at the proxy: the header in which the TLS proxy passes the verified client
# certificate's subject (empty: off), the header with the verification's result, and the
# proxy's addresses; read only with TRUSTED_PROXY_COUNT set (signin.piv).
PIV_SUBJECT_HEADER = os.environ.get("PIV_SUBJECT_HEADER", "")
PIV_VERIFY_HEADER = os.environ.get("PIV_VERIFY_HEADER", "X-SSL-Client-Verify")
PIV_PROXY_ADDRESSES = os.environ.get("PIV_PROXY_ADDRESSES", "127.0.0.1,::1")

AXES_HANDLER = "audit.lockout.LoginThrottle"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the address rule is LoginThrottle's own
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # the audit app keeps the log of logins and logouts
AXES_CLIENT_IP_CALLABLE = "audit.client.client_ip"
AXES_LOCKOUT_CALLABLE = "audit.lockout.lockout_response"

# Logging: one handler (standard error), the root logger's, at LOG_LEVEL. Django's own
# default gives its "django" logger a console handler of its own (with DEBUG on) besides
# the root's, which printed each line twice: here "django" has none and passes its records
# to the root. A refusal (403) or another client error (4xx) is one line, without the
# traceback Django attaches to it (reviewer.log); a server error (5xx) keeps its traceback.
# runserver's line per request ("django.server") is printed as Django prints it, once.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING").strip().upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "client_error_one_line": {"()": "reviewer.log.ClientErrorOneLine"},
        # A URL's query (a search for a claimed chemical name) is logged as a keyed digest.
        "queries_digested": {"()": "reviewer.log.QueriesDigested"},
    },
    "formatters": {
        "plain": {"format": "{levelname} {name}: {message}", "style": "{"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter", "format": "[{server_time}] {message}", "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["queries_digested"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server", "level": "INFO",
                          "filters": ["queries_digested"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.request": {"filters": ["client_error_one_line"]},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # Below INFO these log page contexts and SQL parameters, claimed values included.
        "django.template": {"level": "INFO"},
        "django.db.backends": {"level": "INFO"},
    },
}
