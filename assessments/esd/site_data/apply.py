"""Building an entry's air release and putting it into a scenario's result.

:func:`compute_with_site_data` is what :meth:`registry.Scenario.compute` calls: it
validates the scenario's inputs and the entries together, runs the scenario, then
:func:`apply_site_specific` puts each entry's release in place of the one it replaces or
after the last, keeps the replaced estimate in ``notes``, appends the steps to the trace
and records the effective entries in ``inputs["site_specific"]``.

Submitter data are not capped: when an entry's release takes the total released
(:meth:`Result.totals_by_medium`, all media) above the chemical the use puts through
(``facts.used_kg_yr``, else the ``Qchem_yr`` input), the result carries a warning with
the figures (:data:`EXCEEDS_USE`) and the numbers stay as computed.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any

from ..calc import Calc
from ..irer import irer_label, standard_sentence
from ..parameters import EngineValidationError, ParamSet
from ..results import Medium, Release, Result, Trace, release_estimate
from ..text import count, figure, given, num
from . import equations as eq
from .constants import DOC
from .entries import SITE_SPECIFIC, SiteEntry, parse_entries
from .methods import DARS_COMPOSITE, POLLUTANT_CLASSES, QA_QC, standing

NO_SUCH_RELEASE = "no release {number} in this scenario's result (releases: {numbers})"
NO_DAYS = "is required: release {number} gives no days"
EXCEEDS_USE = (
    "Release {number} ({entry}; source: {source}): the site-specific release of {release} kg/yr "
    "(all sites) brings the total released ({counted}) to {total} kg/yr, more than the {used} kg/yr of "
    "chemical used{basis}; submitter data are not capped: check the entry against the use."
)
#: What the warning's total adds: every release, site data included; where estimates depend
#: on a range, in one consistent set (``Result.one_set_released_kg_yr``), which a page's total
#: of the media (each medium from its own set) may exceed.
COUNTED = "every release"
COUNTED_IN_ONE_SET = "every release, in one consistent set"
#: Relative difference below which two totals are equal (floating-point noise: the
#: photoresist releases add up to Qchem_yr within a few ulps).
_NOISE = 1e-9


def _fig(x: float) -> str:
    """A figure of the basis and notes, as they have printed since the first release.

    :func:`assessments.esd.text.num` pads to three significant figures (0.0870 where this
    prints 0.087), so it would change printed text; whole numbers and numbers of 1,000 or
    more print the same either way. :func:`assessments.esd.text.figure`: E-notation as the
    pages print it (1.18E-8) for the smallest and largest.
    """
    return figure(x)


def _in_sentence(name: str) -> str:
    """A name inside a sentence: its first letter lower case, acronyms kept.

    >>> _in_sentence("Inorganic HAPs (acids, bases)"), _in_sentence("VOC (total)")
    ('inorganic HAPs (acids, bases)', 'VOC (total)')
    """
    if len(name) > 1 and name[1].isupper():
        return name
    return name[:1].lower() + name[1:]


def site_specific_release(entry: SiteEntry, number: int, days: float, sites: int,
                          replaced: Release | None, calc: Calc) -> tuple[Release, list[str]]:
    """The air release an entry computes, with the warnings it raises; steps go to ``calc``."""
    v, method = entry.inputs, entry.method
    pollutant = v["pollutant_class"]
    where = standing(method.family, pollutant)
    warnings: list[str] = []
    e_x = method.emission(v, calc)
    tons = calc(eq.annual_emissions, E_x=e_x, OH=v["OH"])
    per_year = calc(eq.kg_per_site_year, E_x=e_x, OH=v["OH"])
    per_day = calc(eq.kg_per_site_day, kg_site_yr=per_year, days=days)
    class_name = _in_sentence(dict(POLLUTANT_CLASSES)[pollutant])
    if where == "not listed":
        standing_text = (f"not listed for {class_name} in Table 6.3-1 (§3.2.1: a "
                         "material balance may not be appropriate where reactions are uncertain)")
        warnings.append(f"Release {number}: {standing_text}")
    else:
        standing_text = f"the {where} method for {class_name} (Table 6.3-1)"
    basis = (
        f"Site-specific: facility data ({entry.source}), EIIP Volume II Chapter 6 {method.family} "
        f"({method.equation(pollutant)}), {standing_text}. E_x = {_fig(e_x)} lb/hr × "
        f"{_fig(v['OH'])} hr/yr = {_fig(tons)} ton/yr = {_fig(per_year)} kg/site-yr over "
        f"{count(days, 'day', shown=_fig)}. Data quality: DARS composite {DARS_COMPOSITE[method.family]}; "
        f"QA/QC: {QA_QC[method.family]}."
    )
    if method.key == "saturation":
        if v["dilution_ratio"] == 1:
            basis += " Upper limit: the exhaust is assumed saturated, 'extremely conservative' (§5.3)."
        else:
            basis += f" Saturation limit divided by a dilution ratio of {given(v['dilution_ratio'])} (§3.1.4)."
    if method.controlled and v["CE"] > 0:
        basis += f" After a control device of {given(v['CE'])} % efficiency (facility data; EIIP §2.3.2)."
    if replaced is not None:
        basis += f" Replaces the ESD's estimate of release {number}."
    activity = entry.activity or (replaced.source if replaced is not None else "Air emission")
    release = Release(
        number=number,
        source=f"{activity} (site-specific data)",
        model=f"{DOC} {method.title} ({where})",
        equation=method.equation(pollutant),
        media=[Medium("air", 1.0)],
        estimates=[dataclasses.replace(release_estimate(method.label, per_day, days, sites, basis),
                                       irer_label=irer_label(method.label, method.title, (method.label,)))],
        site_specific=True,
        irer_source=f"{activity} (site-specific data)",
        standard_basis=standard_sentence(f"{DOC} {method.title}"),
    )
    return release, warnings


def _total_released(result: Result, releases: list[Release]) -> float:
    """kg/yr, all sites and media, of ``result`` with ``releases`` in place of its own, in one
    consistent set (:meth:`Result.one_set_released_kg_yr`: media totals of different sets
    may add to more, issue 26)."""
    return dataclasses.replace(result, releases=releases).one_set_released_kg_yr()


def _use(result: Result) -> tuple[float, str] | None:
    """The chemical the use puts through a year [kg/yr] and how it is named, or None."""
    used: object
    if result.facts is not None:
        used, basis = result.facts.used_kg_yr, ""
    else:
        used, basis = result.inputs.get("Qchem_yr"), " (Qchem_yr)"
    if isinstance(used, bool) or not isinstance(used, (int, float)) or not math.isfinite(used):
        return None
    return float(used), basis


def _exceeds_use(entry: SiteEntry, release: Release, before: float, after: float,
                 use: tuple[float, str] | None, one_set: bool = False) -> list[str]:
    """The warning when this entry's release raised the total above the use, else none."""
    if use is None or not math.isfinite(after):
        return []
    used, basis = use
    if after - used <= _NOISE * abs(used) or after - before <= _NOISE * abs(before):
        return []
    return [EXCEEDS_USE.format(
        number=release.number, entry=entry.name, source=entry.source,
        release=num(release.estimates[0].kg_year_all_sites), total=num(after), used=num(used),
        basis=basis, counted=COUNTED_IN_ONE_SET if one_set else COUNTED)]


