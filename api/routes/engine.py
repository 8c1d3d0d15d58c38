"""The engine over HTTP: ``esd list``, ``esd defaults``, ``esd compute`` and ``esd
sensitivity`` (shared spec INTERFACE.md): the same JSON in, the same JSON out, the same
errors (``{"errors": {SYMBOL or "__all__": message}}``, 400 where the command exits 2).
Stateless: nothing is stored, no case is read. The reading of the inputs and the JSON
words of the errors are the command's own (``assessments.esd.contract``); only the name of
where the JSON came from differs ("the request body", not "standard input")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Router

from assessments.esd import contract, registry
from assessments.esd.parameters import ALL, EngineValidationError

from ..core import acting, json
from . import schemas

router = Router(tags=["engine"])
SOURCE = "the request body"
ENGINE_ERRORS = {400: schemas.Errors, 401: schemas.Errors, 429: schemas.Errors}
INPUTS_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "additionalProperties": True,
    "description": "{SYMBOL: value}: every symbol left out takes its default (esd defaults KEY)"}}}}}


def read_inputs(request: HttpRequest) -> dict[str, Any]:
    """The command's reading of the JSON inputs, from the request body."""
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EngineValidationError({ALL: contract.UNREADABLE.format(source=SOURCE, reason=exc)}) from None
    return contract.parse_inputs(text, source=SOURCE)


def _guarded(produce: Callable[[], object]) -> HttpResponse:
    """As the command: any failure of the engine is an error in the one shape, never a 500."""
    try:
        return json(produce())
    except EngineValidationError:
        raise
    except Exception as exc:
        raise EngineValidationError({ALL: contract.INTERNAL.format(kind=type(exc).__name__, reason=exc)}) from exc


# A bare dict: the checked-in OpenAPI description has a plain object (dict[str, Any] adds
# additionalProperties).
@router.get("/scenarios", url_name="api-scenarios", response={200: list[dict], **ENGINE_ERRORS},  # type: ignore[type-arg]
            summary="esd list: the scenarios")
def scenario_list(request: HttpRequest) -> list[dict[str, Any]]:
    return [{"key": s.key, "title": s.title, "source": s.source} for s in registry.scenarios()]


@router.get("/scenarios/{scenario_key}/defaults", url_name="api-scenario-defaults",
            response={200: dict, **ENGINE_ERRORS},
            summary="esd defaults KEY: every input with its default, units, range and source")
def scenario_defaults(request: HttpRequest, scenario_key: str) -> HttpResponse:
    return json(contract.defaults_payload(registry.get(scenario_key)))


@router.post("/scenarios/{scenario_key}/compute", url_name="api-compute", response={200: dict, **ENGINE_ERRORS},
             openapi_extra=INPUTS_BODY, summary="esd compute KEY: JSON inputs in, the result out")
def compute(request: HttpRequest, scenario_key: str) -> HttpResponse:
    """Stateless: an ``Idempotency-Key`` is accepted, not needed."""

    def act() -> HttpResponse:
        scenario = registry.get(scenario_key)
        inputs = read_inputs(request)

        def produce() -> dict[str, Any]:
            try:
                return scenario.compute(inputs).as_dict()
            except EngineValidationError as exc:
                raise EngineValidationError(contract.json_words(scenario, exc.errors)) from exc

        return _guarded(produce)

    return acting(request, act, required=False)


@router.post("/scenarios/{scenario_key}/sensitivity", url_name="api-sensitivity",
             response={200: dict, **ENGINE_ERRORS}, openapi_extra=INPUTS_BODY,
             summary='esd sensitivity KEY: compute\'s inputs (+ "samples", "seed"), what drives each output')
def sensitivity(request: HttpRequest, scenario_key: str) -> HttpResponse:
    """``assessments.esd.sensitivity.analyse`` through the command's ``sensitivity_payload``.
    Stateless: an ``Idempotency-Key`` is accepted, not needed."""

    def act() -> HttpResponse:
        scenario = registry.get(scenario_key)
        inputs = read_inputs(request)
        return _guarded(lambda: contract.sensitivity_payload(scenario, inputs))

    return acting(request, act, required=False)
