"""The case list, composed once for its page (``views.home``) and the API (``GET
/api/v1/cases``): the search form and the due-date filter read from the query, the cases the
user may see narrowed by them (``selectors.submission_search``,
``due_dates.filter_by_due``: the copy of each case's calendar on its row), and one page of
them by place (``selectors.case_page``), each row marked when its open revision has a use
computed by an older engine (``engine_marks.with_older_engine_mark``: one ``EXISTS`` in the
page's own query).

The page is forgiving (a form's errors shown beside it, a place the list did not make
answered with the newest page and a word); the API is strict (``strict=True``: bad filters
or a bad place refused by name, :class:`CaseListRefused`, before any case is read).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.http import QueryDict

from . import due_dates, selectors
from .engine_marks import with_older_engine_mark
from .forms import CaseSearchForm
from .forms.due_filter import DueFilterForm

#: Cases a page: the page's, and the API's default.
CASES_PER_PAGE = 25


class CaseListRefused(Exception):
    """The query's filters or place, refused: ``errors`` by parameter, as the forms word them."""

    def __init__(self, errors: dict[str, str]):
        super().__init__(errors)
        self.errors = errors


@dataclass(frozen=True)
class CaseList:
    search: CaseSearchForm
    due_filter: DueFilterForm
    page: selectors.CasePage
    #: Why the page is the newest although another place was asked for ("" when it is not).
    page_problem: str
    #: A search of one or two characters (case numbers that start with it: the page says so).
    short_search: bool


def case_list(*, user: User | AnonymousUser, params: QueryDict, size: int = CASES_PER_PAGE, strict: bool = False) -> CaseList:
    """The page of cases ``user`` may see that ``params`` asks for (see the module)."""
    search, due_filter = CaseSearchForm(params or None), DueFilterForm(params or None)
    if strict and params:
        errors = {name: " ".join(str(m) for m in messages)
                  for form in (search, due_filter) if not form.is_valid() for name, messages in form.errors.items()}
        if errors:
            raise CaseListRefused(errors)
    filters = search.cleaned_data if search.is_valid() else {}
    try:
        page_request, page_problem = selectors.PageRequest.from_query(params), ""
    except selectors.BadPlace as exc:
        if strict:
            raise CaseListRefused({"__all__": str(exc)}) from None
        page_request, page_problem = selectors.PageRequest(), str(exc)
    cases = selectors.submission_search(user=user, **filters)
    cases = due_dates.filter_by_due(cases.select_related("assigned_engineer"), **due_filter.filters())
    cases = with_older_engine_mark(cases)  # each row's open revision: a use computed by an older engine
    page = selectors.case_page(cases, request=page_request, size=size)
    return CaseList(search=search, due_filter=due_filter, page=page, page_problem=page_problem,
                    short_search=selectors.is_short_search(filters.get("q", "")))
