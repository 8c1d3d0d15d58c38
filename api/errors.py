"""The API's one error shape, ``{"errors": {FIELD or "__all__": "message"}}``: the shape of
``esd compute``'s errors (shared spec INTERFACE.md), for every refusal of every endpoint.

The messages are the application's own: the engine's ``EngineValidationError`` (in their
JSON words, as ``esd compute`` gives them), the services' ``ValidationError`` and
``PermissionDenied`` (their module constants), the selectors' 404. Only a request the API's
own schema refuses (a missing field, a number where text belongs) gets pydantic's words,
keyed by the field's name."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as SchemaError

from assessments.esd.parameters import ALL, EngineValidationError

from .idempotency import KeyProblem
from .tokens import NO_TOKEN, TokenRefused

if TYPE_CHECKING:
    from ninja import NinjaAPI

E = TypeVar("E", bound=Exception)

NOT_FOUND = "Not found (or not yours to see)."
SCHEMA_FIELD_SOURCES = {"body", "query", "path", "header", "form", "cookie", "file"}


class RateLimited(Exception):
    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def error_response(errors: dict[str, Any], status: int) -> JsonResponse:
    return JsonResponse({"errors": {key: str(value) for key, value in errors.items()}}, status=status)


def django_errors(exc: DjangoValidationError) -> dict[str, str]:
    if hasattr(exc, "error_dict"):
        return {(ALL if name == "__all__" or name is None else name): " ".join(messages)
                for name, messages in exc.message_dict.items()}
    return {ALL: " ".join(exc.messages)}


def _schema_field(loc: Iterable[object]) -> str:
    names = [str(part) for part in loc if not isinstance(part, int) and str(part) not in SCHEMA_FIELD_SOURCES]
    # ninja nests a body schema under the argument's name: the field is the last name.
    return names[-1] if names else ALL


def schema_errors(exc: SchemaError) -> dict[str, str]:
    errors: dict[str, str] = {}
    for error in exc.errors:
        field = _schema_field(error.get("loc", ()))
        errors[field] = " ".join(filter(None, [errors.get(field), str(error.get("msg", "is not valid"))]))
    return errors


def _handle(api: NinjaAPI, exc_class: type[E], handler: Callable[[HttpRequest, E], HttpResponse]) -> None:
    """Register ``handler``, typed as it is called: with the exception."""
    # ninja annotates a handler as taking the exception or its class.
    api.add_exception_handler(exc_class, handler)  # type: ignore[arg-type]


def install(api: NinjaAPI) -> None:
    """The handlers that give every refusal the one shape."""

    def unauthorised(request: HttpRequest, exc: Exception) -> HttpResponse:
        response = error_response({ALL: str(exc) if isinstance(exc, TokenRefused) else NO_TOKEN}, 401)
        response["WWW-Authenticate"] = 'Bearer realm="api"'
        return response

    def rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
        response = error_response({ALL: str(exc)}, 429)
        response["Retry-After"] = str(exc.retry_after)
        return response

    _handle(api, AuthenticationError, unauthorised)
    _handle(api, TokenRefused, unauthorised)
    _handle(api, RateLimited, rate_limited)
    _handle(api, Http404, lambda request, exc: error_response({ALL: str(exc) or NOT_FOUND}, 404))
    _handle(api, PermissionDenied, lambda request, exc: error_response({ALL: str(exc)}, 403))
    _handle(api, DjangoValidationError, lambda request, exc: error_response(django_errors(exc), 400))
    _handle(api, EngineValidationError, lambda request, exc: error_response(dict(exc.errors), 400))
    _handle(api, SchemaError, lambda request, exc: error_response(schema_errors(exc), 400))
    _handle(api, KeyProblem, lambda request, exc: error_response({"Idempotency-Key": str(exc)}, exc.status))
    _handle(api, HttpError, lambda request, exc: error_response({ALL: str(exc)}, exc.status_code))
