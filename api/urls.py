"""``/api/v1/``: the API (django-ninja); ``/api-tokens/``: the page of a person's tokens.

The API's operations authenticate by bearer token alone, so the login the pages require
(``LoginRequiredMiddleware``) is lifted from them, and their answers are never cached. The
OpenAPI description is given to a bearer token, as an operation is (a request that sends
``Authorization`` is refused as an operation refuses it), and to the pages' login (the
Swagger UI page reads it so); the Swagger UI page stays behind the pages' login. The
checked-in ``docs/openapi.json`` is the copy to read with neither."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponseRedirect, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import URLPattern, URLResolver, path
from django.utils.cache import add_never_cache_headers
from ninja.errors import AuthenticationError

from assessments import transfer
from assessments.esd.parameters import ALL
from assessments.transfer.errors import TOO_LARGE

from . import views
from .auth import BearerToken
from .core import api
from .errors import RateLimited
from .routes import assessments, cases, engine, reports, review
from .tokens import TokenRefused

api.add_router("", cases.router)
api.add_router("", assessments.router)
api.add_router("", review.router)
api.add_router("", reports.router)
api.add_router("", engine.router)

View = Callable[..., HttpResponseBase]

OPENAPI = "openapi-json"  # ninja's name for the description
PAGES = {OPENAPI, "openapi-view", "api-root"}  # ninja's names: the description, the docs page, the root


def _never_cached(view: View) -> View:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        add_never_cache_headers(response)
        response["Cache-Control"] = "no-store, private"
        return response

    return wrapper


IMPORT = "api-case-import"
IMPORT_SOURCE = "The request body"


def _export_sized_body(view: View) -> View:
    """The import's body is a case export, which may hold sealed PDFs: up to the import's own
    limit (``transfer.MAX_FILE_BYTES``, 20 MB), above the 2.5 MB Django allows a form
    (``DATA_UPLOAD_MAX_MEMORY_SIZE``, kept for every page). Read here to that limit; a longer
    one is refused with the import's words (413), unread."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST":
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > transfer.MAX_FILE_BYTES:
                message = TOO_LARGE.format(source=IMPORT_SOURCE, limit=transfer.MAX_FILE_BYTES // (1024 * 1024))
                return JsonResponse({"errors": {ALL: message}}, status=413)
            request._body = request.read(transfer.MAX_FILE_BYTES + 1)  # what request.body gives from now on
        return view(request, *args, **kwargs)

    return wrapper


def _token_or_login(view: View) -> View:
    """The OpenAPI description for a bearer token or the pages' login. A request that sends
    ``Authorization`` is the API's: its token is checked as every operation's is (refused
    with the one error shape, 401; counted against the token's rate limit, 429), and no
    session is read. One that sends none is the pages': without their login, it is sent to
    log in, as ``LoginRequiredMiddleware`` sends it (lifted here, or a token could not pass)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if "Authorization" in request.headers:
            try:
                if BearerToken()(request) is None:  # not "Bearer TOKEN"
                    raise AuthenticationError()
            except (AuthenticationError, TokenRefused, RateLimited) as exc:
                return api.on_exception(request, exc)
        elif not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    callback = _never_cached(wrapper)  # what a token reads is not for a shared cache
    callback.login_required = False  # type: ignore[attr-defined]  # checked above: a token or the login
    return callback


def _to_docs(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseRedirect:
    return redirect("api:openapi-view")


def _api_patterns() -> tuple[list[URLResolver | URLPattern], str, str]:
    patterns, app_name, namespace = api.urls
    for pattern in patterns:
        if not isinstance(pattern, URLPattern):
            continue
        if pattern.name == "api-root":  # ninja's root answers 404 naming the docs: send people there instead
            pattern.callback = _to_docs
        elif pattern.name == OPENAPI:
            pattern.callback = _token_or_login(pattern.callback)
        elif pattern.name not in PAGES:
            if pattern.name == IMPORT:
                pattern.callback = _export_sized_body(pattern.callback)
            callback = _never_cached(pattern.callback)
            callback.login_required = False  # type: ignore[attr-defined]  # the bearer token is the credential
            callback.csrf_exempt = True  # type: ignore[attr-defined]  # no cookie is read: nothing to forge
            pattern.callback = callback
    return patterns, app_name, namespace


urlpatterns = [
    path("api-tokens/", views.token_list, name="api-tokens"),
    path("api-tokens/revoke/", views.token_revoke, name="api-token-revoke"),
    path("api/v1/", _api_patterns()),
]
