"""PIV at the proxy: a deployment whose TLS proxy verifies the client's PIV certificate passes
the certificate's subject in a header (PIV_SUBJECT_HEADER; nginx's ``$ssl_client_s_dn``) and
the verification's result in another (PIV_VERIFY_HEADER, ``SUCCESS``; nginx's
``$ssl_client_verify``). The headers are believed only on a request that came through that
proxy: its address (REMOTE_ADDR) is one of PIV_PROXY_ADDRESSES, and it carries the
X-Forwarded-For entries TRUSTED_PROXY_COUNT says the proxies add. Anything else (a client
that sets the header itself and reaches the application directly) is ignored and logged.

A certificate's subject is linked to an account by an administrator (``manage.py signin
link-piv``); the account's roles are those given to it here (the admin).
"""

from __future__ import annotations

import ipaddress
import logging

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest

from .config import Piv
from .models import PIV_ISSUER, Identity

logger = logging.getLogger("signin")

VERIFIED = "SUCCESS"
UNTRUSTED = "A PIV subject header came from %s, not through the TLS proxy (PIV_PROXY_ADDRESSES): ignored."


def _through_proxy(config: Piv, request: HttpRequest) -> bool:
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", "").strip())
    except ValueError:
        return False
    if not any(address in network for network in config.proxies):
        return False
    forwarded = [p for p in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if p.strip()]
    return len(forwarded) >= (settings.TRUSTED_PROXY_COUNT or 0)


def subject(config: Piv, request: HttpRequest) -> str | None:
    """The verified certificate's subject the proxy passed, or None (no certificate, not
    verified, or a header that did not come through the proxy)."""
    value = str(request.META.get(config.meta_key(config.subject_header), "")).strip()
    if not value:
        return None
    if not _through_proxy(config, request):
        logger.warning(UNTRUSTED, request.META.get("REMOTE_ADDR", "?"))
        return None
    if config.verify_header and request.META.get(config.meta_key(config.verify_header), "").strip() != VERIFIED:
        return None
    return value


def person_for(certificate_subject: str) -> User | None:
    """The active account linked to the certificate's subject, or None."""
    identity = Identity.objects.select_related("user").filter(issuer=PIV_ISSUER, subject=certificate_subject).first()
    if identity is None or not identity.user.is_active:
        return None
    return identity.user