def apply_site_specific(result: Result, entries: list[SiteEntry]) -> Result:
    """The scenario's result with the entries' releases put in place or appended; pure."""
    if not entries:
        return result
    by_number = {r.number: r for r in result.releases}
    errors = {
        f"{e.prefix}.replaces": NO_SUCH_RELEASE.format(
            number=e.replaces, numbers=", ".join(str(n) for n in by_number))
        for e in entries if e.replaces is not None and e.replaces not in by_number
    }
    if errors:
        raise EngineValidationError(errors)
    calc = Calc(Trace())
    warnings = list(result.warnings)
    notes = list(result.notes)
    releases = list(result.releases)
    use = _use(result)
    total = _total_released(result, releases)
    next_number = max(by_number, default=0) + 1
    for e in entries:
        replaced = by_number.get(e.replaces) if e.replaces is not None else None
        days = e.inputs["days_per_year"]
        sites = e.inputs["Nsites"]
        if replaced is not None:
            first = replaced.estimates[0] if replaced.estimates else None
            days = days if days is not None else (first.days_per_year if first else None)
            sites = sites if sites is not None else (first.sites if first else 1)
            number = replaced.number
        else:
            sites = sites if sites is not None else 1
            number = next_number
            next_number += 1
        if days is None:
            raise EngineValidationError({f"{e.prefix}.days_per_year": NO_DAYS.format(number=number)})
        release, more = site_specific_release(e, number, days, sites, replaced, calc)
        warnings.extend(more)
        if replaced is not None:
            releases[releases.index(replaced)] = release
            printed = "; ".join(f"{x.label} {_fig(x.kg_site_day)} kg/site-day" for x in replaced.estimates)
            notes.append(
                f"Release {number} ({replaced.source}): the ESD's estimate ({printed}; "
                f"{replaced.equation}) is replaced by site-specific data ({e.source}, "
                f"{e.method.equation(e.inputs['pollutant_class'])})."
            )
        else:
            releases.append(release)
            notes.append(f"Release {number}: site-specific air emission added beside the ESD's "
                         f"estimates ({e.source}).")
        before, total = total, _total_released(result, releases)
        warnings.extend(_exceeds_use(e, release, before, total, use, one_set=bool(result.case_totals())))
    inputs = dict(result.inputs)
    inputs[SITE_SPECIFIC] = [e.as_dict() for e in entries]
    return dataclasses.replace(result, inputs=inputs, releases=releases, warnings=warnings,
                               notes=notes, trace=list(result.trace) + calc.trace.steps)


def compute_with_site_data(
    params: ParamSet, run: Callable[[dict[str, Any]], Result], inputs: Any
) -> Result:
    """Validate a scenario's inputs and its ``site_specific`` entries together, run, apply.

    Every error, the scenario's and the entries', is reported at once; nothing is computed
    until all inputs are valid. Without a ``site_specific`` key this is exactly
    ``run(params.validate(inputs))``.
    """
    raw = None
    if isinstance(inputs, Mapping) and SITE_SPECIFIC in inputs:
        raw = inputs[SITE_SPECIFIC]
        inputs = {k: value for k, value in inputs.items() if k != SITE_SPECIFIC}
    errors: dict[str, str] = {}
    effective: dict[str, Any] = {}
    entries: list[SiteEntry] = []
    try:
        effective = params.validate(inputs)
    except EngineValidationError as exc:
        errors.update(exc.errors)
    try:
        entries = parse_entries(raw)
    except EngineValidationError as exc:
        errors.update(exc.errors)
    if errors:
        raise EngineValidationError(errors)
    return apply_site_specific(run(effective), entries)
