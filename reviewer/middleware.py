"""Request hygiene that holds for every page, whatever the view.

- Only GET, HEAD and POST reach a view: the application has no other use for a method,
  and TRACE or OPTIONS answered 200 tell a scanner more than it needs (405 instead).
- HEAD is answered wherever GET is, by this one rule: the view runs as for a GET (so a
  view decorated ``require_GET`` or ``require_http_methods(["GET", "POST"])`` answers
  it) and the body is dropped; the status and headers are the GET's, ``Content-Length``
  included.
- A response to a logged-in user is never cached, by the browser or by a proxy
  (``Cache-Control: no-store, private``): pages and reports may hold CBI.
- A proxy the settings do not know of. ``X-Forwarded-For`` on a request from this host (a
  loopback address, or a Unix socket: no address) while ``TRUSTED_PROXY_COUNT`` is unset
  means a reverse proxy stands in front, and every client would share its address in the
  login throttle and the audit trail: such requests are refused (503, ``PROXY_REFUSED``,
  logged once a process as an error) until ``TRUSTED_PROXY_COUNT`` is set. Set to 0 it
  is served, with a warning once a process (``UNKNOWN_PROXY``), as is ``X-Forwarded-For``
  from elsewhere with no trusted proxies.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.cache import add_never_cache_headers, patch_cache_control

ALLOWED_METHODS = ("GET", "HEAD", "POST")
UNKNOWN_PROXY = (
    "Requests carry X-Forwarded-For but TRUSTED_PROXY_COUNT is 0: every client shares the proxy's address for "
    "the login throttle and the audit trail. Set TRUSTED_PROXY_COUNT to the number of proxies (README, Security)."
)
PROXY_REFUSED = (
    "Refused: a request from this host carries X-Forwarded-For, so a reverse proxy stands in front, but "
    "TRUSTED_PROXY_COUNT is not set, and every client would share the proxy's address in the login throttle and "
    "the audit trail. Set TRUSTED_PROXY_COUNT to the number of proxies that append to X-Forwarded-For (1 or "
    "more), or to 0 to serve with the proxy's address as every client's (README, Security)."
)
PROXY_REFUSED_STATUS = 503

logger = logging.getLogger("reviewer.security")


def from_this_host(request: HttpRequest) -> bool:
    """Whether the request came from this host: a loopback address, or no address at all
    (a Unix socket)."""
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", "").strip())
    except ValueError:
        return True
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


class RequestHygieneMiddleware:
    """Methods allowed, HEAD as GET, no caching of authenticated responses, an unknown proxy
    refused or reported."""

    proxy_warned = False
    proxy_refusal_logged = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method not in ALLOWED_METHODS:
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        refusal = self._check_proxy(request)
        if refusal is not None:
            return refusal
        head = request.method == "HEAD"
        if head:
            request.method = "GET"
        response = self.get_response(request)
        if head:
            request.method = "HEAD"
            _drop_body(response)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
            patch_cache_control(response, private=True)
        return response

    @classmethod
    def _check_proxy(cls, request: HttpRequest) -> HttpResponse | None:
        proxies = getattr(settings, "TRUSTED_PROXY_COUNT", None)
        if proxies or not request.META.get("HTTP_X_FORWARDED_FOR"):
            return None
        if proxies is None and from_this_host(request):
            if not cls.proxy_refusal_logged:
                cls.proxy_refusal_logged = True
                logger.error(PROXY_REFUSED)
            return HttpResponse(PROXY_REFUSED, status=PROXY_REFUSED_STATUS, content_type="text/plain; charset=utf-8")
        if not cls.proxy_warned:
            cls.proxy_warned = True
            logger.warning(UNKNOWN_PROXY)
        return None


def _drop_body(response: HttpResponseBase) -> None:
    """A HEAD's answer: the GET's status and headers, no body (a file or stream is closed
    when the server closes the response, as for a GET)."""
    if isinstance(response, StreamingHttpResponse):
        response.streaming_content = []
    elif isinstance(response, HttpResponse):
        response.content = b""
