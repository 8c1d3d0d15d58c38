"""The authentication backends. ``LocalAccountBackend`` is Django's password check, refusing
every account but the named break-glass administrators when LOCAL_SIGN_IN is off.
``IdentityBackend`` keeps the sessions of people signed in by the identity provider or PIV:
it checks no credentials itself (``signin.views`` and ``signin.middleware`` verify them) and
finds the session's user as Django's does."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest

from .config import local_sign_in_allowed

IDENTITY_BACKEND = "signin.backends.IdentityBackend"


class LocalAccountBackend(ModelBackend):
    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> User | None:
        if username is not None and not local_sign_in_allowed(username):
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class IdentityBackend(ModelBackend):
    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> User | None:
        return None
