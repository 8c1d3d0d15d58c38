"""Recompute a use computed by an older engine: the difference the installed engine makes,
shown before the reviewer accepts it (issue 42, "After a change lands"), and who may accept.

The rule of what is older, and how it stands beside "not current", is
``assessments/engine_marks.py``'s. Here:

- :func:`fresh_result`: the installed engine over the inputs the stored result was computed
  from (``Scenario.computed_inputs``), as the JSON field stores a result; the one computation
  the preview shows and the service (``services.scenario_recompute``) stores, each making it
  on the server (the form posts no figure);
- :func:`recompute_preview`: every output that moves, stored and installed side by side
  (:func:`assessments.impact.compare`: old → new, relative change, the review threshold
  crossed: a rank changed, the case's TLV/PEL crossed), or none (:data:`NO_FIGURE_CHANGES`);
- :func:`recompute_refusal`: why ``user`` may not accept (``""``: they may), the words the
  page shows in place of Accept and the service refuses with. An approved revision is never
  recomputed (its page is refused). A submitted one is frozen: its engineer withdraws it, or a
  supervisor returns it (the workflow refuses an approval where a stored result is not what
  the installed engine computes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

from . import permissions
from .engine_marks import OlderEngine, older_engine, use_fingerprint
from .engine_results import NOT_COMPARED, result_difference, short
from .esd import registry
from .esd.parameters import ALL, EngineValidationError
from .esd.results import ENGINE_VERSION
from .esd.sensitivity import EXPOSURE_QUANTITIES, RELEASE_QUANTITIES
from .exposure_limits import case_limit
from .impact import Move, compare
from .models import Assessment, Scenario, Status
from .numbers import signed_percent, significant
from .presentation import STALE, scenario_state

RECOMPUTE_APPROVED = (
    "This revision is approved: its results are final and are never recomputed. "
    "Start a new revision to take the installed engine's figures."
)
RECOMPUTE_SUBMITTED_WITHDRAW = (
    "This revision is submitted, so nothing in it changes: withdraw it (it is a draft again) "
    "to recompute this use, then submit it again."
)
RECOMPUTE_SUBMITTED_RETURN = (
    "This revision is submitted: only its engineer can recompute this use. Return it to them to do so; "
    "an approval is refused while a stored result is not what the installed engine computes."
)
RECOMPUTE_SUBMITTED = (
    "This revision is submitted: its engineer withdraws it, or a supervisor returns it, to recompute this use."
)
RECOMPUTE_NOT_ENGINEER = "Only the assessment's engineer can recompute its uses, while it is a draft or returned."
RECOMPUTE_NOT_OLDER = "“{title}” was computed by the installed engine ({installed}): there is nothing to recompute."
RECOMPUTE_CHANGED = (
    "“{title}” changed since its difference was shown (its inputs or its stored result): "
    "look at the difference again before accepting it."
)
RECOMPUTE_REFUSED = (
    "The installed engine refuses the inputs “{title}” was computed from: {errors}. "
    "Edit them in the wizard and compute the use again."
)
#: The history's reason for a recompute (``services.scenario_recompute``): both engines named
#: (:func:`recompute_reason`: at most :data:`REASON_LIMIT` characters, the history's column).
RECOMPUTE_REASON = "Recomputed by engine {installed} (was {was}), inputs unchanged."
REASON_LIMIT = 100
RECOMPUTED = "“{title}” recomputed by engine {installed}: the installed engine's figures are stored."

NO_FIGURE_CHANGES = "No figure changes: every release and exposure figure is the same with engine {installed}."
ONLY_THE_LABEL = "Only the engine version label differs."
REST_DIFFERS = ("The rest of the stored result differs (its notes, warnings, words or calculation trace): "
                "accepting stores the installed engine's.")


def recompute_refusal(user: User | AnonymousUser, assessment: Assessment) -> str:
    """Why ``user`` may not recompute a use of ``assessment`` (``""``: they may): the
    assessment's engineer, while it is a draft or returned (``permissions.can_edit_assessment``)."""
    if assessment.status == Status.APPROVED:
        return RECOMPUTE_APPROVED
    if assessment.status == Status.SUBMITTED:
        if permissions.can_withdraw(user, assessment):
            return RECOMPUTE_SUBMITTED_WITHDRAW
        if permissions.can_review(user, assessment):
            return RECOMPUTE_SUBMITTED_RETURN
        return RECOMPUTE_SUBMITTED
    if not permissions.can_edit_assessment(user, assessment):
        return RECOMPUTE_NOT_ENGINEER
    return ""


