"""Sign-in on every request, after Django's authentication and the login's lifetime
(audit.sessions):

- **PIV at the proxy**: a request that came through the TLS proxy with a verified
  certificate signs its linked person in; a session begun by one certificate ends when the
  request carries another, or none.
- **Renewal**: a single sign-on's roles and CBI clearance are read again from the provider
  every OIDC_RENEW_SECONDS, with the refresh token: a person removed from the cleared group
  loses CBI access at their first request after that (and the custody log says so); one the
  provider no longer knows, or who holds no role any more, is signed out with the reason.
  Without a refresh token, a page request goes through the provider's sign-in again (which
  asks nothing while the provider's own session lasts).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login, logout
from django.http import HttpRequest, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.urls import reverse

from . import accounts, config, oidc, piv
from .backends import IDENTITY_BACKEND
from .views import SESSION_OIDC

logger = logging.getLogger("signin")

SESSION_PIV = "signin.piv"
NOT_RENEWED = "Your sign-in could not be renewed at {name} ({reason}) Please sign in again."
NO_ROLE_NOW = "You were signed out: {name} no longer gives you a role in this application."
PIV_NOT_LINKED = "Your PIV certificate ({subject}) is not linked to an account here: ask an administrator."


class SignInMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        piv_config = config.piv()
        if piv_config is not None:
            self._piv(piv_config, request)
        sso = config.oidc()
        if sso is not None and request.user.is_authenticated and SESSION_OIDC in request.session:
            response = self._renew(sso, request)
            if response is not None:
                return response
        return self.get_response(request)

    @staticmethod
    def _piv(piv_config: config.Piv, request: HttpRequest) -> None:
        subject = piv.subject(piv_config, request)
        held = request.session.get(SESSION_PIV)
        if request.user.is_authenticated and held and held != subject:
            logout(request)  # the card was removed or changed
        if request.user.is_authenticated or not subject:
            return
        user = piv.person_for(subject)
        if user is None:
            if request.session.get("signin.piv_refused") != subject:
                request.session["signin.piv_refused"] = subject
                messages.error(request, PIV_NOT_LINKED.format(subject=subject))
            return
        login(request, user, backend=IDENTITY_BACKEND)
        request.session[SESSION_PIV] = subject

    @staticmethod
    def _renew(sso: config.Oidc, request: HttpRequest) -> HttpResponseBase | None:
        record = dict(request.session[SESSION_OIDC])
        if time.time() - record.get("renewed_at", 0) < sso.renew_seconds or request.path.startswith("/accounts/"):
            return None
        if not record.get("refresh_token"):
            if request.method != "GET":
                return None  # renewed at the next page
            query = urlencode({"next": request.get_full_path()})
            return HttpResponseRedirect(f"{reverse('signin-start')}?{query}")
        user = request.user
        try:
            renewed = oidc.renew(sso, refresh_token=record["refresh_token"], subject=record["subject"])
            roles = accounts.renewed_roles(sso, user, renewed.claims, request=request)  # type: ignore[arg-type]
        except oidc.SignInRefused as refused:
            logger.warning("Sign-in of %s not renewed: %s", user.get_username(), refused.detail)
            logout(request)
            messages.info(request, NOT_RENEWED.format(name=sso.name, reason=refused.message.split(".")[0] + "."))
            return None
        if roles is not None and not roles.any:
            logout(request)
            messages.info(request, NO_ROLE_NOW.format(name=sso.name))
            return None
        record.update(id_token=renewed.id_token, refresh_token=renewed.refresh_token, renewed_at=time.time())
        request.session[SESSION_OIDC] = record
        return None
