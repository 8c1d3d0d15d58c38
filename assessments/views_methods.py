"""Pages about the methods themselves, not about a case (issue 14, item 7).

"Method validation" shows the engine's validation table (:mod:`assessments.esd.verification`,
the same rows as ``manage.py esd verify``): every figure printed in the worked examples of
the documents the engine implements, the engine's number for it, whether they match at the
printed precision and, where they do not, the document's reason. It holds no case data, so
any logged-in user may see it (LoginRequiredMiddleware sends anyone else to the login page).
The table is pure and computed once per process (:func:`verification.table`), so the page
costs a render.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from reviewer.http import AuthenticatedHttpRequest

from .esd import verification


@require_GET
def method_validation(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "assessments/method_validation.html", {
        "validation": verification.validation(),
        "digits": verification.COMPUTED_DIGITS,
        "uncomputed": verification.UNCOMPUTED_TEXT,
    })
