"""The sign-in pages: the login page (single sign-on first, local accounts as the settings
allow), the start of a single sign-on and the provider's answer, and sign-out (the local
session, then the provider's where it offers RP-initiated logout)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from audit.models import AuthEvent
from audit.services import auth_event_record

from . import accounts, config, oidc
from .backends import IDENTITY_BACKEND

logger = logging.getLogger("signin")

#: The session's record of a single sign-on: the ID token (the provider's logout hint), the
#: refresh token, the subject and when the roles were last renewed (signin.middleware).
SESSION_OIDC = "signin.oidc"


NOT_CONFIGURED = "Single sign-on is not set up on this installation: log in with your account here."


def _safe_next(request: HttpRequest, candidate: str) -> str:
    if candidate and url_has_allowed_host_and_scheme(candidate, allowed_hosts={request.get_host()},
                                                     require_https=request.is_secure()):
        return candidate
    return reverse(settings.LOGIN_REDIRECT_URL)


def _callback_uri(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("signin-callback"))


class LoginView(auth_views.LoginView):
    """Django's login page, with the single sign-on button and the local form as allowed."""

    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        sso = config.oidc()
        context["sso_name"] = sso.name if sso else ""
        next_url = self.get_redirect_url()
        context["sso_url"] = reverse("signin-start") + (f"?{urlencode({'next': next_url})}" if next_url else "")
        context["local_sign_in"] = settings.LOCAL_SIGN_IN
        return context


def single_sign_on(view: Callable[[HttpRequest, config.Oidc], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """A step of single sign-on: reached without a login, by GET, with the provider's settings;
    where single sign-on is not set up, the login page, saying so."""

    @login_not_required
    @require_GET
    @wraps(view)
    def step(request: HttpRequest) -> HttpResponse:
        sso = config.oidc()
        if sso is None:
            messages.info(request, NOT_CONFIGURED)
            return redirect("login")
        return view(request, sso)

    return step


@single_sign_on
def start(request: HttpRequest, sso: config.Oidc) -> HttpResponse:
    next_url = _safe_next(request, request.GET.get("next", ""))
    try:
        url = oidc.begin(sso, request.session, redirect_uri=_callback_uri(request), next_url=next_url)
    except oidc.SignInRefused as refused:
        return _refused(request, sso, refused)
    return HttpResponseRedirect(url)


def _refused(request: HttpRequest, sso: config.Oidc, refused: oidc.SignInRefused, *, subject: str = "") -> HttpResponse:
    logger.warning("Sign-in refused (%s): %s", sso.issuer, refused.detail)
    auth_event_record(kind=AuthEvent.Kind.LOGIN_FAILED, request=request, username=subject or "(single sign-on)")
    return render(request, "signin/refused.html", {"message": refused.message, "sso_name": sso.name,
                                                   "login_url": reverse("login")}, status=403)


@single_sign_on
def callback(request: HttpRequest, sso: config.Oidc) -> HttpResponse:
    try:
        signed, next_url = oidc.finish(sso, request.session, request.GET, redirect_uri=_callback_uri(request))
    except oidc.SignInRefused as refused:
        return _refused(request, sso, refused)
    try:
        user = accounts.person_for(sso, signed.claims, request=request)
    except oidc.SignInRefused as refused:
        return _refused(request, sso, refused, subject=signed.subject)
    login(request, user, backend=IDENTITY_BACKEND)
    request.session[SESSION_OIDC] = {
        "id_token": signed.id_token, "refresh_token": signed.refresh_token, "subject": signed.subject,
        "renewed_at": time.time(),
    }
    return redirect(_safe_next(request, next_url))


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    """End the local session; then, for a single sign-on, the provider's (RP-initiated
    logout), which comes back to the login page."""
    record = request.session.get(SESSION_OIDC) or {}
    logout(request)
    sso = config.oidc()
    url = ""
    if sso is not None and record:
        url = oidc.end_session_url(sso, id_token=record.get("id_token", ""),
                                   post_logout_redirect_uri=request.build_absolute_uri(reverse("login")))
    if not url:
        return redirect(settings.LOGOUT_REDIRECT_URL)
    # A page that goes on to the provider, not a redirect: the sign-out form posts here, and
    # the content security policy (form-action 'self') would stop a form's redirect to another
    # origin. The page's refresh is a navigation of its own; its link does the same by hand.
    return render(request, "signin/signing_out.html", {"url": url, "sso_name": sso.name if sso else ""})
