"""The client's address, the same for the lockout (django-axes' ``AXES_CLIENT_IP_CALLABLE``)
and the audit trail.

Directly exposed (``TRUSTED_PROXY_COUNT`` 0, or unset: the default) the client is
``REMOTE_ADDR``; unset, a proxy on this host that the settings do not know of is refused
(reviewer.middleware).
Behind N trusted reverse proxies that each append to ``X-Forwarded-For``, the client is
the N-th address from the right: the one the outermost trusted proxy saw. Addresses
further left were written by the client and are never trusted.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str | None) -> str | None:
    if not address:
        return None
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str | None:
    """The client's IP address, or None when it is not known or not an address."""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", None) or 0
    if proxies > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return _valid(forwarded[-proxies])
        return None
    return _valid(request.META.get("REMOTE_ADDR"))
