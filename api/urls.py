"""``/api/v1/``: the API (django-ninja); ``/api-tokens/``: the page of a person's tokens.

The API's operations authenticate by bearer token alone, so the login the pages require
(``LoginRequiredMiddleware``) is lifted from them, and their answers are never cached;
the OpenAPI description and the Swagger UI page stay behind the pages' login (the
checked-in ``docs/openapi.json`` is the copy to read without one)."""

from __future__ import annotations

from functools import wraps

from django.shortcuts import redirect
from django.urls import path
from django.utils.cache import add_never_cache_headers

from . import views
from .core import api
from .routes import assessments, cases, engine, reports, review

api.add_router("", cases.router)
api.add_router("", assessments.router)
api.add_router("", review.router)
api.add_router("", reports.router)
api.add_router("", engine.router)

PAGES = {"openapi-json", "openapi-view", "api-root"}  # ninja's names: the description, the docs page, the root


def _never_cached(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        add_never_cache_headers(response)
        response["Cache-Control"] = "no-store, private"
        return response

    return wrapper


def _to_docs(request, *args, **kwargs):
    return redirect("api:openapi-view")


def _api_patterns():
    patterns, app_name, namespace = api.urls
    for pattern in patterns:
        if pattern.name == "api-root":  # ninja's root answers 404 naming the docs: send people there instead
            pattern.callback = _to_docs
        elif pattern.name not in PAGES:
            pattern.callback = _never_cached(pattern.callback)
            pattern.callback.login_required = False  # the bearer token is the credential
            pattern.callback.csrf_exempt = True  # no cookie is read: nothing to forge
    return patterns, app_name, namespace


urlpatterns = [
    path("api-tokens/", views.token_list, name="api-tokens"),
    path("api-tokens/revoke/", views.token_revoke, name="api-token-revoke"),
    path("api/v1/", _api_patterns()),
]
