"""Revisions and their uses: a revision with its uses and review trail; a use's inputs,
reasons and stored result (with its calculation trace). Reads recorded in the custody log
as the pages record them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse
from ninja import Router

from assessments import departures, selectors
from assessments.models import Assessment, Scenario, case_snapshot
from assessments.presentation import scenario_state
from audit.services import What

from ..auth import token_of
from ..core import record_cbi_read
from . import schemas
from .cases import ERRORS

router = Router(tags=["revisions and uses"])


def assessment_url(assessment: Assessment) -> str:
    return reverse("api:api-assessment-detail", kwargs={"assessment_id": assessment.pk})


def use_url(scenario: Scenario) -> str:
    return reverse("api:api-use-detail", kwargs={"use_id": scenario.pk})


def _name(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


@router.get("/assessments/{int:assessment_id}", url_name="api-assessment-detail",
            response={200: schemas.AssessmentDetail, **ERRORS},
            summary="One revision: status, the reviewer's choices, the case as it prints, uses, review trail")
def assessment_detail(request: HttpRequest, assessment_id: int) -> dict[str, Any]:
    """The assessment page's content. ``case``: the case as this revision prints it (an
    approved revision: as approved)."""
    assessment = selectors.assessment_get(user=token_of(request).owner, pk=assessment_id)
    record_cbi_read(request, what=What.ASSESSMENT_PAGE, assessment=assessment)
    return {
        "id": assessment.pk, "case_id": assessment.submission_id, "revision": assessment.revision,
        "status": assessment.status, "engineer": _name(assessment.engineer),
        "approved_by": _name(assessment.approved_by), "approved_at": assessment.approved_at,
        "choices": {name: getattr(assessment, name) for name in Assessment.IRER_CHOICE_FIELDS},
        "case": case_snapshot(assessment.case_data),
        "uses": [_use_summary(s) for s in assessment.scenarios.all()],
        "decisions": [{"action": d.action, "from_status": d.from_status, "to_status": d.to_status,
                       "by": _name(d.by), "at": d.at, "comment": d.comment}
                      for d in assessment.decisions.select_related("by").order_by("at", "id")],
    }


def _use_summary(scenario: Scenario) -> dict[str, Any]:
    return {"id": scenario.pk, "title": scenario.title, "scenario_key": scenario.scenario_key,
            "state": scenario_state(scenario), "url": use_url(scenario)}


@router.get("/assessments/{int:assessment_id}/uses", url_name="api-assessment-uses",
            response={200: list[schemas.UseSummary], **ERRORS}, summary="A revision's uses")
def assessment_uses(request: HttpRequest, assessment_id: int) -> list[dict[str, Any]]:
    assessment = selectors.assessment_get(user=token_of(request).owner, pk=assessment_id)
    return [_use_summary(s) for s in assessment.scenarios.all()]


@router.get("/uses/{int:use_id}", url_name="api-use-detail", response={200: schemas.UseDetail, **ERRORS},
            summary="One use: inputs, reasons and the stored result with its trace")
def use_detail(request: HttpRequest, use_id: int) -> dict[str, Any]:
    """The use's inputs (only those that differ from the defaults), the reason for each,
    and the stored result as the engine gave it (``esd compute``'s JSON: releases, exposures,
    the trace); ``state``: current, stale (inputs changed since) or uncomputed."""
    scenario = selectors.scenario_get(user=token_of(request).owner, pk=use_id)
    record_cbi_read(request, what=What.USE_RESULTS, assessment=scenario.assessment, detail=scenario.title)
    return {"id": scenario.pk, "assessment_id": scenario.assessment_id, "title": scenario.title,
            "scenario_key": scenario.scenario_key, "state": scenario_state(scenario), "inputs": scenario.inputs,
            "reasons": scenario.reasons, "computed_inputs": scenario.computed_inputs,
            "computed_at": scenario.computed_at, "result": scenario.result}


@router.get("/uses/{int:use_id}/departures", url_name="api-use-departures",
            response={200: schemas.UseDepartures, **ERRORS},
            summary="One use's defaults against the case: each departure from a default and what it alone moves")
def use_departures(request: HttpRequest, use_id: int) -> dict[str, Any]:
    """The results page's "Defaults against the case" (``assessments.departures``): each input
    the use was computed with that departs from the document's default (its default, value,
    source and reason), the outputs it alone moves (with the defaults alone, with it alone,
    the relative change and the review threshold crossed), and every output with the
    defaults alone, with all departures and with each alone (``rows``). Against the case as
    the revision prints it; an uncomputed use has ``computed`` false and nothing listed."""
    scenario = selectors.scenario_get(user=token_of(request).owner, pk=use_id)
    record_cbi_read(request, what=What.USE_RESULTS, assessment=scenario.assessment, detail=scenario.title)
    found = departures.use_departures(scenario, case=scenario.assessment.case_data)
    return {"id": scenario.pk, "assessment_id": scenario.assessment_id, **found.as_dict()}
