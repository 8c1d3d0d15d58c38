"""Request hygiene that holds for every page, whatever the view.

- Only GET, HEAD and POST reach a view: the application has no other use for a method,
  and TRACE or OPTIONS answered 200 tell a scanner more than it needs (405 instead).
- A response to a logged-in user is never cached, by the browser or by a proxy
  (``Cache-Control: no-store, private``): pages and reports may hold CBI.
- ``X-Forwarded-For`` arriving while ``TRUSTED_PROXY_COUNT`` is 0 means a proxy stands in
  front that the settings do not know of: every client then shares the proxy's address
  for the login lockout and the audit trail. It is logged once a process, as a warning.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import HttpResponseNotAllowed
from django.utils.cache import add_never_cache_headers, patch_cache_control

ALLOWED_METHODS = ("GET", "HEAD", "POST")
UNKNOWN_PROXY = (
    "Requests carry X-Forwarded-For but TRUSTED_PROXY_COUNT is 0: every client shares the proxy's address for "
    "the login lockout and the audit trail. Set TRUSTED_PROXY_COUNT to the number of proxies (README, Security)."
)

logger = logging.getLogger("reviewer.security")


class RequestHygieneMiddleware:
    """Methods allowed, no caching of authenticated responses, an unknown proxy reported."""

    proxy_warned = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ALLOWED_METHODS:
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        self._check_proxy(request)
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
            patch_cache_control(response, private=True)
        return response

    @classmethod
    def _check_proxy(cls, request) -> None:
        if cls.proxy_warned or getattr(settings, "TRUSTED_PROXY_COUNT", 0) > 0:
            return
        if request.META.get("HTTP_X_FORWARDED_FOR"):
            cls.proxy_warned = True
            logger.warning(UNKNOWN_PROXY)