def recompute_reason(older: OlderEngine) -> str:
    """The history's reason for recomputing a use ``older`` computed: ``Recomputed by engine
    1.2.0 (was engine 1.1.0), inputs unchanged.`` (a stored version label too long for the
    history's column shortened)."""
    return short(RECOMPUTE_REASON.format(installed=older.installed, was=older.version_text), REASON_LIMIT)


def fresh_result(scenario: Scenario) -> dict[str, Any]:
    """The installed engine's result over the inputs ``scenario``'s stored result was computed
    from, as the JSON field stores it; raises ``EngineValidationError`` when the engine now
    refuses them."""
    inputs = scenario.computed_inputs if isinstance(scenario.computed_inputs, dict) else {}
    result: dict[str, Any] = json.loads(json.dumps(registry.compute(scenario.scenario_key, inputs).as_dict()))
    return result


def refused_text(errors: Mapping[str, str]) -> str:
    """The engine's errors in one line: ``SYMBOL: message; ...`` (a message on every input: alone)."""
    return "; ".join(message if symbol == ALL else f"{symbol}: {message}" for symbol, message in errors.items())


# The preview --------------------------------------------------------------------------------

#: Each output's quantity in words, as ``esd sensitivity`` names it (``kg/yr, all sites``).
QUANTITY_WORDS = {quantity: words for quantity, _, words in RELEASE_QUANTITIES + EXPOSURE_QUANTITIES}
#: The most significant figures a stored and a new figure are shown with, to tell them apart.
MOST_DIGITS = 6


@dataclass(frozen=True)
class MoveRow:
    """One output that moves, as the preview's table shows it."""

    output: str  # "Release 3: Container residue", "Exposure A: Unloading (inhalation)"
    estimate: str  # its characterisation, "high end" (or "high end → conservative" where it changes)
    quantity: str  # "kg/yr, all sites"
    old: str
    new: str
    relative: str  # "+12.5 %", or "—"
    threshold: str  # "rank changed", "now above the TLV/PEL ...", or ""


@dataclass(frozen=True)
class RecomputePreview:
    older: OlderEngine | None  # None: the installed engine computed the stored result
    moves: list[MoveRow]
    refused: str  # the engine's refusal of the inputs ("" when it computes them)
    rest_differs: bool  # beyond the figures, the result differs (notes, words, trace)
    not_current: bool  # the use's inputs changed since it was computed, too
    fingerprint: str  # what Accept posts back (engine_marks.use_fingerprint)
    refusal: str  # why this user may not accept ("" when they may)
    installed: str = ENGINE_VERSION

    @property
    def can_accept(self) -> bool:
        return not (self.refusal or self.refused)

    @property
    def no_figure_changes(self) -> str:
        return NO_FIGURE_CHANGES.format(installed=self.installed)

    @property
    def rest_text(self) -> str:
        return REST_DIFFERS if self.rest_differs else ONLY_THE_LABEL


