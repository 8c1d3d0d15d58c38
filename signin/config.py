"""The sign-in settings, read once from ``django.conf.settings`` (declared, from the
environment, in reviewer/settings.py; docs/sign-in.md lists them): which OpenID Connect
provider, how the application authenticates to it, which assurance it requires, which of the
provider's groups give which role, whether local accounts may sign in, and whether a TLS
proxy passes a verified PIV certificate's subject.
"""

from __future__ import annotations

import ipaddress
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

PRIVATE_KEY_JWT = "private_key_jwt"
CLIENT_SECRET_BASIC = "client_secret_basic"
CLIENT_AUTH_METHODS = (PRIVATE_KEY_JWT, CLIENT_SECRET_BASIC)


def words(value: str | None, *, separator: str | None = None) -> tuple[str, ...]:
    """A setting's list: split on ``separator`` (default: white space), each part stripped,
    empty parts dropped."""
    return tuple(part.strip() for part in (value or "").split(separator) if part.strip())


@dataclass(frozen=True)
class GroupRoles:
    """Which of the provider's groups give each role (any one of them does)."""

    claim: str
    reviewer: tuple[str, ...]
    supervisor: tuple[str, ...]
    administrator: tuple[str, ...]
    cbi: tuple[str, ...]


@dataclass(frozen=True)
class Oidc:
    issuer: str
    client_id: str
    client_auth: str
    client_secret: str
    private_key: str | dict[str, Any]
    private_key_id: str
    scopes: tuple[str, ...]
    acr_values: tuple[str, ...]
    required_acr: tuple[str, ...]
    groups: GroupRoles
    renew_seconds: int
    name: str
    timeout: float
    metadata_seconds: int
    provider_logout: bool


@dataclass(frozen=True)
class Piv:
    subject_header: str
    verify_header: str
    proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]

    def meta_key(self, header: str) -> str:
        return "HTTP_" + header.upper().replace("-", "_")


def _stamp(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError as error:
        raise ImproperlyConfigured(f"OIDC_PRIVATE_KEY_FILE: cannot read {path!r} ({error.strerror}).") from None


@lru_cache(maxsize=4)
def _private_key(path: str, stamp: int) -> str | dict[str, Any]:
    """The client's private key: a PEM file, or a JWK (a JSON object). Read once, and again
    when the file changes (``stamp``: its modification time); the settings are read at every
    request (signin.middleware)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ImproperlyConfigured(f"OIDC_PRIVATE_KEY_FILE: cannot read {path!r} ({error.strerror}).") from None
    if text.lstrip().startswith("{"):
        try:
            key: dict[str, Any] = json.loads(text)
        except ValueError:
            raise ImproperlyConfigured(f"OIDC_PRIVATE_KEY_FILE: {path!r} is neither a PEM key nor a JWK.") from None
        return key
    return text


def oidc() -> Oidc | None:
    """The provider's settings, or None when single sign-on is off (OIDC_ISSUER unset)."""
    issuer = (getattr(settings, "OIDC_ISSUER", "") or "").strip().rstrip("/")
    if not issuer:
        return None
    client_id = settings.OIDC_CLIENT_ID.strip()
    if not client_id:
        raise ImproperlyConfigured("OIDC_CLIENT_ID is required when OIDC_ISSUER is set.")
    method = settings.OIDC_CLIENT_AUTH.strip()
    if method not in CLIENT_AUTH_METHODS:
        raise ImproperlyConfigured(f"OIDC_CLIENT_AUTH must be one of {', '.join(CLIENT_AUTH_METHODS)}, not {method!r}.")
    secret = settings.OIDC_CLIENT_SECRET
    key: str | dict[str, Any] = ""
    if method == CLIENT_SECRET_BASIC and not secret:
        raise ImproperlyConfigured("OIDC_CLIENT_SECRET is required with OIDC_CLIENT_AUTH=client_secret_basic.")
    if method == PRIVATE_KEY_JWT:
        if not settings.OIDC_PRIVATE_KEY_FILE:
            raise ImproperlyConfigured("OIDC_PRIVATE_KEY_FILE is required with OIDC_CLIENT_AUTH=private_key_jwt.")
        key = _private_key(settings.OIDC_PRIVATE_KEY_FILE, _stamp(settings.OIDC_PRIVATE_KEY_FILE))
    required_acr = words(settings.OIDC_REQUIRED_ACR)
    return Oidc(
        issuer=issuer,
        client_id=client_id,
        client_auth=method,
        client_secret=secret,
        private_key=key,
        private_key_id=settings.OIDC_PRIVATE_KEY_ID.strip(),
        scopes=words(settings.OIDC_SCOPES),
        # The levels asked for: OIDC_ACR_VALUES, else those required (a provider states the
        # level in the ID token when it was asked for one).
        acr_values=words(settings.OIDC_ACR_VALUES) or required_acr,
        required_acr=required_acr,
        groups=GroupRoles(
            claim=settings.OIDC_GROUPS_CLAIM.strip(),
            reviewer=words(settings.OIDC_REVIEWER_GROUPS, separator=","),
            supervisor=words(settings.OIDC_SUPERVISOR_GROUPS, separator=","),
            administrator=words(settings.OIDC_ADMINISTRATOR_GROUPS, separator=","),
            cbi=words(settings.OIDC_CBI_GROUPS, separator=","),
        ),
        renew_seconds=settings.OIDC_RENEW_SECONDS,
        name=settings.OIDC_PROVIDER_NAME.strip() or "single sign-on",
        timeout=settings.OIDC_HTTP_TIMEOUT,
        metadata_seconds=settings.OIDC_METADATA_SECONDS,
        provider_logout=settings.OIDC_PROVIDER_LOGOUT,
    )


def piv() -> Piv | None:
    """PIV at the proxy's settings, or None when off (PIV_SUBJECT_HEADER unset)."""
    header = (getattr(settings, "PIV_SUBJECT_HEADER", "") or "").strip()
    if not header:
        return None
    if not settings.TRUSTED_PROXY_COUNT:
        raise ImproperlyConfigured(
            "PIV_SUBJECT_HEADER needs TRUSTED_PROXY_COUNT set to 1 or more: the subject is read only from requests "
            "that came through the TLS proxy that verified the certificate."
        )
    proxies = []
    for part in words(settings.PIV_PROXY_ADDRESSES, separator=","):
        try:
            proxies.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"PIV_PROXY_ADDRESSES: {part!r} is not an address or network.") from None
    if not proxies:
        raise ImproperlyConfigured("PIV_PROXY_ADDRESSES must name the TLS proxy's address (or network).")
    return Piv(subject_header=header, verify_header=settings.PIV_VERIFY_HEADER.strip(), proxies=tuple(proxies))


def local_sign_in_allowed(username: str) -> bool:
    """Whether a local account may sign in with its password: every one when LOCAL_SIGN_IN is
    on (the quick start), else only the named break-glass administrators."""
    if settings.LOCAL_SIGN_IN:
        return True
    return username in words(settings.BREAK_GLASS_USERS, separator=",")
