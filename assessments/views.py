"""Thin views: parse the request, call one selector or service, render or redirect."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render

from . import selectors

CASES_PER_PAGE = 25


def home(request):
    """The cases the user may see, newest first, with status and engineer."""
    cases = selectors.submission_list_for_user(user=request.user)
    page = Paginator(cases, CASES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "assessments/home.html", {"page": page})


def submission_detail(request, pk: int):
    submission = selectors.submission_get(user=request.user, pk=pk)
    assessments = submission.assessments.select_related("engineer").order_by("-revision")
    return render(
        request,
        "assessments/submission_detail.html",
        {
            "submission": submission,
            "header_groups": selectors.submission_header_groups(submission=submission),
            "assessments": assessments,
        },
    )
