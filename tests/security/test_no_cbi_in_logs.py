"""No CBI in any log (issue 27): a cleared user's search for a claimed chemical name
(``/?q=...``), a filter, a referrer or a login redirect's ``next=`` reaches the logs only
as a keyed digest of the query.

The claimed values are the demo CBI case's (``fixtures/demo_cases.json``, as load_demo
loads it). Requests carrying them in the query go through the application with its own
logging configuration (``LOGGING``) capturing every level, through Django's development
server, through gunicorn's logger built from gunicorn.conf.py, and through a real
gunicorn; no log line may hold any of them, in any spelling a URL gives them."""

from __future__ import annotations

import copy
import io
import logging
import logging.config
import runpy
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta
from types import SimpleNamespace
from urllib.parse import quote, quote_plus, urlencode

import pytest
from django.conf import settings
from gunicorn.config import Config

from demo.management.commands import load_demo
from reviewer.log import QueriesDigested, query_digest, without_queries
from tests.conftest import make_submission
from tests.security._production import ROOT, production_env

CBI_CASE_NUMBER = "P-26-0042"  # the demo's CBI case (README, "Demo data")


def _demo_cbi_case() -> dict:
    records = load_demo.demo_case_records(load_demo._fixture("demo_cases.json"))
    return records[CBI_CASE_NUMBER][0]["fields"]


def _claimed() -> dict[str, str]:
    """The demo CBI case's claimed values as text, by field."""
    fields = _demo_cbi_case()
    assert fields["is_cbi"] and fields["cbi_claims"]
    claimed = {}
    for name in fields["cbi_claims"]:
        value = fields[name]
        claimed[name] = f"{value:g}" if isinstance(value, float) else str(value)
    return claimed


CLAIMED = _claimed()


def _needles() -> set[str]:
    """Each claimed value as typed, as a URL encodes it, and each distinctive word of it; a
    number as a query's value (a bare "1200" could be a port or a process id)."""
    needles = set()
    for value in CLAIMED.values():
        if value.replace(".", "").isdigit():
            needles |= {f"={value}", f"%3d{value}"}
            continue
        needles |= {value, quote(value), quote_plus(value), quote(value, safe="")}
        needles |= {word for word in value.replace("(", " ").replace(")", " ").split() if len(word) >= 6}
    return {needle.lower() for needle in needles if len(needle) >= 4}


NEEDLES = _needles()


def _leaks(text: str) -> list[str]:
    lowered = text.lower()
    return sorted(needle for needle in NEEDLES if needle in lowered)


def _queries() -> list[str]:
    """Search and filter queries a cleared user's pages make with the claimed values."""
    queries = [urlencode({"q": value}) for value in CLAIMED.values()]
    queries += [urlencode({"q": value, "status": "submitted", "after": value}) for value in CLAIMED.values()]
    queries += [f"q={quote(value, safe='()')}" for value in CLAIMED.values()]  # as a browser sends it
    return queries


def test_the_needles_are_the_demo_cases_claimed_values():
    assert CLAIMED["chemical_name"] == "Tetrakis(ethylmethylamino)hafnium"
    assert {"tetrakis(ethylmethylamino)hafnium", "tetrakis%28ethylmethylamino%29hafnium", "352535-01-4"} <= NEEDLES


# The digest ------------------------------------------------------------------------------------


def test_a_query_becomes_its_digest_and_the_path_stays():
    line = f'"GET /due/?{urlencode({"q": CLAIMED["chemical_name"]})} HTTP/1.1" 200'
    clean = without_queries(line)
    assert clean == f'"GET /due/?{query_digest(urlencode({"q": CLAIMED["chemical_name"]}))} HTTP/1.1" 200'
    assert not _leaks(clean)


def test_the_same_query_has_the_same_digest_and_another_query_another():
    assert query_digest("q=a") == query_digest("q=a") != query_digest("q=b")
    assert query_digest("q=a").startswith("query-") and len(query_digest("q=a")) == len("query-") + 12


def test_the_digest_is_keyed_by_the_secret_key(settings):
    """A plain hash of a CAS number could be reversed by hashing every candidate."""
    before = query_digest("q=352535-01-4")
    settings.SECRET_KEY = "another-secret-key-for-this-test-only"
    assert query_digest("q=352535-01-4") != before


def test_absolute_urls_and_a_digested_line_are_handled():
    referer = f"https://review.example.gov/?{urlencode({'q': CLAIMED['submitter']})}"
    assert without_queries(referer).startswith("https://review.example.gov/?query-")
    assert without_queries(without_queries(referer)) == without_queries(referer)
    assert without_queries("Not Found: /cases/12/") == "Not Found: /cases/12/"