def recompute_preview(*, scenario: Scenario, user: User | AnonymousUser) -> RecomputePreview:
    """What recomputing ``scenario`` with the installed engine changes, for ``user``'s page.
    ``PermissionDenied`` for an approved revision: it is never recomputed."""
    assessment = scenario.assessment
    if assessment.status == Status.APPROVED:
        raise PermissionDenied(RECOMPUTE_APPROVED)
    older = older_engine(scenario, assessment=assessment)
    preview = RecomputePreview(older=older, moves=[], refused="", rest_differs=False,
                               not_current=scenario_state(scenario) == STALE, fingerprint=use_fingerprint(scenario),
                               refusal=recompute_refusal(user, assessment))
    if older is None:
        return preview
    try:
        fresh = fresh_result(scenario)
    except EngineValidationError as exc:
        return replace(preview, refused=refused_text(exc.errors))
    case = assessment.case_data
    moves = compare(scenario.result, fresh, use=scenario.position, limit=case_limit(case),
                    molecular_weight=case.molecular_weight)
    return replace(preview, moves=move_rows(moves, old_result=scenario.result, new_result=fresh),
                   rest_differs=_rest_differs(scenario.result, fresh))


def _rest_differs(stored: Any, fresh: Mapping[str, Any]) -> bool:
    """Whether the results differ beyond their engine version labels."""
    def without_label(result: Any) -> Any:
        return {k: v for k, v in result.items() if k not in NOT_COMPARED} if isinstance(result, dict) else result
    return bool(result_difference(without_label(stored), without_label(dict(fresh)), "result"))


def move_rows(moves: list[Move], *, old_result: Any, new_result: Mapping[str, Any]) -> list[MoveRow]:
    """``impact.compare``'s moves as the preview's rows: each output named as the results
    page names it, each figure with as many significant figures (3 to :data:`MOST_DIGITS`)
    as tell the stored one from the new one."""
    names = {**output_names(old_result), **output_names(new_result)}
    rows = []
    for move in moves:
        estimate = move.estimate
        if move.new_estimate not in (None, move.estimate):
            estimate = f"{move.estimate} → {move.new_estimate}"
        old, new = _figures(move.old, move.new)
        rows.append(MoveRow(
            output=names.get(move.id) or output_words(move.id, move.route), estimate=estimate,
            quantity=QUANTITY_WORDS.get(move.quantity, move.quantity), old=old, new=new,
            relative=signed_percent(move.relative),
            threshold=move.threshold or "",
        ))
    return rows


def _figures(old: float | None, new: float | None) -> tuple[str, str]:
    digits = 3
    while digits < MOST_DIGITS and old is not None and new is not None and significant(old, digits) == significant(
            new, digits):
        digits += 1
    return significant(old, digits), significant(new, digits)


def output_words(ident: str, route: str | None) -> str:
    """An output's name where its result is not at hand (the stored moves of a measure):
    ``release-1`` → ``Release 1``; ``exposure-A`` with its route → ``Exposure A (inhalation)``.

    >>> output_words("release-2", None), output_words("exposure-B", "dermal")
    ('Release 2', 'Exposure B (dermal)')
    """
    kind, _, name = ident.partition("-")
    words = f"{kind.capitalize()} {name}"
    return f"{words} ({route})" if route else words


def output_names(result: Any) -> dict[str, str]:
    """Each release and exposure of a stored result by ``impact.compare``'s id
    (``release-3``, ``exposure-A``) as the pages name it: ``Release 3: Container residue``,
    ``Exposure A: Unloading (inhalation)``."""
    if not isinstance(result, Mapping):
        return {}
    names: dict[str, str] = {}
    for release in result.get("releases") or []:
        if isinstance(release, Mapping):
            names.setdefault(f"release-{release.get('number')}",
                             f"Release {release.get('number')}: {release.get('source', '')}".rstrip(": "))
    for exposure in result.get("exposures") or []:
        if isinstance(exposure, Mapping):
            words = f"Exposure {exposure.get('letter')}: {exposure.get('activity', '')}".rstrip(": ")
            route = exposure.get("route")
            names.setdefault(f"exposure-{exposure.get('letter')}", f"{words} ({route})" if route else words)
    return names
