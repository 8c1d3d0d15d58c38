"""The API object (django-ninja): bearer-token auth on every operation, the one error shape,
the Swagger UI page from this application's own static files, and the helpers the
endpoints share (a POST's ``Idempotency-Key``, the custody log's rows for API reads)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from ninja import NinjaAPI
from ninja.openapi.docs import DocsBase

from assessments.models import Assessment, Submission
from audit.services import cbi_access_record

from . import errors, idempotency
from .auth import BearerToken, token_of

DESCRIPTION = """The PMN engineering review application's API: the same selectors, services,
permissions and CBI rules as the pages. Authenticate with `Authorization: Bearer TOKEN` (make
a token on the API tokens page, or `manage.py api_token`). Every error is
`{"errors": {"FIELD or __all__": "message"}}`. Every POST that changes something needs an
`Idempotency-Key` header. See docs/api.md."""

#: What a custody row of an API read says besides the page it stands for.
CUSTODY_DETAIL = "API (token “{name}”)"


class LocalSwagger(DocsBase):
    """Swagger UI from django-ninja's own assets, served by this application (no CDN), in the
    application's page, its settings in data attributes (no inline script: the CSP)."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        return render(request, "api/docs.html", {"openapi_url": self.get_openapi_url(api, kwargs),
                                                 "tokens_url": reverse("api-tokens")})


api = NinjaAPI(
    title="PMN engineering review API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    auth=BearerToken(),
    docs=LocalSwagger(),
    docs_url="/docs",
    openapi_url="/openapi.json",
)
errors.install(api)


def respond(request: HttpRequest, act: Callable[[], HttpResponse]) -> HttpResponse:
    """``act()``'s response, or the one error shape for its refusal (so it can be stored)."""
    try:
        return act()
    except Exception as exc:  # the API's handlers answer each refusal; anything else re-raises
        return api.on_exception(request, exc)


def acting(request: HttpRequest, act: Callable[[], HttpResponse], *, required: bool = True) -> HttpResponse:
    """A POST's answer through its ``Idempotency-Key`` (:mod:`.idempotency`): ``act`` runs once
    a key; a retry gets the stored answer. ``required``: a POST that changes something."""
    return idempotency.once(request, token_of(request), lambda: respond(request, act), required=required)


def json(data: Any, status: int = 200, **headers: str) -> JsonResponse:
    response = JsonResponse(data, status=status, safe=False, json_dumps_params={"allow_nan": False})
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def record_cbi_read(request: HttpRequest, *, what: str, submission: Submission | None = None,
                    assessment: Assessment | None = None, sanitised: bool = False,
                    detail: str = "") -> None:
    """The custody row of an API read of a CBI case's full data, as the page it stands for
    writes it (``audit.services.cbi_access_record`` decides whether one is written), naming
    the token."""
    token = token_of(request)
    note = CUSTODY_DETAIL.format(name=token.name) + (f": {detail}" if detail else "")
    cbi_access_record(what=what, request=request, user=token.owner, submission=submission, assessment=assessment,
                      sanitised=sanitised, detail=note)