# The application's own logs --------------------------------------------------------------------


def _at_debug(config):
    """``LOGGING`` as an operator's ``LOG_LEVEL=DEBUG`` makes it: every level that is
    LOG_LEVEL becomes DEBUG."""
    if isinstance(config, dict):
        return {key: "DEBUG" if key == "level" and value == settings.LOG_LEVEL else _at_debug(value)
                for key, value in config.items()}
    if isinstance(config, list):
        return [_at_debug(value) for value in config]
    return config


@pytest.fixture
def app_log():
    """The application's logging (``settings.LOGGING``, with ``LOG_LEVEL=DEBUG``, the most
    an operator can ask for) writing to a buffer; the test session's logging restored
    afterwards."""
    config = _at_debug(copy.deepcopy(settings.LOGGING))
    names = ["", *config.get("loggers", {})]
    saved = {}
    for name in names:
        logger = logging.getLogger(name)
        saved[name] = (logger.handlers[:], logger.filters[:], logger.level, logger.propagate, logger.disabled)
    stream = io.StringIO()
    real_stderr = sys.stderr
    sys.stderr = stream  # the configured StreamHandlers take sys.stderr as they are built
    try:
        logging.config.dictConfig(config)
    finally:
        sys.stderr = real_stderr
    yield stream
    for name, (handlers, filters, level, propagate, disabled) in saved.items():
        logger = logging.getLogger(name)
        logger.handlers[:], logger.filters[:] = handlers, filters
        logger.level, logger.propagate, logger.disabled = level, propagate, disabled


def test_the_console_and_runserver_handlers_digest_queries():
    handlers = settings.LOGGING["handlers"]
    filters = settings.LOGGING["filters"]
    for name in ("console", "django.server"):
        assert any(filters[f].get("()") == "reviewer.log.QueriesDigested" for f in handlers[name].get("filters", [])), name


@pytest.mark.django_db
def test_searches_refusals_and_errors_with_claimed_values_leave_none_in_the_application_log(client, app_log,
                                                                                            supervisor):
    fields = _demo_cbi_case()
    case = make_submission(**{name: fields[name] for name in ("case_number", "cbi_claims", *fields["cbi_claims"])})
    assert case.is_cbi
    anonymous = type(client)(raise_request_exception=False)
    client.force_login(supervisor)
    client.raise_request_exception = False
    statuses = set()
    for query in _queries():
        for path in ("/", "/due/", f"/cases/{case.pk}/", "/no-such-page/", "/review/"):
            statuses.add(client.get(f"{path}?{query}", HTTP_REFERER=f"http://testserver/?{query}").status_code)
        statuses.add(client.post(f"/?{query}").status_code)  # the case list answers GET only: 405
        statuses.add(anonymous.get(f"/?{query}").status_code)  # the login redirect's next=
    assert {200, 302, 404, 405} <= statuses
    logging.getLogger("django.request").warning("Not Found: %s", f"/?{_queries()[0]}")  # as a view would word it
    log = app_log.getvalue()
    assert "Not Found" in log and "Method Not Allowed" in log
    assert not _leaks(log), log


def test_the_development_server_logs_no_query(app_log):
    """runserver's request lines (logger ``django.server``) hold the query's digest."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer

    server = WSGIServer(("127.0.0.1", 0), WSGIRequestHandler)
    server.set_app(WSGIHandler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        for query in _queries()[:3]:
            _get(f"http://127.0.0.1:{port}/accounts/login/?{query}")
    finally:
        server.shutdown()
        server.server_close()
    log = app_log.getvalue()
    assert "/accounts/login/?query-" in log, log
    assert not _leaks(log), log


def test_a_traceback_holding_a_query_is_digested():
    handler_stream = io.StringIO()
    handler = logging.StreamHandler(handler_stream)
    handler.addFilter(QueriesDigested())
    logger = logging.getLogger("tests.no_cbi_in_logs")
    logger.addHandler(handler)
    try:
        try:
            raise ValueError(f"bad request /?q={CLAIMED['chemical_name']}")
        except ValueError:
            logger.exception("Internal Server Error: %s", f"/?q={CLAIMED['cas_number']}")
    finally:
        logger.removeHandler(handler)
    assert "ValueError" in handler_stream.getvalue()
    assert not _leaks(handler_stream.getvalue()), handler_stream.getvalue()


# gunicorn ------------------------------------------------------------------------------------


def _gunicorn_config() -> Config:
    """gunicorn's configuration from gunicorn.conf.py, as ``gunicorn`` loads it."""
    cfg = Config()
    for name, value in runpy.run_path(str(ROOT / "gunicorn.conf.py")).items():
        if name in cfg.settings:
            cfg.set(name, value)
    return cfg


