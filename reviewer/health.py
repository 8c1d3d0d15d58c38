"""``/healthz``: whether this web process can serve, for a load balancer or a process
supervisor (docs/deployment.md, Health checks).

It answers without a login, to GET and HEAD, never cached, and says nothing but whether the
database answers: 200 ``{"status": "ok"}``, or 503 ``{"status": "unavailable"}`` when the
query fails (the error goes to the log, never into the answer). It opens no session and
writes nothing. Plain HTTP reaches it even where every other page is redirected to HTTPS
(``SECURE_REDIRECT_EXEMPT`` in the settings), so a check from inside the network needs no
certificate; the ``Host`` it sends must still be one of ``ALLOWED_HOSTS``.

A report worker's health is its heartbeat's age (``manage.py report_worker_health``), not
this page: a web process is healthy without a worker, and the download page says when no
worker is running.
"""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger("reviewer.health")

#: The path, also exempted from the HTTPS redirect (settings.SECURE_REDIRECT_EXEMPT).
PATH = "healthz"
UNAVAILABLE_STATUS = 503


def database_answers() -> bool:
    """Whether the default database answers a query now."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except DatabaseError as error:
        logger.error("Health check: the database did not answer (%s)", type(error).__name__)
        connection.close_if_unusable_or_obsolete()
        return False


@login_not_required
@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    if database_answers():
        return JsonResponse({"status": "ok"})
    return JsonResponse({"status": "unavailable"}, status=UNAVAILABLE_STATUS)
