"""Logging filters (``LOGGING`` in reviewer/settings.py)."""

from __future__ import annotations

import logging


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