@pytest.fixture
def gunicorn_logger(tmp_path):
    """gunicorn's logger as gunicorn.conf.py configures it, writing its access and error
    logs to files (``.access_path``, ``.error_path``) instead of the standard streams."""
    cfg = _gunicorn_config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    logger = cfg.logger_class(cfg)
    logger.access_path, logger.error_path = tmp_path / "access.log", tmp_path / "error.log"
    yield logger
    for log in (logger.error_log, logger.access_log):
        for handler in list(log.handlers):
            log.removeHandler(handler)
            handler.close()


def _access(logger, query: str, *, status: str = "200 OK", location: str = "") -> None:
    uri = f"/?{query}"
    referer = f"https://review.example.gov/due/?{query}"
    environ = {
        "REQUEST_METHOD": "GET", "RAW_URI": uri, "PATH_INFO": "/", "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.7", "HTTP_REFERER": referer,
        "HTTP_USER_AGENT": "Mozilla/5.0", "REQUEST_URI": uri,
    }
    request = SimpleNamespace(headers=[("HOST", "review.example.gov"), ("REFERER", referer)])
    headers = [("Content-Type", "text/html")] + ([("Location", location)] if location else [])
    response = SimpleNamespace(status=status, headers=headers, sent=2048)
    logger.access(response, request, environ, timedelta(milliseconds=42))


def test_gunicorn_uses_the_logger_that_digests_queries():
    cfg = _gunicorn_config()
    assert cfg.logger_class.__module__ == "reviewer.log" and cfg.accesslog == "-"


def test_gunicorns_access_log_keeps_method_path_status_and_time_but_no_query(gunicorn_logger):
    for query in _queries():
        _access(gunicorn_logger, query)
        _access(gunicorn_logger, query, status="302 Found", location=f"/accounts/login/?next=/%3F{quote(query)}")
    lines = gunicorn_logger.access_path.read_text().splitlines()
    assert len(lines) == 2 * len(_queries())
    first = lines[0]
    assert f'"GET /?{query_digest(_queries()[0])} HTTP/1.1" 200 2048' in first and first.endswith(" 0.042000")
    assert not _leaks("\n".join(lines)), lines


@pytest.mark.parametrize("atom", ["%(r)s", "%(q)s", "%(f)s", "%({raw_uri}e)s", "%({query_string}e)s",
                                  "%({request_uri}e)s", "%({referer}i)s", "%({location}o)s"])
def test_no_access_log_format_atom_shows_a_query(gunicorn_logger, atom):
    gunicorn_logger.cfg.set("access_log_format", atom)
    query = _queries()[0]
    _access(gunicorn_logger, query, status="302 Found", location=f"https://review.example.gov/?{query}")
    line = gunicorn_logger.access_path.read_text()
    assert "query-" in line and not _leaks(line), line


def test_gunicorns_error_log_digests_the_uri_of_a_failed_request(gunicorn_logger):
    try:
        raise RuntimeError("worker failed")
    except RuntimeError:
        gunicorn_logger.exception("Error handling request %s", f"/?{_queries()[0]}")
    err = gunicorn_logger.error_path.read_text()
    assert "Error handling request /?query-" in err and not _leaks(err), err


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, **headers: str) -> int:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_real_gunicorn_logs_no_query(tmp_path):
    """gunicorn as production runs it (gunicorn.conf.py, the production settings), one
    worker on a free port: requests with the claimed values in the query and the
    referrer (a user not logged in is sent to the login page, with the query in next=)."""
    port = _free_port()
    env = production_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", BIND=f"127.0.0.1:{port}",
                         WEB_CONCURRENCY="1", SECURE_SSL_REDIRECT="0", LOG_LEVEL="DEBUG")
    out_path, err_path = tmp_path / "stdout", tmp_path / "stderr"
    with out_path.open("w") as out, err_path.open("w") as err:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                                  stdout=out, stderr=err)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, err_path.read_text()
                time.sleep(0.2)
        statuses = {
            _get(f"http://127.0.0.1:{port}{path}?{query}", Host="review.example.gov",
                 Referer=f"https://review.example.gov/?{query}")
            for query in _queries() for path in ("/", "/due/")
        }
    finally:
        server.terminate()
        server.wait(timeout=30)
    log = out_path.read_text() + err_path.read_text()
    assert statuses == {302} and '"GET /due/?query-' in log, (statuses, log)
    assert not _leaks(log), log
