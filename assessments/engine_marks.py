"""Uses computed by an older engine (issue 42, "After a change lands"): the rule, declared
once, that the pages, the lists and the recompute service read.

Every stored result carries the version of the engine that computed it
(``Scenario.result["engine_version"]``); this installation runs
:data:`~assessments.esd.results.ENGINE_VERSION`. A use is **computed by an older engine**
when its assessment is open (draft, submitted or returned: :data:`OPEN_STATUSES`) and its
stored result's version is not the installed one; a result that carries no version counts
as older. (A version newer than the installed one, after a release was rolled back, is
marked the same way: the marker says which engine made the figures and which runs now.) An
approved revision is never marked: its results are final, never recomputed.

**Older and not current are two facts, and both can hold.** Not current (``STALE``,
``presentation.scenario_state``) says the use's *inputs* changed since its result was
computed; computed by an older engine says the *engine* changed since. A page shows each
marker it holds. Recompute (``services.scenario_recompute``) takes the installed engine
over the inputs the stored result was computed from (``Scenario.computed_inputs``), so the
difference it shows is the engine's alone, never mixed with the reviewer's edits; a use that
was not current stays not current until computed again from its present inputs (the
wizard's Compute, which also stamps the installed engine's version).

Who sees what (``assessments/templatetags/older_engine.py``): everyone who may see the case
sees the marker and may open the difference (the recompute page). Only the assessment's
engineer, while it is a draft or returned (``permissions.can_edit_assessment``), may accept
it. A submitted revision is frozen for everyone: its engineer withdraws it (a draft again)
to recompute, or a supervisor returns it; the supervisor may approve it as it is only where
the installed engine computes the same result (``workflow`` refuses an approval otherwise).

The lists mark a case whose open revision has such a use with one ``EXISTS`` over the
page's rows (:func:`with_older_engine_mark`), never a query per row.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.db.models.lookups import Exact

from .esd.results import ENGINE_VERSION
from .models import Assessment, Scenario, Status, Submission

#: The statuses whose uses may be recomputed (by their engineer) or handed back to be: the open ones.
OPEN_STATUSES = (Status.DRAFT, Status.SUBMITTED, Status.RETURNED)
#: The annotation the lists read on each case row (:func:`with_older_engine_mark`).
MARK = "older_engine"

COMPUTED_BY = "Computed by engine {version}; this installation runs {installed}"
NO_VERSION = "Computed by an engine that recorded no version; this installation runs {installed}"


@dataclass(frozen=True)
class OlderEngine:
    """A use's stored result computed by another engine than the installed one."""

    version: str  # the engine that computed the stored result ("" when the result names none)
    installed: str = ENGINE_VERSION

    @property
    def text(self) -> str:
        """``Computed by engine 1.1.0; this installation runs 1.2.0``."""
        if not self.version:
            return NO_VERSION.format(installed=self.installed)
        return COMPUTED_BY.format(version=self.version, installed=self.installed)

    @property
    def version_text(self) -> str:
        """The stored result's engine as a sentence names it: ``engine 1.1.0``, or ``an engine
        that recorded no version``."""
        return f"engine {self.version}" if self.version else "an engine that recorded no version"


def stored_engine_version(result: Any) -> str:
    """The engine version a stored result names ("" when it names none)."""
    version = result.get("engine_version") if isinstance(result, dict) else None
    return version if isinstance(version, str) else ""


def older_engine(scenario: Scenario, *, assessment: Assessment | None = None) -> OlderEngine | None:
    """The engine that computed ``scenario``'s stored result, when its assessment is open and
    that is not the installed engine; None otherwise (no result, approved, or the installed
    engine's). ``assessment``: the scenario's, when the caller holds it (no query)."""
    assessment = assessment or scenario.assessment
    if scenario.result is None or assessment.status not in OPEN_STATUSES:
        return None
    version = stored_engine_version(scenario.result)
    return None if version == ENGINE_VERSION else OlderEngine(version)


def computed_by_older_engine() -> Q:
    """The condition on a use whose stored result is not the installed engine's, in the
    database: the JSON key ``result__engine_version`` holds another version, or nothing (the
    key missing, or null), as :func:`older_engine` reads it. Its assessment's status is the
    caller's."""
    return Q(result__isnull=False) & (~Q(result__engine_version=ENGINE_VERSION)
                                      | Q(result__engine_version__isnull=True))


def open_uses_by_older_engine() -> Exists:
    """``EXISTS`` a use in effect of the open revision of the case in the outer query
    computed by an older engine. A case's open revision is its latest (only an approved
    revision is copied into a new one: ``workflow.assessment_revise``), read from the case's
    own copy of it (``Submission.latest_status``, ``latest_revision``): the revision through
    the index on (case, revision), its uses through theirs.

    The condition on the outer row alone (its latest revision is not approved) is a one-time
    filter of each row's ``EXISTS``: an approved case, most of a team's, reads no use at all.
    It also keeps PostgreSQL from planning the ``EXISTS`` as a hashed subplan, which would read
    every stored result of every case to build its hash before the page's first row (a
    condition on the outer row alone cannot be hashed), as it would for a list it expects
    thousands of rows of (``tests/performance/test_older_engine_plans.py``: at 60,000 cases, a
    page's marks cost 0.3 ms so, 230 ms hashed)."""
    uses = Scenario.objects.filter(computed_by_older_engine(), assessment__submission=OuterRef("pk"),
                                   assessment__revision=OuterRef("latest_revision"))
    return Exists(uses.exclude(Exact(OuterRef("latest_status"), Value(Status.APPROVED))))


def with_older_engine_mark(cases: QuerySet[Submission]) -> QuerySet[Submission]:
    """``cases``, each row with :data:`MARK` (true when its open revision has a use computed
    by an older engine): one ``EXISTS`` in the rows' own query, evaluated for the rows read
    (a page), so no query more and none per row. A queryset marked already is returned as it is."""
    if MARK in cases.query.annotations:
        return cases
    return cases.annotate(**{MARK: open_uses_by_older_engine()})


def use_fingerprint(scenario: Scenario) -> str:
    """What a recompute's preview was made from (the use's present inputs, the inputs its
    stored result was computed from, and that result), as a short digest: the preview posts
    it back with Accept, and the service refuses when the use has changed since."""
    stated = json.dumps([scenario.inputs, scenario.computed_inputs, scenario.result], sort_keys=True, default=str)
    return hashlib.sha256(stated.encode()).hexdigest()[:32]
