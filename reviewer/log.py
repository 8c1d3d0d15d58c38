"""Logging filters (``LOGGING`` in reviewer/settings.py) and gunicorn's logger
(``logger_class`` in gunicorn.conf.py).

No query string reaches a log. A cleared user's search (``/?q=<a claimed chemical name>``),
a filter, or a login redirect's ``next=`` may hold confidential business information, and
logs are read by people and systems that are not cleared for it. Every URL query in a log
line is therefore replaced by a short keyed digest (:func:`query_digest`): the method,
path, status and timing stay readable, and two requests with the same query show the
same digest, so an operator can still tell that requests repeated a search without
learning what it was. The digest is an HMAC keyed with the site's ``SECRET_KEY``: a
plain hash of a short value such as a CAS number could be reversed by trying every
candidate.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import MutableMapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from gunicorn.config import Config
from gunicorn.glogging import Logger as GunicornBaseLogger
from gunicorn.http.message import Request
from gunicorn.http.wsgi import Response

if TYPE_CHECKING:
    from gunicorn.glogging import _AtomsDict  # the stub's name for what atoms() returns

# Shown in place of a query: "/?query-3f9a1c2b7d4e".
QUERY_MARK = "query-"
DIGEST_LENGTH = 12  # hex digits: 48 bits, enough to tell queries apart in a log
_DIGEST_SALT = b"reviewer.log.query_digest"

# A URL's query: "?" after a path or an absolute URL's host, up to white space or a
# double quote (a fragment or a single quote stays inside: a raw one may be sent, and
# what follows it is as confidential). A query already replaced by its digest is left alone.
_QUERY = re.compile(
    r"""(?P<before>[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/?#"']*(?:/[^\s?#"']*)?|/[^\s?#"']*)\?(?P<query>[^\s"]*)"""
)
_DIGESTED = re.compile(rf"^{QUERY_MARK}[0-9a-f]{{{DIGEST_LENGTH}}}$")

_process_key = secrets.token_bytes(32)


def _key() -> bytes:
    """The site's SECRET_KEY, so every process and host digests a query alike; a key of
    this process alone where no Django settings are loaded (gunicorn's master process)."""
    try:
        secret = settings.SECRET_KEY
    except Exception:  # no settings module, or no key in it: a process that serves no page
        return _process_key
    return hashlib.sha256(_DIGEST_SALT + str(secret).encode()).digest()


def query_digest(query: str) -> str:
    """``"query-"`` and the first 12 hex digits of the query's HMAC-SHA256."""
    digest = hmac.new(_key(), query.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()
    return QUERY_MARK + digest[:DIGEST_LENGTH]


def without_queries(text: str) -> str:
    """``text`` with each URL's query replaced by its digest (an empty query is dropped)."""

    def replace(match: re.Match[str]) -> str:
        query = match["query"]
        if not query:
            return match["before"]
        if _DIGESTED.match(query):
            return match[0]
        return f"{match['before']}?{query_digest(query)}"

    return _QUERY.sub(replace, text) if "?" in text else text


class QueriesDigested(logging.Filter):
    """Replace the query of every URL in a record's message (and its traceback) by its
    digest. Attached to the handlers, so it sees every record whatever logger made it
    (Django's ``django.server`` request lines, ``django.request``, the application's
    own)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to the handler to report
            return True
        clean = without_queries(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = without_queries(record.exc_text)
        return True


class ClientErrorOneLine(logging.Filter):
    """A client error (status 400 to 499: a refusal, a missing page, a bad request) logged
    by ``django.request`` stays one line: Django attaches the exception that made the
    response, and its traceback says nothing about a fault of the application. Server
    errors (500 and up) keep their traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True


class GunicornLogger(GunicornBaseLogger):
    """gunicorn's logger with no query string in the access log or the error log.

    In the access log the request line (``%(r)s``) carries the query's digest in place of
    the query, ``%(q)s`` is the digest alone, and the referrer (``%(f)s``) and every
    header or environment value (``%({name}i)s``, ``%({name}o)s``, ``%({name}e)s``:
    a redirect's ``Location``, ``RAW_URI``, ``QUERY_STRING``) have their URLs' queries
    digested too. The error log (gunicorn's "Error handling request <uri>") gets
    :class:`QueriesDigested`."""

    def setup(self, cfg: Config) -> None:
        super().setup(cfg)
        if not any(isinstance(f, QueriesDigested) for f in self.error_log.filters):
            self.error_log.addFilter(QueriesDigested())

    def atoms(self, resp: Response, req: Request, environ: MutableMapping[str, Any],
              request_time: timedelta) -> _AtomsDict:
        # A plain dict: gunicorn's atoms also have a key per header ("{name}i", "{name}o")
        # and per environment value ("{name}e"), which the stub's TypedDict leaves out.
        atoms: dict[str, Any] = dict(super().atoms(resp, req, environ, request_time))
        query = environ.get("QUERY_STRING") or ""
        digested = {
            "q": query_digest(query) if query else "",
            "{query_string}e": query_digest(query) if query else "",
            "{raw_uri}e": _target(str(environ.get("RAW_URI", ""))),
            # The request target as sent: its query is whatever follows the first "?".
            "r": " ".join((str(environ.get("REQUEST_METHOD", "-")), _target(str(environ.get("RAW_URI", ""))),
                           str(environ.get("SERVER_PROTOCOL", "-")))),
        }
        for name, value in atoms.items():
            if name in digested:
                atoms[name] = digested[name]
            elif isinstance(value, str):
                atoms[name] = without_queries(value)
        return cast("_AtomsDict", atoms)


def _target(uri: str) -> str:
    """A request target with its query (anything after the first "?") digested."""
    path, mark, query = uri.partition("?")
    return f"{path}?{query_digest(query)}" if mark and query else path
